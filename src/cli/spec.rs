//! What each command says of itself, once: [`Spec`] (`registry` lists them all).
//!
//! A command's spec stands beside its clap arguments (in this module's siblings) and carries
//! every fact about it that something else reads: its texts (which `cli` gives clap, so help,
//! man pages and completions show them), what its man page says beyond them ([`Man`]), the
//! client options it takes (the parser, help and `settings` read them), what it reaches (the exit codes its help lists), the routes it sends
//! (docs/output.md's table is written from them), whether it holds launcher handles, which
//! table of docs/output.md describes its `--json` objects, and a sample invocation (the tests
//! that walk every command run it). A test walks clap's tree against `registry`'s list both
//! ways, so a command without a spec, or a spec without a command, fails it.

use super::options::Opts;
use crate::route::Route;

/// The facts of one command (a leaf, `remove`, `auth status`, or a group, `auth`).
#[derive(Debug)]
pub struct Spec {
    /// The words that name it after `safe-ad`: `"remove"`, `"auth status"`.
    pub path: &'static str,
    /// One line: `-h` and the list of commands show it.
    pub about: &'static str,
    /// What `--help` and the man page say instead of `about`, when there is more to say.
    pub long_about: Option<&'static str>,
    /// Examples (and any closing words) after the options.
    pub after_help: Option<&'static str>,
    /// A usage line of its own, where clap's would run past 80 columns.
    pub usage: Option<&'static str>,
    /// What its man page says beyond its help ([`Man::NONE`] for nothing more).
    pub man: Man,
    /// The client options it takes (see `options`).
    pub options: Opts,
    /// What it reaches, which says the exit codes it can return.
    pub reaches: Reaches,
    /// What it does with a data's name given where it takes a handle.
    pub names: Names,
    /// Whether it takes launcher handles of its own while it runs (data ids, readers, fresh
    /// copies, your key), each given back, and named in `left_behind` when a stop keeps it.
    pub leases: bool,
    /// The launcher routes it sends, in groups (a group shared by several commands is named
    /// once: [`ITEM_READS`]), as docs/output.md lists them; empty for a command that sends
    /// nothing.
    pub routes: &'static [&'static [Route]],
    /// The table in docs/output.md (or docs/settings.md) that describes the objects its
    /// `--json` prints, by the name the JSON-key test knows it by; `None` without `--json`.
    pub json: Option<&'static str>,
    /// Arguments that make a whole invocation after the path (`["1", "0"]` for `remove`), for
    /// the tests that run every command; a group's are its sample subcommand's.
    pub sample: &'static [&'static str],
    /// Whether printing is all it does: it sends nothing, writes no file and starts nothing
    /// that does (`decode`, `config show`), so its run is its own dry run. A shell given
    /// `--dry-run` or `--curl` runs such a line as it is, a line whose command takes the
    /// shell's option as its dry run, and refuses any other (see [`Spec::runs_in_dry_shell`]).
    pub inert: bool,
    /// Whether it changes the network or a launcher's copy of a data (a put, a post, a clear,
    /// an item removed, restored, purged or appended): a profile with `read_only` true refuses
    /// it (exit 2, nothing sent) unless it runs as `--dry-run` or `--curl`. Making or giving
    /// back a handle (`open`, `reopen`, `drop`) or reading does not count; every command must
    /// say (by starting from [`Spec::changing`] or [`Spec::not_changing`]), so a new one is
    /// sorted when it is added.
    pub changes: bool,
}

/// What a command's man page says beyond its help texts, written for man and for a reader who
/// has only the installed pages: more for its DESCRIPTION, and sections of its own. The prose
/// is roff as `generate::man`'s `text` describes it (plain hyphens; commands bold, placeholders
/// italic).
#[derive(Debug)]
pub struct Man {
    /// Paragraphs for DESCRIPTION, after the long help (empty: none).
    pub description: &'static str,
    /// Sections after its OPTIONS (and COMMANDS), in order; the EXIT STATUS of a client command
    /// and EXAMPLES (from `after_help`) follow them.
    pub sections: &'static [ManSection],
}

impl Man {
    /// Nothing more than the help texts.
    pub const NONE: Man = Man {
        description: "",
        sections: &[],
    };

    /// A command whose change a save carries (or that compares with what a save left): what a
    /// save does to each kind of change.
    pub const SAVES: Man = Man {
        description: "",
        sections: &[ManSection::table("WHAT A SAVE DOES", ManTable::SaveEffects)],
    };
}

/// One section of a man page: its heading (in capitals, as man has them), its prose, and a
/// table the man pages write after the prose from the one place that holds it.
#[derive(Debug)]
pub struct ManSection {
    pub heading: &'static str,
    pub roff: &'static str,
    pub table: Option<ManTable>,
}

impl ManSection {
    /// A section of prose only.
    pub const fn prose(heading: &'static str, roff: &'static str) -> ManSection {
        ManSection {
            heading,
            roff,
            table: None,
        }
    }

    /// A section that is a table alone, under its heading.
    pub const fn table(heading: &'static str, table: ManTable) -> ManSection {
        ManSection {
            heading,
            roff: "",
            table: Some(table),
        }
    }

