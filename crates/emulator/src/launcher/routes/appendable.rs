//! The appendable-data routes, as the launcher's `app/server/controllers/appendable_data.js`
//! answered them (the encrypt-key routes included); the data's behaviour is `state::appendable`'s
//! (safe_core 0.23.0's `src/ffi/low_level_api/appendable_data.rs`).

use serde_json::Value;

use super::{
    bad_request, core_error, done, handle_json, iterate, ok, ok_bytes, ok_json, prop, to_reply,
    valid_json, Call, Reply,
};
use crate::launcher::js;
use crate::launcher::serialised;
use crate::launcher::state::{AdKey, Code, FilterType, Metadata};
use crate::launcher::table::Route;

fn metadata_json(handle: Option<u64>, meta: &Metadata) -> String {
    let handle = handle
        .map(|h| format!("\"handleId\":{h},"))
        .unwrap_or_default();
    let filter_length = if handle.is_empty() {
        format!(",\"filterLength\":{}", meta.filter_length)
    } else {
        String::new()
    };
    format!(
        "{{{handle}\"isOwner\":{},\"version\":{},\"filterType\":\"{}\"{filter_length},\"dataLength\":{},\"deletedDataLength\":{}}}",
        meta.is_owner,
        meta.version,
        meta.filter_type.as_str(),
        meta.data_length,
        meta.deleted_data_length,
    )
}

