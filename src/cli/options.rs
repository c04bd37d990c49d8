//! The client options, one row each (`client_options!`), the sets of them that commands take
//! (each command's spec names its set), and the clap arguments they become (`registry` gives
//! each command its own).
//!
//! `settings` checks what was typed; this part defines, collects and merges it.

use std::path::PathBuf;

use clap::{Arg, ValueEnum};

use crate::values;

/// The help heading of the client options in a command's help, after its own options.
pub const CLIENT_OPTIONS: &str = "Client options (the same for every command)";

/// The client options, one row each, in the order help lists them: the variant of [`Opt`], the
/// long name, the field of [`ClientOptions`] (also the clap id) and whether it is a flag or takes
/// a value of a type. Reading them from clap ([`ClientOptions::from_level`]), which were given
/// ([`ClientOptions::given`]) and merging the levels ([`ClientOptions::merged`]) are written from
/// these rows; the clap argument (help text, value parser) is [`Opt::arg`].
macro_rules! client_options {
    ($($opt:ident $long:literal $field:ident: $kind:ident $(<$ty:ty>)?,)*) => {
        /// One of the options that the client commands take, each only where it acts (the table
        /// is each command's spec: `cli::spec`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Opt {
            $($opt,)*
        }

        impl Opt {
            /// Every option, in the order help lists them.
            pub const ALL: [Opt; [$($long),*].len()] = [$(Opt::$opt,)*];

            /// The long name, without the dashes.
            fn long_name(self) -> &'static str {
                match self {
                    $(Opt::$opt => $long,)*
                }
            }

            /// The clap id, which is also the long name with `_` for `-`.
            pub fn id(self) -> &'static str {
                match self {
                    $(Opt::$opt => stringify!($field),)*
                }
            }
        }

        /// The client options as typed at one level of the command line, unchecked; `settings`
        /// checks them.
        #[derive(Debug, Clone, Default, PartialEq)]
        pub struct ClientOptions {
            $(pub $field: client_options!(@type $kind $($ty)?),)*
        }

        impl ClientOptions {
            /// The client options given at one level of a parsed command line (those the level
            /// does not take are absent).
            pub fn from_level(matches: &clap::ArgMatches) -> ClientOptions {
                ClientOptions {
                    $($field: client_options!(@read $kind matches Opt::$opt $(, $ty)?),)*
                }
            }

            /// The options given, by the table's names.
            pub fn given(&self) -> Vec<Opt> {
                let mut given = Vec::new();
                $(
                    if client_options!(@given $kind self.$field) {
                        given.push(Opt::$opt);
                    }
                )*
                given
            }

            /// The levels as one: a flag given at any level is on; an option with a value may
            /// be given at one level only, else the first given twice is the `Err`.
            pub fn merged(levels: &[ClientOptions]) -> Result<ClientOptions, Opt> {
                Ok(ClientOptions {
                    $($field: client_options!(@merge $kind levels $field Opt::$opt)?,)*
                })
            }

            /// These options, with those of `defaults` that `takes` holds where these give
            /// none: a `shell`'s own options under each of its lines'.
            pub fn over(&self, defaults: &ClientOptions, takes: Opts) -> ClientOptions {
                ClientOptions {
                    $($field: client_options!(@over $kind self defaults takes $field Opt::$opt),)*
                }
            }
        }
    };
    (@type flag) => { bool };
    (@type value $ty:ty) => { Option<$ty> };
    (@read flag $m:ident $opt:expr) => {
        $m.try_get_one::<bool>($opt.id()).ok().flatten().copied().unwrap_or(false)
    };
    (@read value $m:ident $opt:expr, $ty:ty) => {
        $m.try_get_one::<$ty>($opt.id()).ok().flatten().cloned()
    };
    (@over flag $line:ident $defaults:ident $takes:ident $field:ident $opt:expr) => {
        $line.$field || ($takes.contains($opt) && $defaults.$field)
    };
    (@over value $line:ident $defaults:ident $takes:ident $field:ident $opt:expr) => {
        match &$line.$field {
            Some(value) => Some(value.clone()),
            None if $takes.contains($opt) => $defaults.$field.clone(),
            None => None,
        }
    };
    (@given flag $value:expr) => { $value };
    (@given value $value:expr) => { $value.is_some() };
    (@merge flag $levels:ident $field:ident $opt:expr) => {
        Ok::<bool, Opt>($levels.iter().any(|level| level.$field))
    };
    (@merge value $levels:ident $field:ident $opt:expr) => {{
        let mut given = $levels.iter().filter_map(|level| level.$field.as_ref());
        let first = given.next().cloned();
        match given.next() {
            Some(_) => Err($opt),
            None => Ok(first),
        }
    }};
}

