//! Inline suppressions: a `# agentc-ignore: CODE[, CODE...] reason` comment
//! silences the diagnostics of the codes it names on one line of a protocol
//! file. [`apply`] runs after every other check of the file, reads the
//! comments from the text, drops what they silence and reports the comments
//! that are malformed, give no reason or silence nothing.
//!
//! The rules, including the decisions the issue left open:
//!
//! - **What is a comment.** The text is scanned line by line (lines end at
//!   `\n`, `\r\n` or a lone `\r`, as [`Source`] counts them), in one pass. A
//!   `#` starts a comment at the start of a line, after indentation, or after
//!   a space or tab, unless it is inside a quoted scalar on that line. A
//!   quote opens a scalar only where a scalar can start (at the start of the
//!   line, or after `:`, `-`, `?`, `[`, `{` or `,` and blanks), so the
//!   apostrophe of a plain `don't` opens nothing; `''` escapes a quote in
//!   single quotes and `\` the next character in double quotes. A quoted
//!   scalar that continues on the next line is not followed: a `#` on its
//!   continuation lines reads as a comment (rare).
//! - **Block scalars.** The lines of a `|` or `>` block scalar are text, not
//!   comments: a line `# agentc-ignore: ...` inside a prompt is not a
//!   suppression. A block scalar is recognised by its header (`|` or `>`, with
//!   optional chomping and indentation indicators, as the last thing on a
//!   line after a `key:`, `-`, `?`, anchor or tag) and lasts while lines are
//!   blank or indented at least as deep as its first line of content (deeper
//!   than the header's line). An explicit indentation indicator is not
//!   followed: the content's first line sets the depth.
//! - **Grammar.** After `#` and blanks, the first word must be exactly
//!   `agentc-ignore` (a comment that merely mentions it, `# see agentc-ignore
//!   docs`, and words such as `agentc-ignored` are ordinary comments). Then
//!   `:` (blanks before it are allowed), one or more code names separated by
//!   commas (blanks around commas allowed), then the reason: the rest of the
//!   comment, trimmed. A code name is a run of characters up to a blank or a
//!   comma, so `# agentc-ignore: a b` names `a` for the reason `b`.
//! - **Invalid suppressions** (`invalid-suppression`): no `:` (with a fix
//!   adding it when the next word is a code), no code, a `,` with no code
//!   after it, a name that is not a code (with "did you mean" and its fix
//!   when one is close; only codes that can be silenced are suggested), a
//!   code that cannot be silenced ([`Code::can_be_silenced`]), and the three
//!   suppression codes, which only `agentc.toml` can turn down. The other
//!   codes of the same comment still silence.
//! - **Which line.** A comment after other content covers its own line. A
//!   comment alone on its line covers the next line that is not itself a
//!   comment-only line, so suppressions can be stacked. A blank line is not
//!   skipped: a suppression above one covers nothing. Nor does one with no
//!   line after it (the empty end of a file that ends with a line break is
//!   no line).
//! - **What it silences.** Every diagnostic of a named code whose primary
//!   span starts on the covered line (labels do not count). When two
//!   suppressions cover one line and name one code, the first in the file
//!   is the one used; the other is reported unused.
//! - **No reason** (`suppression-without-reason`): reported once per comment
//!   that names at least one code (valid or not), at the comment. It still
//!   silences.
//! - **Unused** (`unused-suppression`): one per valid code that silenced
//!   nothing, at the code's name, with a note saying why and a fix that
//!   removes it: the whole comment when none of its codes silenced anything
//!   (the whole line when the comment is alone on it, else the comment and
//!   the blanks before it), else that code and one comma next to it. Each
//!   fix is right on its own; two fixes for one comment may overlap, so apply
//!   one and check again. Not reported when the compilation has no model:
//!   the file could not be read as a protocol, the other checks never ran,
//!   and nothing can be called unused.
//! - The new warnings have their codes' default severities; configured
//!   severities are the caller's to apply. Call [`apply`] once per
//!   compilation, after every other diagnostic of the file has been added
//!   (targets included); a second call would find every used suppression
//!   unused. [`crate::config::finish`] calls it after `agentc.toml`'s
//!   severities, so a suppression of a code turned off is reported unused,
//!   as it is dead (ruff reports `noqa` of a disabled rule the same way).

