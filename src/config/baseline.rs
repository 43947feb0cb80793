//! The baseline: the problems a project has now, written down so that
//! `agentc check` accepts them and fails only on new ones. A sibling of
//! the `# agentc-ignore` comments of [`super::suppress`], for a whole run
//! at once: `agentc check --write-baseline FILE` records every problem
//! ([`record`]), and `baseline = "FILE"` in `agentc.toml` (or `--baseline
//! FILE`) names the file a check applies ([`Baseline::apply`]). Nothing
//! here reads or writes a file: the text comes in, the text goes out.
//!
//! The rules, including the decisions the issue left open:
//!
//! - **An entry** is a file, a code, a path and a count: "this file has
//!   `count` problems of this code at the node at this path". Never a
//!   line: the baseline survives lines added or removed elsewhere in the
//!   file, and a problem moved with its node is still the same problem.
//! - **The path** of a problem is the path of the innermost node of the
//!   file's YAML tree its span starts in ([`crate::yaml::path_at`]; a key
//!   stands for its entry): the mapping keys and sequence indices from the
//!   root, keys joined by `.` and indices written `[N]`, as in
//!   `tools.get-order.parameters.id` or `handlers.user-message[0].block`. A
//!   key that is empty or holds `.`, `[`, `]`, `"`, `\`, a blank or a
//!   control character is written in double quotes, with `"` and `\`
//!   escaped by `\` (and a control character as `\u{..}`), so that every
//!   path reads one way: `types."v1.Order".id`. `settings.json` is read as
//!   the YAML it also is, so its paths are written the same way
//!   (`model.provider`); a prompt, a reference, a skill's `.env` and any file
//!   that is not `.yaml`, `.yml` or `.json` has the empty path, as has a
//!   problem outside every node (a file whose YAML could not be read).
//! - **The file** of an entry is relative to the baseline file's folder,
//!   with `/` between folders, so the baseline is the same on every
//!   machine and in every checkout.
//! - **What is recorded**: every error and warning of the run, after the
//!   configuration's severities and the `agentc-ignore` comments (what is
//!   turned off or silenced is not there to record). Not `info`: it never
//!   fails a check, so accepting it would only make the file longer and
//!   its entries go stale as hints come and go. Not the codes that say a
//!   file could not be read as written ([`Code::can_be_silenced`]: past
//!   them nothing else said about the file is reliable), nor the
//!   baseline's own codes.
//! - **Applying**: each error or warning of a file is looked up by (file,
//!   code, path); while its entry has count left, the diagnostic is
//!   dropped and the count taken. What is left of an entry whose file the
//!   run checked is an `unused-baseline-entry` warning at the entry, with a
//!   fix: delete the entry when nothing matched, else lower its count to
//!   what matched. An entry for a file the run did not check is not judged
//!   (checking one folder of a project does not make the rest stale),
//!   unless the file no longer exists ([`Baseline::apply_judging`]: the
//!   caller, who holds the files, says): then all of it is unused.
//! - **The file's form**: TOML, a header comment, then one `[[accepted]]`
//!   table per entry (`file`, `path`, `code`, `count`, in that order),
//!   sorted by file, path and code and separated by a blank line: the same
//!   problems give the same bytes, and a change to one entry is a change to
//!   its lines alone. Every problem in a baseline file is an
//!   `invalid-baseline` error at its place, and, like a broken
//!   `agentc.toml`, stops the check.

use super::quote;
use crate::FileReport;
use crate::diagnostic::{Code, Diagnostic, Edit, Severity, article, did_you_mean};
use crate::source::{self, Source};
use crate::span::Span;
use crate::yaml::{self, Step};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// The first lines of a baseline file.
const HEADER: &str = "\
# agentc baseline: the problems `agentc check` accepts, so that only new ones fail.
# Written by `agentc check --write-baseline`; write it again to accept what is there now.
# Each entry: a file (relative to this folder), the YAML path of the node a
# problem is at, its code, and how many such problems there are.
";

/// The keys of an `[[accepted]]` entry, in the order they are written.
const ENTRY_KEYS: [&str; 4] = ["file", "path", "code", "count"];

