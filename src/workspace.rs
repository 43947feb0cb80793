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
    /// Paths that could not be read, or found nothing: what to tell.
    pub failures: Vec<String>,
    /// Configuration files with problems: the run must not go on.
    pub broken_configs: Vec<(Source, Vec<Diagnostic>)>,
}

/// The configurations of a run, each read once.
pub struct Configs {
    choice: ConfigChoice,
    /// By configuration file; `None` when it could not be used.
    loaded: BTreeMap<PathBuf, Option<Arc<Config>>>,
    /// The nearest configuration file, by folder.
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
            loaded: BTreeMap::new(),
            nearest: BTreeMap::new(),
            defaults: Arc::new(Config::defaults(&here)),
            broken: Vec::new(),
            failures: Vec::new(),
        }
    }

    /// The configuration that governs `path` (a file or a folder); the
    /// defaults when there is none or it is broken (then the run stops).
    pub fn of(&mut self, path: &Path) -> Arc<Config> {
        let file = match &self.choice {
            ConfigChoice::Defaults => return Arc::clone(&self.defaults),
            ConfigChoice::File(file) => Some(file.clone()),
            ConfigChoice::Nearest => {
                let absolute = config::absolute(path);
                let dir = if absolute.is_dir() {
                    absolute
                } else {
                    absolute.parent().map(Path::to_path_buf).unwrap_or_default()
                };
                self.nearest
                    .entry(dir)
                    .or_insert_with_key(|dir| Config::find(dir))
                    .clone()
            }
        };
        let Some(file) = file else {
            return Arc::clone(&self.defaults);
        };
        let loaded = match self.loaded.get(&file) {
            Some(loaded) => loaded.clone(),
            None => {
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
                loaded
            }
        };
        loaded.unwrap_or_else(|| Arc::clone(&self.defaults))
    }
}

/// Finds the files `paths` name (the current folder when there are none).
pub fn plan(paths: &[PathBuf], choice: ConfigChoice) -> Plan {
    let mut configs = Configs::new(choice);
    let mut found = Found::default();
    let mut failures = Vec::new();
    let here = [PathBuf::from(".")];
    let paths = if paths.is_empty() { &here[..] } else { paths };
    for path in paths {
        let shown = path.display();
        let config = configs.of(path);
        if let Some(file) = config
            .file
            .as_ref()
            .filter(|_| path.is_dir() && config.skips(path))
        {
            let file = file.display();
            failures.push(format!("{shown} is excluded by the `exclude` of {file}"));
            continue;
        }
        match search(path, &mut configs, &mut found) {
            Ok(0) if is_glob(path) && !path.exists() => {
                failures.push(format!("no file matches {shown}"));
            }
            Ok(0) => {
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
    failures.append(&mut configs.failures);
    Plan {
        files: found.files.into_iter().collect(),
        failures,
        broken_configs: configs.broken,
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
    fn add(&mut self, file: PathBuf, config: Arc<Config>) {
        if self.seen.insert(config::absolute(&file)) {
            self.files.insert(file, config);
        }
    }
}

/// Adds the files `path` names to `found`; how many it names.
fn search(path: &Path, configs: &mut Configs, found: &mut Found) -> std::io::Result<usize> {
    if path.is_dir() {
        let candidates = agent::files_below(path, true, |_| true, |dir| !skips(configs, dir))?;
        return Ok(take(candidates, configs, found, |config, file| {
            config.takes(file)
        }));
    }
    if path.exists() || !is_glob(path) {
        std::fs::metadata(path)?;
        let config = configs.of(path);
        found.add(path.to_path_buf(), config);
        return Ok(1);
    }
    let text = path.to_string_lossy();
    let glob = config::command_line_glob(&text)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e.kind().to_string()))?
        .compile_matcher();
    let (base, from_here) = literal_base(&text);
    if !base.is_dir() {
        return Ok(0);
    }
    let mut candidates = agent::files_below(&base, true, |_| true, |dir| !skips(configs, dir))?;
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

/// Whether the search skips the folder `dir`: its configuration excludes
/// it.
fn skips(configs: &mut Configs, dir: &Path) -> bool {
    configs.of(dir).skips(dir)
}

fn take(
    candidates: Vec<PathBuf>,
    configs: &mut Configs,
    found: &mut Found,
    wanted: impl Fn(&Config, &Path) -> bool,
) -> usize {
    let mut taken = 0;
    for file in candidates {
        let config = configs.of(&file);
        if wanted(&config, &file) {
            found.add(file, config);
            taken += 1;
        }
    }
    taken
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
/// order. `targets`, when not empty, replaces each configuration's. Each
/// finished file adds one to `done`.
pub fn check(
    files: &[(PathBuf, Arc<Config>)],
    targets: Option<&[Target]>,
    done: &AtomicUsize,
) -> Vec<Result<Vec<Compilation>, (PathBuf, String)>> {
    files
        .par_iter()
        .map(|(path, config)| {
            let checked = check_one(path, config, targets.unwrap_or(&config.targets));
            done.fetch_add(1, Ordering::Relaxed);
            checked.map_err(|error| (path.clone(), error.to_string()))
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