use crate::FileReport;
use crate::diagnostic::{Code, Diagnostic, Edit};
use crate::source::Source;
use crate::span::Span;
use std::collections::HashMap;

/// The word that starts a suppression.
const KEYWORD: &str = "agentc-ignore";

/// Applies the `# agentc-ignore:` comments of a protocol file to its
/// diagnostics: removes the diagnostics they silence and adds a warning for
/// each comment that is malformed, has no reason, or silences nothing.
/// Keeps source order. Call it once, when every other diagnostic of the
/// file is there (see the module's documentation).
pub fn apply(compilation: &mut FileReport) {
    let source = &compilation.source;
    // Every suppression names the keyword; most files have none, and are
    // spared the line-by-line scan.
    // `memchr`'s search, several times quicker over a whole file than
    // `str::contains` (0.2 against 0.7 instructions a byte).
    if memchr::memmem::find(source.text().as_bytes(), KEYWORD.as_bytes()).is_none() {
        crate::order(&mut compilation.diagnostics);
        return;
    }
    let Scan {
        suppressions,
        mut names,
        mut found,
    } = scan(source);

    // For each line and code, the first name that silences that code there
    // (a map, so that many suppressions or diagnostics on one line stay
    // linear).
    let mut silencers: HashMap<(usize, Code), usize> = HashMap::new();
    for (index, name) in names.iter().enumerate() {
        let cover = suppressions.get(name.suppression).map(|s| s.cover);
        if let (Some(code), Some(Cover::Line(line))) = (name.code, cover) {
            silencers.entry((line, code)).or_insert(index);
        }
    }
    compilation.diagnostics.retain(|d| {
        let (line, _) = source.line_of(d.span.start as usize);
        let silencer = silencers.get(&(line, d.code));
        match silencer.and_then(|&i| names.get_mut(i)) {
            Some(name) => {
                name.used = true;
                false
            }
            None => true,
        }
    });

    // Whether a suppression is used is known only when the whole file was
    // read: not when its YAML could not be, nor when lines were left out
    // to read past an indentation mistake (`yaml-syntax` with a tree).
    let judge_unused = compilation.model.is_some()
        && !compilation
            .diagnostics
            .iter()
            .any(|d| d.code == Code::YamlSyntax);
    for suppression in &suppressions {
        let own = suppression.names.clone();
        let Some(mine) = names.get(own.clone()) else {
            continue;
        };
        if !mine.is_empty() && !suppression.has_reason {
            found.push(without_reason(suppression.comment));
        }
        if !judge_unused {
            continue;
        }
        let silences_nothing = mine.iter().all(|name| !name.used);
        for (i, name) in mine.iter().enumerate() {
            let Some(code) = name.code else { continue };
            if name.used {
                continue;
            }
            let removal = if silences_nothing {
                suppression.removal
            } else {
                name_removal(mine, i)
            };
            // Only the first name for a line and code is ever used; another
            // one is unused because of it when it silenced something.
            let repeated = match suppression.cover {
                Cover::Line(line) => silencers.get(&(line, code)).is_some_and(|&first| {
                    first != own.start + i && names.get(first).is_some_and(|n| n.used)
                }),
                _ => false,
            };
            found.push(unused(
                code,
                name.span,
                suppression.cover,
                repeated,
                removal,
            ));
        }
    }
    compilation.diagnostics.extend(found);
    crate::order(&mut compilation.diagnostics);
}

/// One `# agentc-ignore:` comment.
struct Suppression {
    /// From the `#` to the end of the line.
    comment: Span,
    /// What removing the whole comment deletes.
    removal: Span,
    cover: Cover,
    /// Its code names, as indices into [`Scan::names`].
    names: std::ops::Range<usize>,
    has_reason: bool,
}

/// The line a suppression covers (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cover {
    Line(usize),
    /// The next line is blank.
    Blank(usize),
    /// No line follows the comment.
    End,
}