impl Call<'_> {
    /// The appendable-data routes.
    pub(super) fn appendable(&self) -> Result<Reply, Reply> {
        let auth = self.authorised;
        match self.found.def.route {
            Route::Create => self.create(),
            Route::Deserialise => match serialised::appendable_data_from(self.raw()) {
                Some(ad) => {
                    let mut state = self.state();
                    let handle = state.add_local(ad);
                    let meta = state.metadata(handle, auth).map_err(to_reply)?;
                    Ok(ok_json(metadata_json(Some(handle), &meta)))
                }
                None => Err(core_error(Code::ENCODE_DECODE)),
            },
            Route::Post => {
                let h = self.id(0, 1, "handle")?;
                done(self.state().post(h))
            }
            Route::Put => {
                let h = self.id(0, 1, "handle")?;
                done(self.state().put(h))
            }
            Route::Metadata => {
                let h = self.id(0, if auth { 1 } else { 0 }, "handle")?;
                let meta = self.state().metadata(h, auth).map_err(to_reply)?;
                Ok(ok_json(metadata_json(None, &meta)))
            }
            Route::GetHandle => {
                let d = self.id(0, 1, "data id handle")?;
                let (h, meta) = self.state().fetch(d, auth).map_err(to_reply)?;
                Ok(ok_json(metadata_json(Some(h), &meta)))
            }
            Route::Serialise => {
                let h = self.id(0, 0, "handle")?;
                let ad = self.state().ad_copy(h).map_err(to_reply)?;
                Ok(ok_bytes(serialised::appendable_data(&ad)))
            }
            Route::DataId => {
                let h = self.id(0, 0, "handle")?;
                Ok(handle_json(self.state().ad_data_id(h).map_err(to_reply)?))
            }
            Route::ValidateSize => {
                let h = self.id(0, 0, "handle")?;
                Ok(valid_json(self.state().ad_size_valid(h).map_err(to_reply)?))
            }
            Route::SignKeyAt | Route::DeletedSignKeyAt => {
                let h = self.id(0, 1, "handle")?;
                let i = self.id(1, 2, "index")?;
                let deleted = self.found.def.route == Route::DeletedSignKeyAt;
                let key = self.state().signer_at(h, i, deleted).map_err(to_reply)?;
                Ok(handle_json(key))
            }
            Route::DataIdAt | Route::DeletedDataIdAt => {
                let h = self.id(0, 1, "handle")?;
                let i = self.id(1, 2, "index")?;
                let deleted = self.found.def.route == Route::DeletedDataIdAt;
                let id = self
                    .state()
                    .data_id_at(h, i, deleted, auth)
                    .map_err(to_reply)?;
                Ok(handle_json(id))
            }
            Route::FilterKeyAt => {
                let h = self.id(0, 0, "handle")?;
                let i = self.id(1, 1, "index")?;
                Ok(handle_json(
                    self.state().filter_key_at(h, i).map_err(to_reply)?,
                ))
            }
            Route::ToggleFilter => {
                let h = self.id(0, 0, "handle")?;
                done(self.state().toggle_filter(h))
            }
            Route::AddToFilter | Route::RemoveFromFilter => {
                let add = self.found.def.route == Route::AddToFilter;
                // One core call per key, in order: the keys before a failing one stay edited.
                let keys = iterate(self.json(), "keys")?;
                for key in &keys {
                    let h = self.id(0, 0, "handle")?;
                    let key = js::u64_from_json(Some(key), 1).map_err(|e| bad_request(&e))?;
                    self.state().edit_filter(h, key, add).map_err(to_reply)?;
                }
                Ok(ok())
            }
            Route::Append => {
                let h = self.id(0, 1, "handle")?;
                let d = self.id(1, 2, "data id handle")?;
                done(self.state().append(h, d))
            }
            Route::Restore => {
                // The controller checked the index with `isNaN`, then passed `parseInt` of it.
                let text = self.found.param(1).unwrap_or("");
                let index = if self.app.strict_paths {
                    self.id(1, 1, "index")?
                } else {
                    if js::string_to_number(text).is_nan() {
                        return Err(bad_request("index must be a valid number"));
                    }
                    js::number_to_u64(js::parse_int(text))
                };
                let h = self.id(0, 0, "handle")?;
                done(self.state().restore(h, index))
            }
            Route::RemoveAt | Route::RemoveDeletedAt => {
                let h = self.id(0, 0, "handle")?;
                let i = self.id(1, 1, "index")?;
                if self.found.def.route == Route::RemoveAt {
                    done(self.state().remove_at(h, i))
                } else {
                    done(self.state().remove_deleted_at(h, i))
                }
            }
            Route::DropHandle => {
                let h = self.id(0, 0, "handle")?;
                done(self.state().drop_ad(h))
            }
            Route::EncryptKey => {
                let h = self.id(0, 0, "handle")?;
                Ok(handle_json(self.state().encrypt_key(h).map_err(to_reply)?))
            }
            Route::EncryptKeyDrop => {
                let h = self.id(0, 0, "encrypt key handle")?;
                done(self.state().drop_encrypt_key(h))
            }

            // Not a route of this family (`run` sends none here).
            _ => Err(super::not_found()),
        }
    }

    /// `POST /appendable-data`.
    ///
    /// `filterType` `"WHITE_LIST"` makes a white list, anything else a black list. `filterKeys`
    /// are sign-key handles added one by one after the handle is made: a bad one fails the
    /// request and leaves the new handle live, as the launcher did.
    fn create(&self) -> Result<Reply, Reply> {
        let body = self.json();
        let name = prop(body, "name")?;
        if !js::truthy(name) {
            return Err(bad_request("name field is missing"));
        }
        let name = js::buffer_from_base64(name).map_err(|e| bad_request(&e))?;
        let name = <[u8; 32]>::try_from(name).map_err(|_| bad_request("Invalid name field"))?;
        let private = match prop(body, "isPrivate")? {
            value if !js::truthy(value) => false,
            Some(Value::Bool(true)) => true,
            _ => return Err(bad_request("Invalid isPrivate field")),
        };
        let kind = match prop(body, "filterType")? {
            Some(Value::String(kind)) if kind == "WHITE_LIST" => FilterType::WhiteList,
            _ => FilterType::BlackList,
        };
        let keys = prop(body, "filterKeys")?.filter(|v| js::truthy(Some(v)));
        let handle = self.state().create(AdKey { name, private }, kind);
        if let Some(keys) = keys {
            for key in iterate(keys, "filterKeys")? {
                let key = js::u64_from_json(Some(&key), 1).map_err(|e| bad_request(&e))?;
                self.state()
                    .edit_filter(handle, key, true)
                    .map_err(to_reply)?;
            }
        }
        Ok(handle_json(handle))
    }
}
