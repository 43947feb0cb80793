//! Octavus prompt templates: the Markdown files under an agent's `prompts/`
//! folder, parsed into their tags with byte spans.
//!
//! The language has four kinds of tag, each written between `{{` and `}}`:
//!
//! - `{{VARIABLE_NAME}}` interpolates a variable. Names are `UPPER_SNAKE_CASE`,
//!   `[A-Z][A-Z0-9_]*`. Dot notation (`{{TICKET.ticketId}}`) does not exist
//!   and is reported: the whole object is passed (serialized as JSON) or the
//!   property is mapped into a variable of its own.
//! - `{{@path.md}}` includes another prompt. The path is relative to
//!   `prompts/`, uses `/` between folders and ends in `.md`. An empty path,
//!   an absolute one, a backslash, a `..` segment, surrounding whitespace or
//!   another extension is reported.
//! - `{{#if COND}}`, `{{else if COND}}`, `{{else}}` and `{{/if}}` form
//!   conditional blocks, which nest. `{{else}}` must be the last branch of
//!   its block and appears at most once.
//! - A condition is exactly one of `VAR`, `!VAR`, `VAR == "value"` and
//!   `VAR != "value"`. The literal is everything between two double quotes
//!   (no escapes) and may be empty. Spaces are allowed around the operator
//!   and around the condition; at least one is required after `#if` and
//!   between `else` and `if`.
//!
//! This module knows nothing about which variables or prompts exist: it
//! returns the tags and the caller checks names and paths.
//!
//! # Decisions
//!
//! Prompts are prose and often contain braces that belong to something else
//! (code samples, other template languages), so anything that is not clearly
//! meant as an Octavus tag is literal text, left as it is and not reported:
//!
//! - A tag starts right after `{{`: `{{ VAR }}`, `{{ #if A }}` and
//!   `{{ else }}` (with inner spaces) are literal text, because the docs
//!   only ever show `{{VAR}}`. So are `{{name}}`, `{{Var}}`, `{{}}` and
//!   `{{ .Values }}`.
//! - A tag lies on one line. `{{` with no `}}` later on the same line (and
//!   in particular an unterminated `{{` at the end of the file) is literal.
//! - A tag ends at the first `}}` and starts at the last `{{` before it, as
//!   a regular expression would find it: `{{{VAR}}}` holds the variable
//!   `VAR` between two literal braces.
//! - Text shaped like a block helper of another language is reported as
//!   unsupported, because its author expected it to do something:
//!   `{{#word ...}}` and `{{/word ...}}` for any word other than `if`
//!   (`{{#each items}}`, `{{#unless A}}`, `{{/each}}`), and `{{elseif}}`,
//!   `{{elsif}}`, `{{elif}}`. These do not open or close blocks. A word is
//!   ASCII letters followed by the end of the tag or by whitespace, so
//!   `{{/usr/bin}}` and `{{#1}}` stay literal. `{{if A}}`, `{{end}}` and
//!   `{{endif}}` (without `#` or `/`) are literal: they are common in other
//!   template languages' code samples.
//! - `{{else ...}}` that is neither `{{else}}` nor `{{else if COND}}` is
//!   reported and has no effect on blocks.
//! - `{{/if}}`, `{{else}}` and conditions may have trailing spaces before
//!   `}}`. `{{/if X}}` is reported but still closes its block.
//!
//! Malformed tags are reported and not returned: an include with a bad path,
//! dot notation, and `{{#if}}` / `{{else if}}` with a malformed condition.
//! A `{{#if}}` with a malformed condition still opens a block, so its
//! `{{/if}}` is not reported as well. Every well-formed tag is returned,
//! even inside an unbalanced block, so the caller still checks its names.
//!
//! Diagnostics come in source order, except that the `{{#if}}` blocks left
//! open at the end of the file are reported last, in the order they opened.
//! The parser is one pass over the bytes with an explicit stack of open
//! blocks: linear time, any nesting depth, and it slices the text only at
//! ASCII bytes, so any UTF-8 input is safe.

use crate::diagnostic::{Code, Diagnostic, Diagnostics};
use crate::span::Span;

/// One tag of a template, in source order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tag {
    /// `{{NAME}}`; `span` covers NAME only.
    Variable { name: String, span: Span },
    /// `{{@path.md}}`; `span` covers the path only. `path` is as written,
    /// e.g. "shared/company-info.md".
    Include { path: String, span: Span },
    /// `{{#if COND}}`; `span` covers the whole tag `{{#if ...}}`.
    If { condition: Condition, span: Span },
    /// `{{else if COND}}`; `span` covers the whole tag.
    ElseIf { condition: Condition, span: Span },
    /// `{{else}}`; `span` covers the whole tag.
    Else { span: Span },
    /// `{{/if}}`; `span` covers the whole tag.
    EndIf { span: Span },
}

/// The condition of an `{{#if}}` or `{{else if}}`: `VAR`, `!VAR`,
/// `VAR == "value"` or `VAR != "value"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    /// `!VAR`.
    pub negated: bool,
    pub variable: String,
    pub variable_span: Span,
    pub comparison: Option<Comparison>,
}

/// The `== "value"` or `!= "value"` part of a condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// `==` is true, `!=` false.
    pub equal: bool,
    /// The value, without its quotes.
    pub literal: String,
    /// Covers the literal including its quotes.
    pub literal_span: Span,
}

/// Parses a template. Tags of malformed conditions are not returned (the
/// problem is reported instead); every well-formed tag is, even inside an
/// unbalanced block, so names are still checked.
pub fn parse(text: &str) -> (Vec<Tag>, Vec<Diagnostic>) {
    let mut parser = Parser {
        text,
        tags: Vec::new(),
        diagnostics: Diagnostics::default(),
        blocks: Vec::new(),
    };
    let bytes = text.as_bytes();
    // The most recent `{{` on the current line not yet closed.
    let mut open: Option<usize> = None;
    let mut i = 0;
    while i + 1 < bytes.len() {
        match (bytes[i], bytes[i + 1]) {
            (b'{', b'{') => {
                open = Some(i);
                i += 1;
            }
            (b'}', b'}') => match open.take() {
                Some(start) => {
                    parser.tag(start, i + 2);
                    i += 2;
                }
                None => i += 1,
            },
            (b'\n', _) => {
                open = None;
                i += 1;
            }
            _ => i += 1,
        }
    }
    parser.finish()
}