/// One code name written in a suppression.
struct Name {
    suppression: usize,
    span: Span,
    /// The code, when it is one a comment may silence.
    code: Option<Code>,
    used: bool,
}

struct Scan {
    suppressions: Vec<Suppression>,
    names: Vec<Name>,
    /// The problems found while reading the comments.
    found: Vec<Diagnostic>,
}

/// What a line holds, for deciding which line a comment covers.
enum Line {
    Blank,
    /// Only a comment, starting at this byte of the line.
    Comment(usize),
    /// Content (including a block scalar's text), perhaps with a comment
    /// after it.
    Content(Option<usize>),
}

/// A block scalar being read: the indentation of its header's line, and of
/// its content once its first line of content is seen.
struct Block {
    header: usize,
    content: Option<usize>,
}

fn scan(source: &Source) -> Scan {
    let text = source.text();
    let mut scan = Scan {
        suppressions: Vec::new(),
        names: Vec::new(),
        found: Vec::new(),
    };
    // Suppressions alone on their lines, waiting for the line they cover.
    let mut pending: Vec<usize> = Vec::new();
    let mut block: Option<Block> = None;
    for index in 0..source.line_count() {
        let Some(range) = source.line_range(index) else {
            break;
        };
        let line = text.get(range.clone()).unwrap_or("");
        let indent = line.bytes().take_while(|&b| b == b' ').count();
        let blank = line.trim().is_empty();
        if let Some(current) = &mut block {
            let inside = match current.content {
                None => indent > current.header,
                Some(depth) => indent >= depth,
            };
            if blank || inside {
                // No suppression is pending here: the header's line took them.
                if !blank && current.content.is_none() {
                    current.content = Some(indent);
                }
                continue;
            }
            block = None;
        }
        let kind = match comment_start(line) {
            Some(at)
                if line
                    .get(..at)
                    .is_some_and(|before| before.trim().is_empty()) =>
            {
                Line::Comment(at)
            }
            _ if blank => Line::Blank,
            comment => Line::Content(comment),
        };
        match kind {
            Line::Blank => {
                // The empty "line" after a file's final line break is no line.
                let cover = if line.is_empty() && index + 1 == source.line_count() {
                    Cover::End
                } else {
                    Cover::Blank(index)
                };
                for waiting in pending.drain(..) {
                    set_cover(&mut scan, waiting, cover);
                }
            }
            Line::Comment(at) => {
                let removal = whole_line(source, index, range.clone());
                if let Some(added) = read(&mut scan, text, range.start + at, range.end, removal) {
                    pending.push(added);
                }
            }
            Line::Content(comment) => {
                for waiting in pending.drain(..) {
                    set_cover(&mut scan, waiting, Cover::Line(index));
                }
                let content = line.get(..comment.unwrap_or(line.len())).unwrap_or("");
                if let Some(at) = comment {
                    let kept = content.trim_end().len();
                    let removal = Span::new(range.start + kept, range.end);
                    if let Some(added) = read(&mut scan, text, range.start + at, range.end, removal)
                    {
                        set_cover(&mut scan, added, Cover::Line(index));
                    }
                }
                if opens_block_scalar(content) {
                    block = Some(Block {
                        header: indent,
                        content: None,
                    });
                }
            }
        }
    }
    scan
}

fn set_cover(scan: &mut Scan, suppression: usize, cover: Cover) {
    if let Some(s) = scan.suppressions.get_mut(suppression) {
        s.cover = cover;
    }
}

/// What deleting the comment-only line `index` removes: the line and its
/// line break, or for a last line, the line break before it.
fn whole_line(source: &Source, index: usize, range: std::ops::Range<usize>) -> Span {
    match source.line_range(index + 1) {
        Some(next) => Span::new(range.start, next.start),
        None => match index
            .checked_sub(1)
            .and_then(|above| source.line_range(above))
        {
            Some(above) => Span::new(above.end, range.end),
            None => Span::new(range.start, range.end),
        },
    }
}

