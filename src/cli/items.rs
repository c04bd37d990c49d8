//! The clap definitions of the commands over handles and items: `create`, `open`, `reopen`,
//! `put`/`post`/`metadata`, the clears, `show`, `status`, `remove`/`restore`/`purge`, `append`
//! and `decode`, with the values their options take.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::builder::PossibleValue;
use clap::{ArgGroup, Args, ValueEnum};

/// The help heading of the options that choose items by what they are.
const SELECTORS: &str = "Selectors (choose items by what they are)";

/// `put`, `post` and `metadata`: options and handles.
#[derive(Debug, Args)]
pub struct HandleCommand {
    #[command(flatten)]
    pub handles: HandleArgs,
}

/// `create [NAME] [--private] [--white-list] [--put]`.
#[derive(Debug, Args)]
pub struct CreateCommand {
    /// The name: 32 bytes as standard base64 (44 characters) or 64 hex digits; random if not given
    #[arg(value_name = "NAME")]
    pub name: Option<String>,

    /// Make private data, whose items are encrypted
    #[arg(long)]
    pub private: bool,

    /// Filter appends with a whitelist (only listed keys may append) instead of a blacklist
    #[arg(long)]
    pub white_list: bool,

    /// Save the new data to the network right after (PUT), if it was made
    #[arg(long)]
    pub put: bool,
}

/// `open NAME [--private]`.
#[derive(Debug, Args)]
pub struct OpenCommand {
    /// The name: 32 bytes as standard base64 (44 characters) or 64 hex digits
    #[arg(value_name = "NAME")]
    pub name: String,

    /// The data is private (its data id differs from public data of the same name)
    #[arg(long)]
    pub private: bool,
}

/// `reopen [--drop] HANDLE...`.
#[derive(Debug, Args)]
pub struct ReopenCommand {
    /// Also drop each old handle once its new one is there
    #[arg(long)]
    pub drop: bool,

    #[command(flatten)]
    pub handles: HandleArgs,
}

/// `show [--full] [--index RANGE] [SELECTOR]... HANDLE...`.
#[derive(Debug, Args)]
pub struct ShowCommand {
    /// Show the whole content of structured data, not a preview (`content`, in base64, with --json)
    #[arg(long)]
    pub full: bool,

    /// Only the items at these indexes, in both lists: N, A..B (B not included), A..=B, A.., ..B
    #[arg(long, value_name = "RANGE")]
    pub index: Option<String>,

    #[command(flatten)]
    pub selector: SelectorArgs,

    #[command(flatten)]
    pub handles: HandleArgs,
}

/// `cat HANDLE INDEX [--deleted] [--force]`.
#[derive(Debug, Args)]
pub struct CatCommand {
    /// The item is in the deleted list (INDEX counts from 0 there)
    #[arg(long)]
    pub deleted: bool,

    /// Write content that is not text to a terminal too
    #[arg(long)]
    pub force: bool,

    /// The appendable data handle: a decimal number, 0 to 18446744073709551615
    #[arg(value_name = "HANDLE", allow_negative_numbers = true)]
    pub handle: OsString,

    /// The item's index, as `safe-ad show` numbers the items, from 0
    #[arg(value_name = "INDEX", allow_negative_numbers = true)]
    pub index: OsString,
}

/// `status HANDLE...`.
#[derive(Debug, Args)]
pub struct StatusCommand {
    #[command(flatten)]
    pub handles: HandleArgs,
}

/// `remove`, `restore` and `purge`: options, `--save`, a handle, and indexes or selectors.
#[derive(Debug, Args)]
#[command(group(
    ArgGroup::new("which")
        .required(true)
        .multiple(true)
        .args(["indexes", "signed_by", "kind", "data_id", "name"])
))]
pub struct ItemCommand {
    /// After every index succeeded, save the handle with this operation, so the change reaches the network
    #[arg(long, value_name = "OPERATION")]
    pub save: Option<SaveWith>,

    #[command(flatten)]
    pub selector: SelectorArgs,

    /// With selectors: exit 4 if none matches (else 0)
    #[arg(long, help_heading = SELECTORS)]
    pub require_match: bool,

