//! [`Workspace`]: the library's front door. A set of files held in memory
//! (path → text) and the configuration (`agentc.toml`'s text); checking,
//! fixing, emitting, validating, diffing and generating are each one call,
//! and each returns data: [`FileReport`]s whose diagnostics carry spans,
//! help and fixes, schemas, generated files. Nothing here prints, reads the
//! disk, asks git or starts a thread, so it runs wherever Rust does, the
//! browser included (`wasm32-unknown-unknown`).
//!
//! The `agentc` binary and the language server are this plus adapters: the
//! disk (`disk`, the `disk` feature: the files as saved, under an
//! editor's buffers for the language server, [`Workspace::check_in`]; and the folder search of `project::plan` with the
//! `walk` feature), git ([`crate::diff::git`], the `git` feature) and the
//! terminal ([`crate::render`] writes text; the binary decides where).
//!
//! ```
//! use agentc::Workspace;
//!
//! let mut workspace = Workspace::new();
//! workspace.insert(
//!     "agents/shop/protocol.yaml",
//!     "types:\n  Order:\n    id:\n      type: strin\n",
//! );
//! let reports = workspace.check();
//! let found = reports[0]
//!     .diagnostics
//!     .iter()
//!     .find(|d| d.code.name() == "unknown-type")
//!     .unwrap();
//! // The span says where, in the file's text.
//! let text = workspace.get("agents/shop/protocol.yaml").unwrap();
//! assert_eq!(&text[found.span.range()], "strin");
//! ```

use crate::agent::Files;
use crate::cancel::Cancel;
use crate::codegen::{self, GenFile, Lang, Options as GenOptions};
use crate::config::baseline::{self, Baseline};
use crate::config::{self, Config};
use crate::diagnostic::{Applicability, Diagnostic};
use crate::emit::{self, EmitError, Output, Selection, Target};
use crate::files::{FileError, Reach};
use crate::validate::aap::{self, AapValidator, Kind, StreamMode};
use crate::validate::run_input::{self, RunInputValidator};
use crate::validate::{ToolValidators, Validator, data};
use crate::{Diagnostics, FileReport, agent};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod fix;
pub use fix::{Change, Fixed, MAX_ROUNDS, apply, fixes_of, take_fixed};

/// Files in memory and the configuration that governs them.
#[derive(Clone, Debug)]
pub struct Workspace {
    files: BTreeMap<PathBuf, String>,
    config: Config,
}

/// What [`Workspace::emit`] gives: the output, and the protocol's report:
/// its warnings, and what the target warned of on the way (no errors: a
/// protocol with errors is a [`Problem::Errors`], one the target cannot
/// express a [`Problem::Inexpressible`]).
pub struct Emitted {
    pub output: Output,
    pub report: FileReport,
}

impl Emitted {
    /// The output with what compiling and then emitting found in the
    /// protocol; errors are the problem.
    fn new(output: Output, compiled: FileReport, found: Diagnostics) -> Result<Emitted, Problem> {
        let mut report = FileReport::uncompiled(compiled.source, compiled.diagnostics);
        report.add(found);
        match report.has_errors() {
            true => Err(Problem::Inexpressible(Box::new(report))),
            false => Ok(Emitted { output, report }),
        }
    }
}

/// Why a call could not give what it was asked for.
pub enum Problem {
    /// The workspace has no file at this path.
    NoFile(PathBuf),
    /// The protocol has errors, and these reports say where: emitting,
    /// validating, diffing and generating need a protocol without errors.
    Errors(Vec<FileReport>),
    /// The protocol has no errors, but the target or the language cannot
    /// express it as it is: the report says where (with the protocol's
    /// warnings).
    Inexpressible(Box<FileReport>),
    /// What was asked names nothing in the protocol, or the target has no
    /// use for it (a usage error, not a problem in the protocol).
    Usage(EmitError),
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::NoFile(path) => write!(f, "no file `{}`", path.display()),
            Problem::Errors(reports) => {
                let errors: usize = reports
                    .iter()
                    .map(|r| r.count(crate::Severity::Error))
                    .sum();
                write!(f, "the protocol has {errors} error(s)")
            }
            Problem::Inexpressible(report) => write!(
                f,
                "the target cannot express the protocol: {} error(s)",
                report.count(crate::Severity::Error)
            ),
            Problem::Usage(error) => write!(f, "{error}"),
        }
    }
}

