//! The users of one emulator: each is a launcher of its own (`State`'s `Launcher`) with a name
//! and a sign key, over the one network they share. The launcher had one logged-in user per
//! launcher, and its apps signed with that user's key (safe_core 0.23.0's
//! `Client::get_public_signing_key`, which `appendable_data_new_pub`, `..._post`, `..._append`
//! and `..._is_owned` all take); several users are several launchers on one network.
//!
//! Which key each user has, so that fixtures keep their users ([`roster`], [`keep`]): a user a
//! fixture names keeps the fixture's key; a new one takes [`USER_KEY`] when it is the first and
//! no other user holds that key (so the one-user emulator, its demo data and the fixtures it
//! wrote stay as they were), and otherwise a random key of its own, as a new account on the
//! network had.

use super::{SignKey, USER_KEY};
use crate::launcher::encoding::random_bytes;

/// The owner of data nobody owns: routing 0.28.5's `NO_OWNER_PUB_KEY` (32 zero bytes), which no
/// user's key is; appendable data deserialised with no owner at all is held as owned by it.
pub(crate) const NO_OWNER: SignKey = [0; 32];

/// The longest user name: it becomes part of an environment variable's name
/// (`SAFE_AD_EMULATOR_USER_<NAME>_URL`).
pub(crate) const NAME_MAX: usize = 32;

/// A user: a name (none for the one user of an emulator started without `--user`) and the sign
/// key every app of theirs signs with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct User {
    pub(crate) name: Option<String>,
    pub(crate) key: SignKey,
}

impl User {
    /// The one user of an emulator that names none: [`USER_KEY`].
    pub(crate) fn default_user() -> User {
        User {
            name: None,
            key: USER_KEY,
        }
    }

    /// How it is called in words: its name, or `the user`.
    pub(crate) fn called(&self) -> &str {
        self.name.as_deref().unwrap_or("the user")
    }
}

/// Why `name` cannot name a user: 1 to [`NAME_MAX`] characters, lowercase ASCII letters, digits
/// and `_`, beginning with a letter, so that each name makes its own environment variable names
/// (`alice` is `SAFE_AD_EMULATOR_USER_ALICE_URL`) and never reads as a key in a fixture.
pub(crate) fn check_name(name: &str) -> Result<(), String> {
    let first_letter = name.bytes().next().is_some_and(|b| b.is_ascii_lowercase());
    let allowed = name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    if !first_letter || !allowed || name.len() > NAME_MAX {
        return Err(format!(
            "`{name}` is not a user name: 1 to {NAME_MAX} lowercase letters, digits and _, \
             beginning with a letter (it names environment variables: alice gives \
             SAFE_AD_EMULATOR_USER_ALICE_URL)"
        ));
    }
    Ok(())
}

/// A key of its own for a new user: random, as a new account's was, and never [`USER_KEY`] or
/// [`NO_OWNER`] or one of `taken`.
fn new_key(taken: &[User]) -> SignKey {
    loop {
        let key = random_bytes::<32>();
        if key != USER_KEY && key != NO_OWNER && taken.iter().all(|user| user.key != key) {
            return key;
        }
    }
}

/// The users of a run that starts: those named on the command line (`named`, in order), then
/// those a fixture names (`known`, with their keys) that the command line does not, in the
/// fixture's order. A user `known` names keeps its key; of the others, the first of the roster
/// takes [`USER_KEY`] when no user holds it yet, and each other one a random key. With no user at
/// all, the one unnamed user with [`USER_KEY`].
pub(crate) fn roster(named: &[String], known: &[User]) -> Vec<User> {
    let mut users: Vec<User> = Vec::new();
    let names = named
        .iter()
        .map(String::as_str)
        .chain(known.iter().filter_map(|user| user.name.as_deref()));
    for name in names {
        if users.iter().any(|user| user.name.as_deref() == Some(name)) {
            continue;
        }
        let key = known
            .iter()
            .find(|user| user.name.as_deref() == Some(name))
            .map(|user| user.key);
        users.push(User {
            name: Some(name.to_owned()),
            // Filled below, once every known key is in place.
            key: key.unwrap_or(NO_OWNER),
        });
    }
    if users.is_empty() {
        return vec![User::default_user()];
    }
    for index in 0..users.len() {
        if users[index].key != NO_OWNER {
            continue;
        }
        let free = users.iter().all(|user| user.key != USER_KEY);
        users[index].key = match index == 0 && free {
            true => USER_KEY,
            false => new_key(&users),
        };
    }
    users
}

/// The users of a running emulator reset to a fixture (`POST /_emulator/reset/state`): the same
/// users (each is a port of its own, fixed at the start), each with the key the fixture gives it
/// or, where it gives none, the one it has. A fixture that names a user the emulator does not
/// serve is refused, naming it.
pub(crate) fn keep(running: &[User], known: &[User]) -> Result<Vec<User>, String> {
    if let Some(stranger) = known
        .iter()
        .find(|user| running.iter().all(|r| r.name != user.name))
    {
        return Err(format!(
            "it names the user `{}`, whom this emulator does not serve (its users are fixed when \
             it starts: {})",
            stranger.called(),
            served(running)
        ));
    }
    Ok(running
        .iter()
        .map(|user| {
            let given = known.iter().find(|k| k.name == user.name);
            User {
                name: user.name.clone(),
                key: given.map_or(user.key, |k| k.key),
            }
        })
        .collect())
}

