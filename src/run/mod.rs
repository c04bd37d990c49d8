//! Parsing the command line and handing it to its command: the dispatcher between `main` and
//! `commands`.
//!
//! The client options may be given before the subcommand and after it (see `cli`); `settings`
//! merges them into one set, and refuses one the command does not take, before anything else
//! runs. The reporter is made from that set. The line is scanned once before clap reads it
//! (`argv`), and where clap refuses it, `clap_errors` words the refusal when ours says more.

mod argv;
mod clap_errors;

use std::ffi::OsString;

use clap::FromArgMatches;

use argv::Typed;

use crate::batch::Procedure;
use crate::cli::{Cli, ClientOptions, ColorWhen, Command, Opt, Opts};
use crate::commands::{self, Context, Next, Session};
use crate::help;
use crate::launcher::Operation;
use crate::outcome::{Class, Done, Failure};
use crate::report::Reporter;
use crate::runtime;
use crate::settings::{self, Environment};

/// Runs safe-ad with these arguments (the program name first) and says how it ended.
pub fn run(args: impl IntoIterator<Item = OsString>) -> Done {
    crate::signals::file_size_limit_as_error();
    let args: Vec<OsString> = args.into_iter().collect();
    run_with(&args, None, None)
}

/// Runs one line of a `shell` script (its words after a program name) as [`run`] runs a
/// command line, with the shell's own client options under the line's: each one the line's
/// command takes and the line does not give. The shell's `--json` and `--jq` are not given to
/// a line with `--dry-run` or `--curl` (nor theirs to one with `--json` or `--jq`), which could
/// not take both; a line's own `--json` or `--jq` is its whole choice of output.
fn run_line(args: &[OsString], defaults: &ClientOptions, session: Option<&Session>) -> Done {
    run_with(args, Some(defaults), session)
}

fn run_with(
    args: &[OsString],
    defaults: Option<&ClientOptions>,
    session: Option<&Session>,
) -> Done {
    let line = Typed::new(args);
    // A completion script's question (a command line's, not a shell line's) is answered before
    // anything is read: a TAB never reads the config file or a token, and never sends.
    if let (None, Some(words)) = (defaults, line.completing()) {
        let reporter = Reporter::new(false, false, ColorWhen::Never);
        reporter.completion(crate::generate::complete::answer(&words).as_bytes());
        return reporter.finish(Done::Success);
    }
    // `--version` alone, the commonest probe of a tool (scripts, package checks), is answered
    // before clap builds its tree: that build is most of what the answer would cost. Any other
    // line with it goes through clap, which prints the same line (a test compares the two).
    if line.only_version() {
        let reporter = reporter(session, false, false, ColorWhen::Never);
        reporter.version();
        return reporter.finish(Done::Success);
    }
    let env = Environment::from_process();
    // The tokens known before any argument is checked are kept out of every word from the
    // first (clap's own errors echo what was typed).
    let config = settings::ConfigRead::read(&env);
    let typed = line.token_file();
    crate::report::keep_out(settings::known_tokens(typed, &env, &config));
    if line.help_of_help() {
        // clap's `help` command takes no options, so it would be "unrecognized subcommand
        // '--help'"; the help of `help` is what was asked for.
        let mut command = help::command();
        command.build();
        if let Some(help) = command.find_subcommand_mut("help") {
            let reporter = reporter(session, false, false, ColorWhen::Never);
            reporter.help(&help.render_help().to_string());
            return reporter.finish(Done::Success);
        }
    }
    let matches = match parse(args, session) {
        Ok(matches) => matches,
        Err(error) => return clap_failed(&error, &line, &env, session),
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => return clap_failed(&error, &line, &env, session),
    };
    let (path, levels) = levels(&matches);
    // The environment's token and the config file's are kept out already; a level's own
    // --token-file may name another file than the one found before parsing.
    for level in &levels {
        if let Some(path) = level
            .token_file
            .as_deref()
            .filter(|path| Some(*path) != typed)
        {
            crate::report::keep_out(settings::token_in_regular_file(path));
        }
    }
    let options = match settings::merge_options(&path, &levels) {
        Ok(options) => match defaults {
            Some(defaults) => {
                let exclusive = Opts::of(&[Opt::DryRun, Opt::Curl, Opt::Json, Opt::Jq]);
                let takes = crate::cli::options_of(&path);
                let takes = match options.given().iter().any(|opt| exclusive.contains(*opt)) {
                    true => takes.without(exclusive),
                    false => takes,
                };
                options.over(defaults, takes)
            }
            None => options,
        },
        Err(failure) => {
            let failure = clap_errors::own_option_before(&path, &levels[0]).unwrap_or(failure);
            let colour = settings::colour_choice(levels[0].color, &env);
            return reported(&reporter(session, false, false, colour), failure);
        }
    };
    if let Some(shell) = defaults {
        if let Err(failure) = dry_shell_runs(&path, shell, &options) {
            let colour = settings::colour_choice(options.color, &env);
            return reported(&reporter(session, false, false, colour), failure);
        }
    }
    let colour = settings::colour_choice(options.color, &env);
    // A change under a read-only profile is refused here, before its command is given
    // anything, so no path of it can send a request.
    if let Err(failure) = settings::refuse_read_only(&path, &options, &env, &config) {
        return reported(&reporter(session, false, false, colour), failure);
    }
    let filter = match settings::jq_filter(&options) {
        Ok(filter) => filter,
        Err(failure) => return reported(&reporter(session, false, false, colour), failure),
    };
    let reporter = reporter(session, options.quiet, options.json, colour)
        .filtered(filter)
        .verbose(options.verbose);
    let cx = Context {
        options: &options,
        env: &env,
        config: &config,
        reporter: &reporter,
        session,
    };
    let done = match dispatch(&cli.command, cx) {
        Ok(done) => done,
        Err(failure) => reported(&reporter, failure),
    };
    reporter.finish(done)
}