impl std::fmt::Debug for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Problem({self})")
    }
}

impl std::error::Error for Problem {}

impl Default for Workspace {
    fn default() -> Workspace {
        Workspace::new()
    }
}

impl Workspace {
    /// No files, and the default configuration (every `protocol.yaml`,
    /// each code at its own severity, no targets).
    pub fn new() -> Workspace {
        Workspace {
            files: BTreeMap::new(),
            config: Config::defaults(Path::new("")),
        }
    }

    /// Sets the configuration from `agentc.toml`'s text. A configuration
    /// with problems is not taken: the report says what is wrong, and the
    /// previous configuration stays.
    ///
    /// ```
    /// let mut workspace = agentc::Workspace::new();
    /// assert!(workspace.set_config("[severity]\nprotocol-format = \"off\"\n").is_ok());
    /// let Err(broken) = workspace.set_config("[severity]\nno-such-code = \"off\"\n") else {
    ///     panic!("a configuration with a problem is not taken");
    /// };
    /// assert_eq!(broken.diagnostics[0].code.name(), "invalid-config");
    /// ```
    pub fn set_config(&mut self, text: &str) -> Result<(), Box<FileReport>> {
        match Config::parse(Path::new(config::FILE_NAME), text.as_bytes()) {
            Ok(config) => {
                self.config = config;
                Ok(())
            }
            Err((source, diagnostics)) => {
                Err(Box::new(FileReport::uncompiled(source, diagnostics)))
            }
        }
    }

    /// The configuration in force.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Adds a file, or replaces its text. Paths are relative, `/`
    /// between folders, and name the file in every diagnostic.
    pub fn insert(&mut self, path: impl Into<PathBuf>, text: impl Into<String>) {
        self.files.insert(path.into(), text.into());
    }

    /// Removes a file; its text, if it was there.
    pub fn remove(&mut self, path: impl AsRef<Path>) -> Option<String> {
        self.files.remove(path.as_ref())
    }

    /// A file's text.
    pub fn get(&self, path: impl AsRef<Path>) -> Option<&str> {
        self.files.get(path.as_ref()).map(String::as_str)
    }

