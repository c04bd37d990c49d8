//! The structured-data routes, as the launcher's `app/server/controllers/structured_data.js`
//! answered them; the data's behaviour is `state::structured`'s (safe_core 0.23.0's
//! `src/ffi/low_level_api/struct_data.rs`).

use serde_json::Value;

use super::{
    bad_request, core_error, done, handle_json, ok_bytes, ok_json, prop, to_reply, valid_json,
    Call, Reply,
};
use crate::launcher::js;
use crate::launcher::serialised;
use crate::launcher::state::{Cipher, Code, SdKey, SdMetadata};
use crate::launcher::table::Route;

/// Structured-data metadata; `dataVersionLength` only for versioned data (the launcher's value
/// was `undefined`, which JSON leaves out, for the others).
fn sd_metadata_json(handle: Option<u64>, meta: &SdMetadata) -> String {
    let handle = handle
        .map(|h| format!("\"handleId\":{h},"))
        .unwrap_or_default();
    let versions = meta
        .versions
        .map(|n| format!(",\"dataVersionLength\":{n}"))
        .unwrap_or_default();
    format!(
        "{{{handle}\"isOwner\":{},\"version\":{}{versions}}}",
        meta.is_owner, meta.version
    )
}

impl Call<'_> {
    /// The structured-data routes.
    pub(super) fn structured(&self) -> Result<Reply, Reply> {
        let auth = self.authorised;
        match self.found.def.route {
            Route::SdCreate => self.sd_create(),
            Route::SdUpdate => self.sd_update(),
            Route::SdDeserialise => match serialised::structured_data_from(self.raw()) {
                Some(sd) => {
                    let mut state = self.state();
                    let handle = state.add_sd(sd);
                    let meta = state.sd_metadata(handle, auth).map_err(to_reply)?;
                    Ok(ok_json(sd_metadata_json(Some(handle), &meta)))
                }
                None => Err(core_error(Code::ENCODE_DECODE)),
            },
            Route::SdPost => {
                let h = self.id(0, 1, "handle")?;
                done(self.state().sd_post(h))
            }
            Route::SdPut => {
                let h = self.id(0, 1, "handle")?;
                done(self.state().sd_put(h))
            }
            Route::SdMetadata => {
                let h = self.id(0, if auth { 1 } else { 0 }, "handle")?;
                let meta = self.state().sd_metadata(h, auth).map_err(to_reply)?;
                Ok(ok_json(sd_metadata_json(None, &meta)))
            }
            Route::SdGetHandle => {
                let d = self.id(0, 1, "data id handle")?;
                let (h, meta) = self.state().sd_fetch(d, auth).map_err(to_reply)?;
                Ok(ok_json(sd_metadata_json(Some(h), &meta)))
            }
            Route::SdDataId => {
                let h = self.id(0, 0, "handle")?;
                Ok(handle_json(self.state().sd_data_id(h).map_err(to_reply)?))
            }
            Route::SdSerialise => {
                let h = self.id(0, 0, "handle")?;
                let sd = self.state().sd_copy(h).map_err(to_reply)?;
                Ok(ok_bytes(serialised::structured_data(&sd)))
            }
            Route::SdValidateSize => {
                let h = self.id(0, 0, "handle")?;
                Ok(valid_json(self.state().sd_size_valid(h).map_err(to_reply)?))
            }
            Route::SdRead => {
                let h = self.id(0, 1, "handle")?;
                // `isNaN(version)`: a left-out or non-numeric version reads the current data.
                let version = match self.found.param(1) {
                    Some(text) if !js::string_to_number(text).is_nan() => {
                        Some(self.id(1, 2, "version")?)
                    }
                    _ => None,
                };
                Ok(ok_bytes(
                    self.state().sd_read(h, version, auth).map_err(to_reply)?,
                ))
            }
            Route::SdDelete => {
                // `deleteStructureData` (the one the route table names) read the handle with
                // `parseInt(handleId, 10)` and gave the number to the core: `010` is 10, `0x10`
                // is 0, and `abc` is NaN, which `ref` wrote as 0.
                let h = if self.app.strict_paths {
                    self.id(0, 1, "handle")?
                } else {
                    js::number_to_u64(js::parse_int(self.found.param(0).unwrap_or("")))
                };
                done(self.state().sd_delete(h))
            }
            Route::SdUnclaim => {
                let h = self.id(0, 1, "handle")?;
                done(self.state().sd_unclaim(h))
            }
            Route::SdDrop => {
                let h = self.id(0, 0, "handle")?;
                done(self.state().drop_sd(h))
            }

            // Not a route of this family (`run` sends none here).
            _ => Err(super::not_found()),
        }
    }

    /// `POST /structured-data`: the controller's checks, then the core's arguments in order
    /// (version, then cipher options), then the cipher-options handle.
    fn sd_create(&self) -> Result<Reply, Reply> {
        let body = self.json();
        let name = prop(body, "name")?;
        if !js::truthy(name) {
            return Err(bad_request("name is missing in request body"));
        }
        let name = js::buffer_from_base64(name).map_err(|e| bad_request(&e))?;
        let name = <[u8; 32]>::try_from(name).map_err(|_| bad_request("Invalid id specified"))?;
        let tag = prop(body, "typeTag")?.filter(|v| js::truthy(Some(v)));
        let tag = match tag {
            None => 500.0,
            Some(value) if js::is_nan(Some(value)) => {
                return Err(bad_request("Tag type must be a valid number"))
            }
            Some(value) => js::parse_int_value(value),
        };
        if !(tag == 500.0 || tag == 501.0 || tag >= 15000.0) {
            return Err(bad_request("Invalid tag type specified"));
        }
        let cipher = self.cipher(body)?;
        let data = match prop(body, "data")? {
            value if js::truthy(value) => {
                js::buffer_from_base64(value).map_err(|e| bad_request(&e))?
            }
            _ => Vec::new(),
        };
        let version = match body {
            Value::Object(fields) if fields.contains_key("version") => {
                js::u64_from_json(fields.get("version"), 3).map_err(|e| bad_request(&e))?
            }
            _ => 0,
        };
        let cipher = cipher.resolve(4)?;
        let mut state = self.state();
        let encrypted = state.check_cipher(cipher).map_err(to_reply)? != Cipher::Plain;
        let key = SdKey {
            name,
            type_tag: js::number_to_u64(tag),
        };
        Ok(handle_json(state.sd_create(key, version, data, encrypted)))
    }

    /// `PATCH /structured-data/:h`: new data for the local copy, one version up.
    fn sd_update(&self) -> Result<Reply, Reply> {
        let body = self.json();
        let cipher = self.cipher(body)?;
        let data = js::buffer_from_base64(prop(body, "data")?).map_err(|e| bad_request(&e))?;
        let h = self.id(0, 1, "handle")?;
        let cipher = cipher.resolve(2)?;
        let mut state = self.state();
        state.sd_copy(h).map_err(to_reply)?;
        let encrypted = state.check_cipher(cipher).map_err(to_reply)? != Cipher::Plain;
        done(state.sd_update(h, data, encrypted))
    }

    /// `body.cipherOpts || <the plain cipher-options handle>`: the plain one is made on first use.
    fn cipher(&self, body: &Value) -> Result<CipherArg, Reply> {
        match prop(body, "cipherOpts")? {
            value @ Some(_) if js::truthy(value) => Ok(CipherArg::Given(value.cloned())),
            _ => Ok(CipherArg::Plain(self.state().plain_cipher())),
        }
    }
}

/// The cipher options of a structured-data create or update, not yet given to the core.
enum CipherArg {
    Plain(u64),
    Given(Option<Value>),
}

impl CipherArg {
    /// The handle as core argument number `position`.
    fn resolve(self, position: usize) -> Result<u64, Reply> {
        match self {
            CipherArg::Plain(handle) => Ok(handle),
            CipherArg::Given(value) => {
                js::u64_from_json(value.as_ref(), position).map_err(|e| bad_request(&e))
            }
        }
    }
}
