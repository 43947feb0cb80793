//! Text from a protocol as generated code carries it: the one place that
//! escapes it, by kind of place. A protocol's names, descriptions, enum
//! values and paths are data; whatever they hold, they reach the generated
//! code only through these functions, so that no text can end a comment or
//! a string early and become code.
//!
//! - [`string_literal`]: a string literal that TypeScript, JavaScript and
//!   Python all read as the same string.
//! - [`comment`]: the text of a one-line comment.
//! - [`doc_lines`]: a description as the lines of a doc comment, split
//!   only where the text has a line break (`\n` or `\r\n`).
//! - [`docstring`]: a Python docstring.
//!
//! No character that ends a line in any of the languages (`\n`, `\r`,
//! U+2028 and U+2029 in JavaScript, U+0085 in some readers), no control
//! character (C0, DEL, C1) and no bidirectional formatting character
//! (which makes code read otherwise than it runs) is ever written as it
//! is: literals escape it as the languages do (`\u2028`), comments show
//! it as `\u{2028}`.

/// Whether `c` is never written as it is: a control character (C0, DEL,
/// C1, which includes U+0085), a line or paragraph separator, or a
/// bidirectional formatting character.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}'
                | '\u{2029}'
                | '\u{061c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
        )
}

/// `text` as a double-quoted string literal that TypeScript, JavaScript
/// and Python read as the same string: `"` and `\` escaped, `\n`, `\r` and
/// `\t` as such, every other unsafe character as `\uXXXX` (all of them are
/// in the Basic Multilingual Plane).
pub fn string_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    push_string_literal(&mut out, text);
    out
}

/// [`string_literal`], written at the end of `out`.
pub fn push_string_literal(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        literal_char(out, c, true);
    }
    out.push('"');
}

/// Each of `texts` as a [`string_literal`], with `separator` between them:
/// an enum's values, written into one string.
pub fn string_literals(texts: &[&str], separator: &str) -> String {
    let mut out = String::with_capacity(texts.iter().map(|t| t.len() + 2 + separator.len()).sum());
    for (i, text) in texts.iter().enumerate() {
        if i > 0 {
            out.push_str(separator);
        }
        push_string_literal(&mut out, text);
    }
    out
}

/// One character of a string literal; `newline`: whether `\n` is escaped
/// too (a docstring keeps its line breaks).
fn literal_char(out: &mut String, c: char, newline: bool) {
    match c {
        '"' => out.push_str("\\\""),
        '\\' => out.push_str("\\\\"),
        '\n' if newline => out.push_str("\\n"),
        '\n' => out.push('\n'),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if is_unsafe(c) => out.push_str(&format!("\\u{:04x}", c as u32)),
        c => out.push(c),
    }
}

/// `text` for a comment that ends at the end of its line: every unsafe
/// character (line breaks included) shown as `\u{XXXX}`, so the comment
/// stays one line in every language.
pub fn comment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if is_unsafe(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// A description as the lines of a doc comment: split where it has a
/// line break (`\n`, or `\r\n`), trailing whitespace dropped, each line
/// as [`comment`] writes it.
pub fn doc_lines(text: &str) -> Vec<String> {
    text.trim_end()
        .split('\n')
        .map(|line| comment(line.strip_suffix('\r').unwrap_or(line)))
        .collect()
}

/// `"""text"""`: a Python docstring of `text`, surrounding whitespace
/// dropped, its line breaks (`\n`, `\r\n`) kept, every `"` and `\` and
/// every other unsafe character escaped, so that neither `"""` inside nor
/// a `"` at the end can close it early.
pub fn docstring(text: &str) -> String {
    let text = text.trim();
    let mut out = String::with_capacity(text.len() + 6);
    out.push_str("\"\"\"");
    let mut lines = text.split('\n').peekable();
    while let Some(line) = lines.next() {
        for c in line.strip_suffix('\r').unwrap_or(line).chars() {
            literal_char(&mut out, c, false);
        }
        if lines.peek().is_some() {
            out.push('\n');
        }
    }
    out.push_str("\"\"\"");
    out
}

/// Whether `text` is safe as generated code: no unsafe character but `\n`
/// as a line break.
#[cfg(test)]
pub fn is_safe(text: &str) -> bool {
    text.chars().all(|c| c == '\n' || !is_unsafe(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &str = "a\0b\x1b\"\"\"c\\d*/e\u{2028}f\u{2029}g\u{85}h\ri\tj\u{7f}k\u{202e}l";

    #[test]
    fn literals_escape_everything_unsafe() {
        let literal = string_literal(HOSTILE);
        assert!(is_safe(&literal) && !literal.contains('\n'), "{literal}");
        assert_eq!(
            literal,
            r#""a\u0000b\u001b\"\"\"c\\d*/e\u2028f\u2029g\u0085h\ri\tj\u007fk\u202el""#
        );
        // What JSON reads is what the languages read.
        let read: String = serde_json::from_str(&literal).expect("a JSON string");
        assert_eq!(read, HOSTILE);
    }

    #[test]
    fn comments_stay_one_line() {
        let written = comment(HOSTILE);
        assert!(is_safe(&written) && !written.contains('\n'), "{written}");
        assert_eq!(
            written,
            "a\\u{0}b\\u{1b}\"\"\"c\\d*/e\\u{2028}f\\u{2029}g\\u{85}h\\u{d}i\\u{9}j\\u{7f}k\\u{202e}l"
        );
    }

    #[test]
    fn doc_comments_break_only_at_line_breaks() {
        assert_eq!(
            doc_lines("one\r\ntwo\u{2028}three\rfour\n\nfive \n"),
            ["one", "two\\u{2028}three\\u{d}four", "", "five"]
        );
    }

    #[test]
    fn docstrings_cannot_be_closed_early() {
        let written = docstring(HOSTILE);
        assert!(is_safe(&written), "{written}");
        assert_eq!(
            written,
            r#""""a\u0000b\u001b\"\"\"c\\d*/e\u2028f\u2029g\u0085h\ri\tj\u007fk\u202el""""#
        );
        assert_eq!(docstring("a\r\nb\"\n"), "\"\"\"a\nb\\\"\"\"\"");
    }
}
