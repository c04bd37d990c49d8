//! The launcher's JSON answers as safe-ad reads them, checked at the edge: each answer's shape a
//! type, and each field whose values form a closed set (a filter's type, a token's permissions)
//! an enum of the values launcher 0.11.0 gives (`launcher-facts.md`). A body of another shape,
//! or a closed field holding any other value, is [`Unreadable`], and nothing of that value is
//! kept: no later step can print what the launcher never gives (a launcher, or whatever answers
//! in its place, could put anything there, the token among it). `outcome` says what an
//! unreadable answer comes to.

use serde::de::{Deserialize, DeserializeOwned, Deserializer};

use crate::secret::Secret;

/// Why an answer's body is not the one its request calls for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unreadable {
    /// Not JSON of the shape asked for (for a grant: or a token that cannot be used).
    Shape,
    /// `field`, whose values form a closed set, holds one that is none of `known`; the value
    /// itself was dropped as it was read.
    NotKnown {
        field: &'static str,
        known: Vec<&'static str>,
    },
}

/// An enum the launcher writes as one of a few strings: the field of its answers that holds
/// it, and how it spells each value there.
trait ClosedSet: Copy + 'static {
    const FIELD: &'static str;
    const VALUES: &'static [Self];
    fn spelling(self) -> &'static str;
}

/// A closed set's value as the body held it: one of the set's, or `None` for any other string.
/// The string is not kept, so a value none of the known ones cannot reach a message.
struct Checked<T>(Option<T>);

impl<'de, T: ClosedSet> Deserialize<'de> for Checked<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Owned: a string with escapes in it (`"\u0042lackList"`) has no borrowed form, and the
        // launcher's JSON may spell a value so.
        let text = String::deserialize(deserializer)?;
        Ok(Checked(
            T::VALUES
                .iter()
                .copied()
                .find(|value| value.spelling() == text),
        ))
    }
}

impl<T: ClosedSet> Checked<T> {
    fn get(self) -> Result<T, Unreadable> {
        self.0.ok_or_else(|| Unreadable::NotKnown {
            field: T::FIELD,
            known: T::VALUES.iter().map(|value| value.spelling()).collect(),
        })
    }
}

/// Reads a body of shape `T`.
fn shape<T: DeserializeOwned>(body: &[u8]) -> Result<T, Unreadable> {
    serde_json::from_slice(body).map_err(|_| Unreadable::Shape)
}

/// Declares a [`ClosedSet`]: the enum (with `ALL`), `name()`, how the launcher spells each
/// variant, and `FIELD`, the field of its answers that holds it.
macro_rules! closed_set {
    (
        $(#[$meta:meta])*
        pub enum $name:ident in $field:literal {
            $($variant:ident = $spelling:literal,)+
        }
    ) => {
        enum_with_all! {
            $(#[$meta])*
            pub enum $name {
                $($variant,)+
            }
        }

        impl $name {
            /// As the launcher spells it, in its answers and in a request that says it (and as
            /// safe-ad prints it).
            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $spelling,)+
                }
            }
        }

        impl ClosedSet for $name {
            const FIELD: &'static str = $field;
            const VALUES: &'static [Self] = &$name::ALL;
            fn spelling(self) -> &'static str {
                self.name()
            }
        }
    };
}

closed_set! {
    /// How an appendable data's filter keys are taken: the keys kept out, or the only ones let
    /// in (routing's `FilterType`, whose variant names the launcher writes).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum FilterType in "filterType" {
        BlackList = "BlackList",
        WhiteList = "WhiteList",
    }
}

/// `--json` writes it as the launcher does.
impl serde::Serialize for FilterType {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

closed_set! {
    /// What a token may do, as the launcher grants it (`availablePermissions`), and a login
    /// asks for.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Permission in "permissions" {
        SafeDriveAccess = "SAFE_DRIVE_ACCESS",
        LowLevelApi = "LOW_LEVEL_API",
    }
}

/// The permission the appendable-data writes need.
pub const LOW_LEVEL_API: &str = Permission::LowLevelApi.name();

/// What an approved `POST /auth` gives back.
#[derive(Debug)]
pub struct Grant {
    pub token: Secret,
    pub permissions: Vec<Permission>,
}

impl Grant {
    /// Reads an approval body: unreadable when it is not one, its token is unusable, or it
    /// grants a permission the launcher does not have.
    pub fn parse(body: &[u8]) -> Result<Grant, Unreadable> {
        #[derive(serde::Deserialize)]
        struct Raw {
            token: String,
            #[serde(default)]
            permissions: Vec<Checked<Permission>>,
        }
        let raw: Raw = shape(body)?;
        let token = Secret::parse(&raw.token).map_err(|_| Unreadable::Shape)?;
        let permissions = raw
            .permissions
            .into_iter()
            .map(Checked::get)
            .collect::<Result<_, _>>()?;
        Ok(Grant { token, permissions })
    }
}

/// The most entries a list of an appendable data (data, deleted data, filter keys) can hold:
/// the network stores no appendable data over 100 KiB (routing's
/// `MAX_PUB_APPENDABLE_DATA_SIZE_IN_BYTES`), and no entry takes less than 32 bytes (a filter
/// key; an item is a data id, a key and a signature). A count past this is not the launcher's,
/// and is refused before anything is sized from it.
pub const MOST_LIST_ENTRIES: u64 = 102_400 / 32;

/// The launcher's metadata of an appendable data, as `GET /appendable-data/metadata/:h` gives it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Metadata {
    pub is_owner: bool,
    pub version: u64,
    pub filter_type: FilterType,
    pub filter_length: u64,
    pub data_length: u64,
    pub deleted_data_length: u64,
}

