//! `agentc diff OLD NEW`, and what `agentc check --against REV` adds to a
//! check: each version read from a file, an agent folder or git, both
//! compiled, and the contract changes reported on the new one.

use super::args::{DiffArgs, ShowLevel};
use super::output::{broken_configs, report};
use agentc::diff::git;
use agentc::disk::{self, Reach};
use agentc::project::config::Config;
use agentc::project::{self, ConfigChoice};
use agentc::{Code, Diagnostic, Failure, FileReport};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// One version of a protocol, read.
struct Loaded {
    /// As output names it: the path, or `REV:PATH`.
    name: String,
    bytes: Vec<u8>,
    /// The file on disk, when it is one.
    path: Option<PathBuf>,
}

/// Runs `agentc diff`: exit 2 when a version cannot be read, 1 on
/// breaking changes (or warnings with `--deny-warnings`), else 0.
pub(crate) fn run(args: DiffArgs) -> ExitCode {
    let (old, new) = (load(&args.old), load(&args.new));
    let (old, new) = match (old, new) {
        (Ok(old), Ok(new)) => (old, new),
        (old, new) => {
            let failures: Vec<Failure> = [old.err(), new.err()].into_iter().flatten().collect();
            report(
                args.format,
                &[],
                &failures,
                "nothing was compared",
                args.max_diagnostics,
            );
            return ExitCode::from(2);
        }
    };
    let choice = match (args.config, args.no_config) {
        (Some(file), _) => ConfigChoice::File(file),
        (None, true) => ConfigChoice::Defaults,
        (None, false) => ConfigChoice::Nearest,
    };
    let mut configs = project::Configs::new(choice);
    let anchor = new.path.clone().unwrap_or_else(|| PathBuf::from("."));
    let config = configs.of(&anchor);
    if !configs.broken.is_empty() || !configs.failures.is_empty() {
        return broken_configs(configs.broken, &configs.failures, args.format);
    }
    let old_report = agentc::compile(&old.name, old.bytes);
    let mut new_report = agentc::compile(&new.name, new.bytes);
    // The new version's own errors stop the diff and are shown; its
    // warnings are `agentc check`'s business.
    new_report.diagnostics.retain(Diagnostic::is_error);
    let changes = changes(&old_report, &new_report, &old.name, &config, args.level);
    new_report.add(changes.into());
    let (errors, warnings) = report(
        args.format,
        std::slice::from_ref(&new_report),
        &[],
        &format!("compared {} with {}", old.name, new.name),
        args.max_diagnostics,
    );
    if errors > 0 || (args.deny_warnings && warnings > 0) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The changes from `old` to `new` as `config` judges them, at `level`
/// and above.
fn changes(
    old: &FileReport,
    new: &FileReport,
    base_name: &str,
    config: &Config,
    level: ShowLevel,
) -> Vec<Diagnostic> {
    let mut found = agentc::diff::reports(old, new, base_name, &config.diff);
    config.apply(&mut found);
    found.retain(|d| d.change.is_none() || level.shows(d.severity));
    found
}

/// Reads a version: a file or an agent folder on disk, else `REV:PATH`
/// from git.
fn load(spec: &str) -> Result<Loaded, Failure> {
    let path = Path::new(spec);
    if std::fs::symlink_metadata(path).is_ok() {
        let file = if path.is_dir() {
            path.join("protocol.yaml")
        } else {
            path.to_path_buf()
        };
        let name = file.display().to_string();
        return match disk::read(&file, Reach::Named) {
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
    let failure = |error: git::GitError| {
        let failure = Failure::new(spec, error.code, error.message);
        match error.help {
            Some(help) => failure.with_help(help),
            None => failure,
        }
    };
    git::check_revision(revision).map_err(failure)?;
    let here = Path::new(".");
    let repository = git::Repository::discover(here).map_err(failure)?;
    let commit = repository.commit(revision).map_err(failure)?;
    // `./PATH` starts from the current folder's place in the work tree.
    let place = repository
        .work_tree()
        .and_then(|top| inside_repository(here, top));
    let path = git::tree_path(inside, place.as_deref()).map_err(failure)?;
    match repository.read(&commit, &path).map_err(failure)? {
        Some(bytes) => Ok(Loaded {
            name: spec.to_string(),
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
pub(crate) fn against(
    revision: &str,
    checked: &mut [(PathBuf, &Config, &mut FileReport)],
    level: ShowLevel,
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
            Ok(Some(bytes)) => bytes,
            Ok(None) => continue,
            Err(error) => {
                push_failure(&mut failures, path, error);
                continue;
            }
        };
        let base_name = format!("{revision}:{inside}");
        let old = agentc::compile(&base_name, bytes);
        let found = changes(&old, report, &base_name, config, level);
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
    let real = std::fs::canonicalize(path).ok()?;
    let top = std::fs::canonicalize(top).ok()?;
    let relative = real.strip_prefix(&top).ok()?;
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(parts.join("/"))
}
