//! `agentc.toml`: a project's settings for `agentc check`.
//!
//! ```toml
//! targets = ["openai"]             # checked as if given as --target
//! include = ["agents/**/*.yaml"]   # what a folder or glob search finds
//! exclude = ["agents/legacy"]      # and what it skips
//!
//! [severity]
//! property-name-case = "error"     # error, warning, info or off
//! deprecated = "off"
//!
//! [diff]                           # agentc diff, agentc check --against
//! order = "any"                    # any, protocol-first or code-first
//! readers = "tolerant"             # how code reads objects: tolerant or strict
//! platform-reader = "strict"       # how the platform reads input
//! ignore = ["3f8a0c1b9e2d"]        # fingerprints of accepted changes
//! ```
//!
//! and `baseline = "agentc-baseline.toml"`, the problems a check accepts
//! ([`baseline`], written by `agentc check --write-baseline`).
//!
//! The file is found upward from each checked file (the nearest one wins;
//! `project::Configs` finds it on disk), or given with `--config`. Globs are relative to the folder of the file
//! they are written in: `*` stays within a folder, `**` crosses folders,
//! and a glob that matches a folder matches everything below it. Every
//! problem in the file is an `invalid-config` error at its key or value,
//! all reported at once.
//!
//! What a configuration makes of a check ([`finish`]: the targets' checks,
//! the severities, the `# agentc-ignore` comments of [`suppress`]) and of
//! a diff ([`changes`]) is here too, for every front end alike.

pub mod baseline;
pub mod suppress;

use crate::FileReport;
use crate::codegen::{Lang, Options as GenOptions};
use crate::diagnostic::{Code, Diagnostic, Severity, did_you_mean};
use crate::diff::{Options as DiffOptions, Order, Reader as DiffReader};
use crate::emit::Target;
use crate::source::{self, Source};
use crate::span::Span;
use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::LazyLock;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// The configuration file's name.
pub const FILE_NAME: &str = "agentc.toml";

/// What a search finds when no `include` is given.
pub const DEFAULT_INCLUDE: &str = "**/protocol.yaml";

/// [`DEFAULT_INCLUDE`], compiled once: the language server makes the
/// defaults on every check.
static DEFAULT_INCLUDES: LazyLock<GlobSet> = LazyLock::new(|| {
    glob_builder(DEFAULT_INCLUDE)
        .build()
        .ok()
        .and_then(|glob| GlobSetBuilder::new().add(glob).build().ok())
        .unwrap_or_else(GlobSet::empty)
});

/// The most globs `include` or `exclude` may list. `globset` compiles every
/// glob that is not a plain name or extension into one regular expression
/// set: about 50 µs and 10 KB a glob to build, and past about 7,000 such
/// globs the set is larger than it builds at all. A project lists a
/// handful.
pub const MAX_GLOBS: usize = 1_000;

/// The longest glob, in bytes: a path pattern, not a document. With
/// [`MAX_GLOBS`], this bounds what compiling one list can cost (under a
/// second and 200 MB, `docs/performance.md`).
pub const MAX_GLOB_LEN: usize = 256;

/// The keys of `agentc.toml`, in the order `--print-config` writes them.
const KEYS: [&str; 7] = [
    "targets", "include", "exclude", "baseline", "severity", "diff", "gen",
];

/// The keys of a `[[gen]]` entry.
const GEN_KEYS: [&str; 5] = ["lang", "out", "strict", "optional-null", "field-case"];

/// The keys of `[diff]`.
const DIFF_KEYS: [&str; 4] = ["order", "readers", "platform-reader", "ignore"];

/// The severity a configuration gives a code, or `off` to drop it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Error,
    Warning,
    Info,
    Off,
}

impl Level {
    const ALL: [Level; 4] = [Level::Error, Level::Warning, Level::Info, Level::Off];

    pub fn name(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Info => "info",
            Level::Off => "off",
        }
    }

    fn of(severity: Severity) -> Level {
        match severity {
            Severity::Error => Level::Error,
            Severity::Warning => Level::Warning,
            Severity::Info => Level::Info,
        }
    }
}

/// An effective configuration: read from a file, or the defaults.
#[derive(Clone, Debug)]
pub struct Config {
    /// The file it was read from; `None` for the defaults.
    pub file: Option<PathBuf>,
    /// The folder globs are relative to: the file's folder.
    root: PathBuf,
    /// Targets checked as if given with `--target`.
    pub targets: Vec<Target>,
    /// Globs, as written.
    pub include: Vec<String>,
    pub exclude: Vec<String>,
    includes: GlobSet,
    excludes: GlobSet,
    /// The baseline file, as written (relative to the file's folder).
    pub baseline: Option<String>,
    /// Severities set for codes, by code.
    pub severity: BTreeMap<Code, Level>,
    /// How `agentc diff` and `check --against` judge changes.
    pub diff: DiffOptions,
    /// What `agentc gen` writes, entry by entry (`[[gen]]`).
    pub generate: Vec<GenEntry>,
}

