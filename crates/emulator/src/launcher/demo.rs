//! The demo state the emulator starts with (unless `--empty` or `--state`), the banner that
//! describes it, and [`fresh`]: a launcher as it starts, from the demo data, nothing or a network,
//! which a start and the emulator's own reset route both make.
//!
//! The handle ids are fixed, because they are created first from the shared counter:
//!
//! | handle | what |
//! |---|---|
//! | 0 | appendable data NOT on the network yet, 3 data items, 0 deleted: `put 0` works, `post 0` is -22 |
//! | 1 | appendable data on the network at version 1, 3 data items and 2 deleted items, local copy up to date: `clear-data 1`, `clear-deleted-data 1`, `post 1` work, `put 1` is -23. Something for `show`: two data items are structured data (one of them binary and signed by another app's key), the third is appendable data (handle 2's); a deleted item is signed by another key too; its filter is a blacklist of two keys (neither the user's) |
//! | 2 | appendable data on the network at version 2, held here at version 1 (someone else posted since): `post 2` is -25 |
//! | 3 | data identifier of handle 1's data: `GET /appendable-data/handle/3` fetches a fresh copy (the banner says `safe-ad reopen 1`) |
//! | 4 | data identifier of handle 2's data: fetch a fresh copy of it to post |
//! | 5 | an inbox: appendable data on the network at version 1 whose 3 items are immutable data, as a sender leaves them (each message written as immutable data, its data id appended), one of them binary, one signed by another app; local copy up to date |
//!
//! The next handle created gets id 6.

use crate::launcher::encoding::base64_encode;
use crate::launcher::state::{
    Ad, AdKey, Cipher, DataId, Filter, FilterType, Immutable, Item, Permissions, Sd, SdKey,
    SdStatus, SignKey, State, User,
};
use crate::launcher::wire::Network;

/// What a launcher starts from: the demo data, nothing, or a network (a `--state` file's).
#[derive(Debug, Clone)]
pub(crate) enum Origin {
    Demo,
    Empty,
    Network(Network),
}

impl Origin {
    /// `demo`, `empty` or `state`, as the `--log` records name it.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Origin::Demo => "demo",
            Origin::Empty => "empty",
            Origin::Network(_) => "state",
        }
    }
}

/// The launchers of `users` as they start, over `origin`'s network: the demo handles (for the
/// demo) in the first user's launcher, no other handle, handle ids counted from the start in
/// each, and one session each, the token of `tokens` in the user's place, with `LOW_LEVEL_API`.
pub(crate) fn fresh(origin: Origin, users: Vec<User>, tokens: &[String]) -> State {
    let count = users.len();
    let mut state = State::with_users(users);
    match origin {
        Origin::Demo => install(&mut state),
        Origin::Empty => {}
        Origin::Network(network) => {
            for ad in network.appendable_data {
                state.store(ad);
            }
            for sd in network.structured_data {
                state.store_sd(sd);
            }
            for data in network.immutable_data {
                state.store_immutable(data);
            }
        }
    }
    for (user, token) in (0..count).zip(tokens) {
        state.act_as(user);
        state.add_session(
            token.clone(),
            Permissions {
                low_level_api: true,
                safe_drive_access: false,
            },
        );
    }
    state.act_as(0);
    state
}

/// Handle of the appendable data that is not on the network yet.
pub(crate) const UNSAVED: u64 = 0;
/// Handle of the appendable data on the network, with data items and deleted items.
pub(crate) const SAVED: u64 = 1;
/// Handle of a stale local copy (the network has a newer version).
pub(crate) const STALE: u64 = 2;
/// Data-id handle of [`SAVED`]'s data.
pub(crate) const SAVED_DATA_ID: u64 = 3;
/// Data-id handle of [`STALE`]'s data.
pub(crate) const STALE_DATA_ID: u64 = 4;
/// Handle of the inbox: appendable data whose items are immutable data.
pub(crate) const INBOX: u64 = 5;

/// A 32-byte name made from a label, padded with dots.
fn name(label: &str) -> [u8; 32] {
    let mut out = [b'.'; 32];
    for (slot, byte) in out.iter_mut().zip(label.bytes()) {
        *slot = byte;
    }
    out
}

fn ad_key(label: &str) -> AdKey {
    AdKey {
        name: name(label),
        private: false,
    }
}

/// The key of another app that appended to handle 1's data.
const OTHER_APP_KEY: SignKey = *b"safe-ad emulator: another app...";

