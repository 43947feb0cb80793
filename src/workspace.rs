//! `agentc check` over many paths: which files a run checks, under which
//! configuration, and checking them in parallel with the results in path
//! order, whatever the scheduling.
//!
//! A path is a file (checked as named, even when a configuration excludes
//! it), a folder (searched for the files its configuration includes), or,
//! when no such file exists, a glob (`agents/*/protocol.yaml`, for shells
//! that do not expand it, and on Windows), whose matches are checked unless
//! excluded. Searches skip hidden folders, `node_modules` and `target`.

use crate::config::{self, Config};
use crate::diagnostic::Diagnostic;
use crate::emit::Target;
use crate::source::Source;
use crate::{Compilation, agent};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Which configuration governs the files of a run.
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
    pub files: Vec<(PathBuf, Arc<Config>)>,
    /// Paths that could not be read, or found nothing: what to tell; the
    /// run exits with 2.
    pub failures: Vec<String>,
    /// What was skipped, and why (an excluded folder named on the command
    /// line): what to tell.
    pub notes: Vec<String>,
    /// Configuration files with problems: the run must not go on.
    pub broken_configs: Vec<(Source, Vec<Diagnostic>)>,
    /// Configuration files that could not be read: the run must not go on.
    pub unreadable_configs: Vec<String>,
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
    /// Configuration files that could not be read: what to tell.
    pub failures: Vec<String>,
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
        let loaded = match Config::load(&file) {
            Ok(Ok(config)) => Some(Arc::new(config)),
            Ok(Err(broken)) => {
                self.broken.push(broken);
                None
            }
            Err(error) => {
                let shown = file.display();
                self.failures.push(format!("cannot read {shown}: {error}"));
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

/// Finds the files `paths` name (the current folder when there are none).
pub fn plan(paths: &[PathBuf], choice: ConfigChoice) -> Plan {
    let mut configs = Configs::new(choice);
    let mut found = Found::default();
    let mut failures = Vec::new();
    let mut notes = Vec::new();
    let here = [PathBuf::from(".")];
    let paths = if paths.is_empty() { &here[..] } else { paths };
    for path in paths {
        let shown = path.display();
        // The folder searched: the path, or a glob's folder.
        let glob = is_glob(path) && !path.exists();
        let folder = match glob {
            true => Some(literal_base(&path.to_string_lossy()).0),
            false => path.is_dir().then(|| path.to_path_buf()),
        };
        if let Some(folder) = folder {
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
        match search(path, &mut configs, &mut found) {
            Ok(Searched { matched: 0, .. }) if glob => {
                failures.push(format!("no file matches {shown}"));
            }
            Ok(Searched { matched, taken: 0 }) if glob => {
                let files = if matched == 1 { "file" } else { "files" };
                notes.push(format!(
                    "skipped {shown}: agentc.toml excludes the {matched} {files} it matches"
                ));
            }
            Ok(Searched { taken: 0, .. }) => {
                let config = configs.of(path);
                failures.push(match &config.file {
                    Some(file) if config.include != [config::DEFAULT_INCLUDE] => format!(
                        "nothing under {shown} matches the `include` of {}",
                        file.display()
                    ),
                    _ => format!("no protocol.yaml found under {shown}"),
                });
            }
            Ok(_) => {}
            Err(error) => failures.push(format!("cannot read {shown}: {error}")),
        }
    }
    Plan {
        files: found.files.into_iter().collect(),
        failures,
        notes,
        broken_configs: configs.broken,
        unreadable_configs: configs.failures,
    }
}

/// The files found so far, by the path they are shown with, each once
/// however it was spelled (`a/p.yaml`, `./a/p.yaml`, `a/../a/p.yaml`).
#[derive(Default)]
struct Found {
    files: BTreeMap<PathBuf, Arc<Config>>,
    seen: BTreeSet<PathBuf>,
}

impl Found {
    fn add(&mut self, file: PathBuf, absolute: PathBuf, config: Arc<Config>) {
        if self.seen.insert(absolute) {
            self.files.insert(file, config);
        }
    }
}

/// What one path of the command line gave: the files it matched, and how
/// many of those were taken (not excluded).
struct Searched {
    matched: usize,
    taken: usize,
}

/// Adds the files `path` names to `found`.
fn search(path: &Path, configs: &mut Configs, found: &mut Found) -> std::io::Result<Searched> {
    if path.is_dir() {
        let candidates = walk(path, configs, false)?;
        return Ok(take(candidates, configs, found, |config, file| {
            config.takes(file)
        }));
    }
    if path.exists() || !is_glob(path) {
        // A file named on the command line is checked, excluded or not.
        std::fs::metadata(path)?;
        let config = configs.of(path);
        found.add(path.to_path_buf(), configs.absolute(path), config);
        return Ok(Searched {
            matched: 1,
            taken: 1,
        });
    }
    let text = path.to_string_lossy();
    let glob = config::command_line_glob(&text)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e.kind().to_string()))?
        .compile_matcher();
    let (base, from_here) = literal_base(&text);
    if !base.is_dir() {
        return Ok(Searched {
            matched: 0,
            taken: 0,
        });
    }
    // Hidden folders are searched when the glob names one.
    let hidden = text
        .split('/')
        .any(|part| part.starts_with('.') && part != "." && part != "..");
    let mut candidates = walk(&base, configs, hidden)?;
    if from_here {
        for candidate in &mut candidates {
            if let Ok(stripped) = candidate.strip_prefix(".") {
                *candidate = stripped.to_path_buf();
            }
        }
    }
    candidates.retain(|candidate| glob.is_match(candidate));
    Ok(take(candidates, configs, found, |config, file| {
        !config.excludes(file)
    }))
}

/// Every file below `folder`, but not in folders a configuration excludes,
/// nor in hidden ones (unless `hidden`), `node_modules` or `target`.
fn walk(folder: &Path, configs: &mut Configs, hidden: bool) -> std::io::Result<Vec<PathBuf>> {
    agent::files_below(
        folder,
        true,
        |_| true,
        |dir| {
            let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let visible = hidden && name.starts_with('.') && name != ".git";
            (visible || agent::ordinary_folder(dir)) && {
                let absolute = configs.absolute(dir);
                !configs.of_parent(&absolute).excludes(&absolute)
            }
        },
    )
}

/// Takes the candidates `wanted` (given each one's configuration and
/// absolute path) accepts.
fn take(
    candidates: Vec<PathBuf>,
    configs: &mut Configs,
    found: &mut Found,
    wanted: impl Fn(&Config, &Path) -> bool,
) -> Searched {
    let matched = candidates.len();
    let mut taken = 0;
    for file in candidates {
        let absolute = configs.absolute(&file);
        let config = configs.of_parent(&absolute);
        if wanted(&config, &absolute) {
            found.add(file, absolute, config);
            taken += 1;
        }
    }
    Searched { matched, taken }
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
    files: &[(PathBuf, Arc<Config>)],
    targets: Option<&[Target]>,
    done: &AtomicUsize,
) -> Vec<std::io::Result<Vec<Compilation>>> {
    files
        .par_iter()
        .map(|(path, config)| {
            let checked = check_one(path, config, targets.unwrap_or(&config.targets));
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
    config: &Config,
    targets: &[Target],
) -> std::io::Result<Vec<Compilation>> {
    let mut files = agent::check_path(path)?;
    finish(&mut files, config, targets);
    Ok(files)
}

/// What a check adds to what [`agent::check_path`] found, for the command
/// line and editors alike: the targets' checks, the configured severities,
/// and the protocol's (the first file's) `agentc-ignore` comments.
pub fn finish(files: &mut [Compilation], config: &Config, targets: &[Target]) {
    for file in files.iter_mut() {
        crate::check_targets(file, targets);
        config.apply(&mut file.diagnostics);
    }
    // The protocol's suppressions see the diagnostics as configured (one
    // turned off is not there to silence, so its suppression is unused),
    // and what they report is configured in turn.
    if let Some(protocol) = files.first_mut() {
        crate::suppress::apply(protocol);
        config.apply(&mut protocol.diagnostics);
    }
}
