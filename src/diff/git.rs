//! Reading a protocol as it was at a git revision, in-process with
//! gitoxide (`gix`): agentc starts no program (not git, not a command a
//! repository's configuration names) and never fetches. A revision is
//! resolved as git resolves it (`origin/main`, `HEAD~1`, `v1.2`, a full or
//! short id), and the file is read from the objects already in the clone:
//! one that is missing (a partial or shallow clone) or corrupt is an
//! error, never a protocol that did not exist.
//!
//! Only the repository's own configuration is read (not the global or
//! system one, and no `include`), which is all that reading objects needs.
//! Without the `git` feature (a build for wasm), every read is an error.

use crate::diagnostic::Code;
use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// Why a version could not be read from git.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GitError {
    /// `missing-revision` for a revision, or an object of it, that is not
    /// in the clone; else `invalid-path`.
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

    #[cfg_attr(
        not(feature = "git"),
        expect(
            dead_code,
            reason = "used by the reading that the `git` feature builds"
        )
    )]
    fn missing(message: impl Into<String>) -> GitError {
        GitError {
            code: Code::MissingRevision,
            ..GitError::new(message)
        }
    }

    fn with_help(mut self, help: impl Into<String>) -> GitError {
        self.help = Some(help.into());
        self
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

/// Refuses a revision that reads as an option (agentc runs no git, but a
/// command it suggests would), and one that is empty or spans lines.
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

/// The `git fetch` that would bring `revision`, from the repository's
/// `remotes`: `origin/main` is `git fetch origin main` when `origin` is
/// one of them; a name without its remote is fetched from the one remote
/// there is, or from `origin`; with no remote there is nothing to fetch,
/// and the name is not in the repository. Each word is quoted for a
/// shell, and a word that starts with `-` comes after `--`, so the command
/// does what it says whatever the revision.
#[cfg_attr(
    not(feature = "git"),
    allow(
        dead_code,
        reason = "used by the reading that the `git` feature builds (and by the unit tests)"
    )
)]
fn fetch_hint(revision: &str, remotes: &[String]) -> String {
    if revision.contains(['~', '^', '@', ':', '{']) {
        // `HEAD~1`, `main^`, `@{upstream}`: the name is there, its
        // history or its configuration is not.
        return "agentc never fetches: fetch the history the revision needs first (`git fetch --unshallow` in a shallow clone); in GitHub Actions, check out with `fetch-depth: 0`".to_string();
    }
    let named = revision
        .split_once('/')
        .filter(|(remote, branch)| !branch.is_empty() && remotes.iter().any(|r| r == remote));
    let words: Vec<&str> = match (named, remotes) {
        (Some((remote, branch)), _) => vec![remote, branch],
        (None, []) => {
            return "this repository has no remote to fetch it from: check the name (`git branch -a`, `git tag`, `git log`)".to_string();
        }
        (None, [only]) => vec![only.as_str(), revision],
        (None, _) if remotes.iter().any(|r| r == "origin") => vec!["origin", revision],
        (None, [first, ..]) => vec![first.as_str(), revision],
    };
    let dashes = if words.iter().any(|w| w.starts_with('-')) {
        " --"
    } else {
        ""
    };
    let words: Vec<Cow<str>> = words
        .into_iter()
        .map(crate::diagnostic::shell_word)
        .collect();
    format!(
        "agentc never fetches: run `git fetch{dashes} {}` first; in GitHub Actions, check out with `fetch-depth: 0`",
        words.join(" ")
    )
}

#[cfg_attr(
    not(feature = "git"),
    expect(
        dead_code,
        reason = "used by the reading that the `git` feature builds"
    )
)]
fn shown(dir: &Path) -> String {
    let text = dir.display().to_string();
    if text.is_empty() || text == "." {
        "the current folder".to_string()
    } else {
        format!("`{text}`")
    }
}