client_options! {
    Profile "profile" profile: value<String>,
    LauncherUrl "launcher-url" launcher_url: value<String>,
    TokenFile "token-file" token_file: value<PathBuf>,
    Timeout "timeout" timeout: value<f64>,
    AllowInsecureHttp "allow-insecure-http" allow_insecure_http: flag,
    Retries "retries" retries: value<u8>,
    Quiet "quiet" quiet: flag,
    Json "json" json: flag,
    Jq "jq" jq: value<String>,
    Jobs "jobs" jobs: value<u16>,
    FailFast "fail-fast" fail_fast: flag,
    DryRun "dry-run" dry_run: flag,
    Curl "curl" curl: flag,
    Verbose "verbose" verbose: flag,
    Color "color" color: value<ColorWhen>,
}

impl Opt {
    const fn bit(self) -> u16 {
        1 << self as u16
    }

    /// The short name, for the three that have one.
    pub fn short(self) -> Option<char> {
        match self {
            Opt::Verbose => Some('v'),
            Opt::Quiet => Some('q'),
            Opt::Jobs => Some('j'),
            _ => None,
        }
    }

    /// `--launcher-url`.
    pub fn long(self) -> String {
        format!("--{}", self.long_name())
    }

    /// The option's clap definition, help text included.
    pub fn arg(self) -> Arg {
        use clap::ArgAction::SetTrue;
        use clap::ValueHint;
        let flag = |arg: Arg| arg.action(SetTrue);
        let mut base = Arg::new(self.id()).long(self.long_name());
        if let Some(short) = self.short() {
            base = base.short(short);
        }
        match self {
            Opt::Profile => base
                .value_name("NAME")
                .value_hint(ValueHint::Other)
                .help("Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)")
                .long_help(
                    "Use this profile of the config file (its launcher_url, token, timeout_secs, read_only)\n\n\
Overrides the SAFE_AD_PROFILE env var. A key the profile sets wins over the same key at the \
config file's top level; a flag or env var still wins over both. A name the file has no profile \
for is an error (exit 2). With `config set` and `config unset`, the profile to edit.",
                ),
            Opt::LauncherUrl => base
                .value_name("URL")
                // Not `Url`: zsh would offer file:, ftp: and gopher: URLs, none of them taken.
                .value_hint(ValueHint::Other)
                .help("Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)")
                .long_help(
                    "Base URL of the launcher, path prefix included (e.g. http://127.0.0.1:8100/0.6)\n\n\
Overrides the SAFE_LAUNCHER_URL env var and `launcher_url` in the config file. Default: \
http://localhost:8100.",
                ),
            Opt::TokenFile => base
                .value_name("PATH")
                .value_hint(ValueHint::FilePath)
                .value_parser(clap::value_parser!(PathBuf))
                .help("Read the token from this file (`-` reads standard input)")
                .long_help(
                    "Read the token from this file (`-` reads standard input)\n\n\
Overrides the SAFE_LAUNCHER_TOKEN env var and `token` in the config file. There is no flag that \
takes the token itself: it would show in process lists and shell history.",
                ),
            Opt::Timeout => number(base, "SECS", values::parse_timeout)
                .help("Give up on a request after this many seconds (default 30, at most 86400)")
                .long_help(
                    "Give up on a request after this many seconds (default 30, at most 86400)\n\n\
Overrides `timeout_secs` in the config file. Fractions are allowed (0.5).",
                ),
            Opt::AllowInsecureHttp => flag(base).help(
                "Allow plain http to a host other than this machine (sends the token in clear text)",
            ),
            Opt::Retries => number(base, "N", values::parse_retries)
                .help("Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe")
                .long_help(
                    "Retry a request up to N times (N: 0..=10, default 0) when no answer came and that is safe\n\n\
Any request when its connection was refused (nothing was sent). After a connection closed before \
any answer, only the reads that make nothing (metadata, the token check, serialising, content) \
and the clears (and a filter's key added or taken out): a save, an append, an index change, a \
filter's toggle, a drop or a request that makes a handle may \
have acted, and is never sent again. Never after an answer, never after a timeout. Waits 100 ms, \
200 ms, 400 ms, ... between tries.",
                ),
            Opt::Verbose => flag(base).help(
                "Show each request and answer on stderr: request line, headers (token masked), status, body, timing",
            ),
            Opt::Quiet => flag(base)
                .help("Print nothing on success; errors and what a stop left undone still go to stderr"),
            Opt::Json => flag(base).help("Print one JSON result per handle or name on stdout (a line each), and nothing else there; --verbose adds the requests behind each"),
            Opt::Jq => base
                .value_name("EXPR")
                .value_hint(ValueHint::Other)
                .help("Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON")
                .long_help(
                    "Print what the jq filter EXPR makes of each JSON object (implies --json): strings raw, the rest as JSON\n\n\
Each object --json would print goes through EXPR (jq's language, run by jaq), and each value it \
gives is printed on a line of its own: a string as its text, without quotes (as `jq -r` and `gh \
--jq` print it), anything else as compact JSON. `--jq .version` prints the version alone. A bad \
expression is refused before anything is sent (exit 2); one that fails on an object is said on \
stderr and the run exits 1. Regular expressions, @base64, dates, env and input are not built in.",
                ),
            Opt::Jobs => number(base, "N", values::parse_jobs)
                .help("Run up to N requests at once (N: 1..=256, default 8); output stays in input order"),
            Opt::FailFast => flag(base)
                .help("Send no new request after the first failure (those already in flight, up to --jobs, finish)")
                .long_help(
                    "Send no new request after the first failure (those already in flight, up to --jobs, finish)\n\n\
With the default --jobs 8, up to 7 other requests may be on their way when the first failure \
comes back; they finish and are reported. `--jobs 1 --fail-fast` stops at the failing handle \
itself.",
                ),
            Opt::DryRun => flag(base).help("Print each request that would be sent (token masked) and send nothing"),
            Opt::Curl => flag(base).help(
                "Print an equivalent curl command per request (it fetches the token, never shows it) and send nothing",
            ),
            Opt::Color => base
                .value_name("WHEN")
                .value_hint(ValueHint::Other)
                .value_parser(clap::value_parser!(ColorWhen))
                .help("Colour errors, hints and warnings: auto (on a terminal), always, never")
                .long_help(
                    "Colour errors, hints and warnings: auto (on a terminal), always, never\n\n\
Without it, NO_COLOR (set, not empty) turns colour off and CLICOLOR_FORCE (set, not 0) turns it \
on. Standard output (results, --json, --curl) is never coloured.",
                ),
        }
    }
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    Auto,
    Always,
    Never,
}

