//! A client of the emulator's own routes (`/_emulator/...`), for `emulator requests` and
//! `emulator export`: where the routes are (the launcher URL's root, not its path prefix),
//! sending one request to them through the launcher module's narrow door
//! (`Launcher::emulator_route`), and judging the answer with words about the emulator (no
//! emulator there, a token that is not the one it printed). It stands above `runtime` (a
//! request is cut short by Ctrl-C) and below `commands`; it shares nothing with the emulator
//! crate, which it checks from outside.

use reqwest::Method;

use crate::launcher::{Answer, Launcher};
use crate::outcome::{self, Class, Failure, Hint};
use crate::runtime::interruptible;
use crate::settings::Settings;
use crate::url::{parse_launcher_url, LauncherUrl};

/// The most of an answer from one of the emulator's own routes: a journal's records, at their
/// longest, for its 16 MiB bound.
const MAX_EMULATOR_ANSWER: usize = 256 * 1024 * 1024;

/// The launcher URL without its path prefix (the emulator's own routes are at its root).
pub fn root_of(url: &LauncherUrl) -> LauncherUrl {
    reqwest::Url::parse(url.base())
        .ok()
        .and_then(|mut root| {
            root.set_path("/");
            parse_launcher_url(root.as_str()).ok()
        })
        .unwrap_or_else(|| url.clone())
}

/// Which of the emulator's own routes a command reads: its refusals name it, so that the
/// hint of `emulator export` is not about the journal.
#[derive(Debug, Clone, Copy)]
pub enum Reads {
    /// `emulator requests`: the journal of the requests answered.
    Journal,
    /// `emulator export`: what the emulator holds on its network.
    Network,
}

impl Reads {
    /// The command and what it reads, to begin a hint with.
    fn reads(self) -> &'static str {
        match self {
            Reads::Journal => {
                "`safe-ad emulator requests` reads the emulator's journal (GET /_emulator/requests)"
            }
            Reads::Network => {
                "`safe-ad emulator export` reads what the emulator holds (GET /_emulator/network)"
            }
        }
    }

    /// The token of the command's settings, or the "no token" failure with a hint that
    /// names the one token the route takes (`auth login` never gives it).
    pub fn token(self, settings: &Settings) -> Result<(), Failure> {
        settings.token().map(|_| ()).map_err(|failure| {
            failure.with_hint(format!(
                "{}, which opens only with the token the emulator printed at start: `eval \
                 \"$(safe-ad emulator --background)\"` exports it as SAFE_LAUNCHER_TOKEN (give \
                 it to this step too), or pass it with --token-file PATH",
                self.reads()
            ))
        })
    }
}

/// Sends one request to one of the emulator's own routes (`reads` says which) and judges its
/// answer: a 2xx is the answer; no emulator there, a wrong token or a launcher that is not an
/// emulator are failures that say so.
pub async fn send(
    launcher: &Launcher,
    base: &str,
    method: Method,
    route: String,
    reads: Reads,
) -> Result<Answer, Failure> {
    let sent = interruptible(launcher.emulator_route(method, &route, MAX_EMULATOR_ANSWER)).await?;
    let answer = match sent {
        Ok(answer) => answer,
        Err(no_answer) => {
            let failure = outcome::judge_no_answer(&no_answer, None, base);
            return Err(match failure.class {
                Class::Unreachable => Failure {
                    hint: Some(Hint::Said(format!(
                        "no emulator answers at {base}: start one with `eval \"$(safe-ad \
                     emulator --background)\"` in an earlier step, and make sure this step \
                     has its SAFE_LAUNCHER_URL and SAFE_LAUNCHER_TOKEN"
                    ))),
                    ..failure
                },
                _ => failure,
            });
        }
    };
    match answer.status {
        200..=299 => Ok(answer),
        401 | 403 => Err(outcome::judge_answer(&answer).err().map_or_else(
            || Failure::new(Class::Auth, "the emulator refused the token"),
            |failure| {
                failure.with_hint(format!(
                    "{}, which opens only with the token the emulator printed at start \
                     (SAFE_LAUNCHER_TOKEN from `safe-ad emulator --background`), not one \
                     from `safe-ad auth login`",
                    reads.reads()
                ))
            },
        )),
        404 => Err(Failure::new(
            Class::Rejected,
            format!(
                "{base} answered 404 for {}: it is not a safe-ad emulator, or the token is not \
             the one it printed",
                route.split('?').next().unwrap_or_default()
            ),
        )
        .with_hint(format!(
            "{}, with the SAFE_LAUNCHER_TOKEN that `safe-ad emulator --background` \
             printed (a token from `safe-ad auth login` opens only the launcher's routes)",
            reads.reads()
        ))),
        _ => Err(outcome::judge_answer(&answer)
            .err()
            .unwrap_or_else(|| Failure::new(Class::Unexpected, "an answer that is not 2xx"))),
    }
}
