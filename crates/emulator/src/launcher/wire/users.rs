//! The users in a state file, and keys named by user: a file's top-level `users` lists each
//! user with its sign key (`{"name": "bob", "signKey": "<base64 of 32 bytes>"}`), so that a user
//! keeps its key across an export and an import; an appendable data's owner (`owner` by name or
//! `ownerKey` by key) and an item's signer (`signedBy` by name or `signKey` by key) may name a
//! user instead of a key. A key left out is the emulator's first user's ([`USER_KEY`]), as in
//! files written before there were users.
//!
//! Written back, a key a named user holds is written as that user's name, [`USER_KEY`] held by no
//! named user is left out (so a one-user emulator writes the files it always wrote), and any
//! other key as its base64.

use serde::{Deserialize, Serialize};

use super::bytes32;
use super::misfit::{Misfit, Within};
use crate::launcher::encoding::base64_encode;
use crate::launcher::state::{check_name, SignKey, User, NO_OWNER, USER_KEY};

/// One entry of a state file's `users`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UserJson {
    pub name: String,
    pub sign_key: String,
}

/// A file's `users`, checked: each a valid name with a key of 32 bytes (not 32 zero bytes, which
/// is nobody's), no name and no key twice.
pub(crate) fn users_from(list: &[UserJson]) -> Result<Vec<User>, Misfit> {
    let mut users: Vec<User> = Vec::new();
    for (index, json) in list.iter().enumerate() {
        let user = user_from(json).entry("users", index)?;
        let same = users
            .iter()
            .position(|earlier| earlier.name == user.name || earlier.key == user.key);
        if let Some(first) = same {
            let what = match users[first].name == user.name {
                true => "name",
                false => "sign key",
            };
            return Err(Misfit::new(format!(
                "the same {what} as users[{first}]; each user has a name and a key of its own"
            ))
            .at_index(index)
            .in_field("users"));
        }
        users.push(user);
    }
    Ok(users)
}

fn user_from(json: &UserJson) -> Result<User, Misfit> {
    check_name(&json.name).map_err(Misfit::new).within("name")?;
    let key = bytes32(&json.sign_key).within("signKey")?;
    if key == NO_OWNER {
        return Err(
            Misfit::new("32 zero bytes are nobody's key (routing's NO_OWNER_PUB_KEY)")
                .in_field("signKey"),
        );
    }
    Ok(User {
        name: Some(json.name.clone()),
        key,
    })
}

/// The named users of a roster, as a file's `users` lists them (none for the one unnamed user).
pub(crate) fn users_json(users: &[User]) -> Vec<UserJson> {
    users
        .iter()
        .filter_map(|user| {
            Some(UserJson {
                name: user.name.clone()?,
                sign_key: base64_encode(&user.key),
            })
        })
        .collect()
}

/// A key given by key (`by_key`, base64) or by user (`by_name`, a user of `users`), of which at
/// most one; [`USER_KEY`] when neither. `fields` names the two, as the file does.
pub(crate) fn key_from(
    by_key: &Option<String>,
    by_name: &Option<String>,
    users: &[User],
    fields: (&str, &str),
) -> Result<SignKey, Misfit> {
    match (by_key, by_name) {
        (Some(_), Some(_)) => Err(Misfit::new(format!(
            "`{}` and `{}` both name it; give one",
            fields.0, fields.1
        ))),
        (Some(key), None) => bytes32(key).within(fields.0),
        (None, Some(name)) => users
            .iter()
            .find(|user| user.name.as_deref() == Some(name.as_str()))
            .map(|user| user.key)
            .ok_or_else(|| {
                let names: Vec<&str> = users.iter().filter_map(|u| u.name.as_deref()).collect();
                Misfit::new(format!(
                    "no user is named `{name}` (users: {}; name users with --user or in the \
                     file's `users`)",
                    match names.is_empty() {
                        true => "none named".to_owned(),
                        false => names.join(", "),
                    }
                ))
                .in_field(fields.1)
            }),
        (None, None) => Ok(USER_KEY),
    }
}

/// How a file writes `key`: `(by key, by name)`, as the module's notes say.
pub(crate) fn key_json(key: &SignKey, users: &[User]) -> (Option<String>, Option<String>) {
    if let Some(name) = users
        .iter()
        .find(|user| user.key == *key)
        .and_then(|user| user.name.clone())
    {
        return (None, Some(name));
    }
    match *key == USER_KEY {
        true => (None, None),
        false => (Some(base64_encode(key)), None),
    }
}
