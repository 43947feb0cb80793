//! Reading a protocol as it was at a git revision: `git show REV:PATH`,
//! run as a process (as oasdiff does), never a fetch. A revision that
//! starts with `-` is refused, so nothing given to agentc reaches git as
//! an option.

use crate::diagnostic::Code;
use crate::source::MAX_FILE_BYTES;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Why a version could not be read from git.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GitError {
    /// `missing-revision` for a revision git does not have, else
    /// `invalid-path`.
    pub code: Code,
    pub message: String,
    pub help: Option<String>,
}

impl GitError {
    fn new(message: impl Into<String>) -> GitError {
        GitError {
            code: Code::InvalidPath,
            message: message.into(),
            help: None,
        }
    }
}

/// `REV:PATH` split at its first `:`, when the text is one: not a URL
/// (`https://`), not a Windows drive (`C:\x`, `C:/x`), and with both
/// parts non-empty.
pub fn split_revision(text: &str) -> Option<(&str, &str)> {
    let (revision, path) = text.split_once(':')?;
    if revision.is_empty() || path.is_empty() || path.starts_with("//") {
        return None;
    }
    let drive = revision.len() == 1
        && revision.chars().all(|c| c.is_ascii_alphabetic())
        && path.starts_with(['\\', '/']);
    (!drive).then_some((revision, path))
}

/// Refuses a revision git could read as an option.
pub fn check_revision(revision: &str) -> Result<(), GitError> {
    if revision.starts_with('-') {
        return Err(GitError::new(format!(
            "`{revision}` is not a revision: it starts with `-`"
        )));
    }
    if revision.is_empty() || revision.contains(['\0', '\n']) {
        return Err(GitError::new(format!("`{revision}` is not a revision")));
    }
    Ok(())
}

/// Runs git in `dir` with `args`; standard output when it exits 0, at
/// most `limit` bytes (more is an error), else its standard error.
fn git(dir: &Path, args: &[&str], limit: usize) -> Result<Result<Vec<u8>, String>, GitError> {
    let mut child = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            GitError::new(format!("could not run git: {e}"))
                .with_help("install git, or give both versions as files")
        })?;
    let mut out = Vec::new();
    let mut err = Vec::new();
    // Read stderr on another thread so neither pipe fills up and blocks.
    let stderr = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut err = Vec::new();
        if let Some(mut stderr) = stderr {
            let _ = stderr.by_ref().take(64 * 1024).read_to_end(&mut err);
        }
        err
    });
    if let Some(stdout) = child.stdout.take() {
        let _ = stdout.take(limit as u64 + 1).read_to_end(&mut out);
    }
    let too_large = out.len() > limit;
    if too_large {
        let _ = child.kill();
    }
    let status = child
        .wait()
        .map_err(|e| GitError::new(format!("git did not finish: {e}")))?;
    err.extend(reader.join().unwrap_or_default());
    if too_large {
        return Err(GitError::new(format!(
            "the file at that revision is larger than agentc reads ({} MiB)",
            limit / (1024 * 1024)
        )));
    }
    if status.success() {
        Ok(Ok(out))
    } else {
        Ok(Err(String::from_utf8_lossy(&err).trim().to_string()))
    }
}

impl GitError {
    fn with_help(mut self, help: impl Into<String>) -> GitError {
        self.help = Some(help.into());
        self
    }
}

/// The `git fetch` that would bring `revision`: `origin/main` is
/// `git fetch origin main`.
fn fetch_hint(revision: &str) -> String {
    let fetch = match revision.split_once('/') {
        Some((remote, branch)) if !remote.is_empty() && !branch.is_empty() => {
            format!("git fetch {remote} {branch}")
        }
        _ => format!("git fetch origin {revision}"),
    };
    format!(
        "agentc never fetches: run `{fetch}` first; in GitHub Actions, check out with `fetch-depth: 0`"
    )
}