    /// The appendable data handle: a decimal number, 0 to 18446744073709551615
    #[arg(value_name = "HANDLE", allow_negative_numbers = true)]
    pub handle: OsString,

    /// Indexes as `safe-ad show` numbers the items, from 0, applied the highest first (with selectors: only these)
    #[arg(value_name = "INDEX", allow_negative_numbers = true)]
    pub indexes: Vec<OsString>,
}

/// The selectors: which items by what they are. `remove`, `restore` and `purge` change the
/// items they match; `show` lists them, so it previews what the change would move.
#[derive(Debug, Args)]
pub struct SelectorArgs {
    /// Only items signed by this key: a fingerprint as `show` gives it, `you` or `others`
    #[arg(long, value_name = "WHO", help_heading = SELECTORS)]
    pub signed_by: Option<String>,

    /// Only items that point at this kind of data
    #[arg(long, value_name = "KIND", help_heading = SELECTORS)]
    pub kind: Option<crate::wire::DataKind>,

    /// Only the items with this data id (base64 as `show` gives it, or hex); given again: any of them
    #[arg(long, value_name = "DATA-ID", help_heading = SELECTORS)]
    pub data_id: Vec<String>,

    /// Only items that point at data of this name (base64 or hex); given again: any of them
    #[arg(long, value_name = "NAME", help_heading = SELECTORS)]
    pub name: Vec<String>,
}

/// The kinds of data an item can point at, as clap values, from the one list in `wire`.
impl ValueEnum for crate::wire::DataKind {
    fn value_variants<'a>() -> &'a [Self] {
        &crate::wire::DataKind::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()))
    }
}

/// `append HANDLE (--structured NAME [--type-tag N] | --appendable NAME [--private])`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("item").required(true).args(["structured", "appendable", "immutable"])))]
pub struct AppendCommand {
    /// The appendable data handle: a decimal number, 0 to 18446744073709551615
    #[arg(value_name = "HANDLE", allow_negative_numbers = true)]
    pub handle: OsString,

    /// Append structured data of this name: 32 bytes as standard base64 (44 characters) or 64 hex digits
    #[arg(long, value_name = "NAME")]
    pub structured: Option<String>,

    /// The structured data's type tag: 500 (the default), 501 (versioned), or 15000 and above
    #[arg(
        long,
        value_name = "N",
        conflicts_with_all = ["appendable", "immutable"],
        allow_negative_numbers = true
    )]
    pub type_tag: Option<String>,

    /// Append appendable data of this name: 32 bytes as standard base64 (44 characters) or 64 hex digits
    #[arg(long, value_name = "NAME")]
    pub appendable: Option<String>,

    /// The appendable data is private (its data id differs from public data of the same name)
    #[arg(long, conflicts_with_all = ["structured", "immutable"])]
    pub private: bool,

    /// Write FILE (`-`: stdin) as immutable data and append it
    #[arg(long, value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub immutable: Option<PathBuf>,

    /// Encrypt the immutable data: symmetric (you read it) or asymmetric (to a private data's owner)
    #[arg(long, value_name = "HOW", requires = "immutable")]
    pub encrypt: Option<EncryptWith>,
}

/// `append --immutable --encrypt`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EncryptWith {
    Symmetric,
    Asymmetric,
}

/// The two clears: options, `--save` and handles.
#[derive(Debug, Args)]
pub struct ClearCommand {
    /// After a successful clear, save the handle with this operation, so the change reaches the network
    #[arg(long, value_name = "OPERATION")]
    pub save: Option<SaveWith>,

    #[command(flatten)]
    pub handles: HandleArgs,
}

/// The save that follows a clear.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SaveWith {
    Post,
    Put,
}

#[derive(Debug, Args)]
pub struct HandleArgs {
    /// Appendable data handles: decimal numbers, 0 to 18446744073709551615; `-` reads them from stdin
    #[arg(required = true, value_name = "HANDLE", allow_negative_numbers = true)]
    pub handles: Vec<OsString>,
}

/// `decode [BYTES|-]`.
#[derive(Debug, Args)]
pub struct DecodeCommand {
    /// The bytes, as base64 or hex; `-` (or nothing) reads raw bytes from standard input
    #[arg(value_name = "BYTES")]
    pub bytes: Option<String>,
}