/// `path` of `REV:PATH` as a path from the repository's top folder,
/// `/`-separated, without `.` or empty parts: as in git, one that starts
/// with `./` or `../` starts from `here` (where the current folder is in
/// the work tree, `None` outside one), any other from the top.
pub fn tree_path(path: &str, here: Option<&str>) -> Result<String, GitError> {
    if path.contains(['\0', '\n']) {
        return Err(GitError::new(format!("`{path}` is not a path")));
    }
    let relative = path == "." || path == ".." || path.starts_with("./") || path.starts_with("../");
    let mut parts: Vec<&str> = Vec::new();
    if relative {
        let Some(here) = here else {
            return Err(GitError::new(format!(
                "`{path}` starts from the current folder, which is not in the repository's work tree"
            )));
        };
        parts.extend(here.split('/').filter(|p| !p.is_empty()));
    }
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err(GitError::new(format!("`{path}` is outside the repository")));
                }
            }
            part => parts.push(part),
        }
    }
    Ok(parts.join("/"))
}

/// A revision resolved to its commit's tree.
#[derive(Clone, Debug)]
pub struct Commit {
    /// As the user wrote it.
    revision: String,
    #[cfg(feature = "git")]
    tree: gix::ObjectId,
}

impl Commit {
    pub fn revision(&self) -> &str {
        &self.revision
    }
}

#[cfg(feature = "git")]
pub use with_gix::Repository;
#[cfg(not(feature = "git"))]
pub use without_gix::Repository;

#[cfg(feature = "git")]
mod with_gix {
    use super::{Commit, GitError, fetch_hint, shown};
    use crate::source::MAX_FILE_BYTES;
    use gix::ObjectId;
    use gix::objs::Kind;
    use gix::objs::tree::EntryKind;
    use std::path::{Path, PathBuf};

    /// A git repository, opened to read objects and nothing else.
    pub struct Repository {
        repo: gix::Repository,
        /// Where it was found from, as output names it.
        found_from: PathBuf,
    }