/// A shell given `--dry-run` or `--curl` sends and writes nothing through its lines either:
/// each runs as its dry run (the shell's option, or one of its own), or as it is where printing
/// is all its command does (`decode`, `config show`); any other line (`config set`, `emulator
/// export`, `emulator -- CMD`, `show`, or `metadata --json`, whose `--json` keeps the shell's
/// `--dry-run` off it) is refused before it runs.
fn dry_shell_runs(path: &str, shell: &ClientOptions, line: &ClientOptions) -> Result<(), Failure> {
    if !(shell.dry_run || shell.curl) || line.dry_run || line.curl {
        return Ok(());
    }
    let spec = crate::cli::spec_of(path);
    if spec.is_some_and(|spec| spec.inert) {
        return Ok(());
    }
    let opt = match shell.curl {
        true => Opt::Curl,
        false => Opt::DryRun,
    };
    let option = opt.long();
    let json = match line.jq.is_some() {
        true => "--jq",
        false => "--json",
    };
    let why = match spec.is_some_and(|spec| spec.options.contains(opt)) {
        true => {
            format!("`{path}` given {json} is no dry run ({json} and {option} exclude each other)")
        }
        false => format!("`{path}` has no {option}, and would act"),
    };
    Err(Failure::usage(format!(
        "this shell is a dry run ({option}): {why}; the line is refused, nothing sent or written"
    )))
}

/// The line parsed by the definition alone (`cli::command`): the texts `help` writes after the
/// options are formatted only when clap stops to print help or an error, when the line is
/// parsed again by the whole command (`help::command`) so that what prints is the same. clap
/// builds only the commands on the parsed path, each with its row of the options table.
fn parse(args: &[OsString], session: Option<&Session>) -> Result<clap::ArgMatches, clap::Error> {
    // A `shell`'s lines share one parser, built once, as clap allows a REPL.
    let parsed = match session {
        Some(session) => (session.parser(crate::cli::command)).try_get_matches_from_mut(args),
        None => crate::cli::command().try_get_matches_from(args),
    };
    match parsed {
        Ok(matches) => Ok(matches),
        // The version is the program's: no help text is in it.
        Err(error) if error.kind() == clap::error::ErrorKind::DisplayVersion => Err(error),
        Err(_) => help::command().try_get_matches_from(args),
    }
}

/// The command's path (`"auth status"`) and the client options typed at each level of it, the
/// top level first.
fn levels(matches: &clap::ArgMatches) -> (String, Vec<ClientOptions>) {
    let mut path = Vec::new();
    let mut levels = vec![ClientOptions::from_level(matches)];
    let mut level = matches;
    while let Some((name, sub)) = level.subcommand() {
        path.push(name);
        levels.push(ClientOptions::from_level(sub));
        level = sub;
    }
    (path.join(" "), levels)
}

