//! A run over many files (`agentc check` over many paths): which files a
//! run checks, under which configuration ([`config`], `agentc.toml`), and
//! checking them in parallel with the results in path order, whatever the
//! scheduling; then the severities and the `# agentc-ignore` comments
//! ([`suppress`]) applied to what was found.
//!
//! A path is a file (checked as named, even when a configuration excludes
//! it), a folder (searched for the files its configuration includes), or,
//! when no such file exists, a glob (`agents/*/protocol.yaml`, for shells
//! that do not expand it, and on Windows), whose matches are checked unless
//! excluded. Searches skip what git ignores (`.gitignore`, `.ignore`,
//! `.git/info/exclude` and the global excludes, read by ripgrep's `ignore`
//! crate; `--no-ignore` turns that off), hidden folders, `node_modules` and
//! `target`, and never follow a link to a folder. A file a search finds is
//! read only when it lies inside the folder searched ([`Reach::Within`]);
//! one named on the command line is read wherever it leads.

pub mod config;
pub mod suppress;

use crate::diagnostic::{Code, Diagnostic, Failure};
use crate::disk::{self, Reach};
use crate::emit::Target;
use crate::source::Source;
use crate::{FileReport, agent};
use config::Config;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// Which configuration governs the files of a run.
#[derive(Clone, Debug)]
pub enum ConfigChoice {
    /// The nearest `agentc.toml` above each file.
    Nearest,
    /// This file, for every file.
    File(PathBuf),
    /// The defaults (`--no-config`).
    Defaults,
}

/// The files a run checks, each with its configuration, sorted by path.
pub struct Plan {
    pub files: Vec<Planned>,
    /// Paths that could not be read, or found nothing; the run exits with 2.
    pub failures: Vec<Failure>,
    /// What was skipped, and why (an excluded folder named on the command
    /// line): what to tell.
    pub notes: Vec<String>,
    /// Configuration files with problems: the run must not go on.
    pub broken_configs: Vec<(Source, Vec<Diagnostic>)>,
    /// Configuration files that could not be read: the run must not go on.
    pub unreadable_configs: Vec<Failure>,
}

/// One file of a plan.
#[derive(Clone)]
pub struct Planned {
    /// As shown: relative to the current folder when the user gave it so,
    /// without `./`.
    pub path: PathBuf,
    pub config: Arc<Config>,
    /// The folder a search found it in, which reading it may not leave;
    /// `None` for a file named on the command line.
    pub found_in: Option<PathBuf>,
}

impl Planned {
    /// How far reading the file may reach.
    pub fn reach(&self) -> Reach<'_> {
        match &self.found_in {
            Some(folder) => Reach::Within(folder),
            None => Reach::Named,
        }
    }
}

/// How a search treats the files git ignores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ignores {
    /// Skip what `.gitignore`, `.ignore`, `.git/info/exclude` and the
    /// global excludes list (the default).
    Respect,
    /// Search them too (`--no-ignore`).
    Search,
}

/// The configurations of a run, each found and read once.
pub struct Configs {
    choice: ConfigChoice,
    /// The current folder, taken once: paths are made absolute from it
    /// without asking the system again.
    here: PathBuf,
    /// By configuration file; `None` when it could not be used.
    loaded: BTreeMap<PathBuf, Option<Arc<Config>>>,
    /// The nearest configuration file, by absolute folder.
    nearest: BTreeMap<PathBuf, Option<PathBuf>>,
    defaults: Arc<Config>,
    /// Problems found in configuration files.
    pub broken: Vec<(Source, Vec<Diagnostic>)>,
    /// Configuration files that could not be read.
    pub failures: Vec<Failure>,
}

impl Configs {
    pub fn new(choice: ConfigChoice) -> Configs {
        let here = config::absolute(Path::new("."));
        Configs {
            choice,
            defaults: Arc::new(Config::defaults(&here)),
            here,
            loaded: BTreeMap::new(),
            nearest: BTreeMap::new(),
            broken: Vec::new(),
            failures: Vec::new(),
        }
    }

    /// `path` made absolute, without `.` and `..`.
    fn absolute(&self, path: &Path) -> PathBuf {
        config::normalize(&self.here.join(path))
    }

    /// The configuration that governs `path`, a file or a folder; the
    /// defaults when there is none or it is broken (then the run stops).
    pub fn of(&mut self, path: &Path) -> Arc<Config> {
        let absolute = self.absolute(path);
        if absolute.is_dir() {
            self.of_dir(&absolute)
        } else {
            self.of_parent(&absolute)
        }
    }

