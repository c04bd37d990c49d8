//! `safe-ad emulator env [--pid PID] [--user NAME] [--format sh|env]`: prints again the
//! variables that `--background` printed for one of the user's running background emulators, in
//! the same format, for a shell that lost them (`eval "$(safe-ad emulator env)"`); with `--user
//! NAME`, the same four variables with that user's URL and token, so that
//! `eval "$(safe-ad emulator env --user bob)"` makes the shell's commands bob's.
//!
//! Which one is chosen as `--stop` chooses without the variables: `--pid PID` (one of the user's
//! background emulators), or the only one that runs (`rundir::running`); with several, they are
//! listed and `--pid` asked for (exit 2); with none, exit 1.
//!
//! The URL comes from its `about` file and the token from its `token` file, read only from a
//! directory that passes `--stop`'s checks: `RunDir::check_own` (its name, owner, mode 0700 and
//! nothing in it but the files an emulator writes) and proof that the process is the emulator
//! that made it (`RunDir::made_by`: it holds the directory and its lock open; where `/proc`
//! cannot tell, its `pid` file names it and the lock is held). The token file itself must be a
//! regular file of this user's, mode 0600, not a link, with no second name (`RunDir::token`); the
//! URL must be the loopback `http://ADDRESS:PORT` an emulator writes. A named user's URL is read
//! from the same `about` file and its token from the `tokens` file, read as `token` is
//! (`RunDir::user_token`); a name the emulator does not serve is exit 1. The token is printed
//! only within the variables on stdout; no message names it. A directory an emulator holds that
//! failed a check is named, with the check, where the error says that none runs.

use std::io::Write;

use crate::service::background::variables;
use crate::service::exit::{say, Exit};
use crate::service::fixture::reason;
use crate::service::list::{refused_lines, shown as escaped};
use crate::service::rundir::{dir_of_process, survey, Foreign, RunDir};
use crate::service::stop::{count, listing, what_runs};

/// Prints the variables of the emulator chosen as the module's notes say (of its user `user`,
/// else its first): `export NAME='VALUE'` lines, or `NAME=VALUE` lines with `env_file`.
pub fn run(pid: Option<u32>, env_file: bool, user: Option<&str>) -> Exit {
    let (pid, dir) = match choose(pid) {
        Ok(chosen) => chosen,
        Err((message, exit)) => {
            say(&format!("safe-ad emulator env: error: {message}\n"));
            return exit;
        }
    };
    let url = match proven(pid, &dir) {
        Ok(url) => url,
        Err(message) => {
            say(&format!("safe-ad emulator env: error: {message}\n"));
            return Exit::Failed;
        }
    };
    if env_file && dir.path().to_string_lossy().contains(['\n', '\r']) {
        say(&format!(
            "safe-ad emulator env: error: --format env: the path of process {pid}'s run directory \
             holds a line break, which an env file cannot hold; use --format sh\n"
        ));
        return Exit::Failed;
    }
    let (url, token) = match user {
        None => (url, dir.token()),
        Some(name) => match user_door(pid, &dir, name) {
            Ok(door) => door,
            Err(message) => {
                say(&format!("safe-ad emulator env: error: {message}\n"));
                return Exit::Failed;
            }
        },
    };
    let token = match token {
        Ok(token) => token,
        Err(why) => {
            say(&format!(
                "safe-ad emulator env: error: process {pid}'s run directory {}: {why}; its token \
                 is not printed (`safe-ad emulator --stop --pid {pid}` stops it)\n",
                dir.path().display()
            ));
            return Exit::Failed;
        }
    };
    let text = variables(&url, &token, pid, dir.path(), !env_file);
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Exit::Stopped,
        Err(error) => {
            say(&format!(
                "safe-ad emulator env: error: cannot write the variables: {}\n",
                reason(&error)
            ));
            Exit::Failed
        }
    }
}

/// The emulator to print the variables of, or what to say and how to exit.
fn choose(pid: Option<u32>) -> Result<(u32, RunDir), (String, Exit)> {
    let temporary = std::env::temp_dir();
    let survey = survey();
    let found = survey.running;
    // Directories an emulator holds that failed a check: said, so that "none runs" is not
    // taken for the whole truth.
    let refused: String = refused_lines(&survey.refused)
        .iter()
        .map(|line| format!("; {line}"))
        .collect();
    if let Some(pid) = pid {
        return found
            .into_iter()
            .find(|(found, _)| *found == pid)
            .or_else(|| dir_of_process(pid).map(|dir| (pid, dir)))
            .ok_or_else(|| {
                (
                    format!(
                        "process {pid}{} is not a background emulator of yours (none in {} is; \
                         `safe-ad emulator list` lists them){refused}",
                        what_runs(pid),
                        temporary.display()
                    ),
                    Exit::Failed,
                )
            });
    }
    match found.len() {
        0 => Err((
            match refused.is_empty() {
                true => format!(
                    "no background emulator of yours runs (none in {})",
                    temporary.display()
                ),
                false => format!(
                    "no background emulator of yours runs in a directory that passes the \
                     checks{refused}"
                ),
            },
            Exit::Failed,
        )),
        1 => Ok(found.into_iter().next().expect("one")),
        n => Err((
            format!(
                "{} of yours run:\n{}give --pid PID to choose one (`safe-ad emulator env --pid \
                 PID`)",
                count(n),
                listing(&found)
            ),
            Exit::Usage,
        )),
    }
}