const IF: &str = "`{{#if}}`";
const ELSE: &str = "`{{else}}`";
const ELSE_IF: &str = "`{{else if}}`";
const END_IF: &str = "`{{/if}}`";
const CONDITION_FORMS: &str =
    "a condition is `VAR`, `!VAR`, `VAR == \"value\"` or `VAR != \"value\"`";

/// An `{{#if}}` block not yet closed.
struct Block {
    /// The opening tag.
    span: Span,
    /// Its `{{else}}`, once seen.
    else_span: Option<Span>,
}

/// Which conditional tag a condition belongs to, for messages.
#[derive(Clone, Copy)]
enum Branch {
    If,
    ElseIf,
}

impl Branch {
    fn name(self) -> &'static str {
        match self {
            Branch::If => IF,
            Branch::ElseIf => ELSE_IF,
        }
    }
}

struct Parser<'a> {
    text: &'a str,
    tags: Vec<Tag>,
    diagnostics: Diagnostics,
    blocks: Vec<Block>,
}

impl Parser<'_> {
    /// Classifies the tag `text[start..end]`, which begins with `{{` and ends
    /// with `}}` (both ASCII, so every slice below is on a char boundary).
    fn tag(&mut self, start: usize, end: usize) {
        let text = self.text;
        let span = Span::new(start, end);
        let at = start + 2;
        let Some(content) = text.get(at..end - 2) else {
            return;
        };
        if var_name_len(content) == content.len() && !content.is_empty() {
            self.tags.push(Tag::Variable {
                name: content.to_string(),
                span: Span::new(at, end - 2),
            });
        } else if let Some(path) = content.strip_prefix('@') {
            self.include(span, path, at + 1);
        } else if let Some(rest) = content.strip_prefix('#') {
            self.hash(span, rest, at + 1);
        } else if let Some(rest) = content.strip_prefix('/') {
            self.slash(span, rest);
        } else if content.starts_with(|c: char| c.is_ascii_lowercase()) {
            self.word(span, content, at);
        } else if is_dot_notation(content) {
            self.report(
                Diagnostic::new(
                    Code::PromptSyntax,
                    Span::new(at, end - 2),
                    format!("dot notation `{}` is not supported", self.slice(span)),
                )
                .with_help(
                    "pass the whole object (objects are serialized as JSON), \
                     or map the property into its own variable",
                ),
            );
        }
    }

    /// `{{@path}}`.
    fn include(&mut self, span: Span, path: &str, at: usize) {
        let path_span = Span::new(at, at + path.len());
        match include_problem(path) {
            None => self.tags.push(Tag::Include {
                path: path.to_string(),
                span: path_span,
            }),
            Some((message, help)) => {
                let span = if path.is_empty() { span } else { path_span };
                self.report(Diagnostic::new(Code::PromptSyntax, span, message).with_help(help));
            }
        }
    }

    /// `{{#...}}`: `{{#if COND}}` or an unsupported block helper.
    fn hash(&mut self, span: Span, rest: &str, at: usize) {
        if let Some(condition) = rest.strip_prefix("if") {
            if condition.is_empty() || condition.starts_with(is_space) {
                let condition = self.condition(span, Branch::If, condition, at + 2);
                self.open_if(span, condition);
                return;
            }
            if !condition.starts_with(|c: char| c.is_ascii_alphabetic()) {
                self.report(
                    Diagnostic::new(
                        Code::PromptSyntax,
                        span,
                        format!("missing space after `#if` in `{}`", self.slice(span)),
                    )
                    .with_help("write `{{#if COND}}`, with a space before the condition"),
                );
                self.open_if(span, None);
                return;
            }
        }
        if let Some((word, _)) = keyword(rest) {
            self.unsupported(span, "#", word);
        }
    }

    /// `{{/...}}`: `{{/if}}` or the end of an unsupported block helper.
    fn slash(&mut self, span: Span, rest: &str) {
        let Some((word, after)) = keyword(rest) else {
            return;
        };
        if word != "if" {
            self.unsupported(span, "/", word);
            return;
        }
        if after.trim_matches(is_space).is_empty() {
            self.tags.push(Tag::EndIf { span });
        } else {
            self.report(
                Diagnostic::new(
                    Code::PromptSyntax,
                    span,
                    format!("malformed tag `{}`", self.slice(span)),
                )
                .with_help("write `{{/if}}`; it takes no condition"),
            );
        }
        self.close_if(span);
    }

    /// A tag starting with a lower-case word: `{{else}}`, `{{else if COND}}`
    /// or a misspelling of them; anything else is literal.
    fn word(&mut self, span: Span, content: &str, at: usize) {
        let Some((word, rest)) = keyword(content) else {
            return;
        };
        match word {
            "else" => {}
            "elseif" | "elsif" | "elif" => {
                self.report(
                    Diagnostic::new(
                        Code::PromptSyntax,
                        span,
                        format!("`{}` is not supported", braced(word)),
                    )
                    .with_help("write `{{else if COND}}`"),
                );
                return;
            }
            _ => return,
        }
        let trimmed = rest.trim_start_matches(is_space);
        if trimmed.trim_end_matches(is_space).is_empty() {
            self.else_tag(span);
            return;
        }
        let if_at = at + word.len() + (rest.len() - trimmed.len());
        match trimmed.strip_prefix("if") {
            Some(condition) if condition.is_empty() || condition.starts_with(is_space) => {
                let condition = self.condition(span, Branch::ElseIf, condition, if_at + 2);
                self.else_if(span, condition);
            }
            _ => self.report(
                Diagnostic::new(
                    Code::PromptSyntax,
                    span,
                    format!("malformed tag `{}`", self.slice(span)),
                )
                .with_help("write `{{else}}`, or `{{else if COND}}` for another branch"),
            ),
        }
    }

    /// Parses the condition `raw` (starting at byte `at`) of the tag at
    /// `span`, reporting it when it is empty or malformed.
    fn condition(&mut self, span: Span, branch: Branch, raw: &str, at: usize) -> Option<Condition> {
        let trimmed = raw.trim_start_matches(is_space);
        let at = at + (raw.len() - trimmed.len());
        let condition = trimmed.trim_end_matches(is_space);
        if condition.is_empty() {
            self.report(
                Diagnostic::new(
                    Code::PromptSyntax,
                    span,
                    format!("{} has no condition", branch.name()),
                )
                .with_help(format!("{CONDITION_FORMS}, e.g. `{{{{#if VAR}}}}`")),
            );
            return None;
        }
        let parsed = parse_condition(condition, at);
        if parsed.is_none() {
            self.report(
                Diagnostic::new(
                    Code::PromptSyntax,
                    Span::new(at, at + condition.len()),
                    format!("malformed condition `{condition}`"),
                )
                .with_help(condition_help(condition)),
            );
        }
        parsed
    }

    fn open_if(&mut self, span: Span, condition: Option<Condition>) {
        self.blocks.push(Block {
            span,
            else_span: None,
        });
        if let Some(condition) = condition {
            self.tags.push(Tag::If { condition, span });
        }
    }

    fn else_if(&mut self, span: Span, condition: Option<Condition>) {
        match self.blocks.last() {
            None => self.orphan(span, ELSE_IF),
            Some(Block {
                else_span: Some(else_span),
                ..
            }) => {
                let else_span = *else_span;
                self.report(
                    Diagnostic::new(Code::PromptSyntax, span, format!("{ELSE_IF} after {ELSE}"))
                        .with_label(else_span, format!("{ELSE} is here"))
                        .with_help(format!(
                            "{ELSE} must be the last branch; move it after this {ELSE_IF}"
                        )),
                );
            }
            Some(_) => {}
        }
        if let Some(condition) = condition {
            self.tags.push(Tag::ElseIf { condition, span });
        }
    }

    fn else_tag(&mut self, span: Span) {
        match self.blocks.last_mut() {
            None => self.orphan(span, ELSE),
            Some(Block {
                else_span: Some(first),
                ..
            }) => {
                let first = *first;
                self.report(
                    Diagnostic::new(
                        Code::PromptSyntax,
                        span,
                        format!("a second {ELSE} in one {IF} block"),
                    )
                    .with_label(first, format!("first {ELSE} here"))
                    .with_help(format!(
                        "a block has at most one {ELSE}; use `{{{{else if COND}}}}` for more branches"
                    )),
                );
            }
            Some(block) => block.else_span = Some(span),
        }
        self.tags.push(Tag::Else { span });
    }

    fn close_if(&mut self, span: Span) {
        if self.blocks.pop().is_none() {
            self.orphan(span, END_IF);
        }
    }

    /// `{{else}}`, `{{else if}}` or `{{/if}}` outside any block.
    fn orphan(&mut self, span: Span, what: &str) {
        self.report(
            Diagnostic::new(
                Code::PromptSyntax,
                span,
                format!("{what} without an open {IF}"),
            )
            .with_help(format!("remove it, or add the {IF} it belongs to")),
        );
    }

    /// `{{#each}}`, `{{/each}}` and the like.
    fn unsupported(&mut self, span: Span, sigil: &str, word: &str) {
        self.report(
            Diagnostic::new(
                Code::PromptSyntax,
                span,
                format!(
                    "unsupported block helper `{}`",
                    braced(&format!("{sigil}{word}"))
                ),
            )
            .with_help(format!(
                "only {IF} conditionals exist (with {ELSE_IF}, {ELSE} and {END_IF}); \
                 there are no loops or other block helpers"
            )),
        );
    }

    fn report(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    fn slice(&self, span: Span) -> &str {
        self.text.get(span.range()).unwrap_or("")
    }

    /// Reports the blocks left open and returns the result.
    fn finish(mut self) -> (Vec<Tag>, Vec<Diagnostic>) {
        for block in std::mem::take(&mut self.blocks) {
            self.report(
                Diagnostic::new(
                    Code::PromptSyntax,
                    block.span,
                    format!("{IF} is never closed"),
                )
                .with_help(format!("close it with {END_IF}")),
            );
        }
        (self.tags, self.diagnostics.into_vec())
    }
}

