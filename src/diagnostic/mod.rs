//! The one diagnostic type every stage produces, and the registry of codes.
//! Renderers (human, JSON, short, GitHub, SARIF, LSP) read this type; none
//! of them adds information of its own.

mod codes;

pub use codes::Code;

use crate::span::Span;
use std::borrow::Cow;

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// A secondary location that explains the primary one ("first defined
/// here", "referenced here").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// One replacement in the diagnostic's file: the text under `span` becomes
/// `text` (an empty span inserts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub text: String,
}

/// A change that resolves the problem, obvious enough for an editor to
/// offer as a quick fix: "did you mean" applied, a type quoted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    /// What the fix does, as an editor's menu shows it.
    pub title: String,
    pub edits: Vec<Edit>,
    /// Whether `agentc check --fix` applies it: its code's
    /// ([`Code::fix`]), or [`Applicability::Suggestion`] when it is a
    /// guess for a person to judge.
    pub applicability: Applicability,
    /// Whether each edit's span was read off the written text itself (a
    /// value quoted, a line's indentation, a comment or a baseline entry
    /// removed) rather than given by a name, whose span in a scalar
    /// written with escapes is the whole scalar's.
    pub exact: bool,
}

impl Fix {
    /// Whether the fix can be made in `text`: each edit within it, on
    /// character boundaries, and, unless the fix is [`exact`](Fix::exact),
    /// none over a scalar written with escapes (a name in one has only its
    /// whole scalar's span, which the edit would overwrite with more than
    /// the name).
    pub fn fits(&self, text: &str) -> bool {
        self.edits.iter().all(|edit| {
            let range = edit.span.range();
            text.get(range)
                .is_some_and(|replaced| self.exact || !replaced.contains('\\'))
        })
    }
}

/// How sure a fix is, and so who applies it. Every fix is offered in an
/// editor, where a person sees it before it is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Applicability {
    /// What was meant, and nothing else changes: `agentc check --fix`.
    Safe,
    /// Most likely what was meant, but it changes what the protocol means
    /// or what its consumers see (a name renamed): `--fix --unsafe-fixes`.
    Unsafe,
    /// A guess for a person to judge: one answer among others as near
    /// (two names one edit away), or a name more than one edit from what
    /// was written. An editor offers it; `--fix` never applies it.
    Suggestion,
}

impl Applicability {
    pub fn name(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
            Applicability::Suggestion => "suggestion",
        }
    }

    /// What `agentc check --fix` does with a code's fixes of this kind: the
    /// line under the code's page (`agentc explain`, the MCP server).
    pub fn page_line(self) -> &'static str {
        match self {
            Applicability::Safe => {
                "Fix: safe. `agentc check --fix` applies it, except where it is a guess (a name more than one edit away, or one of two as near): an editor offers that one, and `--fix` leaves it."
            }
            Applicability::Unsafe => {
                "Fix: unsafe, as it can change what the protocol means. `agentc check --fix --unsafe-fixes` applies it."
            }
            Applicability::Suggestion => "Fix: a suggestion, offered in an editor only.",
        }
    }
}

impl Serialize for Applicability {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    pub labels: Vec<Label>,
    /// Borrowed when it is one of agentc's fixed texts: a flood repeats one
    /// help 100,000 times.
    pub help: Option<Cow<'static, str>>,
    pub notes: Vec<String>,
    /// For a problem in JSON data (`agentc validate`): the JSON pointer
    /// (RFC 6901) of the value it is about.
    pub pointer: Option<String>,
    /// Boxed: few diagnostics have one, and a flood holds 100,000
    /// diagnostics.
    pub fix: Option<Box<Fix>>,
    /// For a change between two versions of a protocol (`agentc diff`,
    /// `agentc check --against`): the contract it changes and where it was.
    pub change: Option<Box<ContractChange>>,
}