/// Checks that `dir` is a run directory `--background` made and that process `pid` is its
/// running emulator, as `--stop` does before any signal; the URL its `about` file gives.
fn proven(pid: u32, dir: &RunDir) -> Result<String, String> {
    let shown = dir.path().display();
    match dir.check_own() {
        Ok(()) => {}
        Err(Foreign::Gone) => return Err(format!("{shown} is gone: process {pid} has ended")),
        Err(Foreign::Not(why)) => {
            return Err(format!(
                "{shown} is not a directory that `safe-ad emulator --background` made: {why}; its \
                 token is not read"
            ))
        }
    }
    match dir.pid() {
        Ok(found) if found == pid => {}
        Ok(found) => {
            return Err(format!(
                "{shown} is the directory of process {found}, not of process {pid}"
            ))
        }
        Err(error) => {
            return Err(format!(
                "{shown} is not the directory of an emulator: {}",
                reason(&error)
            ))
        }
    }
    let runs = dir
        .is_running()
        .map_err(|error| format!("cannot tell whether process {pid} runs: {}", reason(&error)))?;
    if !runs || !dir.made_by(pid).unwrap_or(runs) {
        return Err(format!(
            "process {pid}{} is not the running emulator of {shown}",
            what_runs(pid)
        ));
    }
    let url = dir.about().url;
    if url.is_empty() {
        return Err(format!(
            "{shown}/about does not say where process {pid} listens"
        ));
    }
    if !is_loopback_http(&url) {
        return Err(format!(
            "{shown}/about gives `{}` as where process {pid} listens, which is not the \
             http://ADDRESS:PORT on this machine (127.0.0.0/8 or [::1]) an emulator writes there; \
             its variables are not printed",
            escaped(&url)
        ));
    }
    Ok(url)
}

/// Where user `name` of the emulator `pid` (whose directory `dir` passed the checks) listens, and
/// its token or why it cannot be had; an error when the emulator serves no such user.
fn user_door(
    pid: u32,
    dir: &RunDir,
    name: &str,
) -> Result<(String, Result<String, String>), String> {
    let about = dir.about();
    let Some((_, url)) = about.users.iter().find(|(user, _)| user == name) else {
        let names: Vec<&str> = about.users.iter().map(|(user, _)| user.as_str()).collect();
        return Err(format!(
            "process {pid} serves no user `{}` ({}; `safe-ad emulator list` names each \
             one's users)",
            escaped(name),
            match names.is_empty() {
                true => "it names no user: it was started without --user".to_owned(),
                false => format!("its users: {}", escaped(&names.join(", "))),
            }
        ));
    };
    if !is_loopback_http(url) {
        return Err(format!(
            "{}/about gives `{}` as where user `{}` of process {pid} listens, which is not the \
             http://ADDRESS:PORT on this machine an emulator writes there; its variables are \
             not printed",
            dir.path().display(),
            escaped(url),
            escaped(name)
        ));
    }
    let token = match dir.user_token(name) {
        Ok(Some(token)) => Ok(token),
        Ok(None) => Err(format!(
            "its tokens file holds no token of user `{}`",
            escaped(name)
        )),
        Err(why) => Err(why),
    };
    Ok((url.clone(), token))
}

/// Whether `url` is what an emulator writes in its `about` file: `http://`, then a loopback
/// address and a port (its listening socket's address, as `SocketAddr` writes it), nothing
/// more: no other host, user, path, query or character a shell or terminal would act on.
fn is_loopback_http(url: &str) -> bool {
    url.strip_prefix("http://")
        .and_then(|address| address.parse::<std::net::SocketAddr>().ok())
        .is_some_and(|address| address.ip().is_loopback() && address.port() != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_loopback_address_an_emulator_writes_is_a_url_to_print() {
        for good in [
            "http://127.0.0.1:8100",
            "http://127.4.5.6:1",
            "http://[::1]:65535",
        ] {
            assert!(is_loopback_http(good), "{good}");
        }
        for bad in [
            "",
            "http://10.0.0.1:8100",
            "http://example.com:8100",
            "http://localhost:8100",
            "https://127.0.0.1:8100",
            "http://127.0.0.1",
            "http://127.0.0.1:0",
            "http://127.0.0.1:8100/0.6",
            "http://user@127.0.0.1:8100",
            "http://127.0.0.1:8100'; rm -rf ~; '",
            "http://127.0.0.1:8100\n",
            " http://127.0.0.1:8100",
        ] {
            assert!(!is_loopback_http(bad), "{bad:?}");
        }
    }
}
