//! The data-id and sign-key routes, as the launcher's `app/server/controllers/data_id.js` and
//! `appendable_data.js` (its sign-key routes) answered them; what they do is `state::keys`'
//! (safe_core 0.23.0's `src/ffi/low_level_api/data_id.rs` and `misc.rs`).

use serde_json::Value;

use super::{bad_request, core_error, done, handle_json, ok_bytes, prop, to_reply, Call, Reply};
use crate::launcher::js;
use crate::launcher::serialised;
use crate::launcher::state::{AdKey, Code, DataId, SdKey};
use crate::launcher::table::Route;

impl Call<'_> {
    /// The data-id and sign-key routes.
    pub(super) fn keys(&self) -> Result<Reply, Reply> {
        match self.found.def.route {
            Route::DataIdAppendable => {
                let body = self.json();
                let name = name_for_core(prop(body, "name")?)?;
                let private = js::truthy(prop(body, "isPrivate")?);
                let key = AdKey { name, private };
                Ok(handle_json(
                    self.state().new_data_id(DataId::Appendable(key)),
                ))
            }
            Route::DataIdStructured => {
                let body = self.json();
                let name = name_for_core(prop(body, "name")?)?;
                let type_tag = match prop(body, "typeTag")? {
                    // The FFI wrapper's default parameter.
                    None => 500,
                    value => js::u64_from_json(value, 0).map_err(|e| bad_request(&e))?,
                };
                let key = SdKey { name, type_tag };
                Ok(handle_json(
                    self.state().new_data_id(DataId::Structured(key)),
                ))
            }
            Route::DataIdSerialise => {
                let h = self.id(0, 0, "handle")?;
                let id = self.state().data_id_value(h).map_err(to_reply)?;
                Ok(ok_bytes(serialised::data_id(&id)))
            }
            Route::DataIdDeserialise => {
                if self.raw().is_empty() {
                    return Err(bad_request("Body can not be empty"));
                }
                match serialised::data_id_from(self.raw()) {
                    Some(id) => Ok(handle_json(self.state().new_data_id(id))),
                    None => Err(core_error(Code::ENCODE_DECODE)),
                }
            }
            Route::DataIdDrop => {
                let h = self.id(0, 0, "handle")?;
                done(self.state().drop_data_id(h))
            }

            Route::SignKey => Ok(handle_json(self.state().user_sign_key())),
            Route::SignKeySerialise => {
                let h = self.id(0, 0, "sign key handle")?;
                let key = self.state().sign_key_value(h).map_err(to_reply)?;
                Ok(ok_bytes(serialised::sign_key(&key)))
            }
            Route::SignKeyDeserialise => match serialised::sign_key_from(self.raw()) {
                Some(key) => Ok(handle_json(self.state().add_sign_key(key))),
                None => Err(core_error(Code::ENCODE_DECODE)),
            },
            Route::SignKeyDrop => {
                let h = self.id(0, 0, "sign key handle")?;
                done(self.state().drop_sign_key(h))
            }
            // Not a route of this family (`run` sends none here).
            _ => Err(super::not_found()),
        }
    }
}

/// A `name` for a data-id route: the launcher passed `new Buffer(name, 'base64')` to the core,
/// which read 32 bytes from it whatever its length. The emulator pads a shorter one with zero
/// bytes and uses the first 32 of a longer one.
fn name_for_core(value: Option<&Value>) -> Result<[u8; 32], Reply> {
    let bytes = js::buffer_from_base64(value).map_err(|e| bad_request(&e))?;
    let mut name = [0u8; 32];
    for (slot, byte) in name.iter_mut().zip(bytes) {
        *slot = byte;
    }
    Ok(name)
}
