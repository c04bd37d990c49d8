//! `safe-ad emulator list`: the background emulators of the user's that run, found by their run
//! directories in the temporary directory (`rundir::running`, which proves each one runs: see
//! `rundir`), with what their `about` files say: process id, URL, when it started, the fixture it
//! loaded, the directory, and the users it serves (`--user`; a column of the table when one of
//! them names users, and `users` in the JSON of one that does). A table (with, on stderr, how
//! to get one's variables and stop it), or with `--json` one JSON object each, which the client
//! prints (and `--jq` filters). A directory of the user's that an emulator holds but that failed
//! a check is left out, and stderr says which check (`rundir::survey`). The table's cells are
//! words for a terminal: a character that would drive it (a control or bidi character, in a
//! fixture's path say) is shown escaped; `--json` holds the values as they are.

use std::io::Write;

use crate::service::exit::{say, Exit};
use crate::service::log::is_unsafe;
use crate::service::rundir::{survey, RunDir};

/// The user's background emulators that run, each as its process id and URL: for the client's
/// hints ("no token", 401, a refused connection), which then name `safe-ad emulator env`.
pub fn yours() -> Vec<(u32, String)> {
    (survey().running.into_iter())
        .map(|(pid, dir)| (pid, dir.about().url))
        .collect()
}

/// One background emulator as `--json` gives it: the type the client prints, and the one its
/// key table (docs/emulator-ci.md) is written from.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Listed {
    pub pid: u32,
    pub url: String,
    /// When it started, UTC (`2026-11-26T14:22:41Z`).
    pub started: String,
    /// The fixture it loaded (`--import` or `--state`), if any.
    pub fixture: Option<String>,
    /// Its run directory.
    pub dir: String,
    /// The users it serves (`--user`), left out when it serves the one user.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub users: Vec<ListedUser>,
}

/// One user an emulator serves (`--user NAME`): the name and the launcher URL that is theirs.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct ListedUser {
    pub name: String,
    pub url: String,
}

/// `--json`: one object each, for the client to print as it prints all its JSON (through
/// `--jq` too); the directories left out are said on stderr, as with the table.
pub fn objects() -> Vec<Listed> {
    let survey = survey();
    for line in refused_lines(&survey.refused) {
        say(&format!("safe-ad emulator list: {line}\n"));
    }
    (survey.running.iter())
        .map(|(pid, dir)| {
            let about = dir.about();
            Listed {
                pid: *pid,
                url: about.url.clone(),
                started: utc(about.started),
                fixture: (!about.fixture.is_empty()).then(|| about.fixture.clone()),
                dir: dir.path().display().to_string(),
                users: (about.users.iter())
                    .map(|(name, url)| ListedUser {
                        name: name.clone(),
                        url: url.clone(),
                    })
                    .collect(),
            }
        })
        .collect()
}

