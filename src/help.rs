//! The help texts written from tables: examples, exit codes, environment variables and files.
//!
//! `--help` and the man page (see `generate`) both take them from here, and the tables
//! themselves live with what they describe: exit codes in `outcome`, environment variables in
//! `settings`, config keys in `config_file`.

use crate::cli::{options_of, spec_of, Names, Reaches};
use crate::config_file::Key;
use crate::outcome::{Class, ExitCodeRow, EMULATOR_EXIT_CODES, EXIT_CODES};
use crate::settings::{Reader, ENV_VARS};

/// One example command line and what it does.
pub struct Example {
    pub command: &'static str,
    pub about: &'static str,
}

/// The examples of the top-level help and the man page.
pub const EXAMPLES: &[Example] = &[
    Example {
        command: "h=$(safe-ad create --put)",
        about: "make an appendable data, save it to the network, keep its handle",
    },
    Example {
        command: "h=$(safe-ad open \"$name\")",
        about: "get a handle for data already on the network",
    },
    Example {
        command: "safe-ad clear-data --save post \"$h\"",
        about: "empty its data items and save that to the network",
    },
    Example {
        command: "safe-ad clear-data 7 && safe-ad post 7",
        about: "the same in two steps",
    },
    Example {
        command: "safe-ad --timeout 5 post 7 8 9",
        about: "save three handles, each request bounded to 5 seconds",
    },
];

/// Where the second column of a two-column help list starts.
const EXAMPLE_COLUMN: usize = 34;
const ENV_COLUMN: usize = 22;
const EXIT_COLUMN: usize = 5;
/// Help lists are wrapped to this width, each entry's continuation lines indented under its
/// text, so no entry breaks into the next one's column.
const WIDTH: usize = 80;

/// How to try safe-ad with no launcher at hand, for the top-level help.
const TRY_IT: &str = "\
No launcher at hand? `safe-ad emulator` runs a local stand-in:
  safe-ad emulator -- sh -c 'h=$(safe-ad create --put) && safe-ad metadata \"$h\"'";

/// The exit codes the command at `path` (`remove`, `auth status`) can return, from the one
/// table and what its spec says it reaches: a command that asks the launcher can meet every way
/// a request fails (7, a copy that differs, only where it compares); one that does not can only
/// refuse its input or fail inside. `None` for the emulator, whose codes are its own, and for a
/// group of commands.
pub fn exit_codes_of(path: &str) -> Option<Vec<&'static ExitCodeRow>> {
    let reaches = spec_of(path)?.reaches;
    let returns = |class: Option<Class>| match (class, reaches) {
        (None | Some(Class::Usage) | Some(Class::Unexpected), _) => true,
        // `wait --for in-sync` on a stale copy, which can never come back in sync, is 7 too.
        (Some(Class::Differs), reaches) => {
            matches!(reaches, Reaches::LauncherCompared | Reaches::LauncherUntil)
        }
        (Some(Class::Deadline), reaches) => reaches == Reaches::LauncherUntil,
        (Some(Class::Auth), Reaches::Token) => true,
        (Some(_), reaches) => matches!(
            reaches,
            Reaches::Launcher | Reaches::LauncherCompared | Reaches::LauncherUntil
        ),
    };
    match reaches {
        Reaches::Group | Reaches::Emulator => None,
        _ => Some(EXIT_CODES.iter().filter(|row| returns(row.class)).collect()),
    }
}

/// An `Exit status:` list of these rows of the one table: every code for the top-level help, a
/// command's own at the end of its `--help`.
fn exit_codes_text(rows: &[&ExitCodeRow]) -> String {
    let codes: Vec<String> = rows.iter().map(|row| row.code.to_string()).collect();
    let rows: Vec<(&str, &str)> = codes
        .iter()
        .zip(rows)
        .map(|(code, row)| (code.as_str(), row.meaning))
        .collect();
    exit_status_text(&rows)
}

/// An `Exit status:` list: each code and what it means.
fn exit_status_text(rows: &[(&str, &str)]) -> String {
    format!("Exit status:\n{}", two_columns(rows, EXIT_COLUMN))
}

/// The closing line of a command's `-h`: the client options it takes, by name (its `--help`
/// lists them with what each does).
fn client_options_line(path: &str) -> Option<String> {
    let names: Vec<String> = options_of(path)
        .iter()
        .map(|opt| match opt.short() {
            Some(short) => format!("-{short}/{}", opt.long()),
            None => opt.long(),
        })
        .collect();
    (!names.is_empty()).then(|| {
        format!(
            "{}: {} (`safe-ad {path} --help` says what each does)",
            crate::cli::CLIENT_OPTIONS,
            names.join(", ")
        )
    })
}

/// Gives each command under `command` (whose path is `prefix`) the texts after its options: in
/// `-h` its examples and the line of client options; in `--help` its examples and the exit
/// codes it can return.
fn with_closing_texts(command: clap::Command, prefix: &str) -> clap::Command {
    command.mut_subcommands(|sub| {
        let path = match prefix {
            "" => sub.get_name().to_string(),
            prefix => format!("{prefix} {}", sub.get_name()),
        };
        let examples = sub.get_after_help().map(|after| after.to_string());
        let join = |texts: [Option<String>; 2]| {
            let texts: Vec<String> = texts.into_iter().flatten().collect();
            (!texts.is_empty()).then(|| texts.join("\n\n"))
        };
        let mut sub = sub;
        if let Some(short) = join([examples.clone(), client_options_line(&path)]) {
            sub = sub.after_help(short);
        }
        let exit = match spec_of(&path).map(|spec| spec.reaches) {
            Some(Reaches::Emulator) => Some(exit_status_text(EMULATOR_EXIT_CODES)),
            _ => exit_codes_of(&path).map(|rows| exit_codes_text(&rows)),
        };
        let names = spec_of(&path).and_then(|spec| names_text(spec.names));
        if exit.is_some() {
            let examples = join([names, examples]);
            if let Some(long) = join([examples, exit]) {
                sub = sub.after_long_help(long);
            }
        }
        if sub.has_subcommands() {
            with_closing_texts(sub, &path)
        } else {
            sub
        }
    })
}