/// Reads the comment at `text[start..end]`; records it when it is a
/// suppression (covering nothing yet), with the problems in it.
fn read(scan: &mut Scan, text: &str, start: usize, end: usize, removal: Span) -> Option<usize> {
    let comment = text.get(start..end)?;
    let parsed = parse(comment, start)?;
    let index = scan.suppressions.len();
    let first = scan.names.len();
    scan.names
        .extend(parsed.names.into_iter().map(|(span, code)| Name {
            suppression: index,
            span,
            code,
            used: false,
        }));
    scan.found.extend(parsed.problems);
    scan.suppressions.push(Suppression {
        comment: Span::new(start, start + comment.trim_end().len()),
        removal,
        cover: Cover::End,
        names: first..scan.names.len(),
        has_reason: parsed.has_reason,
    });
    Some(index)
}

/// The byte where the line's comment starts: a `#` at the start or after a
/// blank, outside quotes.
fn comment_start(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    // Every byte compared is ASCII, and UTF-8 never reuses ASCII bytes inside
    // a multi-byte character, so byte offsets found here are char boundaries.
    while let Some(&b) = bytes.get(i) {
        match quote {
            Some(b'\'') => {
                if b == b'\'' {
                    if bytes.get(i + 1) == Some(&b'\'') {
                        i += 1;
                    } else {
                        quote = None;
                    }
                }
            }
            Some(_) => {
                if b == b'\\' {
                    i += 1;
                } else if b == b'"' {
                    quote = None;
                }
            }
            None => {
                let before = bytes.get(..i).unwrap_or_default();
                if b == b'#' && matches!(before.last(), None | Some(b' ' | b'\t')) {
                    return Some(i);
                }
                if (b == b'\'' || b == b'"') && scalar_can_start(before) {
                    quote = Some(b);
                }
            }
        }
        i += 1;
    }
    None
}

/// Whether a scalar can start after `before` (the line up to here).
fn scalar_can_start(before: &[u8]) -> bool {
    let last = before.iter().rev().find(|&&b| b != b' ' && b != b'\t');
    matches!(last, None | Some(b':' | b'-' | b'?' | b'[' | b'{' | b','))
}

/// Whether a line's content (without its comment) ends with a block scalar
/// header: `key: |`, `- >-`, `key: &anchor |+`, `key: !!str |2`.
fn opens_block_scalar(content: &str) -> bool {
    let mut tokens = content.split_whitespace().rev();
    let Some(last) = tokens.next() else {
        return false;
    };
    let mut chars = last.chars();
    if !matches!(chars.next(), Some('|' | '>')) {
        return false;
    }
    let indicators = chars.as_str();
    let signs = indicators
        .chars()
        .filter(|c| matches!(c, '+' | '-'))
        .count();
    let digits = indicators
        .chars()
        .filter(|c| matches!(c, '1'..='9'))
        .count();
    if signs > 1 || digits > 1 || signs + digits != indicators.chars().count() {
        return false;
    }
    match tokens.next() {
        None => true,
        Some(before) => {
            before.ends_with(':')
                || before == "-"
                || before == "?"
                || before.starts_with('&')
                || before.starts_with('!')
        }
    }
}

/// A suppression as written: its code names (with the code each names,
/// when it may be silenced), whether it gives a reason, and what is wrong
/// with it.
struct Parsed {
    names: Vec<(Span, Option<Code>)>,
    has_reason: bool,
    problems: Vec<Diagnostic>,
}