fn is_space(c: char) -> bool {
    c.is_ascii_whitespace()
}

/// `{{inner}}`.
fn braced(inner: &str) -> String {
    format!("{{{{{inner}}}}}")
}

/// The length of the `[A-Z][A-Z0-9_]*` prefix of `s` (0 if none).
fn var_name_len(s: &str) -> usize {
    let bytes = s.as_bytes();
    if !bytes.first().is_some_and(u8::is_ascii_uppercase) {
        return 0;
    }
    bytes
        .iter()
        .take_while(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || **b == b'_')
        .count()
}

/// `VAR.prop` or `VAR.a.b`: a variable name followed by `.`-separated
/// segments of `[A-Za-z0-9_]`.
fn is_dot_notation(s: &str) -> bool {
    let n = var_name_len(s);
    let Some(rest) = s.get(n..).and_then(|rest| rest.strip_prefix('.')) else {
        return false;
    };
    n > 0
        && rest.split('.').all(|segment| {
            !segment.is_empty()
                && segment
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_')
        })
}

/// A leading word of ASCII letters followed by the end of `s` or by
/// whitespace: the word and what follows it.
fn keyword(s: &str) -> Option<(&str, &str)> {
    let n = s.bytes().take_while(u8::is_ascii_alphabetic).count();
    let (word, rest) = s.split_at_checked(n)?;
    let ends = rest.is_empty() || rest.starts_with(is_space);
    (n > 0 && ends).then_some((word, rest))
}