/// One `[[gen]]` entry: bindings in some languages, written to a folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenEntry {
    pub langs: Vec<Lang>,
    /// The output folder, as written (relative to the file's folder).
    pub out: String,
    pub options: GenOptions,
}

impl Config {
    /// The defaults: no targets, every `protocol.yaml`, nothing excluded,
    /// each code at its own severity; globs relative to `root`.
    pub fn defaults(root: &Path) -> Config {
        Config {
            file: None,
            root: root.to_path_buf(),
            targets: Vec::new(),
            include: vec![DEFAULT_INCLUDE.to_string()],
            exclude: Vec::new(),
            includes: DEFAULT_INCLUDES.clone(),
            excludes: GlobSet::empty(),
            baseline: None,
            severity: BTreeMap::new(),
            diff: DiffOptions::default(),
            generate: Vec::new(),
        }
    }

    /// Parses the text of the configuration file at `path`.
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<Config, (Source, Vec<Diagnostic>)> {
        let (source, problem) = source::decode(&path.display().to_string(), bytes);
        if let Some(problem) = problem {
            return Err((source, vec![problem]));
        }
        let root = absolute(path)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let mut config = Config::defaults(&root);
        config.file = Some(path.to_path_buf());
        let mut problems = Vec::new();
        // Every syntax error is reported; the keys are read only from a
        // well-formed file, as a recovered table may hold keys nobody wrote.
        let (table, errors) = DeTable::parse_recoverable(source.text());
        let well_formed = errors.is_empty();
        for error in errors {
            let span = error
                .span()
                .map_or(Span::empty(0), |r| Span::new(r.start, r.end));
            let message = error.message().trim().to_string();
            problems.push(
                Diagnostic::new(Code::InvalidConfig, span, "`agentc.toml` is not valid TOML")
                    .with_note(message),
            );
        }
        if well_formed {
            Reader {
                config: &mut config,
                problems: &mut problems,
            }
            .table(table.get_ref());
        }
        if problems.is_empty() {
            Ok(config)
        } else {
            crate::order(&mut problems);
            Err((source, problems))
        }
    }

    /// The level this configuration gives `code`.
    pub fn level(&self, code: Code) -> Level {
        self.severity
            .get(&code)
            .copied()
            .unwrap_or(Level::of(code.severity()))
    }

    /// Gives each diagnostic its configured severity, and drops those
    /// turned off.
    pub fn apply(&self, diagnostics: &mut Vec<Diagnostic>) {
        if self.severity.is_empty() {
            return;
        }
        // Only the codes the file names: a diagnostic may have another
        // severity than its code's own (a contract change's is derived,
        // `too-many-problems` takes its worst), which stands unless set.
        diagnostics.retain_mut(|d| {
            let Some(&level) = self.severity.get(&d.code) else {
                return true;
            };
            d.severity = match level {
                Level::Error => Severity::Error,
                Level::Warning => Severity::Warning,
                Level::Info => Severity::Info,
                Level::Off => return false,
            };
            true
        });
    }

    /// The folder this configuration applies from: its file's folder
    /// (absolute, links not resolved), or the folder given for defaults.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The baseline file this configuration names, from its file's folder
    /// as that file's path names it (so shown as the user sees it).
    pub fn baseline_file(&self) -> Option<PathBuf> {
        let file = self.file.as_ref()?;
        let baseline = self.baseline.as_ref()?;
        Some(file.parent().unwrap_or(Path::new("")).join(baseline))
    }

    /// The folder a `[[gen]]` entry writes to: its `out`, below this
    /// file's folder.
    pub fn gen_folder(&self, entry: &GenEntry) -> PathBuf {
        self.root.join(&entry.out)
    }

    /// Whether a search (of a folder, or by a glob) takes the absolute
    /// `file`: one of the `include` globs matches it and no `exclude` glob
    /// matches it or a folder above it. A file outside the configuration's
    /// folder is taken when it is named `protocol.yaml`.
    pub fn takes(&self, file: &Path) -> bool {
        let Some(relative) = relative_to(file, &self.root) else {
            return file.file_name().is_some_and(|n| n == "protocol.yaml");
        };
        self.includes.is_match(&relative) && !self.excluded(&relative)
    }

    /// Whether an `exclude` glob matches the absolute `path` (a file or a
    /// folder) or a folder above it, below the configuration's own folder.
    pub fn excludes(&self, path: &Path) -> bool {
        relative_to(path, &self.root).is_some_and(|r| self.excluded(&r))
    }

    fn excluded(&self, relative: &str) -> bool {
        !relative.is_empty() && prefixes(relative).any(|prefix| self.excludes.is_match(prefix))
    }