    /// The configuration of the folder that holds the absolute `path`.
    fn of_parent(&mut self, path: &Path) -> Arc<Config> {
        self.of_dir(path.parent().unwrap_or(path))
    }

    /// The configuration of the files in the absolute folder `dir`.
    fn of_dir(&mut self, dir: &Path) -> Arc<Config> {
        let file = match &self.choice {
            ConfigChoice::Defaults => None,
            ConfigChoice::File(file) => Some(file.clone()),
            ConfigChoice::Nearest => self.nearest_file(dir),
        };
        match file {
            Some(file) => self.load(file),
            None => Arc::clone(&self.defaults),
        }
    }

    /// The nearest `agentc.toml` in the absolute folder `dir` or above,
    /// named from the current folder when below it. Each folder is looked
    /// at once per run, its answer inherited by the folders below.
    fn nearest_file(&mut self, dir: &Path) -> Option<PathBuf> {
        if let Some(known) = self.nearest.get(dir) {
            return known.clone();
        }
        let candidate = dir.join(config::FILE_NAME);
        let found = if candidate.is_file() {
            Some(match candidate.strip_prefix(&self.here) {
                Ok(relative) => relative.to_path_buf(),
                Err(_) => candidate,
            })
        } else {
            match dir.parent() {
                Some(parent) => self.nearest_file(parent),
                None => None,
            }
        };
        self.nearest.insert(dir.to_path_buf(), found.clone());
        found
    }

    fn load(&mut self, file: PathBuf) -> Arc<Config> {
        if let Some(loaded) = self.loaded.get(&file) {
            return loaded.clone().unwrap_or_else(|| Arc::clone(&self.defaults));
        }
        // One named with `--config` is read wherever it leads; one found
        // beside the files only when it does not lead out of its folder.
        let folder = config::absolute(&file)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let reach = match &self.choice {
            ConfigChoice::File(_) => Reach::Named,
            _ => Reach::Within(&folder),
        };
        let loaded = match Config::load(&file, reach) {
            Ok(Ok(config)) => Some(Arc::new(config)),
            Ok(Err(broken)) => {
                self.broken.push(broken);
                None
            }
            Err(error) => {
                let shown = file.display().to_string();
                self.failures.push(Failure::new(
                    shown.clone(),
                    Code::InvalidConfig,
                    format!("`{shown}` was not read: {error}"),
                ));
                None
            }
        };
        self.loaded.insert(file, loaded.clone());
        loaded.unwrap_or_else(|| Arc::clone(&self.defaults))
    }

    /// The configuration that excludes the absolute folder `dir` or one
    /// above it, asking for each the configuration of the folder it is in
    /// (a folder's own `agentc.toml` cannot take back its exclusion).
    fn excluder(&mut self, dir: &Path) -> Option<Arc<Config>> {
        dir.ancestors()
            .map(|folder| self.of_parent(folder))
            .find(|config| config.excludes(dir))
    }
}

/// The configurations a long-lived process (the language server) checks
/// under, kept from one check to the next by file and content: a
/// configuration is parsed and its globs built when its `agentc.toml` is
/// first read or its bytes change, never again for the same bytes, so a
/// large one costs a read and a comparison per keystroke. The nearest file
/// is looked for on every call, so one created or removed is noticed.
pub struct ConfigCache {
    /// By absolute path: the bytes last read, and what they gave (`None`
    /// when the file has problems; the defaults apply then).
    by_file: BTreeMap<PathBuf, (Vec<u8>, Option<Arc<Config>>)>,
    defaults: Arc<Config>,
    builds: u64,
}

impl Default for ConfigCache {
    fn default() -> ConfigCache {
        ConfigCache {
            by_file: BTreeMap::new(),
            defaults: Arc::new(Config::defaults(&config::absolute(Path::new(".")))),
            builds: 0,
        }
    }
}

impl ConfigCache {
    /// The configuration that governs the file `path`, as `agentc check`
    /// finds it: the nearest `agentc.toml` in its folder or above, read
    /// when it lies within its own folder; the defaults when there is none,
    /// or it cannot be read or has problems (the command line says what).
    pub fn of(&mut self, path: &Path) -> Arc<Config> {
        let absolute = config::absolute(path);
        let folder = absolute.parent().unwrap_or(&absolute);
        let found = folder
            .ancestors()
            .map(|dir| dir.join(config::FILE_NAME))
            .find(|candidate| candidate.is_file());
        let Some(file) = found else {
            return Arc::clone(&self.defaults);
        };
        let own = file.parent().unwrap_or(folder).to_path_buf();
        let Ok(bytes) = disk::read(&file, Reach::Within(&own)) else {
            self.by_file.remove(&file);
            return Arc::clone(&self.defaults);
        };
        let config = match self.by_file.get(&file) {
            Some((known, config)) if *known == bytes => config.clone(),
            _ => {
                self.builds += 1;
                let config = Config::parse(&file, &bytes).ok().map(Arc::new);
                self.by_file.insert(file, (bytes, config.clone()));
                config
            }
        };
        config.unwrap_or_else(|| Arc::clone(&self.defaults))
    }

