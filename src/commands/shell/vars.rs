//! The shell's variables: the value each keeps (`NAME = COMMAND`), and the handles of the
//! session's it holds, so that a variable whose handle a later line gave back (`drop $h`,
//! `reopen --drop $h`) is refused as that, naming the line, before anything is sent: the launcher
//! would only say it holds no such handle, for one of five reasons.
//!
//! A variable holds a handle when the line that set it made that handle (`session::line_ended`)
//! and its value names it: `h = create` holds what `create` made, while `n = metadata 6 --json`,
//! whose value may hold the number 6, holds nothing. Only handles some variable holds are
//! remembered as given back, so what is kept stays as small as the variables.

use std::collections::HashMap;

use crate::handle::Handle;
use crate::name::Name;
use crate::outcome::Failure;
use crate::report;
use crate::session::LineHandles;

use super::words::{Piece, Word};

/// The variables of one shell.
#[derive(Debug, Default)]
pub(super) struct Vars {
    values: HashMap<String, String>,
    /// By variable: the handles it holds, at the launcher they are handles of.
    holds: HashMap<String, Holding>,
    /// The handles a variable holds that a line gave back since: how.
    gone: HashMap<(String, Handle), Gone>,
}

#[derive(Debug, Clone)]
struct Holding {
    launcher: String,
    handles: Vec<(Handle, Option<Name>)>,
}

/// The line that gave a handle back.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Gone {
    /// The command as it was written (`drop $h`).
    command: String,
    /// Its line in a script; `None` at the prompt.
    line: Option<usize>,
}

impl Vars {
    /// What each variable keeps, by name, for `words::expand`.
    pub(super) fn values(&self) -> &HashMap<String, String> {
        &self.values
    }

    /// `name` now keeps `value`, printed by a line that made `made`: it holds those of the handles
    /// made that its value names.
    pub(super) fn set(&mut self, name: String, value: String, made: &LineHandles) {
        let words: Vec<&str> = value.split_whitespace().collect();
        let handles: Vec<(Handle, Option<Name>)> = (made.made.iter())
            .filter(|(handle, _)| words.contains(&handle.to_string().as_str()))
            .copied()
            .collect();
        match handles.is_empty() {
            true => self.holds.remove(&name),
            false => self.holds.insert(
                name.clone(),
                Holding {
                    launcher: made.launcher.clone(),
                    handles,
                },
            ),
        };
        self.values.insert(name, value);
        // What no variable holds any more need not be remembered.
        let holds = &self.holds;
        self.gone.retain(|(launcher, handle), _| {
            (holds.values()).any(|held| {
                held.launcher == *launcher && held.handles.iter().any(|(h, _)| h == handle)
            })
        });
    }

    /// A line ran (`command` as written, on script line `line`): the handles it gave back that a
    /// variable holds are gone, and a handle it made is one again (the launcher may give a
    /// number anew).
    pub(super) fn line_ran(&mut self, command: &[Word], line: Option<usize>, ran: &LineHandles) {
        for (handle, _) in &ran.made {
            self.gone.remove(&(ran.launcher.clone(), *handle));
        }
        for handle in &ran.given_back {
            if self.holder(&ran.launcher, *handle).is_some() {
                let command: Vec<String> = command.iter().map(Word::text).collect();
                self.gone.insert(
                    (ran.launcher.clone(), *handle),
                    Gone {
                        command: command.join(" "),
                        line,
                    },
                );
            }
        }
    }

    /// A variable of `handle` at `launcher`, if one holds it.
    fn holder(&self, launcher: &str, handle: Handle) -> Option<&Holding> {
        (self.holds.values()).find(|held| {
            held.launcher == launcher && held.handles.iter().any(|(h, _)| *h == handle)
        })
    }

    /// Refuses `words` if one of their variables holds a handle the session gave back.
    pub(super) fn refuse_given_back(&self, words: &[Word]) -> Result<(), Failure> {
        let used = (words.iter().flat_map(|word| &word.0)).filter_map(|piece| match piece {
            Piece::Var { name, .. } => Some(name),
            Piece::Text { .. } => None,
        });
        for name in used {
            let Some(held) = self.holds.get(name) else {
                continue;
            };
            for (handle, data) in &held.handles {
                if let Some(gone) = self.gone.get(&(held.launcher.clone(), *handle)) {
                    return Err(report::variable_given_back(
                        name,
                        *handle,
                        &gone.command,
                        gone.line,
                        *data,
                    ));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::words::split;
    use super::*;

    fn words(line: &str) -> Vec<Word> {
        split(line).unwrap().remove(0).words
    }

    fn ran(made: &[u64], given_back: &[u64]) -> LineHandles {
        LineHandles {
            launcher: "http://127.0.0.1:1".into(),
            made: made.iter().map(|h| (Handle(*h), None)).collect(),
            given_back: given_back.iter().map(|h| Handle(*h)).collect(),
        }
    }

    #[test]
    fn a_variable_whose_handle_was_given_back_is_refused_naming_the_line() {
        let mut vars = Vars::default();
        vars.set("h".into(), "7".into(), &ran(&[7], &[]));
        vars.set("n".into(), "7".into(), &ran(&[], &[]));
        assert!(vars.refuse_given_back(&words("metadata $h")).is_ok());
        vars.line_ran(&words("drop $h"), Some(3), &ran(&[], &[7]));
        let refused = vars
            .refuse_given_back(&words("metadata \"$h\""))
            .unwrap_err();
        assert!(
            refused
                .message
                .contains("`$h` held handle 7, which this session dropped with `drop $h` (line 3)"),
            "{}",
            refused.message
        );
        // A value that only looks like the handle was never one the variable held.
        assert!(vars.refuse_given_back(&words("remove NAME $n")).is_ok());
        // Set again, it holds what its new line made.
        vars.set("h".into(), "8".into(), &ran(&[8], &[]));
        assert!(vars.refuse_given_back(&words("metadata $h")).is_ok());
        assert!(vars.gone.is_empty(), "what no variable holds is forgotten");
    }

    #[test]
    fn a_handle_made_again_is_no_longer_gone() {
        let mut vars = Vars::default();
        vars.set("h".into(), "7".into(), &ran(&[7], &[]));
        vars.line_ran(&words("drop 7"), None, &ran(&[], &[7]));
        assert!(vars.refuse_given_back(&words("metadata $h")).is_err());
        vars.line_ran(&words("create"), None, &ran(&[7], &[]));
        assert!(vars.refuse_given_back(&words("metadata $h")).is_ok());
    }
}