    /// The configuration as `agentc.toml` text, every code's severity
    /// included (`agentc check --print-config`).
    pub fn to_toml(&self) -> String {
        let list = |items: &mut dyn Iterator<Item = &str>| -> String {
            let quoted: Vec<String> = items.map(quote).collect();
            format!("[{}]", quoted.join(", "))
        };
        let mut out = String::new();
        match &self.file {
            Some(file) => out.push_str(&format!("# from {}\n", file.display())),
            None => {
                // The folder as the reader would name it: the same on every
                // machine when it is the current one or below it.
                let here = absolute(Path::new("."));
                let root = match self.root.strip_prefix(&here) {
                    Ok(relative) if relative.as_os_str().is_empty() => {
                        "the current folder".to_string()
                    }
                    Ok(relative) => relative.display().to_string(),
                    Err(_) => self.root.display().to_string(),
                };
                out.push_str(&format!(
                    "# no {FILE_NAME} found: the defaults, globs relative to {root}\n"
                ))
            }
        }
        out.push_str(&format!(
            "targets = {}\n",
            list(&mut self.targets.iter().map(|t| t.name()))
        ));
        out.push_str(&format!(
            "include = {}\n",
            list(&mut self.include.iter().map(String::as_str))
        ));
        out.push_str(&format!(
            "exclude = {}\n",
            list(&mut self.exclude.iter().map(String::as_str))
        ));
        if let Some(baseline) = &self.baseline {
            out.push_str(&format!("baseline = {}\n", quote(baseline)));
        }
        out.push_str("\n[severity]\n");
        for &code in Code::ALL {
            // Written as comments, so the text reads back as it is.
            let (comment, fixed) = if code.can_be_silenced() {
                ("", "")
            } else {
                ("# ", " (cannot be changed)")
            };
            out.push_str(&format!(
                "{comment}{} = \"{}\"{fixed}\n",
                code.name(),
                self.level(code).name()
            ));
        }
        let diff = &self.diff;
        out.push_str(&format!(
            "\n[diff]\norder = {}\nreaders = {}\nplatform-reader = {}\nignore = {}\n",
            quote(diff.order.name()),
            quote(diff.readers.name()),
            quote(diff.platform_reader.name()),
            list(&mut diff.ignore.iter().map(String::as_str))
        ));
        for entry in &self.generate {
            out.push_str(&format!(
                "\n[[gen]]\nlang = {}\nout = {}\nstrict = {}\noptional-null = {}\nfield-case = {}\n",
                list(&mut entry.langs.iter().map(|l| l.name())),
                quote(&entry.out),
                entry.options.strict,
                entry.options.optional_null,
                quote(if entry.options.snake_case { "snake" } else { "wire" })
            ));
        }
        out
    }
}

/// Walks the parsed TOML, filling in the configuration and reporting
/// every key and value it cannot use.
struct Reader<'a> {
    config: &'a mut Config,
    problems: &'a mut Vec<Diagnostic>,
}