/// The contract an `agentc diff` finding is about: which side produces and
/// which consumes it, and what changed in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Surface {
    /// A tool's arguments and the set of callable tools: the model (or a
    /// `tool-call` block) produces them, handlers consume them.
    Tool,
    /// A `responseType`: the model produces it, the UI renders it, and
    /// replies are stored, so new UI code reads old replies.
    Response,
    /// A worker's `output`: the worker's model produces it, its caller
    /// consumes it.
    WorkerOutput,
    /// A trigger's or the session's input: code produces it, the protocol
    /// consumes it.
    Input,
}

impl Surface {
    pub fn as_str(self) -> &'static str {
        match self {
            Surface::Tool => "tool",
            Surface::Response => "response",
            Surface::WorkerOutput => "worker-output",
            Surface::Input => "input",
        }
    }
}

/// A place in another file than the diagnostic's (the old version of a
/// protocol), already turned into 1-based lines and columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

impl std::fmt::Display for Located {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// What a contract-diff finding says beyond its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContractChange {
    pub surface: Surface,
    /// The contract, as `tool `get-order``, `response `Reply``.
    pub contract: String,
    /// Where in the contract's values: `items[].quantity`, `reply<order>.id`;
    /// empty for the contract itself (a tool added).
    pub path: String,
    /// Whether every value the new contract accepts, the old one accepted.
    pub narrowed: bool,
    /// Whether every value the old contract accepted, the new one accepts.
    pub widened: bool,
    /// `agentc.toml`'s `[diff] ignore` names an accepted change by it.
    pub fingerprint: String,
    /// Where the changed node was in the old version.
    pub base: Option<Located>,
}

