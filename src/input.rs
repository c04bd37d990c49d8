//! Where handles (and names in their place) come from: the command line, and standard input
//! streamed in place of `-`; and the content `append --immutable` writes, from a file or
//! standard input, bounded.
//!
//! Command-line handles are all checked before anything is sent (a typo stops the run, exit 2).
//! Standard input is read as it arrives, so the first requests go out before it ends and memory
//! does not grow with its length; a bad handle there is one failed item, with its line number.

use std::ffi::OsString;

use futures_util::stream::{self, Stream};
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

use crate::handle::{self, HandleProblem, NameRefusal, Target};
use crate::outcome::Failure;
use crate::sanitize;

/// Longest input word kept for messages; the rest of a longer one is skipped, not stored.
const MAX_WORD: usize = 80;

/// One place in the handle list: a checked handle or name, or "read standard input here".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    Target(Target),
    Stdin,
}

/// A handle (or a name) as it came in, checked or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// The 1-based line of standard input it came from; `None` for the command line.
    pub line: Option<u64>,
    /// What was typed, shown safely (for messages and JSON).
    pub input: String,
    pub target: Result<Target, HandleProblem>,
}

impl Item {
    /// A handle or name given on the command line.
    pub fn given(target: Target) -> Item {
        Item {
            line: None,
            input: target.to_string(),
            target: Ok(target),
        }
    }

    /// The item as a command that takes handles only sees it: a name is refused, for `why`.
    pub fn refusing_names(self, why: Option<NameRefusal>) -> Item {
        match (self.target, why) {
            (Ok(Target::Name(_)), Some(why)) => Item {
                target: Err(HandleProblem::NameRefused(why)),
                ..self
            },
            _ => self,
        }
    }

    /// The failure for an item that is neither a valid handle nor a name (or a name where the
    /// command refuses one).
    pub fn problem(&self, operation: &str) -> Option<Failure> {
        let problem = self.target.err()?;
        let place = match self.line {
            Some(line) => format!(" on line {line} of standard input"),
            None => String::new(),
        };
        Some(invalid_handle(&self.input, operation, &place, problem))
    }
}

/// Why the command-line handles cannot run: `-` given twice, or arguments that are not handles
/// (each as an item, so it is reported as a bad line of standard input is).
#[derive(Debug)]
pub enum BadArgs {
    Failure(Failure),
    Handles(Vec<Item>),
}

/// Checks command-line handles; `-` (at most once) stands for standard input. Every argument
/// is checked, so one run names every typo.
pub fn parse_args(raw: &[OsString]) -> Result<Vec<Slot>, BadArgs> {
    let mut slots = Vec::with_capacity(raw.len());
    let mut bad = Vec::new();
    for arg in raw {
        if arg == "-" {
            if slots.contains(&Slot::Stdin) {
                return Err(BadArgs::Failure(
                    Failure::usage("`-` (standard input) is given more than once")
                        .with_hint("give `-` once; it reads every handle on standard input"),
                ));
            }
            slots.push(Slot::Stdin);
            continue;
        }
        match Target::parse(arg.to_str().unwrap_or("\u{fffd}")) {
            Ok(target) => slots.push(Slot::Target(target)),
            Err(problem) => bad.push(Item {
                line: None,
                input: sanitize::line(arg.as_encoded_bytes(), MAX_WORD),
                target: Err(problem),
            }),
        }
    }
    if bad.is_empty() {
        Ok(slots)
    } else {
        Err(BadArgs::Handles(bad))
    }
}

fn invalid_handle(shown: &str, operation: &str, place: &str, problem: HandleProblem) -> Failure {
    // A bad line of standard input is skipped and the rest run; a bad argument stops the run
    // before anything is sent.
    let sent = if place.is_empty() {
        "nothing was sent"
    } else {
        "nothing was sent for it"
    };
    if let HandleProblem::NameRefused(NameRefusal { option, why }) = problem {
        // What is refused is said: the command, or its option.
        let refused = match option {
            Some(option) => {
                format!("{operation} {option} is refused with a data's name: '{shown}'{place}")
            }
            None => {
                format!("'{shown}'{place} is a data's name, and {operation} takes handles only")
            }
        };
        return Failure::usage(refused).with_hint(format!("{why}; {sent}"));
    }
    if let Some((handle, name)) = (problem == HandleProblem::Ambiguous)
        .then(|| Target::readings(shown))
        .flatten()
    {
        return Failure::usage(format!(
            "'{shown}'{place} for {operation} reads both as handle {handle} and as the name {name}"
        ))
        .with_hint(format!(
            "a word is never guessed: give the handle as plain decimal digits or the name in base64; {sent}"
        ));
    }
    if let HandleProblem::NotAName(problem) = problem {
        return Failure::usage(format!(
            "invalid name '{shown}'{place} for {operation}: {}",
            problem.describe()
        ))
        .with_hint(format!("a name is {}; {sent}", crate::name::FORMS));
    }
    Failure::usage(format!(
        "invalid handle '{shown}'{place} for {operation}: {}",
        problem.describe()
    ))
    .with_hint(format!(
        "a handle is plain decimal digits, {}; a data's name goes in its place as 44 characters of base64 or 64 hex digits; {sent}",
        handle::RANGE,
    ))
}