    /// Discovery as git does it, from `dir` up and stopping at
    /// `GIT_CEILING_DIRECTORIES`, but only through a `.git`: a folder that
    /// looks like a bare repository (`HEAD`, `objects/`, `refs/`), which
    /// any checkout can contain, is never taken for one, so a pull request
    /// cannot pose a history of its own as the old version.
    fn discovery() -> gix::discover::upwards::Options<'static> {
        gix::discover::upwards::Options {
            match_ceiling_dir_or_error: false,
            dot_git_only: true,
            ..Default::default()
        }
        .apply_environment()
    }

    fn not_found(error: &gix::discover::upwards::Error) -> bool {
        use gix::discover::upwards::Error as E;
        matches!(
            error,
            E::NoGitRepository { .. }
                | E::NoGitRepositoryWithinCeiling { .. }
                | E::NoGitRepositoryWithinFs { .. }
                | E::NoMatchingCeilingDir
        )
    }

    fn not_a_repository(dir: &Path, error: &gix::discover::upwards::Error) -> GitError {
        if not_found(error) {
            GitError::new(format!("{} is not in a git repository", shown(dir)))
        } else {
            GitError::new(format!(
                "the git repository of {} could not be read: {}",
                shown(dir),
                reason(error)
            ))
        }
    }

    /// The top folder of the work tree `dir` is in.
    pub(super) fn top_level(dir: &Path) -> Result<PathBuf, GitError> {
        let (path, _trust) =
            gix::discover::upwards_opts(dir, discovery()).map_err(|e| not_a_repository(dir, &e))?;
        match path.into_repository_and_work_tree_directories() {
            // A linked work tree's `.git` file, found as `.git`, has the
            // empty path for its folder.
            (_, Some(work_tree)) if work_tree.as_os_str().is_empty() => Ok(PathBuf::from(".")),
            (_, Some(work_tree)) => Ok(work_tree),
            (_, None) => Err(GitError::new(format!(
                "{} is in a bare git repository, which has no work tree",
                shown(dir)
            ))),
        }
    }

    impl Repository {
        /// Opens the repository `dir` is in, reading its own configuration
        /// only: neither the global nor the system one, no `include`, no
        /// environment variable but `GIT_CEILING_DIRECTORIES`. Whoever owns
        /// it, nothing in it is run.
        pub fn discover(dir: &Path) -> Result<Repository, GitError> {
            let isolated = gix::open::Options::isolated();
            let trust_map = gix::sec::trust::Mapping {
                full: isolated.clone(),
                reduced: isolated,
            };
            let repo = gix::ThreadSafeRepository::discover_opts(dir, discovery(), trust_map)
                .map_err(|error| match error {
                    gix::discover::Error::Discover(error) => not_a_repository(dir, &error),
                    gix::discover::Error::Open(error) => GitError::new(format!(
                        "the git repository of {} could not be opened: {}",
                        shown(dir),
                        reason(&error)
                    )),
                })?;
            Ok(Repository {
                repo: repo.to_thread_local(),
                found_from: dir.to_path_buf(),
            })
        }

        /// The top folder of its work tree; `None` for a bare repository.
        pub fn work_tree(&self) -> Option<&Path> {
            self.repo.workdir().map(|top| {
                if top.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    top
                }
            })
        }

        /// The names of the repository's remotes, sorted (read from its
        /// configuration; nothing is run).
        fn remotes(&self) -> Vec<String> {
            self.repo
                .remote_names()
                .into_iter()
                .map(|name| name.to_string())
                .collect()
        }

        /// The commit `revision` names (a tag is followed to its commit).
        pub fn commit(&self, revision: &str) -> Result<Commit, GitError> {
            super::check_revision(revision)?;
            let no_revision = |why: Option<String>| {
                let mut message = format!(
                    "git has no revision `{revision}` in {}",
                    shown(&self.found_from)
                );
                if let Some(why) = why {
                    message.push_str(&format!(" ({why})"));
                }
                GitError::missing(message).with_help(fetch_hint(revision, &self.remotes()))
            };
            let id = match self.repo.rev_parse_single(revision) {
                Ok(id) => id.detach(),
                Err(error) => return Err(no_revision(self.rev_parse_reason(&error))),
            };
            let what = revision;
            let mut id = id;
            // A tag of a tag of ... a commit, to a bounded depth.
            for _ in 0..64 {
                let data = match self.object(id, what)? {
                    Some((Kind::Commit, data)) => {
                        let tree =
                            gix::objs::CommitRefIter::from_bytes(&data, self.repo.object_hash())
                                .tree_id()
                                .map_err(|e| corrupt(what, id, &e))?;
                        return Ok(Commit {
                            revision: revision.to_string(),
                            tree,
                        });
                    }
                    Some((Kind::Tag, data)) => data,
                    Some((kind, _)) => {
                        return Err(GitError::new(format!(
                            "`{revision}` is a {kind}, not a commit"
                        )));
                    }
                    None => {
                        return Err(self.missing_object(what, id, "commit"));
                    }
                };
                id = gix::objs::TagRefIter::from_bytes(&data, self.repo.object_hash())
                    .target_id()
                    .map_err(|e| corrupt(what, id, &e))?;
            }
            Err(GitError::new(format!(
                "`{revision}` is a chain of more than 64 tags"
            )))
        }

        /// Why git has no such revision, when it is not that no name or
        /// id matches (then the revision itself says it).
        fn rev_parse_reason(
            &self,
            error: &gix::revision::spec::parse::single::Error,
        ) -> Option<String> {
            let text = innermost(error);
            let plain = [
                "does not exist",
                "not found",
                "could not be found",
                "not exist",
            ];
            (!plain.iter().any(|p| text.to_lowercase().contains(p))).then_some(text)
        }

        /// The file at `path` (from the repository's top, `/`-separated,
        /// as [`super::tree_path`] gives it) in `commit`: an agent folder's
        /// `protocol.yaml`, `None` when nothing is at that path. Anything
        /// else that is not a file, or cannot be read, is an error. With
        /// its bytes, whether it is the folder's `protocol.yaml`.
        pub fn read(
            &self,
            commit: &Commit,
            path: &str,
        ) -> Result<Option<(Vec<u8>, bool)>, GitError> {
            let named = |path: &str| format!("{}:{path}", commit.revision);
            let Some((kind, id)) = self.entry(commit, path)? else {
                return Ok(None);
            };
            let folder = kind == EntryKind::Tree;
            let (kind, id, path) = if folder {
                let is_protocol = path.rsplit('/').next() == Some("protocol.yaml");
                let protocol = if path.is_empty() {
                    "protocol.yaml".to_string()
                } else {
                    format!("{path}/protocol.yaml")
                };
                match (is_protocol, self.entry(commit, &protocol)?) {
                    (false, Some((kind, id))) => (kind, id, protocol),
                    (false, None) => {
                        return Err(GitError::new(format!(
                            "`{}` is a folder without `protocol.yaml`",
                            named(path)
                        )));
                    }
                    (true, _) => (kind, id, path.to_string()),
                }
            } else {
                (kind, id, path.to_string())
            };
            let what = named(&path);
            match kind {
                EntryKind::Blob | EntryKind::BlobExecutable => {}
                EntryKind::Tree => {
                    return Err(GitError::new(format!("`{what}` is a folder, not a file")));
                }
                EntryKind::Link => {
                    return Err(GitError::new(format!(
                        "`{what}` is a symbolic link: agentc reads only files from git"
                    )));
                }
                EntryKind::Commit => {
                    return Err(GitError::new(format!(
                        "`{what}` is a submodule, not a file"
                    )));
                }
            }
            match self.object(id, &what)? {
                Some((Kind::Blob, data)) => Ok(Some((data, folder))),
                Some((kind, _)) => Err(GitError::new(format!(
                    "`{what}` is a {kind} in the object database where its folder says a file (object {id})"
                ))),
                None => Err(self.missing_object(&what, id, "file")),
            }
        }

        /// The kind and id of what is at `path` in `commit`'s tree.
        fn entry(
            &self,
            commit: &Commit,
            path: &str,
        ) -> Result<Option<(EntryKind, ObjectId)>, GitError> {
            let mut current = (EntryKind::Tree, commit.tree);
            let mut walked = String::new();
            for name in path.split('/').filter(|p| !p.is_empty()) {
                if current.0 != EntryKind::Tree {
                    // A file where a folder would be: nothing is there.
                    return Ok(None);
                }
                let what = format!("{}:{walked}", commit.revision);
                let data = match self.object(current.1, &what)? {
                    Some((Kind::Tree, data)) => data,
                    Some((kind, _)) => {
                        return Err(GitError::new(format!(
                            "`{what}` is a {kind} in the object database where a folder is expected (object {})",
                            current.1
                        )));
                    }
                    None => return Err(self.missing_object(&what, current.1, "folder")),
                };
                let tree = gix::objs::TreeRef::from_bytes(&data, self.repo.object_hash())
                    .map_err(|e| corrupt(&what, current.1, &e))?;
                let Some(entry) = tree.entries.iter().find(|e| e.filename == name.as_bytes())
                else {
                    return Ok(None);
                };
                current = (entry.mode.kind(), entry.oid.to_owned());
                if !walked.is_empty() {
                    walked.push('/');
                }
                walked.push_str(name);
            }
            Ok(Some(current))
        }

        /// The object `id`, checked against its id; `None` when the clone
        /// does not have it. One over agentc's size limit is an error
        /// before it is read.
        fn object(&self, id: ObjectId, what: &str) -> Result<Option<(Kind, Vec<u8>)>, GitError> {
            let unreadable = |e: &dyn std::error::Error| {
                GitError::new(format!(
                    "`{what}` could not be read from git (object {id}): {}",
                    reason(e)
                ))
                .with_help("`git fsck` lists what is damaged; a fresh clone repairs it")
            };
            let Some(header) = self.repo.try_find_header(id).map_err(|e| unreadable(&e))? else {
                return Ok(None);
            };
            if header.size() > MAX_FILE_BYTES as u64 {
                return Err(GitError::new(format!(
                    "`{what}` is larger than agentc reads ({} MiB)",
                    MAX_FILE_BYTES / (1024 * 1024)
                )));
            }
            let Some(object) = self.repo.try_find_object(id).map_err(|e| unreadable(&e))? else {
                return Ok(None);
            };
            let kind = object.kind;
            let data = object.detach().data;
            match gix::objs::compute_hash(self.repo.object_hash(), kind, &data) {
                Ok(actual) if actual == id => Ok(Some((kind, data))),
                _ => Err(GitError::new(format!(
                    "`{what}` is corrupt in the git repository: object {id} does not hold what its id says"
                ))
                .with_help("`git fsck` lists what is damaged; a fresh clone repairs it")),
            }
        }

        /// An object the clone does not have: a partial clone (`--filter`)
        /// leaves out old files, a shallow one old commits, and agentc
        /// never fetches.
        fn missing_object(&self, what: &str, id: ObjectId, kind: &str) -> GitError {
            let help = if self.is_partial() {
                format!(
                    "agentc never fetches, and this is a partial clone (`--filter`), which leaves out old versions until git reads them: run `git cat-file -e {}` first, or clone without `--filter`",
                    crate::diagnostic::shell_word(what)
                )
            } else if self.repo.is_shallow() {
                "agentc never fetches, and this is a shallow clone: fetch the history first (`git fetch --unshallow`; in GitHub Actions, check out with `fetch-depth: 0`)".to_string()
            } else {
                "the repository lacks an object it refers to: `git fsck` lists what is missing"
                    .to_string()
            };
            GitError::missing(format!(
                "`{what}` is not in this clone: its {kind} (object {id}) is missing"
            ))
            .with_help(help)
        }

        /// Whether objects may be missing by design: a promisor remote, as
        /// `git clone --filter` sets up.
        fn is_partial(&self) -> bool {
            let config = self.repo.config_snapshot();
            let file = config.plumbing();
            file.string("extensions.partialClone").is_some()
                || file
                    .sections_by_name("remote")
                    .into_iter()
                    .flatten()
                    .any(|section| {
                        section
                            .value("promisor")
                            .and_then(|value| gix::config::Boolean::try_from(value).ok())
                            .is_some_and(|promisor| promisor.0)
                    })
        }
    }

    /// The text of an error and of its sources, once each.
    fn reason(error: &dyn std::error::Error) -> String {
        let mut parts: Vec<String> = vec![error.to_string()];
        let mut next = error.source();
        while let Some(error) = next {
            let text = error.to_string();
            if !text.is_empty() && !parts.iter().any(|p| p.contains(&text)) {
                parts.push(text);
            }
            next = error.source();
        }
        parts.join(": ")
    }

    /// The text of the innermost source of an error: the one that names
    /// the cause, without the layers that name the steps.
    fn innermost(error: &dyn std::error::Error) -> String {
        let mut text = error.to_string();
        let mut next = error.source();
        while let Some(error) = next {
            let inner = error.to_string();
            if !inner.is_empty() {
                text = inner;
            }
            next = error.source();
        }
        text
    }

    fn corrupt(what: &str, id: ObjectId, error: &dyn std::error::Error) -> GitError {
        GitError::new(format!(
            "`{what}` is corrupt in the git repository (object {id}): {}",
            reason(error)
        ))
        .with_help("`git fsck` lists what is damaged; a fresh clone repairs it")
    }
}