/// A key handle 1's blacklist keeps out.
const BLOCKED_KEY: SignKey = *b"safe-ad emulator: a blocked app.";

/// The content of the demo's one binary structured data.
const BINARY: &[u8] = &[0x00, 0x01, 0x02, 0xfe, 0xff, 0x1b, 0x5b, 0x32, 0x4a];

/// The demo appendable data, by label.
const UNSAVED_LABEL: &str = "safe-ad demo: unsaved";
const SAVED_LABEL: &str = "safe-ad demo: saved";
const STALE_LABEL: &str = "safe-ad demo: stale";
const INBOX_LABEL: &str = "safe-ad demo: inbox";

/// The messages in the demo inbox, and whether another app sent each (else the user did).
const INBOX_MESSAGES: [(&[u8], bool); 3] = [
    (b"Hello from the safe-ad demo inbox.", false),
    (
        &[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff],
        true,
    ),
    (b"Meeting moved to 3pm.", true),
];

/// Items pointing at structured data stored on the network (type tag 500, their label as data),
/// so that following an item to its data works too, appended by the acting user.
fn items(state: &mut State, labels: &[&str]) -> std::collections::BTreeSet<Item> {
    let signer = state.me().key;
    labels
        .iter()
        .map(|label| Item {
            pointer: structured(state, label, label.as_bytes()),
            signer,
            seal: 0,
        })
        .collect()
}

/// Structured data of type tag 500 stored on the network, named after `label`.
fn structured(state: &mut State, label: &str, content: &[u8]) -> DataId {
    let key = SdKey {
        name: name(label),
        type_tag: 500,
    };
    state.store_sd(Sd {
        key,
        version: 0,
        versions: vec![content.to_vec()],
        encrypted: Vec::new(),
        status: SdStatus::Owned,
    });
    DataId::Structured(key)
}

/// Fills an empty state with the demo data, the acting user's (the first user's). The handle ids
/// are the constants above.
pub(crate) fn install(state: &mut State) {
    let user = state.me().key;
    let unsaved = Ad {
        key: ad_key(UNSAVED_LABEL),
        version: 0,
        data: items(state, &["demo item a", "demo item b", "demo item c"]),
        deleted: Default::default(),
        filter: Filter::default(),
        owner: user,
    };
    let handle = state.add_local(unsaved);
    debug_assert_eq!(handle, UNSAVED);

    // Something of each kind for `show`: text and binary structured data, appendable data
    // (the stale demo data, which is on the network), items signed by another app's key, and a
    // filter with keys. Neither key is the user's, so the user may still append.
    let mut data = items(state, &["demo item d"]);
    data.insert(Item {
        pointer: structured(state, "demo item e", BINARY),
        signer: OTHER_APP_KEY,
        seal: 0,
    });
    data.insert(Item {
        pointer: DataId::Appendable(ad_key(STALE_LABEL)),
        signer: user,
        seal: 0,
    });
    let mut deleted = items(state, &["demo item g"]);
    deleted.insert(Item {
        pointer: structured(state, "demo item h", b"demo item h"),
        signer: OTHER_APP_KEY,
        seal: 0,
    });
    let saved = Ad {
        key: ad_key(SAVED_LABEL),
        version: 1,
        data,
        deleted,
        filter: Filter {
            kind: FilterType::BlackList,
            keys: [OTHER_APP_KEY, BLOCKED_KEY].into_iter().collect(),
        },
        owner: user,
    };
    state.store(saved.clone());
    let handle = state.add_local(saved);
    debug_assert_eq!(handle, SAVED);

    let stale_stored = Ad {
        key: ad_key(STALE_LABEL),
        version: 2,
        data: items(state, &["demo item i", "demo item j", "demo item k"]),
        deleted: Default::default(),
        filter: Filter::default(),
        owner: user,
    };
    state.store(stale_stored.clone());
    let stale_data = items(state, &["demo item i", "demo item j"]);
    let handle = state.add_local(Ad {
        version: 1,
        data: stale_data,
        ..stale_stored
    });
    debug_assert_eq!(handle, STALE);

    let handle = state.new_data_id(DataId::Appendable(ad_key(SAVED_LABEL)));
    debug_assert_eq!(handle, SAVED_DATA_ID);
    let handle = state.new_data_id(DataId::Appendable(ad_key(STALE_LABEL)));
    debug_assert_eq!(handle, STALE_DATA_ID);

    // An inbox: each message was written as plain immutable data, and its data id appended.
    let data = INBOX_MESSAGES
        .iter()
        .map(|(content, other)| {
            let message = Immutable::new(Cipher::Plain, (*content).into());
            let pointer = DataId::Immutable(message.name);
            state.store_immutable(message);
            Item {
                pointer,
                signer: if *other { OTHER_APP_KEY } else { user },
                seal: 0,
            }
        })
        .collect();
    let inbox = Ad {
        key: ad_key(INBOX_LABEL),
        version: 1,
        data,
        deleted: Default::default(),
        filter: Filter::default(),
        owner: user,
    };
    state.store(inbox.clone());
    let handle = state.add_local(inbox);
    debug_assert_eq!(handle, INBOX);
}