impl Diagnostic {
    /// Every place in its file the diagnostic names: where it is, its
    /// labels and its fix's edits.
    pub(crate) fn spans(&self) -> impl Iterator<Item = Span> + '_ {
        let edits = self.fix.iter().flat_map(|fix| &fix.edits);
        std::iter::once(self.span)
            .chain(self.labels.iter().map(|label| label.span))
            .chain(edits.map(|edit| edit.span))
    }

    /// Moves by `by` bytes every place it names that starts at or after
    /// `at`: the text there moved so far with an edit before it.
    pub(crate) fn move_after(&mut self, at: u32, by: i64) {
        let place = |span: &mut Span| {
            if span.start >= at {
                *span = span.shifted(by);
            }
        };
        place(&mut self.span);
        for Label { span, message: _ } in &mut self.labels {
            place(span);
        }
        if let Some(fix) = &mut self.fix {
            let Fix {
                title: _,
                edits,
                applicability: _,
                exact: _,
            } = &mut **fix;
            for Edit { span, text: _ } in edits {
                place(span);
            }
        }
    }

    /// A diagnostic at the code's registered severity.
    pub fn new(code: Code, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: code.severity(),
            message: message.into(),
            span,
            labels: Vec::new(),
            help: None,
            notes: Vec::new(),
            pointer: None,
            fix: None,
            change: None,
        }
    }

    pub fn with_pointer(mut self, pointer: impl Into<String>) -> Diagnostic {
        self.pointer = Some(pointer.into());
        self
    }

    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    pub fn with_help(mut self, help: impl Into<Cow<'static, str>>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// The fix, as sure as its code's fixes are ([`Code::fix`]; a code
    /// the registry gives no fix is never applied by `--fix`).
    pub fn with_fix(mut self, title: impl Into<String>, edits: Vec<Edit>) -> Diagnostic {
        self.fix = Some(Box::new(Fix {
            title: title.into(),
            edits,
            applicability: self.code.fix().unwrap_or(Applicability::Suggestion),
            exact: false,
        }));
        self
    }

    /// [`with_fix`](Diagnostic::with_fix), for edits whose spans were read
    /// off the written text itself ([`Fix::exact`]): they may replace
    /// text with escapes in it (`C:\temp` quoted).
    pub fn with_exact_fix(self, title: impl Into<String>, edits: Vec<Edit>) -> Diagnostic {
        let mut diagnostic = self.with_fix(title, edits);
        if let Some(fix) = &mut diagnostic.fix {
            fix.exact = true;
        }
        diagnostic
    }

    /// "did you mean `x`?" as the help, and writing `x` over `span` as the
    /// fix: as sure as its code's fixes when `x` is one edit from what was
    /// written and no other name is as near, else a suggestion.
    pub fn did_you_mean(self, span: Span, near: Near) -> Diagnostic {
        let mut diagnostic = self
            .with_help(format!("did you mean `{}`?", near.name))
            .with_fix(
                format!("change to `{}`", near.name),
                vec![Edit {
                    span,
                    text: near.name.to_string(),
                }],
            );
        if !near.certain()
            && let Some(fix) = &mut diagnostic.fix
        {
            fix.applicability = Applicability::Suggestion;
        }
        diagnostic
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// A path given to agentc that gave nothing to check: it does not exist,
/// cannot be read, or matches no file. It lies in no file's text, so it has
/// no position; every format reports it and counts it as an error, and the
/// run exits with 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The path as the user gave it.
    pub path: String,
    pub code: Code,
    pub message: String,
    pub help: Option<String>,
}

impl Failure {
    pub fn new(path: impl Into<String>, code: Code, message: impl Into<String>) -> Failure {
        Failure {
            path: path.into(),
            code,
            message: message.into(),
            help: None,
        }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Failure {
        self.help = Some(help.into());
        self
    }
}

/// A code's page, as `agentc explain CODE` prints it: its explanation,
/// then what `--fix` does with its fixes, when it has any.
pub fn page(code: Code) -> String {
    let mut page = code.explanation().to_string();
    if let Some(fix) = code.fix() {
        page.push('\n');
        page.push_str(fix.page_line());
        page.push('\n');
    }
    page
}

/// `word` as a POSIX shell reads it back as one word: as it is when it is
/// made only of characters no shell treats specially, else in single
/// quotes (a `'` inside as `'\''`). For the commands a help line suggests,
/// which people copy and paste: a path or a revision from the input must
/// not become a second command.
pub fn shell_word(word: &str) -> std::borrow::Cow<'_, str> {
    let plain = !word.is_empty()
        && word.bytes().all(|b| {
            b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'_' | b'.' | b'/' | b':' | b'@' | b'%' | b'+' | b'=' | b',' | b'-'
                )
        });
    if plain {
        std::borrow::Cow::Borrowed(word)
    } else {
        std::borrow::Cow::Owned(format!("'{}'", word.replace('\'', "'\\''")))
    }
}

/// The most diagnostics one [`Diagnostics`] (one file's) records; past it,
/// they are counted, and [`Diagnostics::into_vec`] adds one
/// `too-many-problems` saying how many more there were. No file a person
/// writes comes near it, and it bounds what a generated or hostile file
/// (a million duplicate keys) can cost.
pub const MAX_DIAGNOSTICS: usize = 100_000;

/// Where a stage puts what it finds. Stages take `&mut Diagnostics` and keep
/// going, so one run reports every problem, up to [`MAX_DIAGNOSTICS`].
#[derive(Debug, Default)]
pub struct Diagnostics {
    found: Vec<Diagnostic>,
    /// How many more were found past the limit, and the worst of them.
    dropped: usize,
    worst_dropped: Option<Severity>,
    /// Some of those counted stand for one or more problems each (an
    /// invalid value of a data file, not looked into): `dropped` is then a
    /// lower bound.
    at_least: bool,
}

impl Diagnostics {
    pub fn push(&mut self, diagnostic: Diagnostic) {
        if self.is_full() {
            self.drop_one(diagnostic.severity);
        } else {
            self.record(diagnostic);
        }
    }

    /// Keeps one diagnostic. The list grows by doubling, as a `Vec` does,
    /// but never past what it may hold ([`MAX_DIAGNOSTICS`] and the count
    /// [`Diagnostics::into_vec`] adds), so a flood's list is not a third
    /// larger than what it holds.
    fn record(&mut self, diagnostic: Diagnostic) {
        let found = &mut self.found;
        if found.len() == found.capacity() {
            let grown = (found.capacity() * 2).clamp(4, MAX_DIAGNOSTICS + 1);
            found.reserve_exact(grown.saturating_sub(found.len()).max(1));
        }
        found.push(diagnostic);
    }

    /// Pushes what `make` builds, or only counts it, without building it,
    /// when no more are recorded: for the diagnostics that cost most to
    /// build (those that search for a suggestion), which a flood repeats.
    pub fn push_with(&mut self, code: Code, make: impl FnOnce() -> Diagnostic) {
        if self.is_full() {
            self.drop_one(code.severity());
        } else {
            self.record(make());
        }
    }

    /// What is recorded so far, to take back what follows with
    /// [`Diagnostics::rollback`] (a stage that reads its input again).
    pub(crate) fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            found: self.found.len(),
            dropped: self.dropped,
            worst_dropped: self.worst_dropped,
            at_least: self.at_least,
        }
    }

    /// Forgets everything recorded or counted since `checkpoint`.
    pub(crate) fn rollback(&mut self, checkpoint: Checkpoint) {
        self.found.truncate(checkpoint.found);
        self.dropped = checkpoint.dropped;
        self.worst_dropped = checkpoint.worst_dropped;
        self.at_least = checkpoint.at_least;
    }

    /// Whether [`MAX_DIAGNOSTICS`] are recorded, so more are only counted.
    pub fn is_full(&self) -> bool {
        self.found.len() >= MAX_DIAGNOSTICS
    }

    /// Counts, past the limit, something with one or more problems of
    /// `severity` that was not looked into.
    pub fn count_at_least(&mut self, severity: Severity) {
        self.at_least = true;
        self.drop_one(severity);
    }

    fn drop_one(&mut self, severity: Severity) {
        self.dropped += 1;
        let worst = self.worst_dropped.unwrap_or(Severity::Info);
        // Severities order from the worst: error, warning, info.
        self.worst_dropped = Some(worst.min(severity));
    }

    /// Adds what `other` recorded, then what it only counted: the same as
    /// pushing here what was pushed there, in the same order.
    pub(crate) fn append(&mut self, other: Diagnostics) {
        self.extend(other.found);
        self.dropped += other.dropped;
        if let Some(severity) = other.worst_dropped {
            let worst = self.worst_dropped.unwrap_or(Severity::Info);
            self.worst_dropped = Some(worst.min(severity));
        }
        self.at_least |= other.at_least;
    }

    pub fn extend(&mut self, diagnostics: impl IntoIterator<Item = Diagnostic>) {
        for diagnostic in diagnostics {
            self.push(diagnostic);
        }
    }

    /// Whether a problem of `code` was found (and kept).
    pub(crate) fn contains(&self, code: Code) -> bool {
        self.found.iter().any(|d| d.code == code)
    }

    pub fn has_errors(&self) -> bool {
        self.has_errors_since(0)
    }

    /// Whether an error is among what was recorded after the first `from`
    /// (as [`Diagnostics::len`] counted them), or among what was dropped:
    /// for asking again and again as problems arrive, in linear time.
    pub fn has_errors_since(&self, from: usize) -> bool {
        let from = from.min(self.found.len());
        self.worst_dropped == Some(Severity::Error)
            || self.found[from..].iter().any(Diagnostic::is_error)
    }

    pub fn len(&self) -> usize {
        self.found.len()
    }

    /// What is recorded so far, in the order found.
    pub(crate) fn recorded(&self) -> &[Diagnostic] {
        &self.found
    }

    pub fn is_empty(&self) -> bool {
        self.found.is_empty()
    }

    /// Every diagnostic recorded, and, when some were not, one more (the
    /// first) at the start of the file that says how many and is as severe
    /// as the worst of them.
    pub fn into_vec(mut self) -> Vec<Diagnostic> {
        if let Some(worst) = self.worst_dropped {
            let mut diagnostic = Diagnostic::new(
                Code::TooManyProblems,
                Span::empty(0),
                format!(
                    "this file has {}{} more {} than agentc records (it stops at {})",
                    if self.at_least { "at least " } else { "" },
                    thousands(self.dropped),
                    if self.dropped == 1 {
                        "problem"
                    } else {
                        "problems"
                    },
                    thousands(MAX_DIAGNOSTICS)
                ),
            )
            .with_help("fix the problems shown, which usually share one cause, and check again");
            diagnostic.severity = worst;
            // First, so that it stays first among those at the start of
            // the file when they are put in source order.
            self.found.insert(0, diagnostic);
        }
        self.found
    }
}

