//! Versions of a protocol for `agentc diff` and `check --against`: each
//! read from a file, an agent folder or git (in-process, [`crate::diff::git`]),
//! compiled, and the contract changes judged by the configuration
//! ([`super::changes`]).

use crate::FileReport;
use crate::config::{self, Config};
use crate::diagnostic::{Code, Failure, Severity};
use crate::diff::git;
use crate::disk::{self, Reach};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One version of a protocol, read.
pub struct Loaded {
    /// As output names it: the path, or `REV:PATH`.
    pub name: String,
    pub bytes: Vec<u8>,
    /// The file on disk, when it is one.
    pub path: Option<PathBuf>,
}

/// Reads a version: a file or an agent folder on disk, else `REV:PATH`
/// from git.
pub fn load(spec: &str) -> Result<Loaded, Failure> {
    let path = Path::new(spec);
    if disk::exists(path) {
        // A folder's protocol is found in it, and read as `check` reads
        // it: only when it lies inside (a link out of the folder could
        // make a pull request print a file elsewhere); a file named is
        // read wherever its links lead.
        let (file, reach) = if path.is_dir() {
            (path.join("protocol.yaml"), Reach::Within(path))
        } else {
            (path.to_path_buf(), Reach::Named)
        };
        let name = file.display().to_string();
        return match disk::read(&file, reach) {
            Ok(bytes) => Ok(Loaded {
                name,
                bytes,
                path: Some(file),
            }),
            Err(error) => {
                let diagnostic = error.diagnostic(&name);
                Err(Failure::new(&name, diagnostic.code, diagnostic.message))
            }
        };
    }
    let Some((revision, inside)) = git::split_revision(spec) else {
        return Err(Failure::new(
            spec,
            Code::InvalidPath,
            format!("`{spec}` does not exist"),
        )
        .with_help("give a protocol file, an agent folder, or `REV:PATH` (`origin/main:agents/shop/protocol.yaml`)"));
    };
    from_git(spec, revision, inside, Path::new("."))
}

/// The protocol file `file`, a path on disk (absolute, or from the current
/// folder), as it was at `revision` of the git repository it lies in,
/// named `REV:FILE`: for a caller that holds a path rather than a path in
/// the repository (the MCP server's `diff`).
pub fn load_file_at(revision: &str, file: &Path) -> Result<Loaded, Failure> {
    let spec = format!("{revision}:{}", file.display());
    let (Some(name), folder) = (file.file_name(), file.parent()) else {
        return Err(Failure::new(
            &spec,
            Code::InvalidPath,
            format!("`{}` names no file", file.display()),
        ));
    };
    let folder = match folder {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    let inside = format!("./{}", name.to_string_lossy());
    from_git(&spec, revision, &inside, folder)
}

/// `inside` at `revision` of the repository `here` is in, where a path
/// that starts with `./` starts from `here`; `spec` names it.
fn from_git(spec: &str, revision: &str, inside: &str, here: &Path) -> Result<Loaded, Failure> {
    let failure = |error: git::GitError| {
        let failure = Failure::new(spec, error.code, error.message);
        match error.help {
            Some(help) => failure.with_help(help),
            None => failure,
        }
    };
    git::check_revision(revision).map_err(failure)?;
    let repository = git::Repository::discover(here).map_err(failure)?;
    let commit = repository.commit(revision).map_err(failure)?;
    // `./PATH` starts from the current folder's place in the work tree.
    let place = repository
        .work_tree()
        .and_then(|top| inside_repository(here, top));
    let path = git::tree_path(inside, place.as_deref()).map_err(failure)?;
    match repository.read(&commit, &path).map_err(failure)? {
        // A folder is named by the file read in it, as one on disk is.
        Some((bytes, folder)) => Ok(Loaded {
            name: match (folder, spec.ends_with([':', '/'])) {
                (false, _) => spec.to_string(),
                (true, true) => format!("{spec}protocol.yaml"),
                (true, false) => format!("{spec}/protocol.yaml"),
            },
            bytes,
            path: None,
        }),
        None => Err(Failure::new(
            spec,
            Code::InvalidPath,
            format!("`{inside}` does not exist at `{revision}`"),
        )
        .with_help("the path is from the repository's top folder; start it with `./` for one from the current folder")),
    }
}

/// `agentc check --against REV`: for each checked protocol, the changes
/// since the same path at `revision`, added to its report. A protocol
/// that did not exist there is new, and has none. Whatever else keeps the
/// old version from being read (no repository, no such revision, an
/// object the clone lacks or that is damaged) is a failure of the run:
/// the check never passes on a version it could not compare.
pub fn against(
    revision: &str,
    checked: &mut [(PathBuf, &Config, &mut FileReport)],
    least: Severity,
) -> Vec<Failure> {
    let mut failures = Vec::new();
    if let Err(error) = git::check_revision(revision) {
        failures.push(Failure::new(revision, Code::InvalidPath, error.message));
        return failures;
    }
    // One lookup of the repository per folder, one opening of it and
    // resolution of the revision per repository.
    let mut tops: HashMap<PathBuf, Result<PathBuf, git::GitError>> = HashMap::new();
    let mut repositories: HashMap<PathBuf, Option<(git::Repository, git::Commit)>> = HashMap::new();
    for (path, config, report) in checked.iter_mut() {
        let folder = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let top = tops
            .entry(folder.clone())
            .or_insert_with(|| git::top_level(&folder))
            .clone();
        let top = match top {
            Ok(top) => top,
            Err(error) => {
                push_failure(&mut failures, path, error);
                continue;
            }
        };
        let opened = repositories.entry(top.clone()).or_insert_with(|| {
            let opened = git::Repository::discover(&top).and_then(|repository| {
                let commit = repository.commit(revision)?;
                Ok((repository, commit))
            });
            match opened {
                Ok(opened) => Some(opened),
                Err(error) => {
                    let name = match error.code {
                        Code::MissingRevision => Path::new(revision),
                        _ => &top,
                    };
                    push_failure(&mut failures, name, error);
                    None
                }
            }
        });
        let Some((repository, commit)) = opened else {
            continue;
        };
        let Some(inside) = inside_repository(path, &top) else {
            push_failure(
                &mut failures,
                path,
                git::GitError {
                    code: Code::InvalidPath,
                    message: format!(
                        "`{}` is not inside the work tree of its git repository (`{}`), so it has no old version to compare with",
                        path.display(),
                        top.display()
                    ),
                    help: None,
                },
            );
            continue;
        };
        let bytes = match repository.read(commit, &inside) {
            Ok(Some((bytes, _))) => bytes,
            Ok(None) => continue,
            Err(error) => {
                push_failure(&mut failures, path, error);
                continue;
            }
        };
        let base_name = format!("{revision}:{inside}");
        let old = crate::compile(&base_name, bytes);
        let found = config::changes(&old, report, &base_name, config, least);
        report.add(found.into());
    }
    failures
}

fn push_failure(failures: &mut Vec<Failure>, path: &Path, error: git::GitError) {
    let name = path.display().to_string();
    if failures.iter().any(|f| f.message == error.message) {
        return;
    }
    let failure = Failure::new(name, error.code, error.message);
    failures.push(match error.help {
        Some(help) => failure.with_help(help),
        None => failure,
    });
}

/// `path` relative to the repository's top folder, `/`-separated.
fn inside_repository(path: &Path, top: &Path) -> Option<String> {
    let real = disk::real_path(path).ok()?;
    let top = disk::real_path(top).ok()?;
    let relative = real.strip_prefix(&top).ok()?;
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(parts.join("/"))
}
