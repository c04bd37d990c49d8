//! README's Markdown as roff, for the man page: the part of Markdown README uses.
//!
//! README's reference sections are the one place their facts are written; the man page takes
//! them from there when it is generated, so the two cannot disagree (the drift test fails until
//! the page is regenerated after a README change). Known here: `###` headings, paragraphs, `- `
//! lists, fenced code, pipe tables, and inline `code`, **bold**, *italic* and [links](..); other
//! text passes through as text.

use super::{escape, escape_chars, text_line};

/// The body of the `## {heading}` section of `markdown`, up to the next `## ` heading (headings
/// inside fenced code do not count); `None` if there is no such section.
pub fn section<'a>(markdown: &'a str, heading: &str) -> Option<&'a str> {
    let mut in_code = false;
    let mut start = None;
    let mut offset = 0;
    for line in markdown.split_inclusive('\n') {
        let at = offset;
        offset += line.len();
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        if let Some(title) = line.strip_prefix("## ") {
            if let Some(start) = start {
                return Some(&markdown[start..at]);
            }
            if title.trim() == heading {
                start = Some(offset);
            }
        }
    }
    start.map(|start| &markdown[start..])
}

/// A section body as roff: paragraphs as `.PP`, list items as bulleted `.IP`, code as an
/// indented no-fill block, a table row as a `.TP` tagged with its first cell, `###` as `.SS`.
pub fn to_roff(body: &str) -> String {
    let mut roff = String::new();
    let lines: Vec<&str> = body.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        if line.trim().is_empty() {
            continue;
        }
        if let Some(heading) = line.strip_prefix("### ") {
            roff.push_str(&format!(".SS \"{}\"\n", inline(heading.trim())));
        } else if line.starts_with("```") {
            roff.push_str(".PP\n.RS 4\n.nf\n");
            while i < lines.len() && !lines[i].starts_with("```") {
                roff.push_str(&escape_line(lines[i]));
                roff.push('\n');
                i += 1;
            }
            i += 1; // the closing fence
            roff.push_str(".fi\n.RE\n");
        } else if line.starts_with('|') {
            let mut rows = vec![cells(line)];
            while i < lines.len() && lines[i].starts_with('|') {
                rows.push(cells(lines[i]));
                i += 1;
            }
            roff.push_str(&table(&rows));
        } else if let Some(item) = line.strip_prefix("- ") {
            let mut text = item.trim().to_owned();
            while i < lines.len() && lines[i].starts_with("  ") && !lines[i].trim().is_empty() {
                text.push(' ');
                text.push_str(lines[i].trim());
                i += 1;
            }
            roff.push_str(&format!(".IP \\(bu 2\n{}\n", text_line(&inline(&text))));
        } else {
            let mut text = line.trim().to_owned();
            while i < lines.len() && !starts_block(lines[i]) {
                text.push(' ');
                text.push_str(lines[i].trim());
                i += 1;
            }
            roff.push_str(&format!(".PP\n{}\n", text_line(&inline(&text))));
        }
    }
    roff
}

/// Whether a line ends the paragraph before it.
fn starts_block(line: &str) -> bool {
    line.trim().is_empty()
        || line.starts_with("- ")
        || line.starts_with("```")
        || line.starts_with('|')
        || line.starts_with('#')
}

/// A pipe table: the first row names the columns, the second is the `|---|` rule. Each other row
/// becomes `.TP` with its first cell as the tag and `column: cell` for the rest, always on a line
/// of its own (`.br`: a short tag would otherwise run into them).
fn table(rows: &[Vec<String>]) -> String {
    let Some((header, body)) = rows.split_first() else {
        return String::new();
    };
    let body = body.iter().filter(|row| {
        !row.iter()
            .all(|cell| cell.chars().all(|c| "-: ".contains(c)))
    });
    let mut roff = String::new();
    for row in body {
        let Some((tag, rest)) = row.split_first() else {
            continue;
        };
        let described: Vec<String> = rest
            .iter()
            .zip(header.iter().skip(1))
            .filter(|(cell, _)| !cell.is_empty())
            .map(|(cell, column)| format!("{}: {}", inline(column), inline(cell)))
            .collect();
        roff.push_str(&format!(
            ".TP\n{}\n.br\n{}\n",
            text_line(&inline(tag)),
            text_line(&described.join("; "))
        ));
    }
    roff
}