    /// How many times a configuration was parsed and its globs built.
    pub fn builds(&self) -> u64 {
        self.builds
    }
}

/// Finds the files `paths` name (the current folder when there are none).
/// The protocol a path given for one protocol names (`emit`, `validate`,
/// `diff`): a folder names its `protocol.yaml`, as an agent folder is
/// named to `check`; anything else is the file itself.
pub fn protocol_file(path: &Path) -> PathBuf {
    if path.is_dir() {
        path.join("protocol.yaml")
    } else {
        path.to_path_buf()
    }
}

pub fn plan(paths: &[PathBuf], choice: ConfigChoice, ignores: Ignores) -> Plan {
    let configs = Shared::new(Configs::new(choice));
    let mut found = Found::default();
    let mut failures = Vec::new();
    let mut notes = Vec::new();
    let here = [PathBuf::from(".")];
    let paths = if paths.is_empty() { &here[..] } else { paths };
    for path in paths {
        let path = &tidy(path);
        let shown = path.display().to_string();
        // The folder searched: the path, or a glob's folder.
        let glob = is_glob(path) && !disk::exists(path);
        let folder = match glob {
            true => Some(literal_base(&path.to_string_lossy()).0),
            false => path.is_dir().then(|| path.to_path_buf()),
        };
        if let Some(folder) = folder {
            let mut configs = configs.lock();
            let absolute = configs.absolute(&folder);
            if let Some(config) = configs.excluder(&absolute) {
                let by = config
                    .file
                    .as_deref()
                    .unwrap_or(Path::new(config::FILE_NAME));
                let what = match glob {
                    true => format!("{}, where it searches", folder.display()),
                    false => "it".to_string(),
                };
                notes.push(format!(
                    "skipped {shown}: the `exclude` of {} excludes {what}",
                    by.display()
                ));
                continue;
            }
        }
        let invalid = |message: String| Failure::new(shown.clone(), Code::InvalidPath, message);
        match search(path, &configs, ignores, &mut found) {
            Ok(searched) => {
                notes.extend(searched.notes);
                failures.extend(searched.failures);
                match (searched.matched, searched.taken) {
                    (0, _) if glob => failures.push(
                        invalid(format!("no file matches `{shown}`"))
                            .with_help("check the pattern; `*` matches within a folder and `**` across folders"),
                    ),
                    (matched, 0) if glob => {
                        let files = if matched == 1 { "file" } else { "files" };
                        notes.push(format!(
                            "skipped {shown}: agentc.toml excludes the {matched} {files} it matches"
                        ));
                    }
                    (_, 0) => {
                        let config = configs.lock().of(path);
                        failures.push(match &config.file {
                            Some(file) if config.include != [config::DEFAULT_INCLUDE] => invalid(format!(
                                "nothing under `{shown}` matches the `include` of {}",
                                file.display()
                            )),
                            _ => invalid(format!("no protocol.yaml found under `{shown}`")),
                        });
                    }
                    _ => {}
                }
            }
            Err(error) => failures.push(invalid(format!("`{shown}` was not read: {error}"))),
        }
    }
    let (broken_configs, unreadable_configs) = configs.problems();
    Plan {
        files: found.files.into_values().collect(),
        failures,
        notes,
        broken_configs,
        unreadable_configs,
    }
}

/// The configurations of a run, shared with the folder walker, which asks
/// them whether to go into each folder it meets.
struct Shared(Arc<Mutex<Configs>>);

impl Shared {
    fn new(configs: Configs) -> Shared {
        Shared(Arc::new(Mutex::new(configs)))
    }

    fn lock(&self) -> MutexGuard<'_, Configs> {
        // A walker thread that panicked leaves nothing half-written here
        // that a later question could trip on.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// What the run found wrong with configuration files: their problems,
    /// and those that could not be read.
    fn problems(&self) -> (Vec<(Source, Vec<Diagnostic>)>, Vec<Failure>) {
        let mut configs = self.lock();
        let broken = std::mem::take(&mut configs.broken);
        (broken, std::mem::take(&mut configs.failures))
    }
}