/// A baseline file, read: its entries and where each is written.
#[derive(Clone, Debug)]
pub struct Baseline {
    source: Source,
    /// The folder its entries' files are relative to (its own folder).
    folder: PathBuf,
    entries: Vec<Entry>,
}

/// One `[[accepted]]` entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Relative to the baseline file's folder, `/` between folders.
    pub file: String,
    pub code: Code,
    /// The YAML path of the node (see the module's documentation).
    pub path: String,
    /// How many problems it accepts, at least 1.
    pub count: usize,
    /// Where it is written: its `code` value, its `count` value, and what
    /// deleting the whole entry removes.
    at: Span,
    count_at: Span,
    removal: Span,
}

/// The key a problem is accepted by: file, path, code (the file's order).
type Key = (String, String, Code);

impl Baseline {
    /// Reads the text of the baseline file at `path` (as shown: the paths
    /// of the files checked are compared with it as they are shown):
    /// the baseline, or its source with every problem in it.
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<Baseline, (Source, Vec<Diagnostic>)> {
        let (source, problem) = source::decode(&path.display().to_string(), bytes);
        if let Some(problem) = problem {
            return Err((source, vec![problem]));
        }
        let mut problems = Vec::new();
        let mut entries = Vec::new();
        let (table, errors) = DeTable::parse_recoverable(source.text());
        let well_formed = errors.is_empty();
        for error in errors {
            let span = error
                .span()
                .map_or(Span::empty(0), |r| Span::new(r.start, r.end));
            problems.push(
                Diagnostic::new(
                    Code::InvalidBaseline,
                    span,
                    "the baseline is not valid TOML",
                )
                .with_note(error.message().trim().to_string())
                .with_help("write it again with `agentc check --write-baseline FILE`"),
            );
        }
        if well_formed {
            read_table(&source, table.get_ref(), &mut entries, &mut problems);
        }
        if problems.is_empty() {
            Ok(Baseline {
                folder: folder_of(path),
                source,
                entries,
            })
        } else {
            crate::order(&mut problems);
            Err((source, problems))
        }
    }