    /// This section with `table` after its prose.
    pub const fn then(self, table: ManTable) -> ManSection {
        ManSection {
            table: Some(table),
            ..self
        }
    }
}

/// A table a man page section holds, which lives above `cli` (so a spec names it, and
/// `generate::man` writes it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ManTable {
    /// What a save does to each kind of change (`saving`'s table).
    SaveEffects,
    /// The emulator's own exit codes (`outcome::EMULATOR_EXIT_CODES`).
    #[cfg(feature = "emulator")]
    EmulatorExitCodes,
    /// The emulator's routes, by who may call them (its crate's route table).
    #[cfg(feature = "emulator")]
    EmulatorRoutes,
}

/// What a command does with a data's name given in place of a handle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Names {
    /// It takes no handle.
    NoHandle,
    /// It works on a fresh copy of the network's data, taken for the run and given back; what
    /// it changes in the copy is saved.
    FreshCopy,
    /// It takes handles only, for this reason (exit 2, nothing sent).
    Refused(&'static str),
}

/// What a command reaches, and so which exit codes it can return (`help` lists them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reaches {
    /// Nothing outside the process but its own files: it can refuse its input (2) or fail
    /// inside (1).
    Nothing,
    /// Nothing, but it needs a token, and has none to give without one (3).
    Token,
    /// The launcher (or an emulator as its client): every way a request can fail.
    Launcher,
    /// The launcher, and it tells a copy that differs from the network (7): `status`, and
    /// `remove` and `cat` where a copy a post emptied lacks what the network holds.
    LauncherCompared,
    /// The launcher, again and again until a condition holds or a deadline passes (8), or the
    /// copy it waits on can never hold it (7: `in-sync` on a stale copy): `wait`.
    LauncherUntil,
    /// A group of commands: its subcommands say.
    Group,
    /// The emulator: its exit codes are its own (`outcome::EMULATOR_EXIT_CODES`).
    Emulator,
}

impl Spec {
    /// The spec of a command that changes the network or a copy (see [`Spec::changes`]), with
    /// nothing else said: each spec says where it differs (`..Spec::changing(path, about)`).
    pub const fn changing(path: &'static str, about: &'static str) -> Spec {
        Spec {
            changes: true,
            ..Spec::not_changing(path, about)
        }
    }

    /// The spec of a command that changes nothing, takes no client option, reaches nothing,
    /// takes no handle, holds no lease, sends no route, prints no `--json`, needs no sample
    /// arguments, is not inert and has no text beyond `about` (nor on its man page): each spec starts from it or
    /// from [`Spec::changing`], so every one says whether it changes anything, and says only
    /// where it differs.
    pub const fn not_changing(path: &'static str, about: &'static str) -> Spec {
        Spec {
            path,
            about,
            long_about: None,
            after_help: None,
            usage: None,
            options: Opts::NONE,
            reaches: Reaches::Nothing,
            names: Names::NoHandle,
            leases: false,
            routes: &[],
            json: None,
            sample: &[],
            inert: false,
            changes: false,
            man: Man::NONE,
        }
    }

    /// Whether it sends requests to a launcher.
    pub fn sends(&self) -> bool {
        matches!(
            self.reaches,
            Reaches::Launcher | Reaches::LauncherCompared | Reaches::LauncherUntil
        )
    }

    /// Whether a line of this command may run in a shell given `--dry-run` (`curl` false) or
    /// `--curl`: it takes that option (and runs as its dry run), or printing is all it does
    /// (and runs as it is). Any other would act, and is refused.
    pub fn runs_in_dry_shell(&self, curl: bool) -> bool {
        let opt = match curl {
            true => super::Opt::Curl,
            false => super::Opt::DryRun,
        };
        self.options.contains(opt) || self.inert
    }
}

/// A data fetched through a data id, and both given back: the end of taking a fresh copy of a
/// name's data (or of a handle's, through its data id) that is given back.
pub const FETCH_BY_ID: &[Route] = &[Route::AdFetch, Route::DataIdDrop, Route::AdDrop];

/// What reading a data's items as `show` does sends: each item's data id and signer, the
/// filter's keys, your own key, and what each item points at (structured data, immutable
/// data, appendable data), each handle given back.
pub const ITEM_READS: &[Route] = &[
    Route::AdItem,
    Route::AdDeletedItem,
    Route::AdItemSigner,
    Route::AdDeletedItemSigner,
    Route::AdFilterKey,
    Route::DataIdSerialise,
    Route::SignKeyOwn,
    Route::SignKeySerialise,
    Route::SignKeyDrop,
    Route::StructuredFetch,
    Route::StructuredRead,
    Route::StructuredDrop,
    Route::ImmutableReader,
    Route::ImmutableRead,
    Route::ImmutableReaderDrop,
    Route::AdFetch,
    Route::AdDrop,
    Route::DataIdDrop,
];

impl Spec {
    /// Its routes, each once, in the order its groups list them.
    pub fn route_list(&self) -> Vec<Route> {
        let mut routes = Vec::new();
        for route in self.routes.iter().flat_map(|group| group.iter()) {
            if !routes.contains(route) {
                routes.push(*route);
            }
        }
        routes
    }
}
