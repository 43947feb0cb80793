//! A run over files on disk (the `disk` feature): which configuration
//! governs each file, found beside it, and checking each.

use crate::FileReport;
use crate::config::{self, Config};
use crate::diagnostic::{Applicability, Code, Diagnostic, Failure};
use crate::disk::{self, FileError, Reach};
use crate::emit::Target;
use crate::source::Source;
use crate::workspace::{Fixed, Workspace};
#[cfg(feature = "parallel")]
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

impl Config {
    /// Reads `path` as far as `reach` allows: the configuration, or the
    /// file's source with every problem in it. A file that cannot be read
    /// is the error.
    pub fn load(
        path: &Path,
        reach: Reach,
    ) -> Result<Result<Config, (Source, Vec<Diagnostic>)>, FileError> {
        let bytes = disk::read(path, reach)?;
        Ok(Config::parse(path, &bytes))
    }
}

/// Which configuration governs the files of a run.
#[derive(Clone, Debug)]
pub enum ConfigChoice {
    /// The nearest `agentc.toml` above each file.
    Nearest,
    /// This file, for every file.
    File(PathBuf),
    /// The defaults (`--no-config`).
    Defaults,
    /// The nearest `agentc.toml` above each file, looked for only in these
    /// folders (resolved, as `disk::real_path` gives them) and below: the
    /// MCP server, which reads nothing outside its client's roots.
    NearestWithin(Vec<PathBuf>),
}