/// clap could not parse the line, or help or the version was asked for.
fn clap_failed(
    error: &clap::Error,
    line: &Typed,
    env: &Environment,
    session: Option<&Session>,
) -> Done {
    // A refused `emulator --background` fails an `eval "$(...)"` of it too.
    #[cfg(feature = "emulator")]
    if error.exit_code() != 0 {
        safe_ad_emulator::background_refused(line.args);
    }
    let reporter = reporter(
        session,
        false,
        false,
        settings::colour_choice(line.colour(), env),
    );
    if let Some(failure) = clap_errors::rewritten(error, line) {
        return reported(&reporter, failure);
    }
    reporter.clap(error);
    // Help and the version are output: one that could not be written is not exit 0.
    reporter.finish(match error.exit_code() {
        0 => Done::Success,
        _ => Done::Failed(Class::Usage),
    })
}

/// A reporter for this run; a line of a `shell` session's keeps what it prints on stdout where
/// the session says, while a `NAME = COMMAND` runs (help and the version included).
fn reporter(session: Option<&Session>, quiet: bool, json: bool, colour: ColorWhen) -> Reporter {
    Reporter::new(quiet, json, colour)
        .in_session(session.map(|session| std::sync::Arc::clone(session.capture())))
}

fn reported(reporter: &Reporter, failure: Failure) -> Done {
    reporter.ended(&failure);
    Done::Failed(failure.class)
}

/// Hands the command line to its command; the one runtime is built only for a command that
/// sends (`runtime::finish`).
fn dispatch(command: &Command, cx: Context) -> Result<Done, Failure> {
    use commands::{auth, cat, completions, config, decode, handles, items, man, operations};
    use commands::{show, status, wait, watch};
    let next = match command {
        Command::Create(c) => handles::create(c, cx)?,
        Command::Open(c) => handles::open(c, cx)?,
        Command::Reopen(c) => {
            let reopen = Procedure::Reopen { drop_old: c.drop };
            operations::run_procedure(reopen, &c.handles, cx)?
        }
        Command::Drop(c) => operations::run(Operation::Drop, None, &c.handles, cx)?,
        Command::Put(c) => operations::run(Operation::Put, None, &c.handles, cx)?,
        Command::Post(c) => operations::run(Operation::Post, None, &c.handles, cx)?,
        Command::ClearData(c) => operations::run(Operation::ClearData, c.save, &c.handles, cx)?,
        Command::ClearDeletedData(c) => {
            operations::run(Operation::ClearDeletedData, c.save, &c.handles, cx)?
        }
        Command::Metadata(c) => operations::run(Operation::Metadata, None, &c.handles, cx)?,
        Command::Show(c) => show::run(c, cx)?,
        Command::Cat(c) => cat::run(c, cx)?,
        Command::Status(c) => status::run(c, cx)?,
        Command::Wait(c) => wait::run(c, cx)?,
        Command::Watch(c) => watch::run(c, cx)?,
        Command::Remove(c) => items::at_indexes(Operation::Remove, c, false, cx)?,
        Command::Restore(c) => items::at_indexes(Operation::Restore, &c.items, c.re_sign, cx)?,
        Command::Purge(c) => items::at_indexes(Operation::Purge, c, false, cx)?,
        Command::Append(c) => items::append(c, cx)?,
        #[cfg(feature = "emulator")]
        Command::Capture(c) => commands::capture::run(c, cx)?,
        Command::Filter(filter) => commands::filter::run(&filter.command, cx)?,
        Command::Auth(auth) => auth::run(&auth.command, cx)?,
        Command::Config(config) => Next::Done(config::run(&config.command, cx)?),
        Command::Completions(c) => Next::Done(completions::run(c.shell, cx.reporter)?),
        Command::Decode(c) => Next::Done(decode::run(c, cx.reporter)?),
        Command::Man(c) => Next::Done(man::run(c, cx.reporter)?),
        Command::Shell(c) => Next::Done(commands::shell::run(c, cx, run_line)?),
        #[cfg(feature = "emulator")]
        Command::Emulator(args) => {
            use crate::cli::EmulatorAction;
            match &args.action {
                Some(EmulatorAction::Requests(requests)) => commands::journal::run(requests, cx)?,
                Some(EmulatorAction::Export(export)) => commands::export::run(export, cx)?,
                Some(EmulatorAction::List | EmulatorAction::Env(_)) | None => {
                    Next::Done(commands::emulator::run(args, cx)?)
                }
            }
        }
    };
    runtime::finish(next, cx.session)
}