    /// Every file, sorted by path.
    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        self.files.keys().map(PathBuf::as_path)
    }

    /// The protocols a check covers, sorted: the files the configuration's
    /// `include` globs take and its `exclude` globs do not, outside hidden
    /// folders, `node_modules` and `target`, as a search of a folder on
    /// disk finds them.
    pub fn protocols(&self) -> Vec<&Path> {
        self.paths()
            .filter(|path| {
                path.ancestors()
                    .skip(1)
                    .all(|folder| folder.as_os_str().is_empty() || agent::ordinary_folder(folder))
            })
            .filter(|path| self.config.takes(&self.config.root().join(path)))
            .collect()
    }

    /// Checks every protocol ([`Workspace::protocols`]): one report per
    /// file, each protocol's first, then its agent folder's files. When
    /// the configuration names a baseline (`baseline = "FILE"`) and the
    /// workspace holds that file, the problems it accepts are left out,
    /// and its entries that accept more than the check finds are reported
    /// in one more report, the baseline file's (so is every problem of a
    /// baseline that cannot be read).
    ///
    /// ```
    /// use agentc::Workspace;
    ///
    /// let mut workspace = Workspace::new();
    /// workspace.insert("shop/protocol.yaml", "types:\n  Order:\n    order_id:\n      type: string\n");
    /// let found = &workspace.check()[0].diagnostics;
    /// assert!(found.iter().any(|d| d.code.name() == "property-name-case"));
    /// // Accept what is there now.
    /// let text = workspace.record_baseline("agentc-baseline.toml");
    /// assert!(text.contains("path = \"types.Order.order_id\""));
    /// workspace.insert("agentc-baseline.toml", text);
    /// assert!(workspace.set_config("baseline = \"agentc-baseline.toml\"\n").is_ok());
    /// assert!(workspace.check().iter().all(|r| r.diagnostics.is_empty()));
    /// // Fixed: the entry is reported, with a fix that deletes it.
    /// workspace.insert("shop/protocol.yaml", "types:\n  Order:\n    orderId:\n      type: string\n");
    /// let reports = workspace.check();
    /// let last = reports.last().unwrap();
    /// assert_eq!(last.source.name(), "agentc-baseline.toml");
    /// assert_eq!(last.diagnostics[0].code.name(), "unused-baseline-entry");
    /// ```
    pub fn check(&self) -> Vec<FileReport> {
        self.check_paths(&self.protocols())
    }

    /// Checks the files at `paths` as `agentc check` does the files named
    /// on its command line: each as [`Workspace::check_file`] does,
    /// whatever its name, then the configured baseline applied to the
    /// run as [`Workspace::check`] applies it.
    pub fn check_paths(&self, paths: &[&Path]) -> Vec<FileReport> {
        let mut reports: Vec<FileReport> = paths
            .iter()
            .flat_map(|path| self.check_file(path))
            .collect();
        let baseline = self.config.baseline_file();
        let held = baseline.and_then(|path| Some((self.get(&path)?, path)));
        if let Some((text, path)) = held {
            match Baseline::parse(&path, text.as_bytes()) {
                Ok(baseline) => {
                    // An entry for a file the workspace does not hold is
                    // for a file that is gone.
                    let folder = path.parent().unwrap_or(Path::new("")).to_path_buf();
                    let gone =
                        |file: &str| self.get(config::normalize(&folder.join(file))).is_none();
                    if let Some(mut unused) = baseline.apply_judging(reports.iter_mut(), gone) {
                        self.config.apply(&mut unused.diagnostics);
                        reports.push(unused);
                    }
                }
                Err((source, problems)) => reports.push(FileReport::uncompiled(source, problems)),
            }
        }
        reports
    }

    /// The text of a baseline file at `path` that accepts every problem a
    /// check finds now (`agentc check --write-baseline`): the check is
    /// made without a baseline, and the file's entries name files
    /// relative to its folder.
    pub fn record_baseline(&self, path: impl AsRef<Path>) -> String {
        let reports: Vec<FileReport> = self
            .protocols()
            .into_iter()
            .flat_map(|file| self.check_file(file))
            .collect();
        baseline::record(&reports, path.as_ref())
    }

    /// Checks one protocol as `agentc check` does: with its agent folder
    /// (a `protocol.yaml` with `settings.json`, `prompts/`, `references/`
    /// or `skills/` beside it), the configuration's targets and severities,
    /// and its `# agentc-ignore` comments. A path with no file gives a
    /// report that says so. A baseline covers a run, not one file: only
    /// [`Workspace::check`] applies it.
    pub fn check_file(&self, path: impl AsRef<Path>) -> Vec<FileReport> {
        Workspace::check_in(
            &Memory(&self.files),
            path.as_ref(),
            Reach::Named,
            &self.config,
        )
    }

    /// [`Workspace::check_file`] with this workspace's files laid over
    /// `under` ([`agent::Layered`]): a file held here is read from here,
    /// any other from `under`, which also says which files make up an
    /// agent folder. Edits not yet saved, checked with the files around
    /// them as saved (`disk::Disk`, with the `disk` feature).
    ///
    /// ```
    /// use agentc::workspace::{Memory, Workspace};
    /// use std::collections::BTreeMap;
    ///
    /// let saved = BTreeMap::from([
    ///     ("shop/protocol.yaml".into(), "agent:\n  model: openai/gpt-4o\n  system: sell\n".into()),
    ///     ("shop/prompts/sell.md".into(), "You sell.\n".into()),
    /// ]);
    /// let mut edits = Workspace::new();
    /// edits.insert("shop/protocol.yaml", "agent:\n  model: openai/gpt-4o\n  system: buy\n");
    /// let reports = edits.check_over(&Memory(&saved), "shop/protocol.yaml");
    /// // The edited protocol names a prompt the saved folder does not have.
    /// assert!(reports[0].diagnostics.iter().any(|d| d.code.name() == "unknown-prompt"));
    /// ```
    pub fn check_over(&self, under: &dyn agent::Files, path: impl AsRef<Path>) -> Vec<FileReport> {
        let files = agent::Layered {
            buffers: &Memory(&self.files),
            under,
        };
        Workspace::check_in(&files, path.as_ref(), Reach::Named, &self.config)
    }

    /// [`Workspace::check_file`] with the files read from `files` instead
    /// of this workspace's, under `config`: how the language server checks
    /// a document, with its buffers laid over the disk
    /// ([`agent::Layered`] over `disk::Disk`). `reach` is how far reading
    /// the protocol itself may go.
    pub fn check_in(
        files: &dyn agent::Files,
        path: &Path,
        reach: Reach,
        config: &Config,
    ) -> Vec<FileReport> {
        let mut reports = agent::check_in(files, path, reach).into_reports();
        config::finish(&mut reports, config, &config.targets);
        reports
    }

    /// [`Workspace::check_in`] after an edit: the protocol is compiled
    /// from its compile before ([`crate::compile_again_unless`]; the
    /// language server's keystroke), with the same reports; or, once
    /// `cancel` says the result is no longer wanted, what it was given.
    pub fn check_again(
        files: &dyn agent::Files,
        path: &Path,
        reach: Reach,
        config: &Config,
        previous: Option<crate::Previous>,
        cancel: &Cancel,
    ) -> Result<Vec<FileReport>, crate::Cancelled> {
        let mut reports =
            agent::check_in_again(files, path, reach, previous, cancel)?.into_reports();
        config::finish(&mut reports, config, &config.targets);
        Ok(reports)
    }

    /// Fixes the protocol at `path` (with its agent folder) as `agentc
    /// check --fix` does ([`Workspace::fix_in`]): the new texts, how many
    /// fixes were applied, and what remains. For the configured baseline
    /// file, its unused entries removed or lowered, as a check of every
    /// protocol finds them. The workspace is left as it was;
    /// [`Workspace::insert`] the texts to keep them.
    ///
    /// ```
    /// use agentc::diagnostic::Applicability;
    ///
    /// let mut workspace = agentc::Workspace::new();
    /// workspace.insert("types.yaml", "types:\n  Order:\n    id:\n      type: strng\n");
    /// let fixed = workspace.fix("types.yaml", Applicability::Safe);
    /// assert_eq!(fixed.applied, 1);
    /// assert_eq!(
    ///     fixed.files[std::path::Path::new("types.yaml")].after,
    ///     "types:\n  Order:\n    id:\n      type: string\n"
    /// );
    /// assert!(fixed.reports.iter().all(|report| !report.has_errors()));
    /// ```
    pub fn fix(&self, path: impl AsRef<Path>, least_sure: Applicability) -> Fixed {
        let path = path.as_ref();
        if self.config.baseline_file().as_deref() == Some(path) {
            return self.fix_baseline(path, least_sure);
        }
        Workspace::fix_in(
            &Memory(&self.files),
            path,
            Reach::Named,
            &self.config,
            least_sure,
        )
    }

    /// `selection` of a protocol, shaped for `target` (`agentc emit`),
    /// with what the target warns of (a keyword it drops, say) in the
    /// report beside it.
    ///
    /// ```
    /// use agentc::emit::{Selection, Target};
    ///
    /// let mut workspace = agentc::Workspace::new();
    /// workspace.insert("protocol.yaml", "types:\n  Order:\n    id:\n      type: string\n");
    /// let emitted = workspace
    ///     .emit("protocol.yaml", Target::JsonSchema, Selection::Type("Order"))
    ///     .unwrap();
    /// assert!(emitted.report.diagnostics.is_empty());
    /// assert!(emitted.output.into_text().contains("\"id\""));
    /// ```
    pub fn emit(
        &self,
        path: impl AsRef<Path>,
        target: Target,
        selection: Selection,
    ) -> Result<Emitted, Problem> {
        let compiled = self.sound(path.as_ref())?;
        let model = compiled.sound_model().ok_or(Problem::Errors(Vec::new()))?;
        let mut diags = Diagnostics::default();
        let output = emit::emit(model, target, selection, &mut diags).map_err(Problem::Usage)?;
        Emitted::new(output, compiled, diags)
    }

    /// The AAP `GET /meta` response for the agent whose protocol is at
    /// `path` (`agentc emit --target aap --meta`), as its `settings.json`
    /// describes it, `version` its version; its folder is checked whole
    /// first, and any error is the problem.
    ///
    /// ```
    /// let mut workspace = agentc::Workspace::new();
    /// workspace.insert(
    ///     "shop/protocol.yaml",
    ///     "agent:\n  model: anthropic/claude-sonnet-4-5\n  system: sell\n",
    /// );
    /// workspace.insert("shop/prompts/sell.md", "You sell.\n");
    /// workspace.insert(
    ///     "shop/settings.json",
    ///     r#"{"slug": "shop", "name": "Shop", "format": "interactive"}"#,
    /// );
    /// let meta = workspace.emit_meta("shop/protocol.yaml", "1.0.0").unwrap().output.into_text();
    /// assert!(meta.contains("\"Shop\""));
    /// ```
    pub fn emit_meta(&self, path: impl AsRef<Path>, version: &str) -> Result<Emitted, Problem> {
        let path = path.as_ref();
        if self.get(path).is_none() {
            return Err(Problem::NoFile(path.to_path_buf()));
        }
        let memory = Memory(&self.files);
        let is_protocol = path.file_name().is_some_and(|n| n == "protocol.yaml");
        let folder = path.parent().unwrap_or(Path::new(""));
        let Some(files) = is_protocol
            .then(|| memory.agent_folder(folder, &memory))
            .flatten()
        else {
            return Err(Problem::NoFile(
                path.parent().unwrap_or(Path::new("")).join("settings.json"),
            ));
        };
        let checked = agent::check_read(path, agent::Read::Folder(Box::new(files)));
        let settings = checked.settings;
        // As compiling judged them: the configuration is `check`'s.
        let errors: Vec<FileReport> = std::iter::once(checked.protocol)
            .chain(checked.others)
            .filter(FileReport::has_errors)
            .collect();
        if !errors.is_empty() {
            return Err(Problem::Errors(errors));
        }
        let compiled = self.sound(path)?;
        let model = compiled.sound_model().ok_or(Problem::Errors(Vec::new()))?;
        let mut diags = Diagnostics::default();
        let output = agent::aap_meta(model, settings.as_ref(), version, &mut diags)
            .map_err(Problem::Usage)?;
        Emitted::new(output, compiled, diags)
    }

    /// Validates JSON `data` (named `name` in diagnostics) against a
    /// protocol's type or a tool's arguments (`agentc validate`): a report
    /// with a diagnostic, located by JSON pointer, for each way the data
    /// does not fit.
    ///
    /// ```
    /// use agentc::emit::Selection;
    ///
    /// let mut workspace = agentc::Workspace::new();
    /// workspace.insert("protocol.yaml", "types:\n  Order:\n    id:\n      type: string\n");
    /// let report = workspace
    ///     .validate("protocol.yaml", Selection::Type("Order"), "order.json", r#"{"id": 7}"#)
    ///     .unwrap();
    /// assert_eq!(report.diagnostics[0].pointer.as_deref(), Some("/id"));
    /// ```
    pub fn validate(
        &self,
        path: impl AsRef<Path>,
        against: Selection,
        name: &str,
        data: &str,
    ) -> Result<FileReport, Problem> {
        self.validate_with(path, against, false, name, data)
    }

    /// [`Workspace::validate`]; with `optional_null`, each optional
    /// property also admits `null`, as data that passed through OpenAI's
    /// strict mode holds it ([`crate::validate::optional_null`]).
    pub fn validate_with(
        &self,
        path: impl AsRef<Path>,
        against: Selection,
        optional_null: bool,
        name: &str,
        data: &str,
    ) -> Result<FileReport, Problem> {
        let compiled = self.sound(path.as_ref())?;
        let model = compiled.sound_model().ok_or(Problem::Errors(Vec::new()))?;
        let mut schema = crate::validate::schema_of(model, against).map_err(Problem::Usage)?;
        if optional_null {
            crate::validate::optional_null(&mut schema);
        }
        let validator = Validator::from_schema(schema).map_err(Problem::Usage)?;
        let layout = data::Layout {
            lines: false,
            // Tool arguments may come as AG-UI carries them: a JSON text.
            encoded: matches!(against, Selection::Tool(_)),
        };
        Ok(Self::data(name, data, |source| {
            data::check(&validator, source, layout)
        }))
    }

    /// Validates an AG-UI `RunAgentInput` (`agentc validate run-input`)
    /// as `rules` say, its tool calls' arguments against the tools of the
    /// protocol at `protocol`, when one is given.
    ///
    /// ```
    /// use agentc::validate::run_input::Options;
    ///
    /// let workspace = agentc::Workspace::new();
    /// let report = workspace
    ///     .validate_run_input(Options::default(), None, "input.json", "{}")
    ///     .unwrap();
    /// assert!(report.has_errors());
    /// ```
    pub fn validate_run_input(
        &self,
        rules: run_input::Options,
        protocol: Option<&Path>,
        name: &str,
        data: &str,
    ) -> Result<FileReport, Problem> {
        let mut validator = RunInputValidator::with_options(rules).map_err(Problem::Usage)?;
        if let Some(path) = protocol {
            let compiled = self.sound(path)?;
            let model = compiled.sound_model().ok_or(Problem::Errors(Vec::new()))?;
            validator = validator.with_tools(ToolValidators::new(model).map_err(Problem::Usage)?);
        }
        let layout = data::Layout {
            lines: false,
            encoded: false,
        };
        Ok(Self::data(name, data, |source| {
            data::check_run_input(&validator, source, layout)
        }))
    }

    /// Validates an AAP v3 payload of `kind` (`agentc validate aap`): a
    /// JSON request or reply, or a `text/event-stream` of events, checked
    /// as `stream` says; tool calls against the tools of the protocol at
    /// `protocol`, when one is given.
    ///
    /// ```
    /// use agentc::validate::aap::Kind;
    ///
    /// let workspace = agentc::Workspace::new();
    /// let report = workspace
    ///     .validate_aap(Kind::Events, None, None, "events.txt", "data: {\"type\": \"nonsense\"}\n\n")
    ///     .unwrap();
    /// assert!(report.has_errors());
    /// ```
    pub fn validate_aap(
        &self,
        kind: Kind,
        protocol: Option<&Path>,
        stream: Option<StreamMode>,
        name: &str,
        data: &str,
    ) -> Result<FileReport, Problem> {
        let mut validator = AapValidator::new(kind).map_err(Problem::Usage)?;
        if let Some(path) = protocol {
            let compiled = self.sound(path)?;
            let model = compiled.sound_model().ok_or(Problem::Errors(Vec::new()))?;
            validator = validator.with_protocol(model).map_err(Problem::Usage)?;
        }
        let layout = data::Layout {
            lines: false,
            encoded: false,
        };
        Ok(Self::data(name, data, |source| match kind {
            Kind::Events => aap::check_events(&validator, source, stream),
            _ => aap::check(&validator, source, layout),
        }))
    }

    /// The report of `data` named `name`, as `check` finds it, or why it
    /// is not text.
    fn data(
        name: &str,
        data: &str,
        check: impl FnOnce(&crate::Source) -> Vec<Diagnostic>,
    ) -> FileReport {
        let (source, problem) = crate::source::decode(name, data.as_bytes().to_vec());
        let diagnostics = match problem {
            Some(problem) => vec![problem],
            None => check(&source),
        };
        FileReport::uncompiled(source, diagnostics)
    }

    /// The contract changes from the same protocol in `old` to this one
    /// (`agentc diff`), judged by this workspace's configuration: the new
    /// version's report, with its errors, if any, and one diagnostic per
    /// change (`info` for compatible ones).
    ///
    /// ```
    /// let mut old = agentc::Workspace::new();
    /// old.insert("protocol.yaml", "tools:\n  find:\n    parameters:\n      q:\n        type: string\n");
    /// let mut new = old.clone();
    /// new.insert("protocol.yaml", "tools:\n  find:\n    parameters:\n      q:\n        type: number\n");
    /// let report = new.diff(&old, "protocol.yaml").unwrap();
    /// assert!(report.has_errors());
    /// ```
    pub fn diff(&self, old: &Workspace, path: impl AsRef<Path>) -> Result<FileReport, Problem> {
        let path = path.as_ref();
        let old_text = old
            .get(path)
            .ok_or_else(|| Problem::NoFile(path.to_path_buf()))?;
        let new_text = self
            .get(path)
            .ok_or_else(|| Problem::NoFile(path.to_path_buf()))?;
        let name = path.display().to_string();
        let base_name = format!("{name} (old)");
        let old_report = crate::compile(&base_name, old_text);
        let mut new_report = crate::compile(&name, new_text);
        new_report.diagnostics.retain(Diagnostic::is_error);
        let changes = config::changes(
            &old_report,
            &new_report,
            &base_name,
            &self.config,
            crate::Severity::Info,
        );
        new_report.add(changes.into());
        Ok(new_report)
    }

    /// Typed bindings of a protocol in `langs` (`agentc gen --stdout`),
    /// named after its agent's `slug` (`settings.json` beside it) or its
    /// folder; each file's header names the protocol by `path`.
    ///
    /// ```
    /// use agentc::codegen::{Lang, Options};
    ///
    /// let mut workspace = agentc::Workspace::new();
    /// workspace.insert("shop/protocol.yaml", "types:\n  Order:\n    id:\n      type: string\n");
    /// let files = workspace.generate("shop/protocol.yaml", &[Lang::Ts], &Options::default()).unwrap();
    /// assert_eq!(files[0].name, "shop.ts");
    /// assert!(files[0].text.contains("export interface Order"));
    /// ```
    pub fn generate(
        &self,
        path: impl AsRef<Path>,
        langs: &[Lang],
        options: &GenOptions,
    ) -> Result<Vec<GenFile>, Problem> {
        let path = path.as_ref();
        let compiled = self.sound(path)?;
        let model = compiled.sound_model().ok_or(Problem::Errors(Vec::new()))?;
        let settings = path
            .parent()
            .map(|folder| folder.join("settings.json"))
            .and_then(|settings| self.get(settings));
        // The folder of a bare `protocol.yaml` is the current one, as
        // `agentc gen` names it (in the browser, which has none, nothing).
        let folder = path
            .parent()
            .map(crate::config::absolute)
            .and_then(|folder| {
                folder
                    .file_name()
                    .map(|name| name.to_string_lossy().into_owned())
            });
        let slug = codegen::slug_for(path, settings.map(str::as_bytes), folder.as_deref());
        let source = path.display().to_string().replace('\\', "/");
        codegen::generate(model, &slug, &source, langs, options).map_err(|problems| {
            Problem::Inexpressible(Box::new(FileReport::uncompiled(
                compiled.source.clone(),
                problems,
            )))
        })
    }

    /// The protocol at `path` compiled, when it has no errors (as compiling
    /// judged it: a configuration that silences an error does not make a
    /// model sound); else its errors.
    fn sound(&self, path: &Path) -> Result<FileReport, Problem> {
        let text = self
            .get(path)
            .ok_or_else(|| Problem::NoFile(path.to_path_buf()))?;
        let compiled = crate::compile(&path.display().to_string(), text);
        if compiled.sound_model().is_none() {
            let mut errors = compiled;
            errors.diagnostics.retain(Diagnostic::is_error);
            errors.model = None;
            return Err(Problem::Errors(vec![errors]));
        }
        Ok(compiled)
    }
}

