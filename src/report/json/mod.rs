//! The types of the `--json` objects safe-ad prints, and what each key means: one type per kind
//! of object (a result, a request, `show`'s data and items, `status`, `wait`, `watch`, `decode`,
//! `auth whoami`, the settings; `emulator list`'s is the emulator crate's), each deriving `Serialize`, so the keys a script reads are the
//! fields of a type and not words spread through the printing code. The report files fill them
//! (`report::results`, `report::show`, ...); nothing here prints.
//!
//! Beside each type is its table of keys ([`Table`]: each row some keys, their JSON type and
//! what they mean), one fact in one place: docs/output.md's and docs/settings.md's key tables
//! are written from [`TABLES`] (tests/integration/docs_tables.rs, between `<!-- json-keys: NAME
//! ... -->` markers), and a unit test here checks each table against the fields its types
//! serialize, so a key added to a type and not to its table (or the other way) fails.

/// Declares a `--json` object's type: the struct as written, each field `pub`, where a field
/// written `name?: T` is an `Option<T>` left out of the object while it is `None` (most keys are
/// said only where they apply, and the attribute that says so would otherwise stand on every
/// other line). Any other field, and every attribute, is kept as written, in order: the key
/// order of the printed object is the fields' order.
macro_rules! json_object {
    (@munch $head:tt [$($done:tt)*]) => {
        json_object!(@emit $head [$($done)*]);
    };
    (@emit [$(#[$attr:meta])* $name:ident] [$($done:tt)*]) => {
        $(#[$attr])*
        pub struct $name {
            $($done)*
        }
    };
    (@munch $head:tt [$($done:tt)*] $(#[$m:meta])* $field:ident ?: $ty:ty $(, $($rest:tt)*)?) => {
        json_object!(@munch $head [
            $($done)*
            $(#[$m])*
            #[serde(skip_serializing_if = "Option::is_none")]
            pub $field: Option<$ty>,
        ] $($($rest)*)?);
    };
    (@munch $head:tt [$($done:tt)*] $(#[$m:meta])* $field:ident : $ty:ty $(, $($rest:tt)*)?) => {
        json_object!(@munch $head [$($done)* $(#[$m])* pub $field: $ty,] $($($rest)*)?);
    };
    ($(#[$attr:meta])* pub struct $name:ident { $($body:tt)* }) => {
        json_object!(@munch [$(#[$attr])* $name] [] $($body)*);
    };
}

/// Declares a key table (`NAME = "json-keys name" of [the types whose fields it names]`, then
/// its rows): each type's `Default` is the sample whose fields the unit test below reads.
macro_rules! key_table {
    ($table:ident = $name:literal of [$($ty:path),+] $($row:expr),+ $(,)?) => {
        pub(super) const $table: Table = Table {
            name: $name,
            rows: &[$($row),+],
            #[cfg(test)]
            fields: || [$(super::fields(&<$ty>::default())),+].concat(),
        };
    };
}

mod decode;
#[cfg(feature = "emulator")]
mod emulator;
mod poll;
mod result;
mod session;
mod settings;
mod show;
mod status;

pub use decode::{
    AppendableJson, DataIdJson, DecodedFilter, DecodedJson, EntryJson, SignKeyJson, Whoami,
};
pub use poll::{FirstPoll, WaitJson, WatchJson};
pub use result::{
    Abandoned, Ended, ErrorJson, Facts, FilterJson, ItemChange, KeyChange, LeftJson, ReSigned,
    RequestJson, ResultJson,
};
pub use session::SessionHandleJson;
pub use settings::{
    AuthStatusJson, ConfigFileJson, ConfigPathJson, ConfigShowJson, Setting, SettingValue,
};
pub use show::{ItemJson, ShowJson};
pub use status::{Emptied, SinceCopy, StatusJson, Toggled, Unsaved};

/// For the objects that open as a result does (`command`, `input`, `handle`, `ok`) and end with
/// a failure's `error` and `exit_code`: `failed`, the object of a failure, with no more.
macro_rules! failed_object {
    ($($ty:ident),+) => {$(
        impl $ty {
            /// The object of `command`'s failure on `input` (`handle`: null for a name).
            pub fn failed(
                command: &'static str,
                (input, handle): (String, Option<u64>),
                error: ErrorJson,
                exit_code: u8,
            ) -> Self {
                $ty {
                    command,
                    input,
                    handle,
                    ok: false,
                    error: Some(error),
                    exit_code: Some(exit_code),
                    ..$ty::default()
                }
            }
        }
    )+};
}

failed_object!(ShowJson, StatusJson);

/// One row of a key table: the keys it describes (a nested key as `error.class`), their JSON
/// type, and what they mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row(
    pub &'static [&'static str],
    pub &'static str,
    pub &'static str,
);

impl Row {
    /// The keys the row describes.
    pub fn keys(&self) -> &'static [&'static str] {
        self.0
    }

    /// Their JSON type (`string`, `number or null`, ...).
    pub fn kind(&self) -> &'static str {
        self.1
    }

    /// What they mean.
    pub fn meaning(&self) -> &'static str {
        self.2
    }
}

/// A key table of the guide: its name (the marker's `json-keys: NAME`) and rows.
#[derive(Debug, Clone, Copy)]
pub struct Table {
    pub name: &'static str,
    pub rows: &'static [Row],
    /// Every field the table's types have, serialized or skipped, top level only (a sample of
    /// each: [`fields`]); the unit test compares them with the rows' keys.
    #[cfg(test)]
    fields: fn() -> Vec<&'static str>,
}

/// Every key table written from the types, in the order of the guide.
pub const TABLES: &[Table] = &[
    result::RESULT_TABLE,
    result::REQUEST_TABLE,
    show::SHOW_TABLE,
    show::ITEM_TABLE,
    status::STATUS_TABLE,
    poll::WAIT_TABLE,
    poll::WATCH_TABLE,
    decode::WHOAMI_TABLE,
    settings::SETTINGS_TABLE,
    session::SESSION_HANDLE_TABLE,
    decode::DECODE_TABLE,
    #[cfg(feature = "emulator")]
    emulator::EMULATOR_LIST_TABLE,
    #[cfg(feature = "emulator")]
    emulator::JOURNAL_TABLE,
];

/// The table named `name`.
pub fn table(name: &str) -> Option<&'static Table> {
    TABLES.iter().find(|table| table.name == name)
}

#[cfg(test)]
pub(crate) use fields::fields;

#[cfg(test)]
mod fields;

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// Each table's top-level keys are exactly its types' fields; a nested key (`error.class`)
    /// is under a key of the table.
    #[test]
    fn every_table_names_exactly_its_types_fields() {
        for table in TABLES {
            let fields: BTreeSet<&str> = (table.fields)().into_iter().collect();
            let keys: Vec<&str> = (table.rows.iter())
                .flat_map(|row| row.keys().iter().copied())
                .collect();
            let top: BTreeSet<&str> = keys.iter().copied().filter(|k| !k.contains('.')).collect();
            assert_eq!(
                top.len(),
                keys.iter().filter(|k| !k.contains('.')).count(),
                "table {} names a key twice",
                table.name
            );
            assert_eq!(
                fields, top,
                "table {}: the types' fields (left) and the rows' keys (right) differ",
                table.name
            );
            for nested in keys.iter().filter(|k| k.contains('.')) {
                let (parent, _) = nested.split_once('.').expect("a dot");
                assert!(top.contains(parent), "table {}: {nested}", table.name);
            }
        }
    }

    #[test]
    fn table_names_are_unique() {
        let names: BTreeSet<&str> = TABLES.iter().map(|table| table.name).collect();
        assert_eq!(names.len(), TABLES.len());
    }
}