/// Why an include path is malformed, as (message, help).
fn include_problem(path: &str) -> Option<(String, String)> {
    const EXAMPLE: &str = "e.g. `{{@shared/company-info.md}}`";
    if path.is_empty() {
        return Some((
            "`{{@}}` has no path".to_string(),
            format!("write the path of a prompt relative to `prompts/`, {EXAMPLE}"),
        ));
    }
    if path.trim_matches(is_space).len() != path.len() {
        return Some((
            format!("include path `{path}` has surrounding whitespace"),
            "write `{{@path.md}}` with no spaces inside the braces".to_string(),
        ));
    }
    if path.starts_with('/') {
        return Some((
            format!("include path `{path}` is absolute"),
            format!(
                "paths are relative to `prompts/`: write `{}`",
                braced(&format!("@{}", path.trim_start_matches('/')))
            ),
        ));
    }
    if path.contains('\\') {
        return Some((
            format!("include path `{path}` uses a backslash"),
            format!(
                "separate folders with `/`: write `{}`",
                braced(&format!("@{}", path.replace('\\', "/")))
            ),
        ));
    }
    if path.split('/').any(|segment| segment == "..") {
        return Some((
            format!("include path `{path}` contains a `..` segment"),
            "includes stay inside `prompts/`; write the path relative to `prompts/`".to_string(),
        ));
    }
    if !path.ends_with(".md") {
        return Some((
            format!("include path `{path}` does not end in `.md`"),
            format!("includes name Markdown prompts under `prompts/`, {EXAMPLE}"),
        ));
    }
    None
}

/// Parses a trimmed, non-empty condition starting at byte `at` of the text.
fn parse_condition(s: &str, at: usize) -> Option<Condition> {
    let (negated, body, at) = match s.strip_prefix('!') {
        Some(body) => (true, body, at + 1),
        None => (false, s, at),
    };
    let n = var_name_len(body);
    if n == 0 {
        return None;
    }
    let (variable, rest) = body.split_at_checked(n)?;
    let mut condition = Condition {
        negated,
        variable: variable.to_string(),
        variable_span: Span::new(at, at + n),
        comparison: None,
    };
    if rest.is_empty() {
        return Some(condition);
    }
    if negated {
        return None;
    }
    condition.comparison = Some(parse_comparison(rest, at + n)?);
    Some(condition)
}

/// Parses ` == "value"` or ` != "value"` (all of `s`, starting at byte `at`).
fn parse_comparison(s: &str, at: usize) -> Option<Comparison> {
    let op = s.trim_start_matches(is_space);
    let op_at = at + (s.len() - op.len());
    let (equal, after) = match (op.strip_prefix("=="), op.strip_prefix("!=")) {
        (Some(after), _) => (true, after),
        (None, Some(after)) => (false, after),
        (None, None) => return None,
    };
    let quoted = after.trim_start_matches(is_space);
    let quoted_at = op_at + 2 + (after.len() - quoted.len());
    let inner = quoted.strip_prefix('"')?;
    let close = inner.find('"')?;
    if close + 1 != inner.len() {
        return None;
    }
    Some(Comparison {
        equal,
        literal: inner.get(..close)?.to_string(),
        literal_span: Span::new(quoted_at, quoted_at + close + 2),
    })
}