impl ConfigChoice {
    /// The choice `--config FILE` and `--no-config` make: the file named,
    /// else the defaults with `no_config`, else the nearest.
    pub fn from_flags(file: Option<PathBuf>, no_config: bool) -> ConfigChoice {
        match (file, no_config) {
            (Some(file), _) => ConfigChoice::File(file),
            (None, true) => ConfigChoice::Defaults,
            (None, false) => ConfigChoice::Nearest,
        }
    }
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
    /// Skip what the `.gitignore` and `.ignore` files inside the folder
    /// searched, and its repository's `.git/info/exclude`, list; read none
    /// above it, nor git's global excludes: the MCP server, which reads
    /// nothing outside its client's roots.
    RespectWithin,
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
    pub(super) fn absolute(&self, path: &Path) -> PathBuf {
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
    pub(super) fn of_parent(&mut self, path: &Path) -> Arc<Config> {
        self.of_dir(path.parent().unwrap_or(path))
    }

    /// The configuration of the files in the absolute folder `dir`.
    fn of_dir(&mut self, dir: &Path) -> Arc<Config> {
        let file = match &self.choice {
            ConfigChoice::Defaults => None,
            ConfigChoice::File(file) => Some(file.clone()),
            ConfigChoice::Nearest | ConfigChoice::NearestWithin(_) => self.nearest_file(dir),
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
        if let ConfigChoice::NearestWithin(roots) = &self.choice {
            let inside = disk::real_path(dir)
                .is_ok_and(|real| roots.iter().any(|root| real.starts_with(root)));
            if !inside {
                self.nearest.insert(dir.to_path_buf(), None);
                return None;
            }
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
    #[cfg(feature = "walk")]
    pub(super) fn excluder(&mut self, dir: &Path) -> Option<Arc<Config>> {
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

/// Checks each file of a plan, in parallel (the `parallel` feature) when
/// there is more than one; the results are in the plan's order.
/// `targets`, when given, replaces each configuration's. Each finished
/// file adds one to `done`.
pub fn check(
    files: &[Planned],
    targets: Option<&[Target]>,
    done: &AtomicUsize,
) -> Vec<Vec<FileReport>> {
    each(files, targets, done, |file, config| {
        Workspace::check_in(&disk::Disk, &file.path, file.reach(), config)
    })
}

/// Fixes each file of a plan (`agentc check --fix`) as [`check`] checks
/// it, with every fix at most as unsure as `least_sure`; nothing is
/// written ([`write_fixes`] does).
pub fn fix(
    files: &[Planned],
    targets: Option<&[Target]>,
    least_sure: Applicability,
    done: &AtomicUsize,
) -> Vec<Fixed> {
    each(files, targets, done, |file, config| {
        Workspace::fix_in(&disk::Disk, &file.path, file.reach(), config, least_sure)
    })
}

/// Writes the files the fixes of one protocol changed, each as agentc
/// writes a file of its own (`disk::write`: a temporary file in the real
/// folder, renamed over the file; never through a link, never outside the
/// folder of the file fixed first, the protocol's); what could not be
/// written.
pub fn write_fixes(fixed: &Fixed) -> Vec<Failure> {
    let here = |folder: Option<&Path>| match folder {
        Some(folder) if !folder.as_os_str().is_empty() => folder.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let within = here(fixed.path.parent());
    fixed
        .files
        .iter()
        .filter_map(|(path, change)| {
            let written = path
                .file_name()
                .ok_or_else(|| FileError::Io(std::io::Error::other("the path names no file")))
                .and_then(|name| {
                    let folder = disk::folder_within(&here(path.parent()), &within, false)?;
                    disk::write_if_unchanged(
                        &folder.join(name),
                        change.before.as_bytes(),
                        change.after.as_bytes(),
                        Reach::Own(&folder),
                    )
                });
            written.err().map(|error| {
                let name = path.display().to_string();
                let help = match &error {
                    FileError::Changed => "nothing was written over it: run the fix again on the file as it is now",
                    FileError::Io(io) if io.kind() == std::io::ErrorKind::PermissionDenied => {
                        "agentc writes a fixed file through a new file beside it, which takes its place: the folder must be writable too"
                    }
                    _ => "agentc writes fixes only to regular files inside the protocol's folder, never through a link",
                };
                Failure::new(
                    &name,
                    Code::InvalidPath,
                    format!("`{name}` was not fixed: {error}"),
                )
                .with_help(help)
            })
        })
        .collect()
}

/// Applies the fixes of one report (at most as unsure as `least_sure`) to
/// its file on disk, once, as [`write_fixes`] writes: the baseline's
/// unused entries, which a check of the whole run finds. How many were
/// applied, and what could not be written.
pub fn fix_report(report: &FileReport, least_sure: Applicability) -> (usize, Vec<Failure>) {
    let fixed = Fixed::of_report(report, least_sure);
    let refused = write_fixes(&fixed);
    (fixed.applied, refused)
}

/// Runs `work` on each file of a plan, in parallel (the `parallel`
/// feature; one file on the calling thread, see [`threads`]), under its configuration (its targets replaced by `targets`,
/// when given); the results in the plan's order, whatever the scheduling.
fn each<T: Send>(
    files: &[Planned],
    targets: Option<&[Target]>,
    done: &AtomicUsize,
    work: impl Fn(&Planned, &Config) -> T + Sync + Send,
) -> Vec<T> {
    // `--target` replaces each configuration's targets: one copy per
    // configuration, not per file.
    let mut overridden: BTreeMap<usize, Arc<Config>> = BTreeMap::new();
    if let Some(targets) = targets {
        for file in files {
            overridden
                .entry(config_key(&file.config))
                .or_insert_with(|| {
                    let mut config = (*file.config).clone();
                    config.targets = targets.to_vec();
                    Arc::new(config)
                });
        }
    }
    let one = |file: &Planned| {
        let config = overridden
            .get(&config_key(&file.config))
            .unwrap_or(&file.config);
        let result = work(file, config);
        done.fetch_add(1, Ordering::Relaxed);
        result
    };
    #[cfg(feature = "parallel")]
    if threads(files.len()) > 1 {
        return files.par_iter().map(one).collect();
    }
    files.iter().map(one).collect()
}

/// How many threads a run of `files` files is checked on: one file on the
/// calling thread (starting rayon's pool would cost more than checking a
/// protocol, and a check of one file should cost about as much as starting
/// the process), more on rayon's (the `parallel` feature), which starts the
/// pool.
pub fn threads(files: usize) -> usize {
    #[cfg(feature = "parallel")]
    if files > 1 {
        return rayon::current_num_threads();
    }
    let _ = files;
    1
}

/// Which configuration an `Arc` holds: the plan shares one among the
/// files it governs.
fn config_key(config: &Arc<Config>) -> usize {
    Arc::as_ptr(config) as usize
}