/// The items in order: command-line handles, with standard input read in place of `-`.
pub fn items<R: AsyncRead + Unpin>(slots: Vec<Slot>, stdin: R) -> impl Stream<Item = Item> {
    struct State<R> {
        slots: std::vec::IntoIter<Slot>,
        words: Option<Words<R>>,
        stdin: Option<R>,
    }
    let state = State {
        slots: slots.into_iter(),
        words: None,
        stdin: Some(stdin),
    };
    stream::unfold(state, |mut state| async move {
        loop {
            if let Some(words) = &mut state.words {
                match words.next().await {
                    Some(item) => return Some((item, state)),
                    None => state.words = None,
                }
            }
            match state.slots.next()? {
                Slot::Target(target) => return Some((Item::given(target), state)),
                Slot::Stdin => {
                    let stdin = state.stdin.take()?;
                    state.words = Some(Words::new(stdin));
                }
            }
        }
    })
}

/// Whitespace-separated words of a reader, with the line each starts on.
struct Words<R> {
    reader: BufReader<R>,
    scanner: Scanner,
}

impl<R: AsyncRead + Unpin> Words<R> {
    fn new(reader: R) -> Words<R> {
        Words {
            reader: BufReader::with_capacity(64 * 1024, reader),
            scanner: Scanner::default(),
        }
    }

    /// The next word, or `None` at the end of input (a read error ends the input too: what
    /// could not be read cannot be run, and the items read so far still are).
    async fn next(&mut self) -> Option<Item> {
        loop {
            let buffer = match self.reader.fill_buf().await {
                Ok(buffer) if !buffer.is_empty() => buffer,
                _ => return self.scanner.take(),
            };
            let (used, item) = self.scanner.scan(buffer);
            self.reader.consume(used);
            if item.is_some() {
                return item;
            }
        }
    }
}

/// The items in order, as [`items`] gives them, with standard input read as it is needed by
/// plain blocking reads: for a dry run, which sends nothing and so runs no async runtime.
pub fn items_blocking<R: std::io::BufRead>(
    slots: Vec<Slot>,
    mut stdin: R,
) -> impl Iterator<Item = Item> {
    let mut slots = slots.into_iter();
    let mut scanner: Option<Scanner> = None;
    std::iter::from_fn(move || loop {
        if let Some(words) = &mut scanner {
            match words.next_blocking(&mut stdin) {
                Some(item) => return Some(item),
                None => scanner = None,
            }
        }
        match slots.next()? {
            Slot::Target(target) => return Some(Item::given(target)),
            // `-` is given at most once (`parse_args`).
            Slot::Stdin => scanner = Some(Scanner::default()),
        }
    })
}

/// Splits bytes, as they arrive, into words with the line each starts on; one for both
/// readers.
struct Scanner {
    line: u64,
    /// The word so far, and the line it started on.
    word: Vec<u8>,
    start: u64,
    overlong: bool,
}

impl Default for Scanner {
    fn default() -> Scanner {
        Scanner {
            line: 1,
            word: Vec::new(),
            start: 1,
            overlong: false,
        }
    }
}

impl Scanner {
    /// Reads `buffer` up to the end of the next word: how many bytes it used, and the word if
    /// one ended there.
    fn scan(&mut self, buffer: &[u8]) -> (usize, Option<Item>) {
        let mut used = 0;
        for &byte in buffer {
            used += 1;
            if byte.is_ascii_whitespace() {
                if byte == b'\n' {
                    self.line += 1;
                }
                if !self.word.is_empty() {
                    return (used, self.take());
                }
                continue;
            }
            if self.word.is_empty() {
                self.start = self.line;
            }
            if self.word.len() < MAX_WORD {
                self.word.push(byte);
            } else {
                self.overlong = true;
            }
        }
        (used, None)
    }

    /// The next word of `reader`, read by blocking reads, as [`Words::next`] reads it.
    fn next_blocking(&mut self, reader: &mut impl std::io::BufRead) -> Option<Item> {
        loop {
            let buffer = match reader.fill_buf() {
                Ok(buffer) if !buffer.is_empty() => buffer,
                _ => return self.take(),
            };
            let (used, item) = self.scan(buffer);
            reader.consume(used);
            if item.is_some() {
                return item;
            }
        }
    }

    /// The word read so far, if any: the one a white space ended, or the last at the end of
    /// input.
    fn take(&mut self) -> Option<Item> {
        if self.word.is_empty() {
            return None;
        }
        let item = item(self.start, &self.word, self.overlong);
        self.word.clear();
        self.overlong = false;
        Some(item)
    }
}

