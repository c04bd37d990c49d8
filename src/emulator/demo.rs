//! The demo state the emulator starts with (unless `--empty`), and the banner that describes it.
//!
//! The handle ids are fixed, because they are created first from the shared counter:
//!
//! | handle | what |
//! |---|---|
//! | 0 | appendable data NOT on the network yet, 3 data items, 0 deleted: `put 0` works, `post 0` is -22 |
//! | 1 | appendable data on the network at version 1, 3 data items and 2 deleted items, local copy up to date: `clear-data 1`, `clear-deleted-data 1`, `post 1` work, `put 1` is -23 |
//! | 2 | appendable data on the network at version 2, held here at version 1 (someone else posted since): `post 2` is -25 |
//! | 3 | data identifier of handle 1's data: `GET /appendable-data/handle/3` fetches a fresh copy |
//! | 4 | data identifier of handle 2's data: fetch a fresh copy of it to post |
//!
//! The next handle created gets id 5.

use super::encoding::base64_encode;
use super::state::{AdKey, DataId, Filter, Local, State, Stored};

/// Handle of the appendable data that is not on the network yet.
pub const UNSAVED: u64 = 0;
/// Handle of the appendable data on the network, with data items and deleted items.
pub const SAVED: u64 = 1;
/// Handle of a stale local copy (the network has a newer version).
pub const STALE: u64 = 2;
/// Data-id handle of [`SAVED`]'s data.
pub const SAVED_DATA_ID: u64 = 3;
/// Data-id handle of [`STALE`]'s data.
pub const STALE_DATA_ID: u64 = 4;

/// A 32-byte name made from a label, padded with dots.
fn name(label: &str) -> [u8; 32] {
    let mut out = [b'.'; 32];
    for (slot, byte) in out.iter_mut().zip(label.bytes()) {
        *slot = byte;
    }
    out
}

fn ad(label: &str) -> AdKey {
    AdKey {
        name: name(label),
        private: false,
    }
}

fn items(labels: &[&str]) -> Vec<DataId> {
    labels
        .iter()
        .map(|label| DataId::Structured {
            name: name(label),
            type_tag: 500,
        })
        .collect()
}

/// Fills an empty state with the demo data. The handle ids are the constants above.
pub fn install(state: &mut State) {
    let unsaved = ad("safe-ad demo: unsaved");
    let saved = ad("safe-ad demo: saved");
    let stale = ad("safe-ad demo: stale");

    let handle = state.add_local(Local {
        key: unsaved,
        version: 0,
        data: items(&["demo item a", "demo item b", "demo item c"]),
        deleted: Vec::new(),
        is_owner: true,
        filter: Filter::default(),
    });
    debug_assert_eq!(handle, UNSAVED);

    let saved_stored = Stored {
        version: 1,
        data: items(&["demo item d", "demo item e", "demo item f"]),
        deleted: items(&["demo item g", "demo item h"]),
        filter: Filter::default(),
    };
    state.store(saved, saved_stored.clone());
    let handle = state.add_local(Local {
        key: saved,
        version: saved_stored.version,
        data: saved_stored.data,
        deleted: saved_stored.deleted,
        is_owner: true,
        filter: saved_stored.filter,
    });
    debug_assert_eq!(handle, SAVED);

    state.store(
        stale,
        Stored {
            version: 2,
            data: items(&["demo item i", "demo item j", "demo item k"]),
            deleted: Vec::new(),
            filter: Filter::default(),
        },
    );
    let handle = state.add_local(Local {
        key: stale,
        version: 1,
        data: items(&["demo item i", "demo item j"]),
        deleted: Vec::new(),
        is_owner: true,
        filter: Filter::default(),
    });
    debug_assert_eq!(handle, STALE);

    let handle = state.new_data_id(DataId::Appendable(saved));
    debug_assert_eq!(handle, SAVED_DATA_ID);
    let handle = state.new_data_id(DataId::Appendable(stale));
    debug_assert_eq!(handle, STALE_DATA_ID);
}

/// What `install` made, for people, written on stderr at start.
pub fn banner() -> String {
    format!(
        "\
safe-ad emulator: demo state (--empty leaves it out); new handles start at 5:
  handle 0  appendable data NOT on the network yet; 3 data items, 0 deleted.
            Try: safe-ad put 0
  handle 1  appendable data on the network (version 1); 3 data items, 2 deleted.
            Try: safe-ad clear-data 1 && safe-ad post 1
  handle 2  appendable data on the network at version 2, held here at version 1 as if
            someone else had posted since: safe-ad post 2 fails with -25 (InvalidSuccessor)
  handle 3  data id of handle 1's data: GET /appendable-data/handle/3 fetches a fresh copy
  handle 4  data id of handle 2's data: GET /appendable-data/handle/4 fetches a fresh copy
  names (base64, for POST /data-id/appendable-data):
            0 {}
            1 {}
            2 {}
",
        base64_encode(&ad("safe-ad demo: unsaved").name),
        base64_encode(&ad("safe-ad demo: saved").name),
        base64_encode(&ad("safe-ad demo: stale").name),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_handles_are_as_documented() {
        let mut state = State::new();
        install(&mut state);
        let m = state.metadata(UNSAVED, true).unwrap();
        assert_eq!((m.version, m.data_length, m.deleted_data_length), (0, 3, 0));
        assert!(state.stored(&ad("safe-ad demo: unsaved")).is_none());
        let m = state.metadata(SAVED, true).unwrap();
        assert_eq!((m.version, m.data_length, m.deleted_data_length), (1, 3, 2));
        assert!(state.stored(&ad("safe-ad demo: saved")).is_some());
        assert_eq!(
            state.post(STALE),
            Err(crate::emulator::state::Code::INVALID_SUCCESSOR)
        );
        let (fresh, meta) = state.fetch(STALE_DATA_ID, true).unwrap();
        assert_eq!((fresh, meta.version), (5, 2));
        assert!(state.fetch(SAVED_DATA_ID, true).is_ok());
    }
}