/// What `install` made, for people, written on stderr at start.
pub(crate) fn banner() -> String {
    format!(
        "\
safe-ad emulator: demo state (--empty leaves it out); new handles start at 6:
  handle 0  appendable data NOT on the network yet; 3 data items, 0 deleted.
            Try: safe-ad put 0
  handle 1  appendable data on the network (version 1); 3 data items, 2 deleted, and a
            blacklist of 2 keys; items of both kinds, some signed by another app.
            Try: safe-ad show 1, or safe-ad clear-data 1 && safe-ad post 1
  handle 2  appendable data on the network at version 2, held here at version 1 as if
            someone else had posted since: safe-ad post 2 fails with -25 (InvalidSuccessor)
  handle 3  data id of handle 1's data (safe-ad reopen 1 fetches a fresh copy through one)
  handle 4  data id of handle 2's data (safe-ad reopen 2 fetches a fresh copy through one)
  handle 5  an inbox on the network (version 1): 3 items of immutable data (messages, one
            binary, two sent by another app). Try: safe-ad show 5 --full
  the data items of handles 0-2 are structured data (type tag 500) whose data is the item's
  label, but for one binary one and handle 1's item of appendable data (handle 2's data).
  names (base64, public; for safe-ad open NAME), by handle:
            0 {}
            1 {}
            2 {}
            5 {}
",
        base64_encode(&ad_key(UNSAVED_LABEL).name),
        base64_encode(&ad_key(SAVED_LABEL).name),
        base64_encode(&ad_key(STALE_LABEL).name),
        base64_encode(&ad_key(INBOX_LABEL).name),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launcher::state::USER_KEY;

    #[test]
    fn demo_handles_are_as_documented() {
        let mut state = State::new();
        install(&mut state);
        let m = state.metadata(UNSAVED, true).unwrap();
        assert_eq!((m.version, m.data_length, m.deleted_data_length), (0, 3, 0));
        assert!(state.stored(&ad_key(UNSAVED_LABEL)).is_none());
        let m = state.metadata(SAVED, true).unwrap();
        assert_eq!((m.version, m.data_length, m.deleted_data_length), (1, 3, 2));
        assert_eq!(m.filter_length, 2);
        let saved = state.stored(&ad_key(SAVED_LABEL)).unwrap();
        assert!(saved
            .data
            .iter()
            .any(|item| matches!(item.pointer, DataId::Appendable(_))));
        assert!(saved
            .data
            .iter()
            .chain(&saved.deleted)
            .any(|item| item.signer != USER_KEY));
        assert!(!saved.filter.keys.contains(&USER_KEY));
        assert!(state.stored(&ad_key(SAVED_LABEL)).is_some());
        assert_eq!(
            state.post(STALE),
            Err(crate::launcher::state::Code::INVALID_SUCCESSOR)
        );
        let (fresh, meta) = state.fetch(STALE_DATA_ID, true).unwrap();
        assert_eq!((fresh, meta.version), (6, 2));
        assert!(state.fetch(SAVED_DATA_ID, true).is_ok());
        // The inbox: three items of immutable data on the network, one binary, readable.
        let m = state.metadata(INBOX, true).unwrap();
        assert_eq!((m.version, m.data_length, m.deleted_data_length), (1, 3, 0));
        let mut binary = 0;
        for index in 0..3 {
            let id = state.data_id_at(INBOX, index, false, false).unwrap();
            let (reader, size) = state.new_reader(id, false).unwrap();
            let content = state.read(reader, 0, size).unwrap();
            binary += usize::from(std::str::from_utf8(&content).is_err());
        }
        assert_eq!(binary, 1);
    }
}
