//! The launcher family: what the SAFE Launcher 0.11.0 and its storage core (safe_core 0.23.0,
//! routing 0.28.5) did, written down from them, each file naming the source it stands for. Given a
//! request, it answers as the launcher did, byte for byte; it knows nothing of how it is served.
//!
//! - `table`: the route table and how a request's method and path found a route;
//! - `routes`: authorization, bodies, statuses and every answer, route by route;
//! - `express`: the headers Express 4 put on those answers (`X-Powered-By`, `ETag`, the 304);
//! - `js`: how the launcher's JavaScript read request values;
//! - `state`: the network, the handle caches, the sessions and their bounds;
//! - `serialised`: the launcher's bytes of the serialise routes;
//! - `wire`: the emulator's JSON form of the network (the `--state` format) and of its data;
//! - `demo`: the starting data, and a launcher as it starts (demo, empty or a given network);
//! - `encoding`: base64, hex and random bytes.
//!
//! One direction: the service (`crate::service`) uses this family; nothing here names the
//! service. Where the imitation has something to tell whoever serves it (a bound reached), it
//! says so through a hook the service plugs in (`routes::Notices`). `tests/families.rs` holds
//! every file here to that.

pub(crate) mod demo;
pub(crate) mod encoding;
pub(crate) mod express;
pub(crate) mod js;
pub(crate) mod routes;
pub(crate) mod serialised;
pub(crate) mod state;
pub(crate) mod table;
pub(crate) mod wire;