/// The table: lists them on stdout; none is said on stderr (exit 0 either way); a table that
/// could not be written is exit 1.
pub fn run() -> Exit {
    let survey = survey();
    let found = survey.running;
    for line in refused_lines(&survey.refused) {
        say(&format!("safe-ad emulator list: {line}\n"));
    }
    let mut text = String::new();
    if found.is_empty() && survey.refused.is_empty() {
        say(&format!(
            "safe-ad emulator list: no background emulator of yours runs (none in {})\n",
            std::env::temp_dir().display()
        ));
    } else if found.is_empty() {
        say("safe-ad emulator list: no other background emulator of yours runs\n");
    } else {
        let abouts: Vec<_> = found.iter().map(|(_, dir)| dir.about()).collect();
        // The users column only where an emulator names users: without, the table is as it was.
        let named = abouts.iter().any(|about| !about.users.is_empty());
        let rows: Vec<Vec<String>> = found
            .iter()
            .zip(&abouts)
            .map(|((pid, dir), about)| {
                let mut row = vec![
                    pid.to_string(),
                    shown(&about.url),
                    utc(about.started),
                    if about.fixture.is_empty() {
                        "-".to_owned()
                    } else {
                        shown(&about.fixture)
                    },
                    shown(&dir.path().display().to_string()),
                ];
                if named {
                    let names: Vec<&str> = about.users.iter().map(|(n, _)| n.as_str()).collect();
                    row.push(match names.is_empty() {
                        true => "-".to_owned(),
                        false => shown(&names.join(",")),
                    });
                }
                row
            })
            .collect();
        let mut header: Vec<String> = ["PID", "URL", "STARTED", "FIXTURE", "DIR"]
            .map(str::to_owned)
            .to_vec();
        if named {
            header.push("USERS".to_owned());
        }
        let mut widths = vec![0usize; header.len()];
        for row in std::iter::once(&header).chain(&rows) {
            for (width, cell) in widths.iter_mut().zip(row) {
                *width = (*width).max(cell.chars().count());
            }
        }
        for row in std::iter::once(&header).chain(&rows) {
            let cells: Vec<String> = row
                .iter()
                .zip(&widths)
                .map(|(cell, &width)| format!("{cell:width$}"))
                .collect();
            text.push_str(cells.join("  ").trim_end());
            text.push('\n');
        }
    }
    let mut stdout = std::io::stdout().lock();
    let written = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
    drop(stdout);
    // A list that did not reach its reader (`> /dev/full`) is not exit 0; one that went away
    // (`| head -1`) took what it wanted.
    match written {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            say(&format!(
                "safe-ad emulator list: error: cannot write the list: {}\n",
                crate::service::fixture::reason(&error)
            ));
            return Exit::Failed;
        }
        _ => {}
    }
    if !found.is_empty() {
        // After the table, on stderr, so that stdout stays the table.
        say(
            "safe-ad emulator list: `safe-ad emulator env --pid PID` prints one's variables \
             (SAFE_LAUNCHER_URL, SAFE_LAUNCHER_TOKEN, ...) again; `safe-ad emulator --stop --pid \
             PID` stops it\n",
        );
        if found.iter().any(|(_, dir)| !dir.about().users.is_empty()) {
            say(
                "safe-ad emulator list: `safe-ad emulator env --pid PID --user NAME` prints them \
                 for one of its USERS\n",
            );
        }
    }
    Exit::Stopped
}

/// For each directory an emulator holds that failed a check, one line saying which (for `list`
/// and `env`, which both leave it out).
pub(crate) fn refused_lines(refused: &[(RunDir, String)]) -> Vec<String> {
    refused
        .iter()
        .map(|(dir, why)| {
            format!(
                "{} is left out, though an emulator holds it: {}; it is not taken for a run \
                 directory of `safe-ad emulator --background`, and --stop refuses it too",
                shown(&dir.path().display().to_string()),
                shown(why)
            )
        })
        .collect()
}

/// `text` as a table cell or message shows it: each character that would drive a terminal
/// (controls, bidi controls) escaped as Rust writes it (`\n`, `\u{1b}`), the rest as it is.
pub(crate) fn shown(text: &str) -> String {
    text.chars()
        .map(|c| match is_unsafe(c) {
            true => c.escape_default().collect(),
            false => c.to_string(),
        })
        .collect()
}

/// Seconds since 1970 as `2026-11-26T14:22:41Z`.
fn utc(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let rest = seconds % 86_400;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3_600,
        rest % 3_600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_show_what_would_drive_a_terminal_escaped() {
        assert_eq!(
            shown("/tmp/a\u{1b}[2Jb\nc.json"),
            "/tmp/a\\u{1b}[2Jb\\nc.json"
        );
        assert_eq!(shown("x\u{202e}y"), "x\\u{202e}y");
        assert_eq!(shown("/tmp/plain é.json"), "/tmp/plain é.json");
    }

    #[test]
    fn times_are_utc_dates() {
        assert_eq!(utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc(1_795_702_961), "2026-11-26T14:22:41Z");
    }
}