impl Metadata {
    /// Reads a metadata body.
    pub fn parse(body: &[u8]) -> Result<Metadata, Unreadable> {
        #[derive(serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Raw {
            is_owner: bool,
            version: u64,
            filter_type: Checked<FilterType>,
            filter_length: u64,
            data_length: u64,
            deleted_data_length: u64,
        }
        let raw: Raw = shape(body)?;
        Ok(Metadata {
            is_owner: raw.is_owner,
            version: raw.version,
            filter_type: raw.filter_type.get()?,
            filter_length: raw.filter_length,
            data_length: raw.data_length,
            deleted_data_length: raw.deleted_data_length,
        })
    }

    /// A list longer than the network can hold ([`MOST_LIST_ENTRIES`]): its name and length.
    pub fn too_long(&self) -> Option<(&'static str, u64)> {
        too_long(
            self.data_length,
            self.deleted_data_length,
            Some(self.filter_length),
        )
    }
}

/// The first of an appendable data's lists (the filter's where its length is known) longer
/// than the network can hold: its name and length.
fn too_long(data: u64, deleted: u64, filter: Option<u64>) -> Option<(&'static str, u64)> {
    let lists = [
        ("data items", Some(data)),
        ("deleted items", Some(deleted)),
        ("filter keys", filter),
    ];
    let over = |length: &u64| *length > MOST_LIST_ENTRIES;
    (lists.into_iter()).find_map(|(name, length)| Some((name, length.filter(over)?)))
}

/// `{"handleId": n}`: what creating data or asking for a data id gives back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HandleReply {
    pub handle_id: u64,
}

impl HandleReply {
    pub fn parse(body: &[u8]) -> Result<HandleReply, Unreadable> {
        shape(body)
    }
}

/// What fetching data through its data id gives back: the new handle and most of the metadata
/// (the launcher leaves out the filter's length here).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Fetched {
    pub handle_id: u64,
    pub is_owner: bool,
    pub version: u64,
    pub filter_type: FilterType,
    pub data_length: u64,
    pub deleted_data_length: u64,
}

impl Fetched {
    pub fn parse(body: &[u8]) -> Result<Fetched, Unreadable> {
        #[derive(serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Raw {
            handle_id: u64,
            is_owner: bool,
            version: u64,
            filter_type: Checked<FilterType>,
            data_length: u64,
            deleted_data_length: u64,
        }
        let raw: Raw = shape(body)?;
        Ok(Fetched {
            handle_id: raw.handle_id,
            is_owner: raw.is_owner,
            version: raw.version,
            filter_type: raw.filter_type.get()?,
            data_length: raw.data_length,
            deleted_data_length: raw.deleted_data_length,
        })
    }

    /// A list longer than the network can hold: its name and length.
    pub fn too_long(&self) -> Option<(&'static str, u64)> {
        too_long(self.data_length, self.deleted_data_length, None)
    }
}

/// What fetching structured data through its data id gives back: the new handle, its version,
/// and for versioned data (type tag 501) how many versions it keeps; the launcher leaves that
/// out for other type tags. No field of it is a closed set.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StructuredFetched {
    pub handle_id: u64,
    pub is_owner: bool,
    pub version: u64,
    #[serde(default)]
    pub data_version_length: Option<u64>,
}

impl StructuredFetched {
    pub fn parse(body: &[u8]) -> Result<StructuredFetched, Unreadable> {
        shape(body)
    }
}

/// What asking for an immutable-data reader gives back: the reader's handle and the content's
/// size in bytes, which the content read through it must then be (`outcome` checks it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReaderReply {
    pub handle_id: u64,
    pub size: u64,
}

impl ReaderReply {
    pub fn parse(body: &[u8]) -> Result<ReaderReply, Unreadable> {
        shape(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_fields_take_only_the_launchers_values_and_keep_no_other() {
        let metadata = |filter: &str| {
            Metadata::parse(
                format!(
                    r#"{{"isOwner":true,"version":1,"filterType":{filter},"filterLength":0,"dataLength":0,"deletedDataLength":0}}"#
                )
                .as_bytes(),
            )
        };
        assert_eq!(
            metadata(r#""WhiteList""#).map(|m| m.filter_type),
            Ok(FilterType::WhiteList)
        );
        // JSON escapes are the same string.
        assert_eq!(
            metadata(r#""\u0042lackList""#).map(|m| m.filter_type),
            Ok(FilterType::BlackList)
        );
        let not_known = Err(Unreadable::NotKnown {
            field: "filterType",
            known: vec!["BlackList", "WhiteList"],
        });
        // The create request's spelling is not the answers'; case counts.
        for other in [r#""WHITE_LIST""#, r#""blacklist""#, r#""""#] {
            assert_eq!(metadata(other), not_known, "{other}");
        }
        assert_eq!(metadata("1"), Err(Unreadable::Shape));
        assert_eq!(metadata("null"), Err(Unreadable::Shape));

        let grant = |permissions: &str| {
            Grant::parse(format!(r#"{{"token":"t.k.n","permissions":{permissions}}}"#).as_bytes())
                .map(|grant| grant.permissions)
        };
        assert_eq!(
            grant(r#"["SAFE_DRIVE_ACCESS","LOW_LEVEL_API"]"#),
            Ok(vec![Permission::SafeDriveAccess, Permission::LowLevelApi])
        );
        assert_eq!(grant("[]"), Ok(vec![]));
        assert_eq!(
            grant(r#"["LOW_LEVEL_API","ROOT"]"#),
            Err(Unreadable::NotKnown {
                field: "permissions",
                known: vec!["SAFE_DRIVE_ACCESS", "LOW_LEVEL_API"],
            })
        );
        assert_eq!(
            Grant::parse(br#"{"token":"two words"}"#).map(|_| ()),
            Err(Unreadable::Shape)
        );
    }
}