/// `name` as a [`Workspace`] names a file: a relative path inside the
/// workspace (no `..`, not absolute, not empty, no NUL), with its `.`
/// parts dropped; `None` for any other. What a front end that takes file
/// names from outside (the MCP server, the browser package) holds them to.
///
/// ```
/// use agentc::workspace::relative_path;
/// use std::path::Path;
///
/// assert_eq!(relative_path("./prompts/a.md").as_deref(), Some(Path::new("prompts/a.md")));
/// assert_eq!(relative_path("../etc/passwd"), None);
/// assert_eq!(relative_path("/etc/passwd"), None);
/// ```
pub fn relative_path(name: &str) -> Option<PathBuf> {
    let path = Path::new(name);
    let fine = !name.is_empty()
        && !name.contains('\0')
        && path.components().all(|c| {
            matches!(
                c,
                std::path::Component::Normal(_) | std::path::Component::CurDir
            )
        });
    let path: PathBuf = path
        .components()
        .filter(|c| *c != std::path::Component::CurDir)
        .collect();
    (fine && !path.as_os_str().is_empty()).then_some(path)
}

/// Files held in memory, by path: the [`agent::Files`] of a
/// [`Workspace`], and of anything else that holds its files as text (an
/// MCP server, a browser). An agent folder is made of the files held
/// under it, as a listing of the folder on disk would find them.
pub struct Memory<'a>(pub &'a BTreeMap<PathBuf, String>);