/// A set of client options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opts(u16);

/// A number option's argument, parsed by safe-ad: a negative one too, so that the refusal is
/// safe-ad's words and not clap's "unexpected argument".
fn number(arg: Arg, name: &'static str, parser: impl Into<clap::builder::ValueParser>) -> Arg {
    use clap::builder::ValueHint;
    (arg.value_name(name).value_hint(ValueHint::Other))
        .value_parser(parser.into())
        .allow_negative_numbers(true)
}

impl Opts {
    pub const NONE: Opts = Opts(0);

    pub const fn of(opts: &[Opt]) -> Opts {
        let mut bits = 0;
        let mut at = 0;
        while at < opts.len() {
            bits |= opts[at].bit();
            at += 1;
        }
        Opts(bits)
    }

    pub const fn union(self, other: Opts) -> Opts {
        Opts(self.0 | other.0)
    }

    pub fn contains(self, opt: Opt) -> bool {
        self.0 & opt.bit() != 0
    }

    /// The options of this set that are not in `other`.
    pub const fn without(self, other: Opts) -> Opts {
        Opts(self.0 & !other.0)
    }

    /// The options in the set, in help order.
    pub fn iter(self) -> impl Iterator<Item = Opt> {
        Opt::ALL.into_iter().filter(move |opt| self.contains(*opt))
    }
}

/// Where the launcher is and how to reach it.
pub(super) const CONNECT: Opts = Opts::of(&[
    Opt::Profile,
    Opt::LauncherUrl,
    Opt::TokenFile,
    Opt::Timeout,
    Opt::AllowInsecureHttp,
    Opt::Color,
]);
/// Commands that send requests through the HTTP module, which retries and shows exchanges.
pub(super) const SENDS: Opts = CONNECT.union(Opts::of(&[Opt::Retries, Opt::Verbose]));
/// Commands that print JSON objects: `--jq` filters them, wherever `--json` is offered.
pub(super) const JSON: Opts = Opts::of(&[Opt::Json, Opt::Jq]);
/// Commands with a result to print or keep quiet about.
pub(super) const OUTPUT: Opts = Opts::of(&[Opt::Quiet]).union(JSON);
/// Commands over many handles.
pub(super) const BATCH: Opts = Opts::of(&[Opt::Jobs, Opt::FailFast]);
/// Commands whose requests can be printed instead of sent.
pub(super) const DRY: Opts = Opts::of(&[Opt::DryRun, Opt::Curl]);
pub(super) const BATCH_COMMAND: Opts = SENDS.union(OUTPUT).union(BATCH).union(DRY);
pub(super) const ITEM_COMMAND: Opts = SENDS
    .union(OUTPUT)
    .union(DRY)
    .union(Opts::of(&[Opt::FailFast]));