impl Reader<'_> {
    fn table(&mut self, table: &DeTable) {
        for (key, value) in table.iter() {
            match key.get_ref().as_ref() {
                "targets" => self.targets(value),
                "include" => {
                    if let Some((globs, set)) = self.globs(key.get_ref(), value) {
                        self.config.includes = set;
                        self.config.include = globs;
                    }
                }
                "exclude" => {
                    if let Some((globs, set)) = self.globs(key.get_ref(), value) {
                        self.config.excludes = set;
                        self.config.exclude = globs;
                    }
                }
                "baseline" => self.baseline(value),
                "severity" => self.severities(value),
                "diff" => self.diff(value),
                "gen" => self.generate(value),
                other => self.unknown(span(key), other, &KEYS, "a key of `agentc.toml`"),
            }
        }
    }

    /// `baseline = "FILE"`: a file below this file's folder.
    fn baseline(&mut self, value: &Spanned<DeValue>) {
        let DeValue::String(text) = value.get_ref() else {
            self.wrong(value, "the baseline file's path, a string");
            return;
        };
        let file = text.trim_start_matches("./");
        let outside = file.starts_with('/') || file.split(['/', '\\']).any(|part| part == "..");
        if file.is_empty() || outside || file.ends_with('/') {
            self.problems.push(
                Diagnostic::new(
                    Code::InvalidConfig,
                    span(value),
                    format!("`{text}` is not a file below this file's folder"),
                )
                .with_help("`baseline` is relative to the folder of `agentc.toml`, and stays below it: `agentc-baseline.toml`"),
            );
            return;
        }
        self.config.baseline = Some(file.to_string());
    }

    fn targets(&mut self, value: &Spanned<DeValue>) {
        let Some(items) = self.strings(value, "a list of target names") else {
            return;
        };
        let names = Target::ALL.map(Target::name);
        for (name, at) in items {
            match Target::from_name(&name) {
                Some(target) if !self.config.targets.contains(&target) => {
                    self.config.targets.push(target);
                }
                Some(_) => {}
                None => self.unknown(at, &name, &names, "a target"),
            }
        }
    }

    /// A list of globs, each checked, and the set they compile to. At most
    /// [`MAX_GLOBS`] of at most [`MAX_GLOB_LEN`] bytes each (`glob-limit`);
    /// past the count, the rest are not read.
    fn globs(&mut self, key: &str, value: &Spanned<DeValue>) -> Option<(Vec<String>, GlobSet)> {
        let items = self.strings(value, "a list of globs")?;
        let mut globs = Vec::new();
        let mut set = GlobSetBuilder::new();
        let mut usable = true;
        if let Some((_, at)) = items.get(MAX_GLOBS) {
            self.problems.push(
                Diagnostic::new(
                    Code::GlobLimit,
                    *at,
                    format!(
                        "`{key}` lists {} globs, more than the {} agentc compiles",
                        crate::diagnostic::thousands(items.len()),
                        crate::diagnostic::thousands(MAX_GLOBS)
                    ),
                )
                .with_help("match more with fewer globs: a folder's glob takes everything below it (`agents/legacy`), and `*` and `**` take many names at once"),
            );
            usable = false;
        }
        for (written, at) in items.into_iter().take(MAX_GLOBS) {
            if written.len() > MAX_GLOB_LEN {
                self.problems.push(
                    Diagnostic::new(
                        Code::GlobLimit,
                        at,
                        format!(
                            "this glob is {} bytes long, more than the {MAX_GLOB_LEN} agentc compiles",
                            crate::diagnostic::thousands(written.len())
                        ),
                    )
                    .with_help("a glob is a path pattern: `agents/**/protocol.yaml`"),
                );
                usable = false;
                continue;
            }
            // `./a` and `a/` mean `a`, as they would to a shell.
            let glob = written.trim_start_matches("./").trim_end_matches('/');
            let outside = glob.starts_with('/') || glob.split('/').any(|part| part == "..");
            if glob.is_empty() || outside {
                self.problems.push(
                    Diagnostic::new(
                        Code::InvalidConfig,
                        at,
                        format!("`{written}` is not a glob below this file's folder"),
                    )
                    .with_help("globs are relative to the folder of `agentc.toml`, and stay below it: `agents/**/protocol.yaml`"),
                );
                continue;
            }
            let glob = glob.to_string();
            match glob_builder(&glob).build() {
                Ok(compiled) => {
                    set.add(compiled);
                    globs.push(glob);
                }
                Err(error) => self.problems.push(
                    Diagnostic::new(
                        Code::InvalidConfig,
                        at,
                        format!("`{glob}` is not a valid glob"),
                    )
                    .with_note(error.kind().to_string()),
                ),
            }
        }
        if !usable {
            return None;
        }
        // Each glob compiles alone; together they may still be more than
        // the matcher holds. Never a silent empty set: that would take or
        // skip every file.
        match set.build() {
            Ok(set) => Some((globs, set)),
            Err(error) => {
                self.problems.push(
                    Diagnostic::new(
                        Code::GlobLimit,
                        span(value),
                        format!("the globs of `{key}` are too many or too complex to compile together"),
                    )
                    .with_help("list fewer globs, or simpler ones: a folder's glob takes everything below it")
                    .with_note(error.kind().to_string()),
                );
                None
            }
        }
    }

    fn severities(&mut self, value: &Spanned<DeValue>) {
        let DeValue::Table(table) = value.get_ref() else {
            self.wrong(value, "a table of codes and severities, as `[severity]`");
            return;
        };
        let levels = Level::ALL.map(Level::name);
        for (key, value) in table.iter() {
            let name = key.get_ref().as_ref();
            let Some(code) = Code::from_name(name) else {
                // Too many to list: the nearest, or where the list is.
                let help = match Code::nearest(name, Code::ALL.iter().copied()) {
                    Some(near) => format!("did you mean `{near}`?"),
                    None => "run `agentc explain` to list every code".to_string(),
                };
                self.problems.push(
                    Diagnostic::new(
                        Code::InvalidConfig,
                        span(key),
                        format!("`{name}` is not a diagnostic code"),
                    )
                    .with_help(help),
                );
                continue;
            };
            let DeValue::String(level) = value.get_ref() else {
                self.wrong(value, "a severity: `error`, `warning`, `info` or `off`");
                continue;
            };
            let Some(level) = Level::ALL.into_iter().find(|l| l.name() == level.as_ref()) else {
                self.unknown(span(value), level.as_ref(), &levels, "a severity");
                continue;
            };
            if code.can_be_silenced() {
                self.config.severity.insert(code, level);
            } else {
                self.problems.push(
                    Diagnostic::new(
                        Code::InvalidConfig,
                        span(key),
                        format!("the severity of `{name}` cannot be changed"),
                    )
                    .with_help("remove this line")
                    .with_note(
                        "it says the file could not be read as written; past it, nothing else agentc reports about the file is reliable",
                    ),
                );
            }
        }
    }

    fn diff(&mut self, value: &Spanned<DeValue>) {
        let DeValue::Table(table) = value.get_ref() else {
            self.wrong(value, "a table, as `[diff]`");
            return;
        };
        for (key, value) in table.iter() {
            match key.get_ref().as_ref() {
                "order" => {
                    let names = Order::ALL.map(Order::name);
                    if let Some(i) = self.choice(value, &names) {
                        self.config.diff.order = Order::ALL[i];
                    }
                }
                "readers" | "platform-reader" => {
                    let names = DiffReader::ALL.map(DiffReader::name);
                    if let Some(i) = self.choice(value, &names) {
                        let reader = DiffReader::ALL[i];
                        match key.get_ref().as_ref() {
                            "readers" => self.config.diff.readers = reader,
                            _ => self.config.diff.platform_reader = reader,
                        }
                    }
                }
                "ignore" => {
                    let Some(items) = self.strings(value, "a list of fingerprints") else {
                        continue;
                    };
                    for (text, at) in items {
                        let fingerprint = text.len() == 12
                            && text
                                .bytes()
                                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
                        if fingerprint {
                            self.config.diff.ignore.push(text);
                        } else {
                            self.problems.push(
                                Diagnostic::new(
                                    Code::InvalidConfig,
                                    at,
                                    format!("`{text}` is not a fingerprint"),
                                )
                                .with_help("a fingerprint is the 12 lowercase hex digits that `agentc diff --format json` gives each change"),
                            );
                        }
                    }
                }
                other => self.unknown(span(key), other, &DIFF_KEYS, "a key of `[diff]`"),
            }
        }
    }

    fn generate(&mut self, value: &Spanned<DeValue>) {
        let DeValue::Array(entries) = value.get_ref() else {
            self.wrong(value, "a list of tables, as `[[gen]]`");
            return;
        };
        for entry in entries {
            let DeValue::Table(table) = entry.get_ref() else {
                self.wrong(entry, "a table, as `[[gen]]`");
                continue;
            };
            let mut langs = Vec::new();
            let mut out = None;
            let mut options = GenOptions::default();
            for (key, value) in table.iter() {
                match key.get_ref().as_ref() {
                    "lang" => {
                        let items = match value.get_ref() {
                            DeValue::String(text) => vec![(text.to_string(), span(value))],
                            _ => self
                                .strings(value, "a language or a list of them")
                                .unwrap_or_default(),
                        };
                        let names = Lang::ALL.map(Lang::name);
                        if let DeValue::Array(list) = value.get_ref()
                            && list.is_empty()
                        {
                            self.problems.push(
                                Diagnostic::new(
                                    Code::InvalidConfig,
                                    span(value),
                                    "`lang` lists no language: this entry would generate nothing",
                                )
                                .with_help(format!("list one or more of: {}", names.join(", "))),
                            );
                        }
                        for (name, at) in items {
                            match Lang::from_name(&name) {
                                Some(lang) if !langs.contains(&lang) => langs.push(lang),
                                Some(_) => {}
                                None => self.unknown(at, &name, &names, "a language"),
                            }
                        }
                    }
                    "out" => {
                        let DeValue::String(text) = value.get_ref() else {
                            self.wrong(value, "a folder, as a string");
                            continue;
                        };
                        let folder = text.trim_start_matches("./").trim_end_matches('/');
                        let outside = folder.starts_with('/')
                            || folder.contains('\\')
                            || folder.split('/').any(|part| part == "..")
                            || folder.contains(':');
                        if folder.is_empty() || outside {
                            self.problems.push(
                                Diagnostic::new(
                                    Code::InvalidConfig,
                                    span(value),
                                    format!("`{text}` is not a folder below this file's folder"),
                                )
                                .with_help("`out` is relative to the folder of `agentc.toml`, and stays below it: `web/src/agents`"),
                            );
                        } else {
                            out = Some(folder.to_string());
                        }
                    }
                    "strict" | "optional-null" => {
                        let DeValue::Boolean(flag) = value.get_ref() else {
                            self.wrong(value, "`true` or `false`");
                            continue;
                        };
                        match key.get_ref().as_ref() {
                            "strict" => options.strict = *flag,
                            _ => options.optional_null = *flag,
                        }
                    }
                    "field-case" => {
                        let names = ["wire", "snake"];
                        if let Some(i) = self.choice(value, &names) {
                            options.snake_case = i == 1;
                        }
                    }
                    other => self.unknown(span(key), other, &GEN_KEYS, "a key of `[[gen]]`"),
                }
            }
            let missing = |what: &str| {
                Diagnostic::new(
                    Code::InvalidConfig,
                    span(entry),
                    format!("this `[[gen]]` entry has no `{what}`"),
                )
            };
            match (langs.is_empty(), out) {
                (false, Some(out)) => self.config.generate.push(GenEntry {
                    langs,
                    out,
                    options,
                }),
                (true, _) if !table.contains_key("lang") => self
                    .problems
                    .push(missing("lang").with_help("`lang = [\"ts\", \"zod\"]`")),
                (_, None) if !table.contains_key("out") => self.problems.push(
                    missing("out")
                        .with_help("`out = \"web/src/agents\"`, relative to this file's folder"),
                ),
                // A bad value, already reported.
                _ => {}
            }
        }
    }

    /// The index of the string `value` among `names`, or a problem.
    fn choice(&mut self, value: &Spanned<DeValue>, names: &[&str]) -> Option<usize> {
        let DeValue::String(text) = value.get_ref() else {
            self.wrong(value, &format!("one of: {}", names.join(", ")));
            return None;
        };
        let found = names.iter().position(|n| *n == text.as_ref());
        if found.is_none() {
            self.unknown(span(value), text.as_ref(), names, "a choice here");
        }
        found
    }

    /// The strings of a list, each with its span; `None` (and a problem)
    /// when `value` is not a list of strings.
    fn strings(&mut self, value: &Spanned<DeValue>, expected: &str) -> Option<Vec<(String, Span)>> {
        let DeValue::Array(items) = value.get_ref() else {
            self.wrong(value, expected);
            return None;
        };
        let mut strings = Vec::new();
        for item in items {
            match item.get_ref() {
                DeValue::String(text) => strings.push((text.to_string(), span(item))),
                _ => self.wrong(item, "a string"),
            }
        }
        Some(strings)
    }

    fn unknown(&mut self, at: Span, name: &str, known: &[&str], what: &str) {
        let diagnostic =
            Diagnostic::new(Code::InvalidConfig, at, format!("`{name}` is not {what}"));
        let diagnostic = match did_you_mean(name, known.iter().copied()) {
            Some(help) => diagnostic.with_help(help),
            None => diagnostic.with_help(format!("expected one of: {}", known.join(", "))),
        };
        self.problems.push(diagnostic);
    }

    fn wrong(&mut self, value: &Spanned<DeValue>, expected: &str) {
        self.problems.push(Diagnostic::new(
            Code::InvalidConfig,
            span(value),
            format!("expected {expected}, found {}", kind(value.get_ref())),
        ));
    }
}