fn item(line: u64, word: &[u8], overlong: bool) -> Item {
    let target = match std::str::from_utf8(word) {
        Ok(_) if overlong && word.iter().all(u8::is_ascii_digit) => Err(HandleProblem::TooLong),
        Ok(_) if overlong => Err(HandleProblem::NotDecimal),
        Ok(text) => Target::parse(text),
        Err(_) => Err(HandleProblem::NotDecimal),
    };
    let mut input = sanitize::line(word, MAX_WORD);
    if overlong {
        input.push_str("...");
    }
    Item {
        line: Some(line),
        input,
        target,
    }
}

/// The content of a file, or of standard input for `-`, up to `limit` bytes: more is refused
/// before anything is sent (a file by its length, standard input by reading one byte past).
pub fn content(path: &std::path::Path, limit: usize) -> Result<Vec<u8>, Failure> {
    use std::io::Read;
    let shown = sanitize::line(path.as_os_str().as_encoded_bytes(), 80);
    let too_large = |size: String| {
        Failure::usage(format!(
            "{shown} is {size}, more than the {} MiB safe-ad writes as one immutable data",
            limit / (1024 * 1024)
        ))
        .with_hint("nothing was sent")
    };
    let mut bytes = Vec::new();
    let read = if path.as_os_str() == "-" {
        std::io::stdin()
            .lock()
            .take(limit as u64 + 1)
            .read_to_end(&mut bytes)
    } else {
        let file = std::fs::File::open(path).map_err(|error| {
            Failure::usage(format!("cannot read {shown}: {error}")).with_hint("nothing was sent")
        })?;
        let length = file.metadata().map(|meta| meta.len()).unwrap_or(0);
        if length > limit as u64 {
            return Err(too_large(format!("{length} bytes")));
        }
        file.take(limit as u64 + 1).read_to_end(&mut bytes)
    };
    read.map_err(|error| {
        Failure::usage(format!("cannot read {shown}: {error}")).with_hint("nothing was sent")
    })?;
    if bytes.len() > limit {
        return Err(too_large("larger".to_string()));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::handle::Handle;
    use futures_util::StreamExt;

    fn collect(slots: Vec<Slot>, stdin: &'static [u8]) -> Vec<Item> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let read = runtime.block_on(items(slots.clone(), stdin).collect::<Vec<_>>());
        // The blocking reader of a dry run reads the same items.
        assert_eq!(items_blocking(slots, stdin).collect::<Vec<_>>(), read);
        read
    }

    #[test]
    fn stdin_words_with_line_numbers_in_place_of_dash() {
        let slots = vec![
            Slot::Target(Target::Handle(Handle(1))),
            Slot::Stdin,
            Slot::Target(Target::Handle(Handle(9))),
        ];
        let items = collect(slots, b"2 3\n\n  x4\t5\n6");
        let seen: Vec<(Option<u64>, &str, bool)> = items
            .iter()
            .map(|i| (i.line, i.input.as_str(), i.target.is_ok()))
            .collect();
        assert_eq!(
            seen,
            vec![
                (None, "1", true),
                (Some(1), "2", true),
                (Some(1), "3", true),
                (Some(3), "x4", false),
                (Some(3), "5", true),
                (Some(4), "6", true),
                (None, "9", true),
            ]
        );
    }

    #[test]
    fn overlong_and_binary_words_are_bounded_failures() {
        let long: &'static [u8] = Box::leak(vec![b'7'; 10_000].into_boxed_slice());
        let items = collect(vec![Slot::Stdin], long);
        assert_eq!(items.len(), 1);
        assert_eq!(items[0].target, Err(HandleProblem::TooLong));
        assert!(items[0].input.len() < 100);
        let items = collect(vec![Slot::Stdin], b"\xff\x00 12");
        assert_eq!(items[0].target, Err(HandleProblem::NotDecimal));
        assert_eq!(items[1].target, Ok(Target::Handle(Handle(12))));
    }

    #[test]
    fn dash_only_once_and_args_checked_up_front() {
        let raw: Vec<OsString> = vec!["-".into(), "-".into()];
        assert!(matches!(parse_args(&raw), Err(BadArgs::Failure(_))));
        let raw: Vec<OsString> = vec!["x".into(), "1".into(), "y".into()];
        let Err(BadArgs::Handles(bad)) = parse_args(&raw) else {
            panic!("bad handles pass");
        };
        let inputs: Vec<&str> = bad.iter().map(|item| item.input.as_str()).collect();
        assert_eq!(inputs, ["x", "y"]);
        let failure = bad[0].problem("put").expect("a problem");
        assert!(failure.message.contains("invalid handle 'x' for put"));
        assert!(failure
            .hint
            .unwrap()
            .words(None, None)
            .ends_with("; nothing was sent"));
    }
}