    /// The entries, as written.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Applies the baseline to the reports of a run: drops each error and
    /// warning an entry accepts, and returns the baseline file's report
    /// when entries for files the run checked accept more than it found
    /// (an `unused-baseline-entry` warning each, at the entry, with its
    /// codes' default severities: configured severities are the caller's
    /// to apply). Call it once per run, after the configuration's
    /// severities and the suppressions.
    pub fn apply<'r>(
        &self,
        reports: impl IntoIterator<Item = &'r mut FileReport>,
    ) -> Option<FileReport> {
        self.apply_judging(reports, |_| false)
    }

    /// [`Baseline::apply`], where the entries of a file the run did not
    /// check are judged too when `gone` says that file no longer exists
    /// (its path is relative to [`Baseline::folder`]): all of such an
    /// entry is unused. Who holds the files answers: the disk, a workspace.
    pub fn apply_judging<'r>(
        &self,
        reports: impl IntoIterator<Item = &'r mut FileReport>,
        gone: impl Fn(&str) -> bool,
    ) -> Option<FileReport> {
        let mut left: BTreeMap<Key, (usize, usize)> = self
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| ((e.file.clone(), e.path.clone(), e.code), (i, e.count)))
            .collect();
        let files_with_entries: BTreeSet<&str> =
            self.entries.iter().map(|e| e.file.as_str()).collect();
        let mut checked: BTreeSet<String> = BTreeSet::new();
        for report in reports {
            let file = relative(report.source.name(), &self.folder);
            if files_with_entries.contains(file.as_str()) {
                let paths = Paths::new(&report.source);
                report.diagnostics.retain(|d| {
                    if !acceptable(d) {
                        return true;
                    }
                    let key = (file.clone(), paths.of(d.span), d.code);
                    match left.get_mut(&key) {
                        Some((_, count)) if *count > 0 => {
                            *count -= 1;
                            false
                        }
                        _ => true,
                    }
                });
            }
            checked.insert(file);
        }
        let mut unused: Vec<Diagnostic> = left
            .values()
            .filter(|(_, count)| *count > 0)
            .filter_map(|&(i, count)| self.entries.get(i).map(|e| (e, count)))
            .filter_map(|(e, count)| {
                let checked = checked.contains(&e.file);
                (checked || gone(&e.file)).then(|| self.unused(e, count, !checked))
            })
            .collect();
        if unused.is_empty() {
            return None;
        }
        crate::order(&mut unused);
        Some(FileReport::uncompiled(self.source.clone(), unused))
    }

    /// The folder the files of its entries are relative to: its own,
    /// absolute.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The warning for an entry of which `left` went unmatched, its file
    /// checked or `gone`.
    fn unused(&self, entry: &Entry, left: usize, gone: bool) -> Diagnostic {
        let found = entry.count - left;
        let place = match entry.path.as_str() {
            "" => format!("`{}`", entry.file),
            path => format!("`{path}` in `{}`", entry.file),
        };
        let code = entry.code;
        if gone {
            Diagnostic::new(
                Code::UnusedBaselineEntry,
                entry.at,
                format!(
                    "this baseline entry accepts {} `{code}` problem in a file that no longer exists",
                    article(code.name())
                ),
            )
            .with_note(format!("there is no `{}`", entry.file))
            .with_help("remove the entry: the file was removed or renamed")
            .with_exact_fix(
                "remove the entry",
                vec![Edit {
                    span: entry.removal,
                    text: String::new(),
                }],
            )
        } else if found == 0 {
            Diagnostic::new(
                Code::UnusedBaselineEntry,
                entry.at,
                format!(
                    "this baseline entry accepts {} `{code}` problem the check no longer finds",
                    article(code.name())
                ),
            )
            .with_note(format!("no `{code}` problem is at {place}"))
            .with_help("remove the entry: the problem is fixed, or moved to another node")
            .with_exact_fix(
                "remove the entry",
                vec![Edit {
                    span: entry.removal,
                    text: String::new(),
                }],
            )
        } else {
            Diagnostic::new(
                Code::UnusedBaselineEntry,
                entry.count_at,
                format!(
                    "this baseline entry accepts {} `{code}` problems; the check finds {found}",
                    entry.count
                ),
            )
            .with_note(format!("at {place}"))
            .with_help(format!("lower the count to {found}"))
            .with_exact_fix(
                format!("set the count to {found}"),
                vec![Edit {
                    span: entry.count_at,
                    text: found.to_string(),
                }],
            )
        }
    }
}

/// The text of a baseline file at `path` that accepts every error and
/// warning of `reports` a baseline may accept (see the module's
/// documentation): sorted, and the same bytes for the same problems.
pub fn record(reports: &[FileReport], path: &Path) -> String {
    let folder = folder_of(path);
    let mut counts: BTreeMap<Key, usize> = BTreeMap::new();
    for report in reports {
        let wanted: Vec<&Diagnostic> = report
            .diagnostics
            .iter()
            .filter(|d| acceptable(d))
            .collect();
        if wanted.is_empty() {
            continue;
        }
        let file = relative(report.source.name(), &folder);
        let paths = Paths::new(&report.source);
        for d in wanted {
            *counts
                .entry((file.clone(), paths.of(d.span), d.code))
                .or_default() += 1;
        }
    }
    let mut out = String::from(HEADER);
    for ((file, path, code), count) in &counts {
        out.push_str(&format!(
            "\n[[accepted]]\nfile = {}\npath = {}\ncode = {}\ncount = {count}\n",
            quote(file),
            quote(path),
            quote(code.name())
        ));
    }
    out
}

/// How many entries the text [`record`] wrote has, and how many problems
/// they accept, for a summary: read from its lines, without parsing it
/// again (a baseline of 50,000 entries is 5 MB of TOML).
pub fn totals(recorded: &str) -> (usize, usize) {
    recorded
        .lines()
        .fold((0, 0), |(entries, problems), line| match line {
            "[[accepted]]" => (entries + 1, problems),
            _ => match line
                .strip_prefix("count = ")
                .and_then(|n| n.parse::<usize>().ok())
            {
                Some(count) => (entries, problems + count),
                None => (entries, problems),
            },
        })
}

