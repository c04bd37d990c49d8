//! The shell's `.handles --json`: one object per handle the session holds.

use serde::Serialize;

use super::{Row, Table};

/// One handle a shell session made and still holds.
#[derive(Debug, Default, Serialize)]
pub struct SessionHandleJson {
    pub handle: u64,
    pub kind: &'static str,
    pub name: Option<String>,
    pub launcher: String,
    pub kept: bool,
}

key_table! {
    SESSION_HANDLE_TABLE = "session-handle" of [SessionHandleJson]
    Row(&["handle"], "number", "the handle"),
    Row(&["kind"], "string", "its kind: `appendable-data`"),
    Row(&["name"], "string or null", "the data's name (base64), where the line that made the handle knew it"),
    Row(&["launcher"], "string", "the launcher it is a handle of (its URL)"),
    Row(&["kept"], "bool", "whether `.keep` keeps it when the session ends, rather than giving it back"),
}