/// Checks that `dir` is in a git work tree and `revision` names one of its
/// commits.
pub fn verify(dir: &Path, revision: &str) -> Result<(), GitError> {
    check_revision(revision)?;
    top_level(dir)?;
    let commit = format!("{revision}^{{commit}}");
    match git(
        dir,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &commit,
        ],
        4096,
    )? {
        Ok(_) => Ok(()),
        Err(_) => {
            let mut error = GitError::new(format!(
                "git has no revision `{revision}` in {}",
                shown(dir)
            ))
            .with_help(fetch_hint(revision));
            error.code = Code::MissingRevision;
            Err(error)
        }
    }
}

fn shown(dir: &Path) -> String {
    let text = dir.display().to_string();
    if text.is_empty() || text == "." {
        "the current folder".to_string()
    } else {
        format!("`{text}`")
    }
}

/// The top folder of the work tree `dir` is in.
pub fn top_level(dir: &Path) -> Result<PathBuf, GitError> {
    match git(dir, &["rev-parse", "--show-toplevel"], 64 * 1024)? {
        Ok(out) => {
            let text = String::from_utf8_lossy(&out);
            Ok(PathBuf::from(text.trim_end_matches(['\n', '\r'])))
        }
        Err(message) => Err(GitError::new(format!(
            "{} is not in a git repository ({message})",
            shown(dir)
        ))),
    }
}

/// The file at `path` (relative to the repository's top, `/`-separated)
/// as it was at `revision`, or `None` when it did not exist there. The
/// revision must exist ([`verify`]).
pub fn show(dir: &Path, revision: &str, path: &str) -> Result<Option<Vec<u8>>, GitError> {
    check_revision(revision)?;
    let object = format!("{revision}:{path}");
    if path.contains(['\0', '\n']) {
        return Err(GitError::new(format!("`{path}` is not a path")));
    }
    // `cat-file -e` tells a missing path from other failures.
    if git(dir, &["cat-file", "-e", "--end-of-options", &object], 4096)?.is_err() {
        return Ok(None);
    }
    let kind = git(dir, &["cat-file", "-t", "--end-of-options", &object], 4096)?
        .map(|out| String::from_utf8_lossy(&out).trim().to_string())
        .unwrap_or_default();
    if kind == "tree" && !path.ends_with("/protocol.yaml") {
        // An agent folder: its protocol.
        let protocol = format!("{}/protocol.yaml", path.trim_end_matches('/'));
        return show(dir, revision, &protocol);
    }
    if kind != "blob" {
        return Err(GitError::new(format!("`{object}` is a {kind}, not a file")));
    }
    match git(
        dir,
        &["cat-file", "blob", "--end-of-options", &object],
        MAX_FILE_BYTES,
    )? {
        Ok(bytes) => Ok(Some(bytes)),
        Err(message) => Err(GitError::new(format!(
            "git could not read `{object}`: {message}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_revisions_from_paths() {
        assert_eq!(
            split_revision("origin/main:agents/a/protocol.yaml"),
            Some(("origin/main", "agents/a/protocol.yaml"))
        );
        assert_eq!(
            split_revision("HEAD~1:./protocol.yaml"),
            Some(("HEAD~1", "./protocol.yaml"))
        );
        assert_eq!(split_revision("C:\\agents\\protocol.yaml"), None);
        assert_eq!(split_revision("C:/agents/protocol.yaml"), None);
        assert_eq!(split_revision("https://example.com/p.yaml"), None);
        assert_eq!(split_revision("protocol.yaml"), None);
        assert_eq!(split_revision(":protocol.yaml"), None);
        assert!(check_revision("--output=/tmp/x").is_err());
        assert!(check_revision("main").is_ok());
    }

    #[test]
    fn the_fetch_hint_names_the_remote_and_branch() {
        assert!(fetch_hint("origin/main").contains("`git fetch origin main`"));
        assert!(fetch_hint("v1.2").contains("`git fetch origin v1.2`"));
    }
}