/// `path` without `.` components: `./agents/a` is shown as `agents/a`, as
/// people type it; `.` alone stays.
fn tidy(path: &Path) -> PathBuf {
    let tidy: PathBuf = path
        .components()
        .filter(|c| *c != Component::CurDir)
        .collect();
    if tidy.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        tidy
    }
}

/// The files found so far, by the path they are shown with, each once
/// however it was spelled (`a/p.yaml`, `./a/p.yaml`, `a/../a/p.yaml`).
#[derive(Default)]
struct Found {
    files: BTreeMap<PathBuf, Planned>,
    seen: BTreeSet<PathBuf>,
}

impl Found {
    fn add(
        &mut self,
        file: PathBuf,
        absolute: PathBuf,
        config: Arc<Config>,
        found_in: Option<&Path>,
    ) {
        if self.seen.insert(absolute) {
            let path = tidy(&file);
            let planned = Planned {
                path: path.clone(),
                config,
                found_in: found_in.map(Path::to_path_buf),
            };
            self.files.insert(path, planned);
        }
    }
}

/// What one path of the command line gave: the files it matched, how many
/// of those were taken (not excluded), and what the search could not read.
#[derive(Default)]
struct Searched {
    matched: usize,
    taken: usize,
    failures: Vec<Failure>,
    notes: Vec<String>,
}

/// Adds the files `path` names to `found`.
fn search(
    path: &Path,
    configs: &Shared,
    ignores: Ignores,
    found: &mut Found,
) -> Result<Searched, disk::FileError> {
    if path.is_dir() {
        let walked = walk(path, configs, false, ignores);
        let (matched, taken) = take(&walked.files, path, configs, found, |config, file| {
            config.takes(file)
        });
        return Ok(walked.searched(matched, taken));
    }
    if disk::exists(path) || !is_glob(path) {
        // A file named on the command line is checked, excluded or not;
        // reading it says what is wrong with it.
        std::fs::symlink_metadata(path)?;
        let mut configs = configs.lock();
        let config = configs.of(path);
        let absolute = configs.absolute(path);
        found.add(path.to_path_buf(), absolute, config, None);
        return Ok(Searched {
            matched: 1,
            taken: 1,
            ..Searched::default()
        });
    }
    let text = path.to_string_lossy();
    let glob = config::command_line_glob(&text)
        .map_err(|e| {
            disk::FileError::Io(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                e.kind().to_string(),
            ))
        })?
        .compile_matcher();
    let (base, from_here) = literal_base(&text);
    if !base.is_dir() {
        return Ok(Searched::default());
    }
    // Hidden folders are searched when the glob names one.
    let hidden = text
        .split('/')
        .any(|part| part.starts_with('.') && part != "." && part != "..");
    let mut walked = walk(&base, configs, hidden, ignores);
    if from_here {
        for candidate in &mut walked.files {
            if let Ok(stripped) = candidate.strip_prefix(".") {
                *candidate = stripped.to_path_buf();
            }
        }
    }
    walked.files.retain(|candidate| glob.is_match(candidate));
    let (matched, taken) = take(&walked.files, &base, configs, found, |config, file| {
        !config.excludes(file)
    });
    Ok(walked.searched(matched, taken))
}

/// What a walk of a folder found: every entry that is not a folder (files,
/// links to files, and anything else, which reading will report), and the
/// folders it could not read.
#[derive(Default)]
struct Walked {
    files: Vec<PathBuf>,
    failures: Vec<Failure>,
    notes: Vec<String>,
}

impl Walked {
    fn searched(self, matched: usize, taken: usize) -> Searched {
        Searched {
            matched,
            taken,
            failures: self.failures,
            notes: self.notes,
        }
    }
}