/// The help for a malformed condition: the four forms, and a hint for the
/// most likely mistake.
fn condition_help(condition: &str) -> String {
    let words = || condition.split(is_space);
    let hint = if condition.contains("&&")
        || condition.contains("||")
        || words().any(|w| matches!(w, "and" | "or" | "AND" | "OR"))
    {
        Some("write separate `{{#if}}` blocks for combinations")
    } else if condition.contains('\'') {
        Some("put the value in double quotes")
    } else if condition.contains(['<', '>']) {
        Some("only `==` and `!=` comparisons exist")
    } else if condition.starts_with('!') && (condition.contains("==") || condition.contains("!=")) {
        Some("use `!=` instead of negating a comparison")
    } else if condition
        .trim_start_matches('!')
        .starts_with(|c: char| c.is_ascii_lowercase())
    {
        Some("variable names are UPPER_SNAKE_CASE")
    } else if (condition.contains("==") || condition.contains("!=")) && !condition.contains('"') {
        Some("put the value in double quotes")
    } else if condition.contains('=') && !condition.contains("==") && !condition.contains("!=") {
        Some("compare with `==`")
    } else {
        None
    };
    match hint {
        Some(hint) => format!("{CONDITION_FORMS}; {hint}"),
        None => CONDITION_FORMS.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn slice(text: &str, span: Span) -> &str {
        &text[span.range()]
    }

    fn tags(text: &str) -> Vec<Tag> {
        let (tags, diagnostics) = parse(text);
        assert!(diagnostics.is_empty(), "{text:?}: {diagnostics:#?}");
        tags
    }

    fn errors(text: &str) -> Vec<Diagnostic> {
        parse(text).1
    }

    /// The single diagnostic of `text`.
    fn error(text: &str) -> Diagnostic {
        let diagnostics = errors(text);
        assert_eq!(diagnostics.len(), 1, "{text:?}: {diagnostics:#?}");
        assert_eq!(diagnostics[0].code, Code::PromptSyntax);
        diagnostics.into_iter().next().unwrap()
    }

    fn condition_of(tag: &Tag) -> &Condition {
        match tag {
            Tag::If { condition, .. } | Tag::ElseIf { condition, .. } => condition,
            other => panic!("not a conditional: {other:?}"),
        }
    }

    #[test]
    fn variable() {
        let text = "Hello {{USER_NAME}}, you are {{AGE2}}.";
        let tags = tags(text);
        assert_eq!(tags.len(), 2);
        let Tag::Variable { name, span } = &tags[0] else {
            panic!("{tags:?}")
        };
        assert_eq!(name, "USER_NAME");
        assert_eq!(slice(text, *span), "USER_NAME");
        let Tag::Variable { name, span } = &tags[1] else {
            panic!("{tags:?}")
        };
        assert_eq!(name, "AGE2");
        assert_eq!(slice(text, *span), "AGE2");
    }

    #[test]
    fn variable_at_the_edges_of_the_text() {
        let text = "{{A}}";
        assert_eq!(
            tags(text),
            vec![Tag::Variable {
                name: "A".into(),
                span: Span::new(2, 3)
            }]
        );
        assert_eq!(tags("{{A}}{{B_}}").len(), 2);
    }

    #[test]
    fn include() {
        let text = "Intro\n{{@shared/company-info.md}}\n{{@tone.md}}";
        let tags = tags(text);
        assert_eq!(tags.len(), 2);
        let Tag::Include { path, span } = &tags[0] else {
            panic!("{tags:?}")
        };
        assert_eq!(path, "shared/company-info.md");
        assert_eq!(slice(text, *span), "shared/company-info.md");
        let Tag::Include { path, span } = &tags[1] else {
            panic!("{tags:?}")
        };
        assert_eq!(path, "tone.md");
        assert_eq!(slice(text, *span), "tone.md");
    }

    #[test]
    fn include_problems() {
        let cases = [
            ("{{@}}", "`{{@}}` has no path", "{{@}}"),
            (
                "{{@shared/info}}",
                "include path `shared/info` does not end in `.md`",
                "shared/info",
            ),
            (
                "{{@/abs.md}}",
                "include path `/abs.md` is absolute",
                "/abs.md",
            ),
            (
                "{{@../up.md}}",
                "include path `../up.md` contains a `..` segment",
                "../up.md",
            ),
            (
                "{{@a/../b.md}}",
                "include path `a/../b.md` contains a `..` segment",
                "a/../b.md",
            ),
            (
                "{{@a\\b.md}}",
                "include path `a\\b.md` uses a backslash",
                "a\\b.md",
            ),
            (
                "{{@ a.md}}",
                "include path ` a.md` has surrounding whitespace",
                " a.md",
            ),
        ];
        for (text, message, at) in cases {
            let (tags, diagnostics) = parse(text);
            assert!(tags.is_empty(), "{text}: {tags:?}");
            assert_eq!(diagnostics.len(), 1, "{text}: {diagnostics:?}");
            assert_eq!(diagnostics[0].message, message);
            assert_eq!(slice(text, diagnostics[0].span), at);
            assert!(diagnostics[0].help.is_some());
        }
        assert_eq!(
            error("{{@/x/y.md}}").help.as_deref(),
            Some("paths are relative to `prompts/`: write `{{@x/y.md}}`")
        );
        assert_eq!(
            error("{{@x\\y.md}}").help.as_deref(),
            Some("separate folders with `/`: write `{{@x/y.md}}`")
        );
        // `..` inside a name is not a segment.
        assert_eq!(tags("{{@a..b.md}}").len(), 1);
    }

    #[test]
    fn if_else_if_else() {
        let text = "{{#if A}}a{{else if B == \"x\"}}b{{else if C != \"\"}}c{{else}}d{{/if}}";
        let tags = tags(text);
        assert_eq!(tags.len(), 5);
        let Tag::If { condition, span } = &tags[0] else {
            panic!("{tags:?}")
        };
        assert_eq!(slice(text, *span), "{{#if A}}");
        assert_eq!(
            *condition,
            Condition {
                negated: false,
                variable: "A".into(),
                variable_span: Span::new(6, 7),
                comparison: None
            }
        );
        let Tag::ElseIf { condition, span } = &tags[1] else {
            panic!("{tags:?}")
        };
        assert_eq!(slice(text, *span), "{{else if B == \"x\"}}");
        assert_eq!(condition.variable, "B");
        assert_eq!(slice(text, condition.variable_span), "B");
        let comparison = condition.comparison.as_ref().unwrap();
        assert!(comparison.equal);
        assert_eq!(comparison.literal, "x");
        assert_eq!(slice(text, comparison.literal_span), "\"x\"");
        let Tag::ElseIf { condition, span } = &tags[2] else {
            panic!("{tags:?}")
        };
        assert_eq!(slice(text, *span), "{{else if C != \"\"}}");
        let comparison = condition.comparison.as_ref().unwrap();
        assert!(!comparison.equal);
        assert_eq!(comparison.literal, "");
        assert_eq!(slice(text, comparison.literal_span), "\"\"");
        let Tag::Else { span } = &tags[3] else {
            panic!("{tags:?}")
        };
        assert_eq!(slice(text, *span), "{{else}}");
        let Tag::EndIf { span } = &tags[4] else {
            panic!("{tags:?}")
        };
        assert_eq!(slice(text, *span), "{{/if}}");
    }

    #[test]
    fn negated_condition() {
        let text = "{{#if !IS_NEW}}x{{/if}}";
        let tags = tags(text);
        let condition = condition_of(&tags[0]);
        assert!(condition.negated);
        assert_eq!(condition.variable, "IS_NEW");
        assert_eq!(slice(text, condition.variable_span), "IS_NEW");
        assert_eq!(condition.comparison, None);
    }

    #[test]
    fn spaces_inside_conditions() {
        let text = "{{#if  A == \"x y\" }}{{else if   B!=\"z\"\t}}{{else }}{{/if }}";
        let tags = tags(text);
        assert_eq!(tags.len(), 4);
        let a = condition_of(&tags[0]);
        assert_eq!(slice(text, a.variable_span), "A");
        let comparison = a.comparison.as_ref().unwrap();
        assert_eq!(comparison.literal, "x y");
        assert_eq!(slice(text, comparison.literal_span), "\"x y\"");
        let b = condition_of(&tags[1]);
        assert_eq!(slice(text, b.variable_span), "B");
        let comparison = b.comparison.as_ref().unwrap();
        assert!(!comparison.equal);
        assert_eq!(slice(text, comparison.literal_span), "\"z\"");
        assert!(matches!(tags[2], Tag::Else { .. }));
        assert!(matches!(tags[3], Tag::EndIf { .. }));
        // Two spaces between `else` and `if`.
        assert_eq!(self::tags("{{#if A}}{{else  if B}}{{/if}}").len(), 3);
    }

    #[test]
    fn literal_may_hold_anything_but_quotes() {
        let text = "{{#if MODE == \"é {x} != ==\"}}{{/if}}";
        let tags = tags(text);
        let comparison = condition_of(&tags[0]).comparison.clone().unwrap();
        assert_eq!(comparison.literal, "é {x} != ==");
        assert_eq!(slice(text, comparison.literal_span), "\"é {x} != ==\"");
    }

    #[test]
    fn nesting() {
        let text = "{{#if A}}{{#if B}}{{#if C}}{{X}}{{/if}}{{else}}{{/if}}{{else}}{{/if}}";
        let tags = tags(text);
        assert_eq!(tags.len(), 9);
        assert!(matches!(&tags[3], Tag::Variable { name, .. } if name == "X"));
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let depth = 100_000;
        let text = format!("{}{}", "{{#if A}}".repeat(depth), "{{/if}}".repeat(depth));
        let (tags, diagnostics) = parse(&text);
        assert_eq!(tags.len(), 2 * depth);
        assert!(diagnostics.is_empty());
    }

    #[test]
    fn large_input_is_linear() {
        // Unclosed `{{` on one long line and many tags: quadratic scanning
        // would take minutes here.
        let text = format!("{}{}", "{{ {".repeat(200_000), "{{A}}".repeat(200_000));
        let (tags, diagnostics) = parse(&text);
        assert_eq!(tags.len(), 200_000);
        assert!(diagnostics.is_empty());
    }

    #[test]
    fn unclosed_if() {
        let text = "{{#if A}}\n{{#if B}}x{{/if}}";
        let diagnostic = error(text);
        assert_eq!(diagnostic.message, "`{{#if}}` is never closed");
        assert_eq!(slice(text, diagnostic.span), "{{#if A}}");
        assert_eq!(diagnostic.help.as_deref(), Some("close it with `{{/if}}`"));
        // The tags are still returned.
        assert_eq!(parse(text).0.len(), 3);
    }

    #[test]
    fn every_unclosed_if_is_reported_in_order() {
        let text = "{{#if A}}{{#if B}}";
        let diagnostics = errors(text);
        assert_eq!(diagnostics.len(), 2);
        assert_eq!(slice(text, diagnostics[0].span), "{{#if A}}");
        assert_eq!(slice(text, diagnostics[1].span), "{{#if B}}");
    }

    #[test]
    fn orphans() {
        let text = "x {{/if}}";
        let diagnostic = error(text);
        assert_eq!(diagnostic.message, "`{{/if}}` without an open `{{#if}}`");
        assert_eq!(slice(text, diagnostic.span), "{{/if}}");
        assert!(matches!(parse(text).0[..], [Tag::EndIf { .. }]));

        let text = "{{else}}";
        let diagnostic = error(text);
        assert_eq!(diagnostic.message, "`{{else}}` without an open `{{#if}}`");
        assert_eq!(slice(text, diagnostic.span), "{{else}}");

        let text = "{{else if A}}";
        let diagnostic = error(text);
        assert_eq!(
            diagnostic.message,
            "`{{else if}}` without an open `{{#if}}`"
        );
        assert!(matches!(parse(text).0[..], [Tag::ElseIf { .. }]));

        // After a block is closed, its `{{else}}` is an orphan.
        let text = "{{#if A}}{{/if}}{{else}}";
        assert_eq!(error(text).message, "`{{else}}` without an open `{{#if}}`");
    }

    #[test]
    fn else_if_after_else() {
        let text = "{{#if A}}a{{else}}b{{else if B}}c{{/if}}";
        let diagnostic = error(text);
        assert_eq!(diagnostic.message, "`{{else if}}` after `{{else}}`");
        assert_eq!(slice(text, diagnostic.span), "{{else if B}}");
        assert_eq!(diagnostic.labels.len(), 1);
        assert_eq!(slice(text, diagnostic.labels[0].span), "{{else}}");
        assert!(diagnostic.help.is_some());
        // The well-formed tag is still returned.
        assert_eq!(parse(text).0.len(), 4);
    }

    #[test]
    fn second_else() {
        let text = "{{#if A}}a{{else}}b{{else}}c{{/if}}";
        let diagnostic = error(text);
        assert_eq!(
            diagnostic.message,
            "a second `{{else}}` in one `{{#if}}` block"
        );
        assert_eq!(diagnostic.span, Span::new(19, 27));
        assert_eq!(diagnostic.labels[0].span, Span::new(10, 18));
    }

    #[test]
    fn else_belongs_to_the_innermost_block() {
        let text = "{{#if A}}{{else}}{{#if B}}{{else}}{{/if}}{{/if}}";
        assert_eq!(tags(text).len(), 6);
        let text = "{{#if A}}{{#if B}}{{else}}{{/if}}{{else if C}}{{/if}}";
        assert_eq!(tags(text).len(), 6);
    }

    #[test]
    fn malformed_conditions() {
        let cases = [
            ("A && B", "write separate `{{#if}}` blocks for combinations"),
            ("A || B", "write separate `{{#if}}` blocks for combinations"),
            (
                "A and B",
                "write separate `{{#if}}` blocks for combinations",
            ),
            ("A > 3", "only `==` and `!=` comparisons exist"),
            ("A == x", "put the value in double quotes"),
            ("A == 'x'", "put the value in double quotes"),
            ("a == \"x\"", "variable names are UPPER_SNAKE_CASE"),
            ("!a", "variable names are UPPER_SNAKE_CASE"),
            ("!A == \"x\"", "use `!=` instead of negating a comparison"),
            ("A = \"x\"", "compare with `==`"),
            ("A == \"x\" extra", ""),
            ("A == \"x", ""),
            ("A \"x\"", ""),
            ("A B", ""),
            ("! A", ""),
            ("!!A", ""),
            ("(A)", ""),
            ("A.b", ""),
        ];
        for (condition, hint) in cases {
            for (open, close) in [
                ("{{#if ", "}}{{/if}}"),
                ("{{#if A}}{{else if ", "}}{{/if}}"),
            ] {
                let text = format!("{open}{condition}{close}");
                let (tags, diagnostics) = parse(&text);
                assert_eq!(diagnostics.len(), 1, "{text}: {diagnostics:#?}");
                let diagnostic = &diagnostics[0];
                assert_eq!(
                    diagnostic.message,
                    format!("malformed condition `{condition}`")
                );
                assert_eq!(slice(&text, diagnostic.span), condition);
                let help = diagnostic.help.as_deref().unwrap();
                assert!(help.starts_with(CONDITION_FORMS), "{help}");
                assert!(help.ends_with(hint), "{condition}: {help}");
                // The malformed tag is not returned, the block still balances.
                assert!(
                    tags.iter()
                        .all(|tag| !matches!(tag, Tag::If { condition, .. } | Tag::ElseIf { condition, .. } if condition.variable != "A")),
                    "{tags:?}"
                );
                assert!(matches!(tags.last(), Some(Tag::EndIf { .. })));
            }
        }
    }

    #[test]
    fn malformed_if_still_opens_a_block() {
        let text = "{{#if A && B}}x{{else}}y{{/if}}";
        let (tags, diagnostics) = parse(text);
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(tags.len(), 2);
    }

    #[test]
    fn empty_conditions() {
        let text = "{{#if}}{{/if}}";
        let diagnostic = error(text);
        assert_eq!(diagnostic.message, "`{{#if}}` has no condition");
        assert_eq!(slice(text, diagnostic.span), "{{#if}}");

        let text = "{{#if   }}{{/if}}";
        assert_eq!(error(text).message, "`{{#if}}` has no condition");

        let text = "{{#if A}}{{else if}}{{/if}}";
        let diagnostic = error(text);
        assert_eq!(diagnostic.message, "`{{else if}}` has no condition");
        assert_eq!(slice(text, diagnostic.span), "{{else if}}");
    }

    #[test]
    fn missing_space_after_if() {
        let text = "{{#if!A}}{{/if}}";
        let diagnostic = error(text);
        assert_eq!(
            diagnostic.message,
            "missing space after `#if` in `{{#if!A}}`"
        );
        assert_eq!(slice(text, diagnostic.span), "{{#if!A}}");
        assert_eq!(parse(text).0.len(), 1);
    }

    #[test]
    fn dot_notation() {
        let text = "Ticket: {{TICKET.ticketId}}";
        let diagnostic = error(text);
        assert_eq!(
            diagnostic.message,
            "dot notation `{{TICKET.ticketId}}` is not supported"
        );
        assert_eq!(slice(text, diagnostic.span), "TICKET.ticketId");
        assert!(diagnostic.help.as_deref().unwrap().contains("JSON"));
        assert!(parse(text).0.is_empty());
        assert_eq!(errors("{{A.b.c}} {{ITEMS.0}}").len(), 2);
        // Not dot notation: literal text.
        for text in ["{{A.}}", "{{A..b}}", "{{.A}}", "{{a.b}}", "{{A.b-c}}"] {
            assert_eq!(parse(text), (vec![], vec![]), "{text}");
        }
    }

    #[test]
    fn unsupported_block_helpers() {
        let cases = [
            ("{{#each items}}", "unsupported block helper `{{#each}}`"),
            ("{{#unless A}}", "unsupported block helper `{{#unless}}`"),
            ("{{#with}}", "unsupported block helper `{{#with}}`"),
            ("{{/each}}", "unsupported block helper `{{/each}}`"),
            ("{{#IF A}}", "unsupported block helper `{{#IF}}`"),
            ("{{elseif A}}", "`{{elseif}}` is not supported"),
            ("{{elsif A}}", "`{{elsif}}` is not supported"),
            ("{{elif A}}", "`{{elif}}` is not supported"),
        ];
        for (text, message) in cases {
            let diagnostic = error(text);
            assert_eq!(diagnostic.message, message);
            assert_eq!(slice(text, diagnostic.span), text);
            assert!(diagnostic.help.is_some());
            assert!(parse(text).0.is_empty());
        }
        // Unsupported helpers do not take part in blocks.
        let text = "{{#if A}}{{#each x}}{{/each}}{{/if}}";
        assert_eq!(errors(text).len(), 2);
        assert_eq!(parse(text).0.len(), 2);
    }

    #[test]
    fn malformed_else_and_end_if() {
        let text = "{{#if A}}{{else B}}{{/if}}";
        let diagnostic = error(text);
        assert_eq!(diagnostic.message, "malformed tag `{{else B}}`");
        assert_eq!(slice(text, diagnostic.span), "{{else B}}");

        let text = "{{#if A}}{{/if A}}";
        let diagnostic = error(text);
        assert_eq!(diagnostic.message, "malformed tag `{{/if A}}`");
        // It still closed the block: no "never closed".
        assert_eq!(parse(text).0.len(), 1);
    }

    #[test]
    fn literal_text_produces_nothing() {
        for text in [
            "",
            "plain text",
            "{{}}",
            "{{ }}",
            "{{ NAME }}",
            "{{NAME }}",
            "{{ NAME}}",
            "{{name}}",
            "{{lowercase}}",
            "{{Name}}",
            "{{1ABC}}",
            "{{_A}}",
            "{{A-B}}",
            "{{A B}}",
            "{{ .Values }}",
            "{{ .Values.image.tag }}",
            "{{ #if A }}",
            "{{ else }}",
            "{{ /if }}",
            "{{#}}",
            "{{# heading}}",
            "{{#1}}",
            "{{/}}",
            "{{/usr/bin}}",
            "{{if A}}",
            "{{end}}",
            "{{endif}}",
            "{{elsewhere}}",
            "{{else:}}",
            "{{!comment}}",
            "{{> partial}}",
            "{A}",
            "{ {A} }",
            "{{A}\n}",
            "}}{{",
            "{{#if A\n}}",
            "{{A\n}}",
            "```\nconst x = {{ y }};\n```",
        ] {
            assert_eq!(parse(text), (vec![], vec![]), "{text:?}");
        }
    }

    #[test]
    fn unterminated_braces_are_literal() {
        assert_eq!(parse("{{A"), (vec![], vec![]));
        assert_eq!(parse("{{#if A"), (vec![], vec![]));
        assert_eq!(parse("text {{"), (vec![], vec![]));
        assert_eq!(parse("{"), (vec![], vec![]));
        assert_eq!(parse("{{A}"), (vec![], vec![]));
        // An unterminated `{{` on one line does not swallow the next line.
        let text = "a {{ b\n{{B}}";
        let tags = tags(text);
        assert_eq!(tags.len(), 1);
    }

    #[test]
    fn a_tag_starts_at_the_last_open_braces() {
        let text = "{{{A}}}";
        let tags = tags(text);
        let [Tag::Variable { span, .. }] = &tags[..] else {
            panic!("{tags:?}")
        };
        assert_eq!(slice(text, *span), "A");
        let text = "{{ x {{B}} y }}";
        let tags = self::tags(text);
        let [Tag::Variable { span, .. }] = &tags[..] else {
            panic!("{tags:?}")
        };
        assert_eq!(slice(text, *span), "B");
        // A tag ends at the first `}}`.
        let text = "{{A}}}}";
        assert_eq!(self::tags(text).len(), 1);
    }

    #[test]
    fn unicode_around_tags() {
        let text = "é{{NAME}}é ü{{@ordnér/ü.md}}日本{{#if X == \"日本\"}}🎉{{else}}{{/if}}🎉";
        let tags = tags(text);
        assert_eq!(tags.len(), 5);
        let Tag::Variable { span, .. } = &tags[0] else {
            panic!("{tags:?}")
        };
        assert_eq!(slice(text, *span), "NAME");
        let Tag::Include { path, span } = &tags[1] else {
            panic!("{tags:?}")
        };
        assert_eq!(path, "ordnér/ü.md");
        assert_eq!(slice(text, *span), "ordnér/ü.md");
        let Tag::If { condition, span } = &tags[2] else {
            panic!("{tags:?}")
        };
        assert_eq!(slice(text, *span), "{{#if X == \"日本\"}}");
        let comparison = condition.comparison.as_ref().unwrap();
        assert_eq!(comparison.literal, "日本");
        assert_eq!(slice(text, comparison.literal_span), "\"日本\"");

        // Multi-byte characters inside tags: literal or reported, no panic.
        assert_eq!(parse("{{é}}"), (vec![], vec![]));
        assert_eq!(parse("{{Aé}}"), (vec![], vec![]));
        assert_eq!(parse("{{#éach}}"), (vec![], vec![]));
        let text = "{{#if Aé}}{{/if}}";
        assert_eq!(slice(text, error(text).span), "Aé");
        let text = "{{#if A == \"x\"é}}{{/if}}";
        assert_eq!(slice(text, error(text).span), "A == \"x\"é");
        let text = "{{#if\u{a0}A}}{{/if}}";
        assert_eq!(
            error(text).message,
            "missing space after `#if` in `{{#if\u{a0}A}}`"
        );
        let text = "{{#if A\u{a0}}}{{/if}}";
        assert_eq!(error(text).message, "malformed condition `A\u{a0}`");
    }

    #[test]
    fn helpers() {
        assert_eq!(braced("#each"), "{{#each}}");
        assert_eq!(var_name_len("AB_1c"), 4);
        assert_eq!(var_name_len("aB"), 0);
        assert_eq!(var_name_len(""), 0);
        assert_eq!(keyword("each x"), Some(("each", " x")));
        assert_eq!(keyword("each"), Some(("each", "")));
        assert_eq!(keyword("each/x"), None);
        assert_eq!(keyword(""), None);
    }

    /// Checks what must hold for any input: spans on char boundaries inside
    /// the text, and each span covering what the tag says.
    fn check_invariants(text: &str) {
        let (tags, diagnostics) = parse(text);
        let valid = |span: Span| text.get(span.range()).is_some();
        for diagnostic in &diagnostics {
            assert!(valid(diagnostic.span), "{text:?}: {diagnostic:?}");
            assert!(diagnostic.labels.iter().all(|label| valid(label.span)));
        }
        for tag in &tags {
            match tag {
                Tag::Variable { name, span } => assert_eq!(&text[span.range()], name),
                Tag::Include { path, span } => assert_eq!(&text[span.range()], path),
                Tag::If { condition, span } | Tag::ElseIf { condition, span } => {
                    assert!(valid(*span));
                    assert!(text[span.range()].starts_with("{{"));
                    assert_eq!(&text[condition.variable_span.range()], condition.variable);
                    if let Some(comparison) = &condition.comparison {
                        assert_eq!(
                            &text[comparison.literal_span.range()],
                            format!("\"{}\"", comparison.literal)
                        );
                    }
                }
                Tag::Else { span } | Tag::EndIf { span } => {
                    assert!(text[span.range()].starts_with("{{"));
                    assert!(text[span.range()].ends_with("}}"));
                }
            }
        }
    }

    #[test]
    fn no_panic_on_generated_strings() {
        // A deterministic generator over the pieces that matter, so every
        // run covers the same few thousand combinations.
        const PIECES: [&str; 24] = [
            "{{", "}}", "{", "}", "#if ", "#if", "else", " if ", "/if", "@", "A", "b", "_", "==",
            "!=", "!", "\"", " ", "\n", ".", "é", "日", "🎉", "#each",
        ];
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut text = String::new();
        for _ in 0..5_000 {
            text.clear();
            let len = next() % 24;
            for _ in 0..len {
                text.push_str(PIECES[(next() % PIECES.len() as u64) as usize]);
            }
            check_invariants(&text);
        }
    }

    proptest! {
        #[test]
        fn no_panic_on_arbitrary_text(text in any::<String>()) {
            check_invariants(&text);
        }

        #[test]
        fn no_panic_on_tag_like_text(
            text in r#"(\{\{|\}\}|#if |else if |else|/if|@|[A-Z_.!="' ]|[a-z]|é|日|\n){0,40}"#
        ) {
            check_invariants(&text);
        }
    }
}