/// Reads `comment` (from its `#` to the end of its line, at byte `base` of
/// the file); `None` when it is not a suppression.
fn parse(comment: &str, base: usize) -> Option<Parsed> {
    let span = |start: usize, end: usize| Span::new(base + start, base + end);
    let word_start = skip_blanks(comment, 1);
    let rest = comment.get(word_start..)?;
    let word_len = rest
        .find(|c: char| c.is_whitespace() || c == ':')
        .unwrap_or(rest.len());
    if rest.get(..word_len) != Some(KEYWORD) {
        return None;
    }
    let word_end = word_start + word_len;
    let mut parsed = Parsed {
        names: Vec::new(),
        has_reason: false,
        problems: Vec::new(),
    };
    let colon = skip_blanks(comment, word_end);
    if !comment.get(colon..).is_some_and(|r| r.starts_with(':')) {
        let next = token(comment, colon);
        let names_a_code = comment
            .get(next.clone())
            .and_then(Code::from_name)
            .is_some();
        parsed
            .problems
            .push(no_colon(span(word_start, word_end), names_a_code));
        return Some(parsed);
    }
    let mut pos = skip_blanks(comment, colon + 1);
    loop {
        let name = token(comment, pos);
        if name.is_empty() {
            let problem = if parsed.names.is_empty() {
                no_code(span(0, comment.trim_end().len()))
            } else {
                dangling_comma(comment, &parsed, base)
            };
            parsed.problems.push(problem);
            break;
        }
        let written = comment.get(name.clone()).unwrap_or("");
        let name_span = span(name.start, name.end);
        let code = resolve(written, name_span, &mut parsed.problems);
        parsed.names.push((name_span, code));
        pos = name.end;
        let after = skip_blanks(comment, pos);
        if comment.get(after..).is_some_and(|r| r.starts_with(',')) {
            pos = skip_blanks(comment, after + 1);
        } else {
            break;
        }
    }
    parsed.has_reason = comment.get(pos..).is_some_and(|r| !r.trim().is_empty());
    Some(parsed)
}

/// The first byte at or after `pos` that is not a blank.
fn skip_blanks(text: &str, pos: usize) -> usize {
    let rest = text.get(pos..).unwrap_or("");
    pos + (rest.len() - rest.trim_start().len())
}

/// The code name starting at `pos`: up to a blank, a comma or the end.
fn token(text: &str, pos: usize) -> std::ops::Range<usize> {
    let rest = text.get(pos..).unwrap_or("");
    let len = rest
        .find(|c: char| c.is_whitespace() || c == ',')
        .unwrap_or(rest.len());
    pos..pos + len
}

fn is_suppression_code(code: Code) -> bool {
    matches!(
        code,
        Code::InvalidSuppression | Code::SuppressionWithoutReason | Code::UnusedSuppression
    )
}

/// The code a name in a suppression silences; `None`, with the reason in
/// `problems`, when it silences nothing.
fn resolve(written: &str, span: Span, problems: &mut Vec<Diagnostic>) -> Option<Code> {
    let problem = |message: String| Diagnostic::new(Code::InvalidSuppression, span, message);
    let found = match Code::from_name(written) {
        Some(code) if is_suppression_code(code) => {
            problem(format!("`{code}` cannot be silenced by a comment")).with_help(format!(
                "set its severity under `[severity]` in `agentc.toml` instead: `{code} = \"off\"`"
            ))
        }
        Some(code) if !code.can_be_silenced() => {
            problem(format!("`{code}` cannot be silenced")).with_help(format!(
                "fix the problem instead: past a `{code}` problem, nothing else agentc says about the file is reliable"
            ))
        }
        Some(code) => return Some(code),
        None => {
            let silenced = Code::ALL
                .iter()
                .copied()
                .filter(|c| c.can_be_silenced() && !is_suppression_code(*c));
            let unknown = problem(format!("`{written}` is not a diagnostic code"));
            match Code::nearest(written, silenced) {
                Some(candidate) => unknown.did_you_mean(span, candidate),
                None => unknown.with_help("run `agentc explain` to list every code"),
            }
        }
    };
    problems.push(found);
    None
}

fn no_colon(keyword: Span, names_a_code: bool) -> Diagnostic {
    let problem = Diagnostic::new(
        Code::InvalidSuppression,
        keyword,
        "`agentc-ignore` without `:` and the codes to silence",
    )
    .with_help("write `# agentc-ignore: CODE reason`");
    if names_a_code {
        problem.with_exact_fix(
            "add `:`",
            vec![Edit {
                span: Span::empty(keyword.end as usize),
                text: ":".to_string(),
            }],
        )
    } else {
        problem
    }
}

fn no_code(comment: Span) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidSuppression,
        comment,
        "this suppression names no code",
    )
    .with_help("name the codes to silence after the `:`, as `agentc explain` lists them")
}