impl agent::Buffers for Memory<'_> {
    fn bytes(&self, path: &Path) -> Option<Vec<u8>> {
        self.0.get(path).map(|text| text.as_bytes().to_vec())
    }
}

impl Files for Memory<'_> {
    /// The text held for `path`; a path with none is not found.
    fn read(&self, path: &Path, _reach: Reach) -> Result<Vec<u8>, FileError> {
        match self.0.get(path) {
            // At most one byte past the limit: enough to say the text is
            // too large, without copying all of it.
            Some(text) => {
                let end = text.len().min(crate::source::MAX_FILE_BYTES + 1);
                Ok(text.as_bytes()[..end].to_vec())
            }
            None => Err(FileError::Io(std::io::ErrorKind::NotFound.into())),
        }
    }

    /// The files held under `dir`, as `disk::load_agent` lists
    /// them on disk.
    fn agent_folder(&self, dir: &Path, reader: &dyn Files) -> Option<agent::AgentFiles> {
        let path = &dir.join("protocol.yaml");
        let below = |sub: &str| -> Vec<&Path> {
            let folder = dir.join(sub);
            self.0
                .keys()
                .map(PathBuf::as_path)
                .filter(|p| p.starts_with(&folder))
                .collect()
        };
        let within = Reach::Within(dir);
        let settings = dir.join("settings.json");
        let has_folder = agent::AGENT_FOLDERS
            .iter()
            .any(|sub| !below(sub).is_empty());
        if !self.0.contains_key(path) || !(self.0.contains_key(&settings) || has_folder) {
            return None;
        }
        // `.md` files under `sub`, by name; nested folders too when
        // `nested` (never hidden ones, `node_modules` or `target`).
        let markdown = |sub: &str, nested: bool| -> Vec<agent::Named> {
            let folder = dir.join(sub);
            let mut found: Vec<agent::Named> = below(sub)
                .into_iter()
                .filter(|p| p.extension().is_some_and(|e| e == "md"))
                .filter_map(|p| {
                    let relative = p.strip_prefix(&folder).ok()?;
                    let folders: Vec<_> = relative.parent()?.components().collect();
                    if (!nested && !folders.is_empty())
                        || folders
                            .iter()
                            .any(|c| !agent::ordinary_folder(Path::new(c.as_os_str())))
                    {
                        return None;
                    }
                    let name = agent::name_below(relative);
                    Some(agent::Named {
                        name,
                        file: agent::File::read(p, within, reader),
                    })
                })
                .collect();
            found.sort_by(|a, b| a.name.cmp(&b.name));
            found
        };
        // Each folder directly under `skills/`.
        let skills_folder = dir.join("skills");
        let mut skill_dirs: Vec<PathBuf> = below("skills")
            .into_iter()
            .filter_map(|p| {
                let relative = p.strip_prefix(&skills_folder).ok()?;
                let mut parts = relative.components();
                let first = parts.next()?;
                parts.next()?;
                Some(skills_folder.join(first))
            })
            .filter(|folder| agent::ordinary_folder(folder))
            .collect();
        skill_dirs.dedup();
        let skills = skill_dirs
            .into_iter()
            .map(|folder| {
                let skill = folder.join("SKILL.md");
                let env = folder.join(".env");
                agent::Skill {
                    skill: match self.0.contains_key(&skill) {
                        true => agent::File::read(&skill, within, reader),
                        false => agent::Skill::without_skill_file(&skill.display().to_string()),
                    },
                    env: self
                        .0
                        .contains_key(&env)
                        .then(|| agent::File::read(&env, within, reader)),
                }
            })
            .collect();
        Some(agent::AgentFiles {
            protocol: agent::File::read(path, within, reader),
            settings: self
                .0
                .contains_key(&settings)
                .then(|| agent::File::read(&settings, within, reader)),
            prompts: markdown("prompts", true),
            references: markdown("references", false),
            skills,
            unlisted: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_agent_folder_in_memory_is_checked_whole() {
        let mut workspace = Workspace::new();
        workspace.insert(
            "shop/protocol.yaml",
            "agent:\n  model: anthropic/claude-sonnet-4-5\n  system: greeting\n",
        );
        workspace.insert("shop/prompts/greeting.md", "Hello {{NAME}}\n");
        let reports = workspace.check();
        let names: Vec<&str> = reports.iter().map(|r| r.source.name()).collect();
        assert_eq!(names, ["shop/protocol.yaml", "shop/prompts/greeting.md"]);
        // No settings.json: the folder is an agent's, and says what is missing.
        assert!(
            reports[0]
                .diagnostics
                .iter()
                .any(|d| d.code.name() == "missing-settings")
        );
    }

    #[test]
    fn protocols_are_found_as_a_search_finds_them() {
        let mut workspace = Workspace::new();
        for path in [
            "a/protocol.yaml",
            "node_modules/b/protocol.yaml",
            ".hidden/protocol.yaml",
            "c/target/protocol.yaml",
            "d/other.yaml",
        ] {
            workspace.insert(path, "");
        }
        assert_eq!(workspace.protocols(), [Path::new("a/protocol.yaml")]);
        workspace
            .set_config("include = [\"**/*.yaml\"]\nexclude = [\"a\"]\n")
            .map_err(|report| report.diagnostics[0].message.clone())
            .unwrap();
        assert_eq!(workspace.protocols(), [Path::new("d/other.yaml")]);
    }
}