/// What `--help` says of a data's name given in place of a handle, from the command's spec.
fn names_text(names: Names) -> Option<String> {
    match names {
        Names::NoHandle => None,
        Names::FreshCopy => Some(
            "A data's name in place of a handle (base64 or hex, as `create` prints it) means the \
             public data of that name on the network now: the command takes a fresh copy for the run, \
             saves what it changes in it (with a post, and what else docs/saving.md's table \
             asks for), and gives the copy back, so no handle is left to think about."
                .to_owned(),
        ),
        Names::Refused(why) => Some(format!("A data's name is refused here (exit 2): {why}.")),
    }
}

/// The full clap command: the whole definition in `cli` plus the texts written from tables.
pub fn command() -> clap::Command {
    with_closing_texts(crate::cli::whole_command(), "")
        .after_help(format!(
            "{}\n\n{TRY_IT}\n\n`safe-ad COMMAND -h` lists the options a command takes; `safe-ad --help` adds exit codes, environment and files.",
            examples_text()
        ))
        .after_long_help(format!(
            "{}\n\n{TRY_IT}\n\n{}\n\n{}\n\n{}",
            examples_text(),
            exit_codes_text(&EXIT_CODES.iter().collect::<Vec<_>>()),
            environment_text(),
            files_text()
        ))
}

fn examples_text() -> String {
    let rows: Vec<(&str, &str)> = EXAMPLES.iter().map(|e| (e.command, e.about)).collect();
    format!("Examples:\n{}", two_columns(&rows, EXAMPLE_COLUMN))
}

fn environment_text() -> String {
    let abouts: Vec<(&str, String)> = ENV_VARS
        .iter()
        .filter(|var| var.reader == Reader::Client)
        .map(|var| (var.name, var.about()))
        .collect();
    let rows: Vec<(&str, &str)> = abouts
        .iter()
        .map(|(name, about)| (*name, about.as_str()))
        .collect();
    format!("Environment:\n{}", two_columns(&rows, ENV_COLUMN))
}

fn files_text() -> String {
    format!(
        "Files:\n  <config dir>/config.json   JSON object with optional keys {}",
        Key::names()
    )
}

/// `  left  right` rows, the right column aligned and wrapped under itself; a left side too
/// long for its column gets a line of its own.
fn two_columns(rows: &[(&str, &str)], width: usize) -> String {
    let indent = " ".repeat(2 + width);
    rows.iter()
        .map(|(left, right)| {
            let right = wrap(right, WIDTH - indent.len()).join(&format!("\n{indent}"));
            if left.chars().count() < width {
                format!("  {left:<width$}{right}")
            } else {
                format!("  {left}\n{indent}{right}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Words into lines of at most `width` characters (a longer word gets a line of its own).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split_whitespace() {
        let line = lines.last_mut().expect("never empty");
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(word.to_string());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::{
        DEFAULT_JOBS, DEFAULT_RETRIES, DEFAULT_TIMEOUT_SECS, MAX_JOBS, MAX_RETRIES,
        MAX_TIMEOUT_SECS, MIN_JOBS,
    };

    /// The bounds and defaults are written into the options' help by hand (clap takes only
    /// literals there); this keeps them equal to the numbers the code uses.
    #[test]
    fn option_help_states_the_bounds_the_code_uses() {
        let mut command = command();
        command.build();
        let help = |id: &str| {
            let arg = command
                .get_arguments()
                .find(|arg| arg.get_id() == id)
                .expect("the option exists");
            arg.get_help().expect("it has help").to_string()
        };
        assert!(
            help("jobs").contains(&format!(
                "N: {MIN_JOBS}..={MAX_JOBS}, default {DEFAULT_JOBS}"
            )),
            "{}",
            help("jobs")
        );
        assert!(
            help("retries").contains(&format!("N: 0..={MAX_RETRIES}, default {DEFAULT_RETRIES}")),
            "{}",
            help("retries")
        );
        assert!(
            help("timeout").contains(&format!(
                "default {DEFAULT_TIMEOUT_SECS}, at most {MAX_TIMEOUT_SECS}"
            )),
            "{}",
            help("timeout")
        );
    }

    #[test]
    fn long_left_sides_get_a_line_of_their_own() {
        assert_eq!(
            two_columns(&[("a", "x"), ("abcdef", "y")], 4),
            "  a   x\n  abcdef\n      y"
        );
    }

    #[test]
    fn long_entries_wrap_under_their_own_column() {
        let long = "word ".repeat(40);
        let text = two_columns(&[("4", long.trim())], EXIT_COLUMN);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() > 1, "{text}");
        assert!(
            lines.iter().all(|line| line.chars().count() <= WIDTH),
            "{text}"
        );
        assert!(
            lines[1..]
                .iter()
                .all(|line| line.starts_with("       word")),
            "{text}"
        );
    }
}
