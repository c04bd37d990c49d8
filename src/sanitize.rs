//! Making untrusted text safe to print on one terminal line.
//!
//! Launcher bodies, header values and user input can hold anything: escape sequences that would
//! drive the terminal, bidi controls that reorder what a person reads, invalid UTF-8, megabytes.
//! Whatever goes in, what comes out is one bounded line of printable characters.

/// What ends a line that [`line`] cut.
pub const CUT: &str = "… (cut)";

/// Renders `bytes` as one line: invalid UTF-8 replaced, control and bidi characters escaped,
/// cut so that at most `max_chars` characters (escapes included) come before a marker that says
/// it was cut.
pub fn line(bytes: &[u8], max_chars: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::new();
    let mut shown = 0;
    for c in text.chars() {
        let piece: String = if needs_escape(c) {
            c.escape_default().collect()
        } else {
            c.to_string()
        };
        let width = piece.chars().count();
        if shown + width > max_chars {
            out.push_str(CUT);
            break;
        }
        out.push_str(&piece);
        shown += width;
    }
    out
}

/// Whether a character is escaped when shown: control characters, and those that reorder or
/// break what a person reads (bidi controls, line and paragraph separators, a byte-order mark).
pub fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
            | '\u{feff}' | '\u{2028}' | '\u{2029}')
}

/// Whether content would not read as text on a terminal: not UTF-8, or holding a character
/// that drives the terminal or reorders what a person reads (tabs and line ends aside). Such
/// content goes to a file or a pipe, not to a terminal, unless asked (`cat --force`). A line
/// end is `\n` or `\r\n`: a `\r` not followed by `\n` sends the cursor back over the line,
/// so what follows it overwrites what a person would read, and it counts as a control.
pub fn is_binary(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return true;
    };
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let line_end = match c {
            '\t' | '\n' => true,
            '\r' => chars.peek() == Some(&'\n'),
            _ => false,
        };
        if !line_end && needs_escape(c) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    #[test]
    fn binary_is_what_a_terminal_would_not_show_as_text() {
        assert!(!is_binary(b"Token: abc\n\tnext\r\n"));
        assert!(!is_binary(b"crlf\r\n\r\nends\r\n"));
        assert!(is_binary(b"cr\roverwrite"));
        assert!(is_binary(b"ends in cr\r"));
        assert!(is_binary(b"cr cr\r\r\n"));
        assert!(!is_binary("caf\u{e9}".as_bytes()));
        assert!(!is_binary(b""));
        assert!(is_binary(b"\xff\xfe"));
        assert!(is_binary(b"a\x1b[2Jb"));
        assert!(is_binary(b"nul\x00"));
        assert!(is_binary("x\u{202e}y".as_bytes()));
    }

    use super::*;

    #[test]
    fn escapes_controls_and_bidi() {
        assert_eq!(line(b"a\nb\x1b[31m", 100), "a\\nb\\u{1b}[31m");
        assert_eq!(line("x\u{202e}y".as_bytes(), 100), "x\\u{202e}y");
        assert_eq!(line(b"\xff\xfeok", 100), "\u{fffd}\u{fffd}ok");
    }

    #[test]
    fn escapes_count_towards_the_bound() {
        let escapes = vec![0x1bu8; 1000];
        let shown = line(&escapes, 30);
        assert!(shown.chars().count() <= 30 + "… (cut)".len(), "{shown}");
    }

    #[test]
    fn cuts_long_text() {
        let long = "a".repeat(1000);
        let shown = line(long.as_bytes(), 10);
        assert_eq!(shown, format!("{}… (cut)", "a".repeat(10)));
        assert_eq!(line(b"short", 10), "short");
    }
}