/// The `,` after the last name, followed by no name.
fn dangling_comma(comment: &str, parsed: &Parsed, base: usize) -> Diagnostic {
    let after_last = parsed
        .names
        .last()
        .map_or(0, |(span, _)| (span.end as usize).saturating_sub(base));
    let comma = comment
        .get(after_last..)
        .and_then(|rest| rest.find(','))
        .map_or(after_last, |at| after_last + at);
    Diagnostic::new(
        Code::InvalidSuppression,
        Span::new(base + comma, base + comma + 1),
        "a `,` with no code after it",
    )
    .with_help("remove the `,`, or name another code after it")
}

fn without_reason(comment: Span) -> Diagnostic {
    Diagnostic::new(
        Code::SuppressionWithoutReason,
        comment,
        "this suppression gives no reason",
    )
    .with_help("say why after the codes: `# agentc-ignore: CODE reason`")
}

fn unused(code: Code, name: Span, cover: Cover, repeated: bool, removal: Span) -> Diagnostic {
    let note = match cover {
        Cover::Line(line) if repeated => format!(
            "`{code}` is named earlier for line {}, which silences it there",
            line + 1
        ),
        Cover::Line(line) => format!("no `{code}` diagnostic starts on line {}", line + 1),
        Cover::Blank(line) => format!(
            "it covers line {}, which is blank: a comment alone on its line covers the line below it",
            line + 1
        ),
        Cover::End => "no line follows it".to_string(),
    };
    Diagnostic::new(
        Code::UnusedSuppression,
        name,
        format!("the suppression of `{code}` silences nothing"),
    )
    .with_note(note)
    .with_help("remove it")
    .with_exact_fix(
        "remove the suppression",
        vec![Edit {
            span: removal,
            text: String::new(),
        }],
    )
}