/// Whether a baseline may accept `d`.
fn acceptable(d: &Diagnostic) -> bool {
    matches!(d.severity, Severity::Error | Severity::Warning) && code_acceptable(d.code)
}

fn code_acceptable(code: Code) -> bool {
    code.can_be_silenced() && code != Code::UnusedBaselineEntry
}

/// The paths of a file's nodes, from its YAML tree when it has one.
struct Paths<'s> {
    root: Option<yaml::Node<'s>>,
}

impl<'s> Paths<'s> {
    fn new(source: &'s Source) -> Paths<'s> {
        let name = source.name();
        let is_tree = [".yaml", ".yml", ".json"]
            .iter()
            .any(|extension| name.ends_with(extension));
        // Parsed again (the check keeps no tree): what it finds was reported
        // by the check.
        let root = is_tree
            .then(|| yaml::parse(source, &mut crate::Diagnostics::default()))
            .flatten();
        Paths { root }
    }

    /// The path of the node `span` starts in.
    fn of(&self, span: Span) -> String {
        match &self.root {
            Some(root) => path_text(&yaml::path_at(root, span.start as usize)),
            None => String::new(),
        }
    }
}

/// A path as an entry writes it: `tools.get-order.parameters.id`,
/// `steps[0].block`, `types."v1.Order"`.
pub fn path_text(steps: &[Step<'_>]) -> String {
    let mut out = String::new();
    for step in steps {
        match step {
            Step::Index(index) => out.push_str(&format!("[{index}]")),
            Step::Key(key) => {
                if !out.is_empty() {
                    out.push('.');
                }
                let plain = !key.is_empty()
                    && !key.chars().any(|c| {
                        matches!(c, '.' | '[' | ']' | '"' | '\\')
                            || c.is_whitespace()
                            || c.is_control()
                    });
                if plain {
                    out.push_str(key);
                } else {
                    out.push('"');
                    for c in key.chars() {
                        match c {
                            '"' => out.push_str("\\\""),
                            '\\' => out.push_str("\\\\"),
                            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
                            c => out.push(c),
                        }
                    }
                    out.push('"');
                }
            }
        }
    }
    out
}

/// The folder of the baseline file at `path`, absolute, as the files it
/// names are compared with it.
fn folder_of(path: &Path) -> PathBuf {
    super::absolute(path)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// `file` (a path as shown) relative to the absolute `folder`, with `/`
/// between components and `..` where it lies outside.
fn relative(file: &str, folder: &Path) -> String {
    let file = super::absolute(Path::new(file));
    let ours: Vec<Component> = file.components().collect();
    let theirs: Vec<Component> = folder.components().collect();
    let common = ours.iter().zip(&theirs).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = theirs
        .iter()
        .skip(common)
        .map(|_| "..".to_string())
        .collect();
    parts.extend(
        ours.iter()
            .skip(common)
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

/// Reads the entries of a well-formed baseline.
fn read_table(
    source: &Source,
    table: &DeTable,
    entries: &mut Vec<Entry>,
    problems: &mut Vec<Diagnostic>,
) {
    for (key, value) in table.iter() {
        if key.get_ref().as_ref() != "accepted" {
            problems.push(unknown(
                span(key),
                key.get_ref(),
                &["accepted"],
                "a key of a baseline",
            ));
            continue;
        }
        let DeValue::Array(items) = value.get_ref() else {
            problems.push(wrong(value, "`[[accepted]]` tables"));
            continue;
        };
        for item in items {
            let DeValue::Table(fields) = item.get_ref() else {
                problems.push(wrong(item, "an `[[accepted]]` table"));
                continue;
            };
            if let Some(entry) = read_entry(source, span(item), fields, problems) {
                entries.push(entry);
            }
        }
    }
    // One entry per key: a second would make which one is unused a guess.
    let mut seen: BTreeMap<Key, ()> = BTreeMap::new();
    for entry in entries.iter() {
        let key = (entry.file.clone(), entry.path.clone(), entry.code);
        if seen.insert(key, ()).is_some() {
            problems.push(
                Diagnostic::new(
                    Code::InvalidBaseline,
                    entry.at,
                    "this file, path and code are listed by an entry above",
                )
                .with_help("keep one entry and add the counts"),
            );
        }
    }
}

/// One `[[accepted]]` table.
fn read_entry(
    source: &Source,
    table_span: Span,
    fields: &DeTable,
    problems: &mut Vec<Diagnostic>,
) -> Option<Entry> {
    let mut file = None;
    let mut code = None;
    let mut path = None;
    let mut count = None;
    let mut bad = false;
    let mut last = table_span.end as usize;
    for (key, value) in fields.iter() {
        last = last.max(value.span().end);
        let string = |problems: &mut Vec<Diagnostic>| match value.get_ref() {
            DeValue::String(text) => Some(text.to_string()),
            _ => {
                problems.push(wrong(value, "a string"));
                None
            }
        };
        match key.get_ref().as_ref() {
            "file" => match string(problems) {
                Some(text) if portable(&text) => file = Some(text),
                Some(_) => {
                    problems.push(
                        Diagnostic::new(
                            Code::InvalidBaseline,
                            span(value),
                            "`file` is not a relative path with `/` between folders",
                        )
                        .with_help("a file is named relative to the baseline's folder: `agents/shop/protocol.yaml`"),
                    );
                    bad = true;
                }
                None => bad = true,
            },
            "path" => match string(problems) {
                Some(text) => path = Some(text),
                None => bad = true,
            },
            "code" => match string(problems) {
                Some(name) => match Code::from_name(&name) {
                    Some(found) if code_acceptable(found) => code = Some((found, span(value))),
                    Some(found) => {
                        problems.push(
                            Diagnostic::new(
                                Code::InvalidBaseline,
                                span(value),
                                format!("a baseline cannot accept `{found}`"),
                            )
                            .with_help(if found == Code::UnusedBaselineEntry {
                                "set its severity under `[severity]` in `agentc.toml` instead"
                            } else {
                                "fix the problem: past it, nothing else agentc says about the file is reliable"
                            }),
                        );
                        bad = true;
                    }
                    None => {
                        let names: Vec<&str> = Code::ALL.iter().map(|c| c.name()).collect();
                        problems.push(unknown(span(value), &name, &names, "a diagnostic code"));
                        bad = true;
                    }
                },
                None => bad = true,
            },
            "count" => match value.get_ref() {
                DeValue::Integer(number) => {
                    match number.as_str().parse::<usize>().ok().filter(|&n| n >= 1) {
                        Some(n) => count = Some((n, span(value))),
                        None => {
                            problems.push(
                                Diagnostic::new(
                                    Code::InvalidBaseline,
                                    span(value),
                                    "`count` is not a whole number of at least 1",
                                )
                                .with_help("the number of problems the entry accepts: `count = 1`"),
                            );
                            bad = true;
                        }
                    }
                }
                _ => {
                    problems.push(wrong(value, "a whole number"));
                    bad = true;
                }
            },
            other => {
                problems.push(unknown(
                    span(key),
                    other,
                    &ENTRY_KEYS,
                    "a key of `[[accepted]]`",
                ));
                bad = true;
            }
        }
    }
    let missing: Vec<&str> = [
        ("file", file.is_none()),
        ("path", path.is_none()),
        ("code", code.is_none()),
        ("count", count.is_none()),
    ]
    .iter()
    .filter(|(key, absent)| *absent && !fields.contains_key(*key))
    .map(|(key, _)| *key)
    .collect();
    if !missing.is_empty() {
        let list: Vec<String> = missing.iter().map(|k| format!("`{k}`")).collect();
        problems.push(
            Diagnostic::new(
                Code::InvalidBaseline,
                header_at(source, table_span),
                format!("this `[[accepted]]` entry has no {}", list.join(", ")),
            )
            .with_help("an entry has `file`, `path`, `code` and `count`"),
        );
        return None;
    }
    if bad {
        return None;
    }
    let (code, at) = code?;
    let (count, count_at) = count?;
    Some(Entry {
        file: file?,
        code,
        path: path?,
        count,
        at,
        count_at,
        removal: removal(source, table_span, last),
    })
}

/// Whether a file of an entry is relative, with `/` between its parts and
/// none of them empty, `.` or `..` but leading `..`s.
fn portable(file: &str) -> bool {
    if file.is_empty() || file.starts_with('/') || file.contains('\\') || file.contains(':') {
        return false;
    }
    let parts: Vec<&str> = file.split('/').collect();
    let ups = parts.iter().take_while(|p| **p == "..").count();
    ups < parts.len()
        && parts
            .iter()
            .skip(ups)
            .all(|p| !p.is_empty() && *p != "." && *p != "..")
}

/// The `[[accepted]]` line of the entry that starts at `at`: the header
/// above its first key, or the entry's own span when it has none (an
/// inline table).
fn header_at(source: &Source, at: Span) -> Span {
    let text = source.text();
    let Some(start) = header_start(text, at.start as usize) else {
        return at;
    };
    let end = text
        .get(start..)
        .and_then(|rest| rest.find(['\n', '\r']))
        .map_or(text.len(), |n| start + n);
    Span::new(start, end)
}

/// The start of the line of the `[[` header at or above `at`, if any.
fn header_start(text: &str, at: usize) -> Option<usize> {
    let line_of = |end: usize| {
        text.get(..end)
            .and_then(|b| b.rfind('\n'))
            .map_or(0, |n| n + 1)
    };
    let mut line_start = line_of(at);
    loop {
        if text
            .get(line_start..)
            .is_some_and(|line| line.trim_start().starts_with("[["))
        {
            return Some(line_start);
        }
        if line_start == 0 {
            return None;
        }
        line_start = line_of(line_start - 1);
    }
}

/// What deleting an entry removes: its header's line, the blank lines
/// before it, and everything up to the blank lines before the next header
/// (or the end of the file). So each entry owns a piece of the file that
/// no other entry's overlaps, and removing any of them leaves the form
/// [`record`] writes. An entry with no header of its own (an inline table)
/// loses its own text only.
fn removal(source: &Source, table: Span, last_value_end: usize) -> Span {
    let text = source.text();
    let Some(header) = header_start(text, table.start as usize) else {
        return table;
    };
    let after = text.get(last_value_end..).unwrap_or("");
    let next = after
        .match_indices("[[")
        .map(|(i, _)| last_value_end + i)
        .find(|&i| {
            text.get(..i)
                .is_some_and(|b| b.is_empty() || b.ends_with('\n'))
        });
    let end = next.map_or(text.len(), |next| owned_from(text, next));
    Span::new(owned_from(text, header), end)
}

/// Where the piece of the file a header at `header` owns starts: after the
/// last line above it that is not blank.
fn owned_from(text: &str, header: usize) -> usize {
    let before = text.get(..header).unwrap_or("");
    let kept = before.trim_end_matches(['\n', '\r', ' ', '\t']).len();
    if kept == 0 {
        return 0;
    }
    before
        .get(kept..)
        .and_then(|blank| blank.find('\n'))
        .map_or(header, |i| kept + i + 1)
}

fn span<T>(spanned: &Spanned<T>) -> Span {
    let range = spanned.span();
    Span::new(range.start, range.end)
}

fn unknown(at: Span, name: &str, known: &[&str], what: &str) -> Diagnostic {
    let diagnostic = Diagnostic::new(Code::InvalidBaseline, at, format!("`{name}` is not {what}"));
    match did_you_mean(name, known.iter().copied()) {
        Some(help) => diagnostic.with_help(help),
        None if known.len() <= 8 => {
            diagnostic.with_help(format!("expected one of: {}", known.join(", ")))
        }
        None => diagnostic.with_help("run `agentc explain` to list every code"),
    }
}

fn wrong(value: &Spanned<DeValue>, expected: &str) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidBaseline,
        span(value),
        format!(
            "expected {expected}, found {}",
            super::kind(value.get_ref())
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Baseline, Vec<(String, String)>> {
        Baseline::parse(Path::new("/p/agentc-baseline.toml"), text.as_bytes()).map_err(
            |(source, problems)| {
                problems
                    .iter()
                    .map(|d| (source.slice(d.span).to_string(), d.message.clone()))
                    .collect()
            },
        )
    }

    #[test]
    fn paths_escape_what_would_read_two_ways() {
        use Step::{Index, Key};
        assert_eq!(
            path_text(&[Key("tools"), Key("get-order"), Key("parameters"), Key("id")]),
            "tools.get-order.parameters.id"
        );
        assert_eq!(
            path_text(&[Key("steps"), Index(2), Key("block")]),
            "steps[2].block"
        );
        assert_eq!(path_text(&[Index(0)]), "[0]");
        assert_eq!(
            path_text(&[Key("types"), Key("v1.Order"), Key(""), Key("a\"b\\c d")]),
            "types.\"v1.Order\".\"\".\"a\\\"b\\\\c d\""
        );
        assert_eq!(path_text(&[]), "");
    }

    #[test]
    fn files_are_relative_to_the_baseline_folder() {
        assert_eq!(
            relative("/p/a/protocol.yaml", Path::new("/p")),
            "a/protocol.yaml"
        );
        assert_eq!(relative("/q/b.yaml", Path::new("/p/x")), "../../q/b.yaml");
        assert!(portable("a/b.yaml") && portable("../a.yaml"));
        for bad in ["", "/a", "a//b", "./a", "a/../b", "a\\b", "C:a", ".."] {
            assert!(!portable(bad), "{bad}");
        }
    }

    #[test]
    fn every_problem_is_reported_at_its_place() {
        let problems = parse(
            "extra = 1\n[[accepted]]\nfile = \"/abs.yaml\"\npath = \"\"\ncode = \"yaml-syntax\"\ncount = 0\n\n[[accepted]]\nfile = \"a.yaml\"\ncode = \"unknwn-type\"\ncolor = 1\n\n[[accepted]]\npath = \"x\"\n",
        )
        .unwrap_err();
        let found: Vec<(&str, &str)> = problems
            .iter()
            .map(|(a, m)| (a.as_str(), m.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                ("extra", "`extra` is not a key of a baseline"),
                (
                    "\"/abs.yaml\"",
                    "`file` is not a relative path with `/` between folders"
                ),
                ("\"yaml-syntax\"", "a baseline cannot accept `yaml-syntax`"),
                ("0", "`count` is not a whole number of at least 1"),
                (
                    "[[accepted]]",
                    "this `[[accepted]]` entry has no `path`, `count`"
                ),
                ("\"unknwn-type\"", "`unknwn-type` is not a diagnostic code"),
                ("color", "`color` is not a key of `[[accepted]]`"),
                (
                    "[[accepted]]",
                    "this `[[accepted]]` entry has no `file`, `code`, `count`"
                ),
            ]
        );
        assert!(parse("[[accepted]\n").is_err());
    }

    #[test]
    fn a_recorded_baseline_reads_back_and_removals_cut_whole_entries() {
        let mut report = crate::compile(
            "/p/a.yaml",
            "types:\n  A:\n    b_c: { type: strin }\n    d_e: { type: string }\n",
        );
        let codes: Vec<&str> = report.diagnostics.iter().map(|d| d.code.name()).collect();
        assert_eq!(
            codes,
            ["property-name-case", "unknown-type", "property-name-case"]
        );
        let text = record(
            std::slice::from_ref(&report),
            Path::new("/p/agentc-baseline.toml"),
        );
        assert!(text.starts_with(HEADER));
        assert!(text.ends_with(
            "[[accepted]]\nfile = \"a.yaml\"\npath = \"types.A.d_e\"\ncode = \"property-name-case\"\ncount = 1\n"
        ), "{text}");
        let baseline = parse(&text).unwrap();
        let paths: Vec<&str> = baseline.entries().iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, ["types.A.b_c", "types.A.b_c.type", "types.A.d_e"]);
        for entry in baseline.entries() {
            let mut cut = text.clone();
            cut.replace_range(entry.removal.range(), "");
            let again = parse(&cut).unwrap();
            assert_eq!(again.entries().len(), 2);
            assert!(!cut.ends_with("\n\n"), "{cut:?}");
            assert!(cut.contains("\n\n[[accepted]]") || again.entries().is_empty());
        }
        assert_eq!(totals(&text), (3, 3));
        assert!(baseline.apply([&mut report]).is_none());
        assert!(report.diagnostics.is_empty());
    }
}