#[cfg(not(feature = "git"))]
mod without_gix {
    use super::{Commit, GitError};
    use std::path::{Path, PathBuf};

    fn unsupported() -> GitError {
        GitError::new("this agentc was built without git support (the `git` feature)")
            .with_help("give both versions as files, or use an agentc built with the `git` feature")
    }

    pub(super) fn top_level(_dir: &Path) -> Result<PathBuf, GitError> {
        Err(unsupported())
    }

    /// Without the `git` feature: every read is an error.
    pub struct Repository(());

    impl Repository {
        pub fn discover(_dir: &Path) -> Result<Repository, GitError> {
            Err(unsupported())
        }

        pub fn work_tree(&self) -> Option<&Path> {
            None
        }

        pub fn commit(&self, _revision: &str) -> Result<Commit, GitError> {
            Err(unsupported())
        }

        pub fn read(
            &self,
            _commit: &Commit,
            _path: &str,
        ) -> Result<Option<(Vec<u8>, bool)>, GitError> {
            Err(unsupported())
        }
    }
}

/// The top folder of the work tree `dir` is in.
pub fn top_level(dir: &Path) -> Result<PathBuf, GitError> {
    #[cfg(feature = "git")]
    return with_gix::top_level(dir);
    #[cfg(not(feature = "git"))]
    return without_gix::top_level(dir);
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
        let origin = ["origin".to_string()];
        let fetch_hint = |revision: &str| fetch_hint(revision, &origin);
        assert!(fetch_hint("origin/main").contains("`git fetch origin main`"));
        assert!(fetch_hint("v1.2").contains("`git fetch origin v1.2`"));
        assert!(fetch_hint("HEAD~1").contains("`git fetch --unshallow`"));
    }

    /// The remote is one the repository has: a first word that names none
    /// is part of the branch's name, and with no remote nothing is fetched.
    #[test]
    fn the_fetch_hint_names_a_remote_the_repository_has() {
        let remotes = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        assert!(
            fetch_hint("feature/x", &remotes(&["origin"])).contains("`git fetch origin feature/x`")
        );
        assert!(
            fetch_hint("upstream/main", &remotes(&["origin", "upstream"]))
                .contains("`git fetch upstream main`")
        );
        assert!(fetch_hint("main", &remotes(&["fork"])).contains("`git fetch fork main`"));
        assert!(fetch_hint("nope", &[]).contains("has no remote"));
    }

    #[test]
    fn the_fetch_hint_quotes_what_a_shell_would_read() {
        let remotes = ["origin".to_string(), "my remote".to_string()];
        let fetch_hint = |revision: &str| fetch_hint(revision, &remotes);
        assert!(fetch_hint("main;rm -rf $HOME").contains("`git fetch origin 'main;rm -rf $HOME'`"));
        assert!(fetch_hint("it's").contains(r"`git fetch origin 'it'\''s'`"));
        assert!(
            fetch_hint("my remote/$(touch x)").contains("`git fetch 'my remote' '$(touch x)'`")
        );
        assert!(fetch_hint("origin/a`b").contains("`git fetch origin 'a`b'`"));
        // A branch that reads as an option comes after `--`.
        assert!(fetch_hint("origin/-x").contains("`git fetch -- origin -x`"));
        assert!(
            fetch_hint("origin/--upload-pack=x").contains("`git fetch -- origin --upload-pack=x`")
        );
    }

    #[test]
    fn paths_are_from_the_top_or_from_here() {
        assert_eq!(tree_path("agents/shop", None).as_deref(), Ok("agents/shop"));
        assert_eq!(
            tree_path("agents//shop/", None).as_deref(),
            Ok("agents/shop")
        );
        assert_eq!(
            tree_path("./shop", Some("agents")).as_deref(),
            Ok("agents/shop")
        );
        assert_eq!(
            tree_path("../x", Some("agents/shop")).as_deref(),
            Ok("agents/x")
        );
        assert_eq!(tree_path("./", Some("")).as_deref(), Ok(""));
        assert_eq!(tree_path(".", Some("agents")).as_deref(), Ok("agents"));
        // Not from here unless it says so.
        assert_eq!(tree_path("shop", Some("agents")).as_deref(), Ok("shop"));
        assert!(tree_path("../x", Some("")).is_err());
        assert!(tree_path("./x", None).is_err());
        assert!(tree_path("a/../../x", None).is_err());
    }
}
