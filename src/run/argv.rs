//! The command line as typed, read once before clap reads it: the few things that matter
//! before (or without) a parse — the token file to keep out of every word, the colour of a
//! refusal, `--version` alone, `help --help` — and the words clap's errors are rewritten from.

use std::ffi::OsString;
use std::path::Path;

use clap::ValueEnum;

use crate::cli::ColorWhen;

/// The arguments (the program name first) and their words: those after the program name, up
/// to `--` or the first that is not UTF-8, scanned once.
pub(super) struct Typed<'a> {
    pub args: &'a [OsString],
    words: Vec<&'a str>,
}

impl<'a> Typed<'a> {
    pub fn new(args: &'a [OsString]) -> Typed<'a> {
        let words = args
            .iter()
            .skip(1)
            .map_while(|arg| arg.to_str())
            .take_while(|arg| *arg != "--")
            .collect();
        Typed { args, words }
    }

    /// The words before `--`.
    pub fn words(&self) -> &[&'a str] {
        &self.words
    }

    /// `safe-ad --version` (or `-V`) and nothing else: the commonest probe of a tool.
    pub fn only_version(&self) -> bool {
        matches!(self.args, [_, only] if only == "--version" || only == "-V")
    }

    /// `safe-ad __complete -- WORDS...`, as the completion scripts ask: the words after `--`
    /// (a word that is not UTF-8 read lossily; completion only compares it).
    pub fn completing(&self) -> Option<Vec<String>> {
        match self.args {
            [_, ask, dashes, words @ ..]
                if ask == crate::generate::complete::ASK && dashes == "--" =>
            {
                Some(
                    words
                        .iter()
                        .map(|word| word.to_string_lossy().into_owned())
                        .collect(),
                )
            }
            _ => None,
        }
    }

    /// `safe-ad help --help` (or `-h`).
    pub fn help_of_help(&self) -> bool {
        self.args.len() == 3 && matches!(self.words.as_slice(), ["help", "--help" | "-h"])
    }

    /// `--token-file PATH` as typed (the last one given).
    pub fn token_file(&self) -> Option<&'a Path> {
        self.value_of("--token-file").map(Path::new)
    }

    /// `--color WHEN` as typed (the last one given), when WHEN is one.
    pub fn colour(&self) -> Option<ColorWhen> {
        ColorWhen::from_str(self.value_of("--color")?, false).ok()
    }

    /// The value of the last `--NAME VALUE` or `--NAME=VALUE`.
    fn value_of(&self, long: &str) -> Option<&'a str> {
        let words = &self.words;
        words
            .iter()
            .enumerate()
            .rev()
            .find_map(|(at, word)| match word.strip_prefix(long) {
                Some("") => Some(words.get(at + 1).copied()),
                Some(rest) => rest.strip_prefix('=').map(Some),
                None => None,
            })
            .flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(words: &[&str]) -> Vec<OsString> {
        std::iter::once("safe-ad")
            .chain(words.iter().copied())
            .map(OsString::from)
            .collect()
    }

    #[test]
    fn values_are_the_last_given_before_the_dashes() {
        let args = typed(&[
            "--token-file",
            "a",
            "put",
            "--token-file=b",
            "--color",
            "never",
            "--",
            "--color=always",
        ]);
        let typed = Typed::new(&args);
        assert_eq!(typed.token_file(), Some(Path::new("b")));
        assert_eq!(typed.colour(), Some(ColorWhen::Never));
        assert!(!typed.only_version());
    }

    #[test]
    fn a_name_that_only_starts_like_the_option_is_not_it() {
        let args = typed(&["--token-filex", "a", "--colorful"]);
        let typed = Typed::new(&args);
        assert_eq!(typed.token_file(), None);
        assert_eq!(typed.colour(), None);
    }

    #[test]
    fn version_alone_and_help_of_help() {
        assert!(Typed::new(&typed(&["-V"])).only_version());
        assert!(!Typed::new(&typed(&["-V", "put"])).only_version());
        assert!(Typed::new(&typed(&["help", "-h"])).help_of_help());
        assert!(!Typed::new(&typed(&["help", "-h", "x"])).help_of_help());
    }
}