/// What a [`Diagnostics`] held at one moment.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Checkpoint {
    found: usize,
    dropped: usize,
    worst_dropped: Option<Severity>,
    at_least: bool,
}

impl From<Vec<Diagnostic>> for Diagnostics {
    fn from(found: Vec<Diagnostic>) -> Diagnostics {
        let mut diagnostics = Diagnostics::default();
        diagnostics.extend(found);
        diagnostics
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// "a" or "an" for a word in a message (by its first letter, which is
/// right for the words agentc writes: `add-message`, `input`, `resource`).
pub fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// How many candidates one suggestion compares at most, and how many it
/// looks at (most are passed over for their length).
const MAX_COMPARED: usize = 64;
const MAX_SCANNED: usize = 1024;

/// "did you mean `x`?" for the candidate nearest to `name`, when it is
/// within a third of the name's length in edits (insertions, deletions,
/// substitutions, adjacent transpositions; as rustc does), ignoring
/// case. Ties go to the earliest candidate, which is declaration order.
/// At most [`MAX_COMPARED`] candidates of a plausible length are compared,
/// so a file with many unknown names among many declared ones stays linear.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    nearest(name, candidates).map(|near| format!("did you mean `{near}`?"))
}

/// The candidate [`did_you_mean`] would suggest, and whether it is the only
/// one that near.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Near<'a> {
    pub name: &'a str,
    /// Edits from what was written to `name`, case aside.
    pub distance: usize,
    /// No other candidate is as near: every candidate of a plausible
    /// length was compared, and none is. When the candidates were more
    /// than one suggestion compares, one not compared might be, so the
    /// nearest is not alone.
    pub alone: bool,
}