/// The cells of a `| a | b |` row, trimmed; `\|` is a `|` inside a cell.
fn cells(row: &str) -> Vec<String> {
    let row = row.trim().trim_start_matches('|');
    let row = row.strip_suffix('|').unwrap_or(row);
    let mut cells = vec![String::new()];
    let mut chars = row.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cells.last_mut().expect("never empty").push_str("\\|");
                chars.next();
            }
            '|' => cells.push(String::new()),
            c => cells.last_mut().expect("never empty").push(c),
        }
    }
    cells
        .into_iter()
        .map(|cell| cell.trim().to_owned())
        .collect()
}

/// Inline Markdown as roff: `code` and **bold** in bold, *italic* in italic, a link as its text,
/// a backslash-escaped character as itself; everything escaped for roff.
pub fn inline(text: &str) -> String {
    let mut roff = String::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let after = &rest[c.len_utf8()..];
        if c == '`' {
            if let Some(end) = after.find('`') {
                roff.push_str(&format!("\\fB{}\\fR", escape_chars(&after[..end])));
                rest = &after[end + 1..];
                continue;
            }
        } else if let Some(inner) = rest.strip_prefix("**") {
            if let Some(end) = inner.find("**") {
                roff.push_str(&format!("\\fB{}\\fR", plain(&inner[..end])));
                rest = &inner[end + 2..];
                continue;
            }
        } else if c == '*' && after.starts_with(|c: char| !c.is_whitespace()) {
            if let Some(end) = after.find('*') {
                roff.push_str(&format!("\\fI{}\\fR", plain(&after[..end])));
                rest = &after[end + 1..];
                continue;
            }
        } else if c == '[' {
            if let Some((label, target_and_rest)) = after.split_once("](") {
                if let Some(end) = target_and_rest.find(')') {
                    roff.push_str(&inline(label));
                    rest = &target_and_rest[end + 1..];
                    continue;
                }
            }
        } else if c == '\\' {
            if let Some(escaped) = after.chars().next().filter(|c| c.is_ascii_punctuation()) {
                roff.push_str(&escape_chars(&escaped.to_string()));
                rest = &after[escaped.len_utf8()..];
                continue;
            }
        }
        roff.push_str(&escape_chars(&c.to_string()));
        rest = after;
    }
    roff
}

/// Text inside bold or italic: inline code keeps its text, without a font change of its own
/// (roff's `\fR` would end the outer font early).
fn plain(text: &str) -> String {
    escape_chars(&text.replace('`', ""))
}

/// One line of a code block, escaped, as roff must not read it as a request.
fn escape_line(line: &str) -> String {
    text_line(&escape(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_end_at_the_next_level_two_heading_outside_code() {
        let markdown = "## A\none\n```\n## not a heading\n```\n### sub\ntwo\n## B\nthree\n";
        assert_eq!(
            section(markdown, "A"),
            Some("one\n```\n## not a heading\n```\n### sub\ntwo\n")
        );
        assert_eq!(section(markdown, "B"), Some("three\n"));
        assert_eq!(section(markdown, "C"), None);
    }

    #[test]
    fn blocks_become_roff() {
        let roff = to_roff(
            "Some `safe-ad put` text\non two lines.\n\n- an item\n  going on\n- another\n\n\
             ```sh\n.hidden -x\n```\n\n| key | type | meaning |\n|---|---|---|\n\
             | `a` | number | the \\| pipe |\n| b | | none |\n\n### Sub (`--json`)\n",
        );
        assert_eq!(
            roff,
            ".PP\nSome \\fBsafe\\-ad put\\fR text on two lines.\n\
             .IP \\(bu 2\nan item going on\n.IP \\(bu 2\nanother\n\
             .PP\n.RS 4\n.nf\n\\&.hidden \\-x\n.fi\n.RE\n\
             .TP\n\\fBa\\fR\n.br\ntype: number; meaning: the | pipe\n\
             .TP\nb\n.br\nmeaning: none\n\
             .SS \"Sub (\\fB\\-\\-json\\fR)\"\n"
        );
    }

    #[test]
    fn inline_forms() {
        assert_eq!(
            inline("**A clear** of *n* [here](x.md), 2\\*3, a * b"),
            "\\fBA clear\\fR of \\fIn\\fR here, 2*3, a * b"
        );
        assert_eq!(inline("`a\\b`"), "\\fBa\\eb\\fR");
    }
}
