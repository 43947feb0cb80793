//! Finding the files of a run: the paths of the command line searched
//! (folders walked by ripgrep's `ignore` crate, skipping what git ignores;
//! globs matched), each file with the configuration that applies. The
//! `walk` feature.

use super::{ConfigChoice, Configs, Ignores, Plan, Planned};
use crate::agent;
use crate::config::{self, Config};
use crate::diagnostic::{Code, Diagnostic, Failure};
use crate::disk;
use crate::source::Source;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

/// Finds the files `paths` name (the current folder when there are none).
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
        disk::look(path)?;
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
    // Neither a file nor a pattern: what looking for the file found, and
    // why the pattern does not read as one.
    let glob = config::command_line_glob(&text)
        .map_err(|e| {
            let file = match disk::look(path) {
                Err(io) => disk::describe_io(&io),
                Ok(_) => "not a file".to_string(),
            };
            disk::FileError::Io(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("{file}, and as a glob: {}", e.kind()),
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
/// `.git`), `node_modules` or `target`, nor (with [`Ignores::Respect`]
/// or [`Ignores::RespectWithin`]) in what git ignores. Links to folders are not followed.
fn walk(folder: &Path, configs: &Shared, hidden: bool, ignores: Ignores) -> Walked {
    let shared = Arc::clone(&configs.0);
    let mut builder = ignore::WalkBuilder::new(folder);
    builder
        .standard_filters(ignores != Ignores::Search)
        .parents(ignores == Ignores::Respect)
        .git_global(ignores == Ignores::Respect)
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