fn span<T>(spanned: &Spanned<T>) -> Span {
    let range = spanned.span();
    Span::new(range.start, range.end)
}

fn kind(value: &DeValue) -> &'static str {
    match value {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a number",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date",
        DeValue::Array(_) => "a list",
        DeValue::Table(_) => "a table",
    }
}

/// `*` stays within a folder; `**` crosses folders.
fn glob_builder(glob: &str) -> GlobBuilder<'_> {
    let mut builder = GlobBuilder::new(glob);
    builder.literal_separator(true).backslash_escape(true);
    builder
}

/// A glob given on the command line: `*` stays within a folder.
pub fn command_line_glob(glob: &str) -> Result<Glob, globset::Error> {
    glob_builder(glob).build()
}

/// `path` from the current folder, without resolving links (so names in
/// diagnostics stay as the user wrote them), and without `.` components.
pub fn absolute(path: &Path) -> PathBuf {
    // The folder of a bare file name (`protocol.yaml`) is the empty path,
    // which `std::path::absolute` refuses: it is the current folder.
    let path = match path.as_os_str().is_empty() {
        true => Path::new("."),
        false => path,
    };
    normalize(&std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// `path` without `.` components, and `..` taken back, as text: no
/// question to the file system.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// `file` relative to `root`, with `/` between components.
fn relative_to(file: &Path, root: &Path) -> Option<String> {
    let relative = file.strip_prefix(root).ok()?;
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(parts.join("/"))
}

/// `a/b/c`, then `a/b`, then `a`.
fn prefixes(relative: &str) -> impl Iterator<Item = &str> {
    std::iter::successors(Some(relative), |p| p.rfind('/').map(|i| &p[..i]))
}

/// A TOML basic string.
fn quote(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The contract changes from `old` to `new` (`agentc diff`, `check
/// --against`) as `config` judges them, from `least` severe up; what is not
/// a change (`diff-skipped`) is always kept.
pub fn changes(
    old: &FileReport,
    new: &FileReport,
    base_name: &str,
    config: &Config,
    least: Severity,
) -> Vec<Diagnostic> {
    let rank = |severity: Severity| match severity {
        Severity::Info => 0,
        Severity::Warning => 1,
        Severity::Error => 2,
    };
    let mut found = crate::diff::reports(old, new, base_name, &config.diff);
    config.apply(&mut found);
    found.retain(|d| d.change.is_none() || rank(d.severity) >= rank(least));
    found
}

/// What a check adds to what [`crate::agent::check_in`] found, for the command
/// line and editors alike: the targets' checks, the configured severities,
/// and the protocol's (the first file's) `agentc-ignore` comments.
pub fn finish(files: &mut [FileReport], config: &Config, targets: &[Target]) {
    for file in files.iter_mut() {
        crate::check_targets(file, targets);
        config.apply(&mut file.diagnostics);
    }
    // The protocol's suppressions see the diagnostics as configured (one
    // turned off is not there to silence, so its suppression is unused),
    // and what they report is configured in turn.
    if let Some(protocol) = files.first_mut() {
        suppress::apply(protocol);
        config.apply(&mut protocol.diagnostics);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, Vec<(String, String)>> {
        Config::parse(Path::new("/project/agentc.toml"), text.as_bytes()).map_err(
            |(source, problems)| {
                problems
                    .iter()
                    .map(|d| (source.slice(d.span).to_string(), d.message.clone()))
                    .collect()
            },
        )
    }

    #[test]
    fn reads_every_key() {
        let config = parse(
            "targets = [\"openai\", \"gemini\"]\ninclude = [\"agents/**/*.yaml\"]\nexclude = [\"agents/legacy\"]\n\n[severity]\nproperty-name-case = \"error\"\ndeprecated = \"off\"\n",
        )
        .unwrap();
        assert_eq!(config.targets, vec![Target::OpenAi, Target::Gemini]);
        assert_eq!(config.level(Code::PropertyNameCase), Level::Error);
        assert_eq!(config.level(Code::Deprecated), Level::Off);
        assert_eq!(config.level(Code::UnknownType), Level::Error);
        assert!(config.takes(Path::new("/project/agents/a/protocol.yaml")));
        assert!(config.takes(Path::new("/project/agents/a/other.yaml")));
        assert!(!config.takes(Path::new("/project/agents/legacy/a/protocol.yaml")));
        assert!(!config.takes(Path::new("/project/agents/a/b.yml")));
        assert!(config.excludes(Path::new("/project/agents/legacy")));
        assert!(config.excludes(Path::new("/project/agents/legacy/a")));
        assert!(!config.excludes(Path::new("/project/agents")));
        assert!(!config.excludes(Path::new("/project")));
        assert!(!config.excludes(Path::new("/elsewhere/agents/legacy")));
    }

    #[test]
    fn an_unknown_code_is_helped_by_the_nearest_never_by_the_whole_list() {
        let text = "[severity]\nunused-refernce = \"off\"\nfoo = \"off\"\n";
        let Err((_, problems)) = Config::parse(Path::new("/project/agentc.toml"), text.as_bytes())
        else {
            panic!("two unknown codes");
        };
        let helps: Vec<_> = problems.iter().map(|d| d.help.as_deref()).collect();
        assert_eq!(
            helps,
            [
                Some("did you mean `unused-reference`?"),
                Some("run `agentc explain` to list every code")
            ]
        );
    }

    #[test]
    fn a_gen_entry_with_no_language_is_a_problem() {
        let problems = parse("[[gen]]\nlang = []\nout = \"gen\"\n").unwrap_err();
        assert_eq!(
            problems,
            [(
                "[]".to_string(),
                "`lang` lists no language: this entry would generate nothing".to_string()
            )]
        );
    }

    #[test]
    fn reports_every_problem_at_its_place() {
        let problems = parse(
            "targets = [\"open-ai\", 3]\nexclued = []\ninclude = \"x\"\nexclude = [\"a/[\"]\n[severity]\nunused-refernce = \"off\"\ndeprecated = \"ignore\"\nyaml-syntax = \"off\"\nread-before-write = 1\n",
        )
        .unwrap_err();
        let found: Vec<(&str, &str)> = problems
            .iter()
            .map(|(at, m)| (at.as_str(), m.as_str()))
            .collect();
        assert_eq!(
            found,
            vec![
                ("\"open-ai\"", "`open-ai` is not a target"),
                ("3", "expected a string, found an integer"),
                ("exclued", "`exclued` is not a key of `agentc.toml`"),
                ("\"x\"", "expected a list of globs, found a string"),
                ("\"a/[\"", "`a/[` is not a valid glob"),
                (
                    "unused-refernce",
                    "`unused-refernce` is not a diagnostic code"
                ),
                ("\"ignore\"", "`ignore` is not a severity"),
                (
                    "yaml-syntax",
                    "the severity of `yaml-syntax` cannot be changed"
                ),
                (
                    "1",
                    "expected a severity: `error`, `warning`, `info` or `off`, found an integer"
                ),
            ]
        );
    }

    #[test]
    fn globs_are_normalized_and_must_stay_below_the_folder() {
        let config = parse("exclude = [\"./agents/a/\", \"b\"]\n").unwrap();
        assert_eq!(config.exclude, ["agents/a", "b"]);
        assert!(config.excludes(Path::new("/project/agents/a/protocol.yaml")));
        let problems = parse("exclude = [\"/abs/x\", \"../up\", \"\", \"./\"]\n").unwrap_err();
        assert_eq!(problems.len(), 4);
        assert!(
            problems
                .iter()
                .all(|(_, m)| m.ends_with("is not a glob below this file's folder"))
        );
    }

    #[test]
    fn glob_lists_are_bounded_and_reported_at_their_place() {
        let list = |n: usize| {
            let globs: Vec<String> = (0..n).map(|i| format!("\"a{i}*/**/b?\"")).collect();
            format!("exclude = [{}]\n", globs.join(", "))
        };
        let config = parse(&list(MAX_GLOBS)).unwrap();
        assert_eq!(config.exclude.len(), MAX_GLOBS);
        assert!(config.excludes(Path::new("/project/a7x/c/b1")));
        assert!(!config.excludes(Path::new("/project/b/c/b1")));
        let problems = parse(&list(MAX_GLOBS + 1)).unwrap_err();
        assert_eq!(
            problems,
            [(
                format!("\"a{MAX_GLOBS}*/**/b?\""),
                "`exclude` lists 1,001 globs, more than the 1,000 agentc compiles".to_string()
            )]
        );
        let long = "a".repeat(MAX_GLOB_LEN + 1);
        let problems = parse(&format!(
            "include = [\"{}\", \"{long}\"]\n",
            "a".repeat(MAX_GLOB_LEN)
        ))
        .unwrap_err();
        assert_eq!(
            problems,
            [(
                format!("\"{long}\""),
                "this glob is 257 bytes long, more than the 256 agentc compiles".to_string()
            )]
        );
    }

    #[test]
    fn globs_that_do_not_compile_together_are_reported_not_dropped() {
        // Each compiles alone; together they pass the size `globset` gives
        // its matcher, which it refuses to build.
        let globs: Vec<String> = (0..MAX_GLOBS)
            .map(|i| format!("\"{i}{}\"", "*?".repeat(100)))
            .collect();
        let problems = parse(&format!("exclude = [{}]\n", globs.join(", "))).unwrap_err();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].0.starts_with("[\"0*?"));
        assert_eq!(
            problems[0].1,
            "the globs of `exclude` are too many or too complex to compile together"
        );
    }

    #[test]
    fn the_baseline_is_a_file_below_the_folder_and_prints_back() {
        let config = parse("baseline = \"./ci/agentc-baseline.toml\"\n").unwrap();
        assert_eq!(config.baseline.as_deref(), Some("ci/agentc-baseline.toml"));
        assert_eq!(
            config.baseline_file(),
            Some(PathBuf::from("/project/ci/agentc-baseline.toml"))
        );
        let again = parse(&config.to_toml()).unwrap();
        assert_eq!(again.baseline, config.baseline);
        assert_eq!(Config::defaults(Path::new("/p")).baseline_file(), None);
        for bad in ["\"/abs.toml\"", "\"../up.toml\"", "\"\"", "\"ci/\"", "1"] {
            let problems = parse(&format!("baseline = {bad}\n")).unwrap_err();
            assert_eq!(problems.len(), 1, "{bad}: {problems:?}");
            assert_eq!(problems[0].0, bad);
        }
    }

    #[test]
    fn malformed_toml_is_reported_not_fatal() {
        let problems = parse("targets = [\"openai\"\n[severity\n").unwrap_err();
        assert!(!problems.is_empty());
        assert!(
            problems
                .iter()
                .all(|(_, m)| m == "`agentc.toml` is not valid TOML")
        );
    }

    #[test]
    fn printed_configuration_reads_back_the_same() {
        let config = parse(
            "targets = [\"aap\"]\nexclude = [\"x/**\"]\n[severity]\ndeprecated = \"error\"\n",
        )
        .unwrap();
        let printed = config.to_toml();
        // Codes that cannot be changed are printed as comments.
        assert!(printed.contains("\n# yaml-syntax = \"error\" (cannot be changed)\n"));
        let again = parse(&printed).unwrap();
        assert_eq!(again.targets, config.targets);
        assert_eq!(again.exclude, config.exclude);
        for &code in Code::ALL {
            assert_eq!(again.level(code), config.level(code), "{code}");
        }
    }
}