impl Near<'_> {
    /// One typo from the only name that near: what was meant, so a fix
    /// may make it without asking.
    pub fn certain(&self) -> bool {
        self.alone && self.distance <= 1
    }
}

impl std::fmt::Display for Near<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// The candidate [`did_you_mean`] would suggest.
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<Near<'a>> {
    nearest_within(name, candidates, MAX_COMPARED, MAX_SCANNED)
}

/// [`nearest`] over a vocabulary agentc fixes itself (its codes), which
/// no input can grow: every candidate is compared, so the nearest is
/// alone when it is.
pub fn nearest_of_all<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<Near<'a>> {
    nearest_within(name, candidates, usize::MAX, usize::MAX)
}

fn nearest_within<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    max_compared: usize,
    max_scanned: usize,
) -> Option<Near<'a>> {
    let lower = name.to_lowercase();
    let length = name.chars().count();
    let limit = (length / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    let mut alone = true;
    let mut compared = 0;
    // Whether candidates were left unread: then none is known to be alone.
    let mut cut = false;
    for (scanned, candidate) in candidates.into_iter().enumerate() {
        if scanned == max_scanned {
            cut = true;
            break;
        }
        // Edits change the length by at most one each.
        if candidate == name || candidate.chars().count().abs_diff(length) > limit {
            continue;
        }
        compared += 1;
        if compared > max_compared {
            cut = true;
            break;
        }
        let distance = strsim::osa_distance(&lower, &candidate.to_lowercase());
        match best {
            Some((d, other)) if distance == d && other != candidate => alone = false,
            _ if distance <= limit && best.is_none_or(|(d, _)| distance < d) => {
                best = Some((distance, candidate));
                alone = true;
            }
            _ => {}
        }
    }
    best.map(|(distance, name)| Near {
        name,
        distance,
        alone: alone && !cut,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn past_the_limit_diagnostics_are_counted_at_their_worst() {
        let mut diagnostics = Diagnostics::default();
        let at = |code| Diagnostic::new(code, Span::empty(1), "x");
        for _ in 0..MAX_DIAGNOSTICS {
            diagnostics.push(at(Code::PropertyNameCase));
        }
        assert!(!diagnostics.has_errors());
        diagnostics.push(at(Code::PropertyNameCase));
        diagnostics.push(at(Code::UnknownType));
        assert!(diagnostics.has_errors());
        let all = diagnostics.into_vec();
        assert_eq!(all.len(), MAX_DIAGNOSTICS + 1);
        let last = &all[0];
        assert_eq!(last.code, Code::TooManyProblems);
        assert_eq!(last.severity, Severity::Error);
        assert_eq!(
            last.message,
            "this file has 2 more problems than agentc records (it stops at 100,000)"
        );
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    /// A name one edit from the nearest candidate compared is not certain
    /// when candidates were left uncompared: one of them may be as near
    /// (`Prodcut` is one edit from `Prodcuu` and from `Product`).
    #[test]
    fn a_candidate_past_the_ones_compared_may_be_as_near() {
        let fillers: Vec<String> = (0..70).map(|i| format!("Fill{i:03}")).collect();
        let mut names = vec!["Prodcuu"];
        names.extend(fillers.iter().map(String::as_str));
        names.push("Product");
        let near = nearest("Prodcut", names.iter().copied()).unwrap();
        assert_eq!(near.name, "Prodcuu");
        assert!(!near.certain(), "{near:?}");
        // Without the fillers both are compared: two as near, neither alone.
        let near = nearest("Prodcut", ["Prodcuu", "Product"]).unwrap();
        assert!(!near.certain(), "{near:?}");
        // Few enough to compare in full: `Prodcuu` is alone. More than a
        // suggestion scans, whatever their length: not certain.
        let mut scanned: Vec<&str> = vec!["Prodcuu"];
        scanned.extend(fillers.iter().take(10).map(String::as_str));
        assert!(
            nearest("Prodcut", scanned.iter().copied())
                .unwrap()
                .certain()
        );
        let many: Vec<String> = (0..MAX_SCANNED).map(|i| format!("x{i}")).collect();
        let mut scanned: Vec<&str> = vec!["Prodcuu"];
        scanned.extend(many.iter().map(String::as_str));
        assert!(
            !nearest("Prodcut", scanned.iter().copied())
                .unwrap()
                .certain()
        );
    }

    #[test]
    fn suggests_the_nearest_name_only_when_close() {
        let names = ["Address", "Customer", "Product"];
        assert_eq!(
            did_you_mean("Adress", names).as_deref(),
            Some("did you mean `Address`?")
        );
        assert_eq!(did_you_mean("Zebra", names), None);
        assert_eq!(did_you_mean("ProductVariant", ["ProductHit"]), None);
        assert_eq!(
            did_you_mean("String", ["Address", "string"]).as_deref(),
            Some("did you mean `string`?")
        );
        assert_eq!(
            did_you_mean("optinal", ["type", "optional", "description"]).as_deref(),
            Some("did you mean `optional`?")
        );
    }
}

#[cfg(test)]
mod shell_tests {
    use super::*;

    #[test]
    fn shell_words_are_read_back_as_one_word() {
        assert_eq!(shell_word("origin/main"), "origin/main");
        assert_eq!(shell_word("web/src/agents"), "web/src/agents");
        assert_eq!(shell_word("main;rm -rf ~"), "'main;rm -rf ~'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
        assert_eq!(shell_word("$(id)"), "'$(id)'");
        assert_eq!(shell_word(""), "''");
        assert_eq!(shell_word("--lang"), "--lang");
    }

    #[test]
    fn shell_quoting_keeps_safe_words_and_quotes_the_rest() {
        assert_eq!(shell_word("release/v1.2_x-y@z"), "release/v1.2_x-y@z");
        assert_eq!(shell_word(""), "''");
        assert_eq!(shell_word("a b"), "'a b'");
        assert_eq!(shell_word("a'b"), r"'a'\''b'");
        assert_eq!(shell_word("a\nb"), "'a\nb'");
        assert_eq!(shell_word("~x"), "'~x'");
        assert_eq!(shell_word("*"), "'*'");
    }
}
