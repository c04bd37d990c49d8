//! Text as roff for the man pages: escaping, fonts, and clap's help texts as paragraphs.
//!
//! Every `-` becomes `\-`, the hyphen-minus a person types (a plain `-` may print as a Unicode
//! hyphen, which a shell does not take), and every character outside ASCII a groff escape
//! (`\[u2014]`), so the pages read the same whatever the reader's locale and formatter.

use std::fmt::Write as _;

/// Plain text as roff text: backslashes, hyphens and non-ASCII characters escaped, and a line
/// that would start with a control character guarded.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut line_start = true;
    for c in text.chars() {
        if line_start && (c == '.' || c == '\'') {
            out.push_str("\\&");
        }
        line_start = c == '\n';
        push_char(&mut out, c);
    }
    out
}

/// Hand-written roff (see `text`): every `-` outside an escape made `\-`, and every
/// non-ASCII character a groff escape; escapes and requests are left as written.
pub fn source(roff: &str) -> String {
    let mut out = String::with_capacity(roff.len() + roff.len() / 8);
    let mut chars = roff.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            out.push(c);
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            push_char(&mut out, c);
        }
    }
    out
}

fn push_char(out: &mut String, c: char) {
    match c {
        '\\' => out.push_str("\\e"),
        '-' => out.push_str("\\-"),
        c if c.is_ascii() => out.push(c),
        c => {
            let _ = write!(out, "\\[u{:04X}]", c as u32);
        }
    }
}

/// A help text from clap as roff text: escaped, with each `code` span in bold.
pub fn inline(text: &str) -> String {
    let mut out = String::new();
    let mut parts = text.split('`');
    out.push_str(&escape(parts.next().unwrap_or_default()));
    let rest: Vec<&str> = parts.collect();
    // An odd number of pieces after the first means the spans are paired.
    if rest.len() % 2 == 0 {
        for pair in rest.chunks(2) {
            let _ = write!(out, "\\fB{}\\fR{}", escape(pair[0]), escape(pair[1]));
        }
    } else {
        for part in rest {
            out.push_str("\\(aq");
            out.push_str(&escape(part));
        }
    }
    out
}

/// A help text as roff paragraphs: blank lines part them, and each is made a sentence; a
/// paragraph whose lines are indented is an example, set as it is typed. `first` is the request before the first paragraph
/// (`.PP` in a section, nothing right after a `.TP` tag), `next` before each later one (`.PP`,
/// or `.IP` to stay under a tag).
pub fn paragraphs(text: &str, first: &str, next: &str) -> String {
    let mut out = String::new();
    for (at, paragraph) in text.trim().split("\n\n").enumerate() {
        let request = if at == 0 { first } else { next };
        if !request.is_empty() {
            out.push_str(request);
            out.push('\n');
        }
        if paragraph.lines().all(|line| line.starts_with("  ")) {
            out.push_str(&example(paragraph.lines().map(|line| &line[2..])));
        } else {
            for line in sentence(paragraph).lines() {
                out.push_str(&inline(line.trim()));
                out.push('\n');
            }
        }
    }
    out
}

/// Lines set as typed, in an indented `.EX` block.
pub fn example<'a>(lines: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::from(".RS 4\n.EX\n");
    for line in lines {
        out.push_str(&escape(line));
        out.push('\n');
    }
    out.push_str(".EE\n.RE\n");
    out
}

/// `\fBtext\fR`.
pub fn bold(text: &str) -> String {
    format!("\\fB{}\\fR", escape(text))
}

/// `\fItext\fR`.
pub fn italic(text: &str) -> String {
    format!("\\fI{}\\fR", escape(text))
}

/// A macro argument in double quotes (roff has no escape for `"` inside one; none is used).
pub fn quoted(text: &str) -> String {
    debug_assert!(!text.contains('"'), "{text}");
    format!("\"{}\"", escape(text))
}

/// A help text as a sentence: capitalised, with a full stop unless it ends in one (or in `:`,
/// `?` or `!`).
pub fn sentence(text: &str) -> String {
    let text = text.trim_end();
    let mut chars = text.chars();
    let first = chars.next().map(|c| c.to_uppercase().collect::<String>());
    let stop = if text.ends_with(['.', ':', '?', '!']) {
        ""
    } else {
        "."
    };
    format!("{}{}{stop}", first.unwrap_or_default(), chars.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_guards_requests_hyphens_and_non_ascii() {
        assert_eq!(
            escape(".x\n'y\n-z\\ \u{2014}"),
            "\\&.x\n\\&'y\n\\-z\\e \\[u2014]"
        );
    }

    #[test]
    fn source_leaves_escapes_and_makes_hyphens_typed() {
        assert_eq!(
            source(".B safe-ad\n\\fB--jobs\\fR \\- 2\u{2013}3"),
            ".B safe\\-ad\n\\fB\\-\\-jobs\\fR \\- 2\\[u2013]3"
        );
    }

    #[test]
    fn inline_code_is_bold() {
        assert_eq!(inline("use `post` now"), "use \\fBpost\\fR now");
        assert_eq!(inline("a ` b"), "a \\(aq b");
    }

    #[test]
    fn indented_paragraphs_are_examples() {
        let roff = paragraphs("Examples:\n\n  safe-ad put 7", ".PP", ".PP");
        assert_eq!(
            roff,
            ".PP\nExamples:\n.PP\n.RS 4\n.EX\nsafe\\-ad put 7\n.EE\n.RE\n"
        );
    }
}
