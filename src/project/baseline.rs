//! The baseline of a run on disk (`agentc check --baseline FILE`,
//! `baseline = "FILE"` in `agentc.toml`, `--write-baseline FILE`): which
//! baseline file governs each checked file, read through the disk adapter
//! and applied by [`crate::config::baseline`] across the whole run, and
//! writing one.

use super::Planned;
use crate::FileReport;
use crate::agent::Files;
use crate::config::Config;
use crate::config::baseline::{self, Baseline};
use crate::diagnostic::{Code, Diagnostic, Failure};
use crate::disk::{self, FileError, Reach};
use crate::source::Source;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What applying the baselines of a run found.
#[derive(Default)]
pub struct Applied {
    /// The baseline files with entries that accept more than the run
    /// found: a report each, to show after the checked files.
    pub unused: Vec<FileReport>,
    /// Baseline files with problems: the run must not go on (exit 2).
    pub broken: Vec<(Source, Vec<Diagnostic>)>,
    /// Baseline files that could not be read: the run must not go on.
    pub failures: Vec<Failure>,
}

/// Applies to `results` (a list of reports per planned file, in the plan's
/// order) the baseline `named` on the command line (relative to the
/// current folder), or else, file by file, the one its configuration
/// names (relative to that `agentc.toml`). A baseline governs every file
/// of the run that names it, so one file holds a whole project's.
pub fn apply(files: &[Planned], results: &mut [Vec<FileReport>], named: Option<&Path>) -> Applied {
    // By baseline file: the files it governs, and the configuration that
    // named it (whose severities its warnings take; for `--baseline`, the
    // first file's). Indices are pushed in order, so each list is sorted.
    let mut groups: BTreeMap<PathBuf, (usize, Vec<usize>)> = BTreeMap::new();
    for (index, planned) in files.iter().enumerate() {
        let file = match named {
            Some(path) => Some(path.to_path_buf()),
            None => planned.config.baseline_file(),
        };
        if let Some(file) = file {
            groups
                .entry(file)
                .or_insert((index, Vec::new()))
                .1
                .push(index);
        }
    }
    let mut applied = Applied::default();
    for (file, (first, members)) in groups {
        let Some(config) = files.get(first).map(|p| &p.config) else {
            continue;
        };
        let folder = config.root().to_path_buf();
        let reach = match named {
            Some(_) => Reach::Named,
            None => Reach::Within(&folder),
        };
        let bytes = match disk::read(&file, reach) {
            Ok(bytes) => bytes,
            Err(error) => {
                applied.failures.push(unreadable(&file, &error));
                continue;
            }
        };
        let baseline = match Baseline::parse(&file, &bytes) {
            Ok(baseline) => baseline,
            Err(broken) => {
                applied.broken.push(broken);
                continue;
            }
        };
        let governed = results
            .iter_mut()
            .enumerate()
            .filter(|(index, _)| members.binary_search(index).is_ok())
            .flat_map(|(_, reports)| reports.iter_mut());
        // An entry for a file not checked is judged when the file is gone
        // (not when it is merely outside this run's paths). Only a file
        // below the configuration's folder, where the files it governs
        // are, is looked for: a baseline from a pull request must not tell
        // which paths elsewhere on the machine exist.
        let folder = baseline.folder().to_path_buf();
        let root = crate::config::normalize(config.root());
        let gone = |file: &str| {
            let path = crate::config::normalize(&folder.join(file));
            path.starts_with(&root) && !disk::exists(&path)
        };
        if let Some(mut unused) = baseline.apply_judging(governed, gone) {
            config.apply(&mut unused.diagnostics);
            applied.unused.push(unused);
        }
    }
    applied
}

fn unreadable(file: &Path, error: &FileError) -> Failure {
    let shown = file.display().to_string();
    let failure = Failure::new(
        shown.clone(),
        Code::InvalidBaseline,
        format!("the baseline `{shown}` was not read: {error}"),
    );
    match error {
        FileError::Io(io) if io.kind() == std::io::ErrorKind::NotFound => {
            failure.with_help(format!(
                "write it with `agentc check --write-baseline {}`",
                crate::diagnostic::shell_word(&shown)
            ))
        }
        _ => failure,
    }
}

/// Writes the baseline of `reports` to `path`: atomically, and never
/// through a link (a link or a special file at `path` is refused, as `gen`
/// refuses to write its outputs through one). Returns how many entries
/// and problems it holds.
pub fn write(path: &Path, reports: &[FileReport]) -> Result<(usize, usize), Failure> {
    let shown = path.display().to_string();
    let text = baseline::record(reports, path);
    let fail = |message: String| Failure::new(&shown, Code::InvalidPath, message);
    let name = path
        .file_name()
        .ok_or_else(|| fail(format!("`{shown}` names no file")))?;
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    let real = disk::real_path(folder).map_err(|error| {
        fail(format!(
            "`{shown}` could not be written: {}",
            disk::describe_io(&error)
        ))
    })?;
    disk::write(&real.join(name), text.as_bytes(), Reach::Own(&real))
        .map_err(|error| fail(format!("`{shown}` could not be written: {error}")))?;
    Ok(baseline::totals(&text))
}

/// The baselines a long-lived process (the language server) checks under,
/// kept from one check to the next by file and content, as
/// [`super::ConfigCache`] keeps configurations: a baseline is parsed when
/// first read or when its bytes change, never again for the same bytes.
#[derive(Default)]
pub struct BaselineCache {
    /// By path: the bytes last read, and what they gave (`None` when the
    /// file has problems: then nothing is accepted, and `agentc check`
    /// says what is wrong).
    by_file: BTreeMap<PathBuf, (Vec<u8>, Option<Arc<Baseline>>)>,
}

impl BaselineCache {
    /// Drops from `reports` (the check of one protocol) what the baseline
    /// `config` names accepts, read through `files` (an editor's buffers
    /// over the disk) when it lies inside the configuration's folder. Its
    /// unused entries are not reported: one protocol is not the run a
    /// baseline covers.
    pub fn apply(&mut self, config: &Config, files: &dyn Files, reports: &mut [FileReport]) {
        let Some(path) = config.baseline_file() else {
            return;
        };
        let Ok(bytes) = files.read(&path, Reach::Within(config.root())) else {
            self.by_file.remove(&path);
            return;
        };
        let baseline = match self.by_file.get(&path) {
            Some((known, baseline)) if *known == bytes => baseline.clone(),
            _ => {
                let baseline = Baseline::parse(&path, &bytes).ok().map(Arc::new);
                self.by_file.insert(path, (bytes, baseline.clone()));
                baseline
            }
        };
        if let Some(baseline) = baseline {
            let _unused = baseline.apply(reports.iter_mut());
        }
    }
}