/// The users served, in words: `alice, bob`, or `no named user`.
fn served(users: &[User]) -> String {
    let names: Vec<&str> = users.iter().filter_map(|u| u.name.as_deref()).collect();
    match names.is_empty() {
        true => "no named user".to_owned(),
        false => names.join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::super::State;
    use super::*;

    fn named(names: &[&str]) -> Vec<String> {
        names.iter().map(|name| (*name).to_owned()).collect()
    }

    fn user(name: &str, key: u8) -> User {
        User {
            name: Some(name.to_owned()),
            key: [key; 32],
        }
    }

    #[test]
    fn names_make_their_own_variables() {
        for good in ["alice", "bob2", "carol_the_third", "a"] {
            assert_eq!(check_name(good), Ok(()), "{good}");
        }
        for bad in [
            "",
            "Alice",
            "2bob",
            "_x",
            "a-b",
            "a b",
            "é",
            &"a".repeat(33),
        ] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_first_new_user_takes_the_emulators_key_and_the_others_their_own() {
        assert_eq!(roster(&[], &[]), vec![User::default_user()]);
        let users = roster(&named(&["alice", "bob", "carol"]), &[]);
        let names: Vec<_> = users.iter().map(|u| u.called()).collect();
        assert_eq!(names, ["alice", "bob", "carol"]);
        assert_eq!(users[0].key, USER_KEY);
        assert!(users[1].key != USER_KEY && users[2].key != users[1].key);
        // A name given twice is one user.
        assert_eq!(roster(&named(&["alice", "alice"]), &[]).len(), 1);
    }

    #[test]
    fn a_fixtures_users_keep_their_keys_by_name() {
        let known = [user("bob", 2), user("alice", 1)];
        let users = roster(&named(&["carol", "alice"]), &known);
        let got: Vec<_> = users.iter().map(|u| (u.called(), u.key)).collect();
        // carol is new and first; alice and bob keep theirs; bob, not named, comes last.
        assert_eq!(got[1], ("alice", [1; 32]));
        assert_eq!(got[2], ("bob", [2; 32]));
        assert_eq!(got[0].0, "carol");
        assert_eq!(got[0].1, USER_KEY, "nobody held the emulator's key");
        // When a known user holds it, a new first user gets one of its own.
        let holds = [User {
            name: Some("alice".into()),
            key: USER_KEY,
        }];
        let users = roster(&named(&["carol"]), &holds);
        assert!(users[0].key != USER_KEY);
        assert_eq!(users[1].key, USER_KEY);
    }

    /// alice, bob and carol on one network, each acting through its own launcher.
    fn three() -> State {
        State::with_users(roster(&named(&["alice", "bob", "carol"]), &[]))
    }

    const ALICE: usize = 0;
    const BOB: usize = 1;
    const CAROL: usize = 2;

    fn key(private: bool) -> super::super::AdKey {
        super::super::AdKey {
            name: [7; 32],
            private,
        }
    }

    /// A data id, in the acting user's launcher, of structured data named `n`.
    fn item(state: &mut State, n: u8) -> u64 {
        state.new_data_id(super::super::DataId::Structured(super::super::SdKey {
            name: [n; 32],
            type_tag: 500,
        }))
    }

    /// A fresh copy of the data, in the acting user's launcher.
    fn fetch(state: &mut State, private: bool) -> u64 {
        let id = state.new_data_id(super::super::DataId::Appendable(key(private)));
        state.fetch(id, true).unwrap().0
    }

    /// alice's data on the network, and a copy of it in her launcher.
    fn alices(state: &mut State, private: bool, kind: super::super::FilterType) -> u64 {
        state.act_as(ALICE);
        let h = state.create(key(private), kind);
        state.put(h).unwrap();
        h
    }

    #[test]
    fn each_user_has_a_launcher_of_its_own() {
        let mut s = three();
        let alice = s.me().key;
        s.act_as(BOB);
        assert_eq!(s.me().called(), "bob");
        assert!(s.me().key != alice);
        // Handle ids count from 0 in each launcher; a handle of one is nothing to another.
        assert_eq!(item(&mut s, 1), 0);
        s.act_as(ALICE);
        assert_eq!(item(&mut s, 2), 0);
        assert_eq!(item(&mut s, 3), 1);
        s.act_as(CAROL);
        assert_eq!(
            s.drop_data_id(0),
            Err(super::super::Code::INVALID_DATA_ID_HANDLE)
        );
        // Sessions too.
        s.act_as(BOB);
        assert!(s.add_session("bobs".into(), Default::default()));
        s.act_as(ALICE);
        assert_eq!(s.session("bobs"), None);
        // The live handles are counted over every launcher.
        assert_eq!(s.live().data_id, 3);
        // GET /sign-key gives each its own key.
        s.act_as(BOB);
        let h = s.user_sign_key();
        assert!(s.sign_key_value(h).unwrap() != alice);
    }

    #[test]
    fn only_the_owner_is_owner_and_saves() {
        use super::super::{Code, FilterType};
        let mut s = three();
        let h = alices(&mut s, false, FilterType::BlackList);
        assert!(s.metadata(h, true).unwrap().is_owner);
        assert!(!s.metadata(h, false).unwrap().is_owner, "anonymous");
        let before = s.stored(&key(false)).cloned().unwrap();
        for user in [BOB, CAROL] {
            s.act_as(user);
            let copy = fetch(&mut s, false);
            assert!(!s.metadata(copy, true).unwrap().is_owner);
            // A clear, a filter edit, a toggle: the copy changes, the save is refused (-25).
            s.clear_data(copy).unwrap();
            s.toggle_filter(copy).unwrap();
            let own = s.user_sign_key();
            s.edit_filter(copy, own, true).unwrap();
            assert_eq!(s.post(copy), Err(Code::INVALID_SUCCESSOR));
            // And PUT of stored data is -23, whoever sends it.
            assert_eq!(s.put(copy), Err(Code::DATA_EXISTS));
        }
        assert_eq!(
            s.stored(&key(false)),
            Some(&before),
            "the network is unchanged"
        );
        s.act_as(ALICE);
        let copy = fetch(&mut s, false);
        s.toggle_filter(copy).unwrap();
        assert_eq!(s.post(copy), Ok(()));
        assert_eq!(s.stored(&key(false)).unwrap().version, 1);
    }

    #[test]
    fn an_append_is_signed_and_filtered_by_the_appenders_key() {
        use super::super::{Code, FilterType};
        let mut s = three();
        let h = alices(&mut s, false, FilterType::WhiteList);
        let bob = s.users()[BOB].key;
        // alice lets bob in: his key, as a handle in her launcher.
        let k = s.add_sign_key(bob);
        s.edit_filter(h, k, true).unwrap();
        assert_eq!(s.post(h), Ok(()));
        // An empty whitelist kept everyone out; now bob only: not alice herself, not carol.
        let d = item(&mut s, 1);
        let h = fetch(&mut s, false);
        assert_eq!(s.append(h, d), Err(Code::INVALID_SUCCESSOR));
        s.act_as(CAROL);
        let (h, d) = (fetch(&mut s, false), item(&mut s, 2));
        assert_eq!(s.append(h, d), Err(Code::INVALID_SUCCESSOR));
        s.act_as(BOB);
        let (h, d) = (fetch(&mut s, false), item(&mut s, 3));
        assert_eq!(s.append(h, d), Ok(()));
        let stored = s.stored(&key(false)).unwrap();
        assert_eq!(stored.data.len(), 1);
        assert!(stored.data.iter().all(|item| item.signer == bob));
        // alice reads who signed it.
        s.act_as(ALICE);
        let h = fetch(&mut s, false);
        let signer = s.signer_at(h, 0, false).unwrap();
        assert_eq!(s.sign_key_value(signer), Ok(bob));
    }

    #[test]
    fn private_items_open_for_the_owner_only() {
        use super::super::{Code, FilterType};
        let mut s = three();
        alices(&mut s, true, FilterType::BlackList);
        s.act_as(BOB);
        let (h, d) = (fetch(&mut s, true), item(&mut s, 1));
        assert_eq!(s.append(h, d), Ok(()), "anyone the filter lets in appends");
        let h = fetch(&mut s, true);
        // Sealed for alice: bob's keys do not open it (-11), an anonymous app has none (-1520).
        assert_eq!(s.data_id_at(h, 0, false, true), Err(Code::ROUTING_ERROR));
        assert_eq!(s.signer_at(h, 0, false), Err(Code::ROUTING_ERROR));
        assert_eq!(
            s.data_id_at(h, 0, false, false),
            Err(Code::FORBIDDEN_FOR_APP)
        );
        assert_eq!(s.data_id_at(h, 1, false, true), Err(Code::INVALID_INDEX));
        s.act_as(ALICE);
        let h = fetch(&mut s, true);
        assert!(s.data_id_at(h, 0, false, true).is_ok());
        let signer = s.signer_at(h, 0, false).unwrap();
        assert_eq!(s.sign_key_value(signer), Ok(s.users()[BOB].key));
    }

    #[test]
    fn a_reset_keeps_the_users_and_takes_the_fixtures_keys() {
        let running = [user("alice", 1), user("bob", 2)];
        assert_eq!(
            keep(&running, &[user("bob", 9)]),
            Ok(vec![user("alice", 1), user("bob", 9)])
        );
        let refused = keep(&running, &[user("dave", 4)]).unwrap_err();
        assert!(
            refused.contains("`dave`") && refused.contains("alice, bob"),
            "{refused}"
        );
        assert!(keep(&[User::default_user()], &[user("bob", 2)]).is_err());
    }
}
