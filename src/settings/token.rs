//! The token: where a command's comes from (`--token-file`, standard input, the environment, the
//! config file, in that order), how a file holding one is read (a regular file or a pipe the
//! shell hands over; what else a path names is refused by its type, unopened), and every token a
//! run may use, found early so none is ever printed.

use std::io::Read;
use std::path::Path;

use crate::cli::ClientOptions;
use crate::file_kind::{anonymous_pipe, not_regular, NotRegular};
use crate::outcome::Failure;
use crate::secret::{Secret, TokenProblem};

use super::profile::Layered;
use super::{env_text, ConfigRead, Environment, Source, ENV_TOKEN};

/// A token file holds one token; a bigger file is a mistake (a binary, a log).
const MAX_TOKEN_FILE_BYTES: u64 = 64 * 1024;

/// The hint for a `--token-file` that is none of what it reads.
const WHAT_TOKEN_FILE_READS: &str = "check the path given to --token-file: it reads a regular \
     file, standard input with -, or (on Linux) a pipe such as <(...)";

pub(super) fn resolve_token(
    args: &ClientOptions,
    env: &Environment,
    config: &Layered,
    stdin: &mut dyn Read,
) -> Result<Option<(Secret, Source)>, Failure> {
    let (raw, source) = if let Some(path) = &args.token_file {
        if path.as_os_str() == "-" {
            (read_token_text(stdin, "standard input")?, Source::Stdin)
        } else {
            read_token_file(path)?
        }
    } else if let Some(token) = &env.token {
        env_text(ENV_TOKEN, token, "a token is plain ASCII text")?
    } else if let Some((token, source)) = config.get(|config| config.token.clone()) {
        (token.expose().to_string(), source)
    } else {
        return Ok(None);
    };
    // A file's token is trimmed (a final newline is what editors and `echo` write). The
    // variable's is taken as it is: a `--curl` line hands it to curl as it is, where stray
    // whitespace would make the launcher refuse what safe-ad accepted, and there it is a paste
    // error more likely than a habit.
    let parsed = match source {
        Source::Env(_) => Secret::parse_exact(&raw),
        _ => Secret::parse(&raw),
    };
    let token = parsed.map_err(|problem| {
        Failure::usage(format!("{} (from {source})", problem.describe()))
            .with_hint(token_hint(problem))
    })?;
    Ok(Some((token, source)))
}

/// What to do about a token refused for `problem`.
fn token_hint(problem: TokenProblem) -> String {
    match problem {
        TokenProblem::SurroundingWhitespace => format!(
            "set {ENV_TOKEN} to the token alone: --curl lines and other tools send the variable \
             as it is (a token file may end in a newline)"
        ),
        _ => "a token is one line of printable ASCII text with no spaces; check what was pasted"
            .into(),
    }
}

/// Every token this run may use, found without failing and without reading what can be read
/// only once (standard input, a pipe): the environment's, a regular `--token-file`'s, the config
/// file's. Only to keep them out of what is printed, from the first word on, before the
/// arguments are checked (a token pasted into one is not echoed back).
pub fn known_tokens(
    token_file: Option<&Path>,
    env: &Environment,
    read: &ConfigRead,
) -> Vec<Secret> {
    let mut found = Vec::new();
    if let Some(token) = env.token.as_ref().and_then(|token| token.to_str()) {
        found.extend(Secret::parse(token).ok());
    }
    found.extend(token_file.and_then(token_in_regular_file));
    if let Some(Ok(config)) = &read.file {
        // Every profile's too: another profile's token is as secret as the one in use.
        found.extend(
            config
                .tokens()
                .filter_map(|token| Secret::parse(token.expose()).ok()),
        );
    }
    found
}

/// The token in `--token-file PATH` when PATH is a regular file (not `-`, a pipe or a device,
/// which can be read only once), found without failing: for [`known_tokens`], and for a
/// `--token-file` of a command's own level that names another file.
pub fn token_in_regular_file(path: &Path) -> Option<Secret> {
    let regular = std::fs::metadata(path).is_ok_and(|metadata| not_regular(&metadata).is_none());
    if path == Path::new("-") || !regular {
        return None;
    }
    let text = read_token_text(std::fs::File::open(path).ok()?, "").ok()?;
    Secret::parse(&text).ok()
}

/// Whether `path` can be read again for each command of a `shell`: not `-` nor a pipe (`<(...)`),
/// which give the token once and then hold nothing.
pub fn token_file_rereadable(path: &Path) -> bool {
    // A path that cannot be looked at is not refused here: each line says what is wrong with
    // it, as the command line does.
    path != Path::new("-")
        && std::fs::metadata(path).map_or(true, |metadata| not_regular(&metadata).is_none())
}

/// The token in a file, and the file as a source: a regular file can be read again later
/// (by a `--curl` line), a pipe cannot. Anything else is refused by its type before it is
/// opened: a FIFO with a name would wait for a writer, a device or a socket holds no token.
/// The pipe read is the one without a name that the shell hands over (`<(...)`, `/dev/stdin` on
/// a pipe), which is never waited on to open.
fn read_token_file(path: &Path) -> Result<(String, Source), Failure> {
    let fail = |why: String| {
        Failure::usage(format!("cannot read token file {}: {why}", path.display()))
            .with_hint("check the path given to --token-file")
    };
    let metadata = std::fs::metadata(path).map_err(|e| fail(io_reason(&e)))?;
    let source = match not_regular(&metadata) {
        None => Source::TokenFile(path.to_path_buf()),
        Some(NotRegular::Fifo) if anonymous_pipe(path) => Source::TokenPipe(path.to_path_buf()),
        Some(kind) => return Err(fail(kind.describe()).with_hint(WHAT_TOKEN_FILE_READS)),
    };
    let file = std::fs::File::open(path).map_err(|e| fail(io_reason(&e)))?;
    let text = read_token_text(file, &path.display().to_string())?;
    Ok((text, source))
}

fn read_token_text(input: impl Read, name: &str) -> Result<String, Failure> {
    let mut bytes = Vec::new();
    input
        .take(MAX_TOKEN_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| {
            Failure::usage(format!(
                "cannot read the token from {name}: {}",
                io_reason(&e)
            ))
        })?;
    if bytes.len() as u64 > MAX_TOKEN_FILE_BYTES {
        return Err(Failure::usage(format!(
            "the token from {name} is larger than 64 KiB; that is not a token"
        ))
        .with_hint("point --token-file at a file that holds only the token"));
    }
    String::from_utf8(bytes).map_err(|_| {
        Failure::usage(format!("the token from {name} is not text"))
            .with_hint("point --token-file at a file that holds only the token")
    })
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}
