//! The service family: what a person or a CI job drives around the launcher imitation
//! (`crate::launcher`): the command-line options and one run from them to an exit code, the
//! server that serves the imitation over HTTP with its bounds, faults and the emulator's own
//! routes, the request logs and journal, the `--state`/`--import` files, and the background
//! emulator with its run directory, `--stop`, `list` and `env`.
//!
//! - `args`: the `emulator` subcommand's options; `run`: one run from them (`--stop`,
//!   `--background`, or serving); `exit`: how a run ends and says why;
//! - `lifecycle`: one served run, from the signal handlers to the exit code, and the ordered stop;
//!   `signals`: SIGTERM, SIGINT, SIGHUP and the runtime they are watched in; `command`: the
//!   `-- COMMAND` mode;
//! - `server`: bind, accept, connections and their bounds, counts, the stop of the server;
//!   `fault`: `--fault-rate`/`--fault-seed`; `admin`: the emulator's own routes under
//!   `/_emulator/` (the request journal, network, handles and reset);
//! - `log`: the stderr log and the `--log` records; `redact`: the token kept out of them;
//! - `files`: the files given (their types, that no two options name one, those a start made,
//!   and the one atomic writer every file the emulator replaces goes through); `fixture`: the
//!   `--state` file (lock, checks, save) and `--import`;
//! - `background`: `--background`, the starter; `daemon`: the emulator's side of running
//!   detached; `rundir`: the directory they and `--stop` share; `stop`: `--stop`; `list`:
//!   `emulator list`; `env`: `emulator env`, the variables printed again.
//!
//! One direction: this family uses the launcher's; the launcher's never names this one.

pub(crate) mod admin;
pub(crate) mod args;
pub(crate) mod background;
pub(crate) mod command;
pub(crate) mod daemon;
pub(crate) mod env;
pub(crate) mod exit;
pub(crate) mod fault;
pub(crate) mod files;
pub(crate) mod fixture;
pub(crate) mod lifecycle;
pub(crate) mod list;
pub(crate) mod log;
pub(crate) mod redact;
pub(crate) mod run;
pub(crate) mod rundir;
pub(crate) mod server;
pub(crate) mod signals;
pub(crate) mod stop;