/// Every entry below `folder` that is not a folder, but not in folders a
/// configuration excludes, nor in hidden ones (unless `hidden`, and never
/// `.git`), `node_modules` or `target`, nor (with [`Ignores::Respect`])
/// in what git ignores. Links to folders are not followed.
fn walk(folder: &Path, configs: &Shared, hidden: bool, ignores: Ignores) -> Walked {
    let shared = Arc::clone(&configs.0);
    let mut builder = ignore::WalkBuilder::new(folder);
    builder
        .standard_filters(ignores == Ignores::Respect)
        // A `.gitignore` counts whether or not the folder is in a git
        // repository yet (ripgrep asks for one; a new project may not have
        // run `git init`, and an unpacked archive has no `.git`).
        .require_git(false)
        .hidden(!hidden)
        .follow_links(false)
        .filter_entry(move |entry| {
            if !entry.file_type().is_some_and(|kind| kind.is_dir()) {
                return true;
            }
            let dir = entry.path();
            let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let visible = hidden && name.starts_with('.') && name != ".git";
            if !(visible || agent::ordinary_folder(dir)) {
                return false;
            }
            let mut configs = shared.lock().unwrap_or_else(|p| p.into_inner());
            let absolute = configs.absolute(dir);
            !configs.of_parent(&absolute).excludes(&absolute)
        });
    let mut walked = Walked::default();
    for entry in builder.build() {
        match entry {
            Ok(entry) => {
                let is_dir = entry.file_type().is_some_and(|kind| kind.is_dir());
                if entry.depth() > 0 && !is_dir {
                    walked.files.push(entry.into_path());
                }
            }
            Err(error) => walk_error(error, &mut walked),
        }
    }
    walked
}

/// What the walker could not do: a folder it could not list is a failure
/// (its protocols go unchecked); anything else (a line of an ignore file
/// it could not read) is a note, as ripgrep warns and goes on.
fn walk_error(error: ignore::Error, walked: &mut Walked) {
    let path = error_path(&error).map(|p| tidy(&p));
    let text = error.to_string();
    match error.into_io_error() {
        Some(io) => {
            let shown = path.map_or_else(|| "a folder".to_string(), |p| p.display().to_string());
            walked.failures.push(Failure::new(
                shown.clone(),
                Code::InvalidPath,
                format!("`{shown}` was not read: {}", disk::describe_io(&io)),
            ));
        }
        None => walked.notes.push(format!("while searching: {text}")),
    }
}

/// The path an error of the walker is about, when it names one.
fn error_path(error: &ignore::Error) -> Option<PathBuf> {
    match error {
        ignore::Error::WithPath { path, .. } => Some(path.clone()),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        ignore::Error::Partial(errors) => errors.iter().find_map(error_path),
        _ => None,
    }
}

/// Takes the candidates `wanted` (given each one's configuration and
/// absolute path) accepts; they were found in `folder`, which reading them
/// may not leave. Returns how many there were and how many were taken.
fn take(
    candidates: &[PathBuf],
    folder: &Path,
    configs: &Shared,
    found: &mut Found,
    wanted: impl Fn(&Config, &Path) -> bool,
) -> (usize, usize) {
    let mut configs = configs.lock();
    let mut taken = 0;
    for file in candidates {
        let absolute = configs.absolute(file);
        let config = configs.of_parent(&absolute);
        if wanted(&config, &absolute) {
            found.add(file.clone(), absolute, config, Some(folder));
            taken += 1;
        }
    }
    (candidates.len(), taken)
}

fn is_glob(path: &Path) -> bool {
    path.to_string_lossy().contains(['*', '?', '[', '{'])
}

/// The folder a glob's matches are below: its components up to the first
/// with a glob character; and whether that is the current folder, which
/// the glob does not name.
fn literal_base(glob: &str) -> (PathBuf, bool) {
    let mut base = PathBuf::new();
    for part in glob.split('/') {
        if part.contains(['*', '?', '[', '{']) {
            break;
        }
        if part.is_empty() && base.as_os_str().is_empty() {
            base.push("/");
        } else {
            base.push(part);
        }
    }
    if base.as_os_str().is_empty() {
        (PathBuf::from("."), true)
    } else {
        (base, false)
    }
}

/// Checks each file of a plan, in parallel; the results are in the plan's
/// order. `targets`, when given, replaces each configuration's. Each
/// finished file adds one to `done`.
pub fn check(
    files: &[Planned],
    targets: Option<&[Target]>,
    done: &AtomicUsize,
) -> Vec<Vec<FileReport>> {
    files
        .par_iter()
        .map(|file| {
            let targets = targets.unwrap_or(&file.config.targets);
            let checked = check_one(&file.path, file.reach(), &file.config, targets);
            done.fetch_add(1, Ordering::Relaxed);
            checked
        })
        .collect()
}

/// Checks one protocol (with its agent folder) under `config`: the
/// targets' checks, the configured severities, and the protocol's
/// `agentc-ignore` comments.
pub fn check_one(
    path: &Path,
    reach: Reach,
    config: &Config,
    targets: &[Target],
) -> Vec<FileReport> {
    let mut files = agent::check_path(path, reach);
    finish(&mut files, config, targets);
    files
}

/// What a check adds to what [`agent::check_path`] found, for the command
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