/// What removing the `i`th of a comment's names deletes: the name and the
/// comma after it, or for the last name, the comma before it.
fn name_removal(names: &[Name], i: usize) -> Span {
    let this = names.get(i).map(|n| n.span).unwrap_or_default();
    if let Some(next) = names.get(i + 1) {
        return Span::new(this.start as usize, next.span.start as usize);
    }
    match i.checked_sub(1).and_then(|p| names.get(p)) {
        Some(previous) => Span::new(previous.span.end as usize, this.end as usize),
        None => this,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Compiles `text`, replaces its diagnostics by one `code` diagnostic at
    /// each `(code, needle)` (at the needle's first occurrence), applies the
    /// suppressions and lists what is left as `(code, 1-based line)`.
    fn run(text: &str, planted: &[(Code, &str)]) -> Vec<(&'static str, usize)> {
        let mut compilation = crate::compile("t.yaml", text.as_bytes());
        compilation.diagnostics = planted
            .iter()
            .map(|&(code, needle)| {
                let at = text.find(needle).expect("needle in text");
                Diagnostic::new(code, Span::new(at, at + needle.len()), "planted")
            })
            .collect();
        apply(&mut compilation);
        let source = &compilation.source;
        compilation
            .diagnostics
            .iter()
            .map(|d| (d.code.name(), source.position(d.span.start as usize).line))
            .collect()
    }

    const PNC: Code = Code::PropertyNameCase;

    #[test]
    fn a_comment_above_covers_the_next_line() {
        let text = "a:\n  # agentc-ignore: property-name-case why\n  b_c: 1\n";
        assert_eq!(run(text, &[(PNC, "b_c")]), []);
    }

    #[test]
    fn a_comment_after_content_covers_its_own_line() {
        let text = "a:\n  b_c: 1 # agentc-ignore: property-name-case why\n  d_e: 2\n";
        assert_eq!(
            run(text, &[(PNC, "b_c"), (PNC, "d_e")]),
            [("property-name-case", 3)]
        );
    }

    #[test]
    fn stacked_comments_cover_the_same_line_and_a_blank_line_stops_them() {
        let text = "a:\n  # agentc-ignore: property-name-case why\n  # plain\n  # agentc-ignore: deprecated why\n  b_c: 1\n";
        assert_eq!(run(text, &[(PNC, "b_c"), (Code::Deprecated, "b_c")]), []);
        let text = "a:\n  # agentc-ignore: property-name-case why\n\n  b_c: 1\n";
        assert_eq!(
            run(text, &[(PNC, "b_c")]),
            [("unused-suppression", 2), ("property-name-case", 4)]
        );
    }

    #[test]
    fn a_comment_on_the_last_line_covers_nothing() {
        let text = "a: 1\n# agentc-ignore: deprecated why";
        assert_eq!(run(text, &[]), [("unused-suppression", 2)]);
    }

    #[test]
    fn only_a_comment_whose_first_word_is_the_keyword_counts() {
        let text =
            "a: 1 # see agentc-ignore: deprecated docs\n# agentc-ignored: deprecated\nb: 2\n";
        assert_eq!(run(text, &[]), []);
    }

    #[test]
    fn hashes_inside_quotes_are_not_comments() {
        let text = "a: \"x # agentc-ignore: deprecated y\"\nb: 'it''s # agentc-ignore: deprecated y'\nc: \"\\\" # agentc-ignore: deprecated y\"\n";
        assert_eq!(run(text, &[(Code::Deprecated, "a")]), [("deprecated", 1)]);
        // An apostrophe inside a plain scalar opens no quote.
        let text = "a: don't # agentc-ignore: deprecated y\n";
        assert_eq!(run(text, &[(Code::Deprecated, "a")]), []);
        // Nor does a `#` right after text start a comment.
        let text = "a: x# agentc-ignore: deprecated y\n";
        assert_eq!(run(text, &[(Code::Deprecated, "a")]), [("deprecated", 1)]);
    }

    #[test]
    fn lines_of_a_block_scalar_are_text() {
        let text = "a: |\n  text\n  # agentc-ignore: deprecated y\n  more\nb: 1\n";
        assert_eq!(
            run(text, &[(Code::Deprecated, "more")]),
            [("deprecated", 4)]
        );
        // A comment less indented than the content ends the block.
        let text = "k:\n  a: |-\n      text\n    # agentc-ignore: deprecated y\n  b: 1\n";
        assert_eq!(run(text, &[(Code::Deprecated, "b:")]), []);
        // A suppression above a block scalar's header covers the header.
        let text = "# agentc-ignore: deprecated y\na: >\n  text\n";
        assert_eq!(run(text, &[(Code::Deprecated, "a:")]), []);
        // `a | b` is a plain scalar, not a header.
        let text = "a: x |\n  # agentc-ignore: deprecated y\n  b: 1\n";
        assert_eq!(run(text, &[(Code::Deprecated, "b:")]), []);
    }

    #[test]
    fn comma_lists_silence_each_code_and_report_the_unused_one() {
        let text =
            "a:\n  b_c: 1 # agentc-ignore: property-name-case , deprecated,unknown-type why\n";
        assert_eq!(
            run(text, &[(PNC, "b_c"), (Code::UnknownType, "1")]),
            [("unused-suppression", 2)]
        );
    }

    #[test]
    fn malformed_suppressions_are_reported() {
        let cases = [
            "a: 1 # agentc-ignore\n",
            "a: 1 # agentc-ignore deprecated why\n",
            "a: 1 # agentc-ignore:\n",
            "a: 1 # agentc-ignore: ,deprecated why\n",
            "a: 1 # agentc-ignore: yaml-syntax why\n",
            "a: 1 # agentc-ignore: unused-suppression why\n",
            "a: 1 # agentc-ignore: no-such-code why\n",
        ];
        for text in cases {
            assert_eq!(
                run(text, &[(Code::Deprecated, "a")]),
                [("deprecated", 1), ("invalid-suppression", 1)],
                "{text}"
            );
        }
        // A trailing comma: the code before it still silences.
        let text = "a: 1 # agentc-ignore: deprecated, \n";
        assert_eq!(
            run(text, &[(Code::Deprecated, "a")]),
            [
                ("suppression-without-reason", 1),
                ("invalid-suppression", 1)
            ]
        );
    }

    #[test]
    fn a_suppression_without_a_reason_still_silences() {
        let text = "a: 1 # agentc-ignore: deprecated\n";
        assert_eq!(
            run(text, &[(Code::Deprecated, "a")]),
            [("suppression-without-reason", 1)]
        );
    }

    #[test]
    fn a_second_suppression_of_one_code_on_one_line_is_unused() {
        let text = "# agentc-ignore: deprecated one\na: 1 # agentc-ignore: deprecated two\n";
        assert_eq!(
            run(text, &[(Code::Deprecated, "a: 1")]),
            [("unused-suppression", 2)]
        );
    }

    #[test]
    fn a_code_named_twice_is_unused_the_second_time() {
        let text = "a: 1 # agentc-ignore: deprecated, deprecated why\n";
        let mut compilation = crate::compile("t.yaml", text.as_bytes());
        compilation.diagnostics = vec![Diagnostic::new(
            Code::Deprecated,
            Span::new(0, 1),
            "planted",
        )];
        apply(&mut compilation);
        let unused: Vec<(&str, &[String])> = compilation
            .diagnostics
            .iter()
            .map(|d| (compilation.source.slice(d.span), d.notes.as_slice()))
            .collect();
        let note = "`deprecated` is named earlier for line 1, which silences it there";
        assert_eq!(unused, [("deprecated", &[note.to_string()][..])]);
        let second = text.rfind("deprecated").unwrap_or(0);
        assert_eq!(compilation.diagnostics[0].span.start as usize, second);
    }

    #[test]
    fn nothing_is_unused_without_a_model() {
        let text = "a: [\n# agentc-ignore: deprecated why\nb: 1\n";
        let mut compilation = crate::compile("t.yaml", text.as_bytes());
        assert!(compilation.model.is_none());
        apply(&mut compilation);
        assert!(
            compilation
                .diagnostics
                .iter()
                .all(|d| d.code != Code::UnusedSuppression)
        );
    }

    #[test]
    fn nothing_is_unused_when_lines_were_left_out() {
        // The misplaced `total` and its block are left out to read on; the
        // suppression in them is neither used nor unused.
        let text = "types:\n  A:\n    id:\n      type: string\n     total:\n      # agentc-ignore: unknown-type why\n      type: strng\n";
        let mut compilation = crate::compile("t.yaml", text.as_bytes());
        assert!(compilation.model.is_some());
        apply(&mut compilation);
        let codes: Vec<Code> = compilation.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, [Code::YamlSyntax]);
    }

    #[test]
    fn crlf_lone_cr_and_non_ascii_text_keep_spans_on_the_comment() {
        let text =
            "é: 1\r\n# agentc-ignore: deprecaté why\r\nb: 'ü'\r# agentc-ignore: deprecated\r";
        let mut compilation = crate::compile("t.yaml", text.as_bytes());
        compilation.diagnostics.clear();
        apply(&mut compilation);
        let slices: Vec<(&str, &str)> = compilation
            .diagnostics
            .iter()
            .map(|d| (d.code.name(), compilation.source.slice(d.span)))
            .collect();
        assert_eq!(
            slices,
            [
                ("invalid-suppression", "deprecaté"),
                ("suppression-without-reason", "# agentc-ignore: deprecated"),
                ("unused-suppression", "deprecated"),
            ]
        );
    }

    #[test]
    fn removing_a_name_takes_one_comma() {
        let text = "a: 1 # agentc-ignore: deprecated, unknown-type, property-name-case why\n";
        let mut compilation = crate::compile("t.yaml", text.as_bytes());
        let at = text.find('a').unwrap_or(0);
        compilation.diagnostics = vec![Diagnostic::new(
            Code::UnknownType,
            Span::new(at, at + 1),
            "planted",
        )];
        apply(&mut compilation);
        let removed: Vec<&str> = compilation
            .diagnostics
            .iter()
            .filter_map(|d| d.fix.as_ref())
            .flat_map(|fix| &fix.edits)
            .map(|edit| compilation.source.slice(edit.span))
            .collect();
        assert_eq!(removed, ["deprecated, ", ", property-name-case"]);
    }
}
