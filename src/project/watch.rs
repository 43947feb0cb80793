//! Watching folders for the changes that matter to a run
//! ([`crate::watch::relevant`]), and running again once they stop coming
//! (`agentc check --watch`, `agentc gen --watch`; the `watch` feature).
//!
//! Each path given is watched as a folder, recursively: a folder itself; a
//! file or a glob, the nearest folder above it that exists (a file's
//! agent folder, then, with its prompts). A folder, not a file: a protocol
//! deleted and written again (as many editors save) is still seen. The
//! events come from `notify` (inotify, FSEvents, ReadDirectoryChangesW);
//! opening or reading a file is no change, so a run's own reads never
//! start another.

use crate::clock::Instant;
use crate::config::absolute;
use crate::disk;
use notify::event::{AccessKind, AccessMode, MetadataKind, ModifyKind};
use notify::{Event, EventKind, RecursiveMode, Watcher};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// How long a watch waits for no more changes before it runs: an editor
/// that saves by writing a new file and renaming it, or a `git checkout`,
/// makes many events in a few milliseconds.
pub const QUIET: Duration = Duration::from_millis(150);

/// How often a watch looks at its stop flag while nothing happens.
const POLL: Duration = Duration::from_millis(100);

/// The longest a batch waits for a quiet moment: a file written without
/// pause (a log under the folder) delays a run this long, not forever.
const LONGEST: Duration = Duration::from_secs(2);

/// The folders watching `paths` means (the current folder for none): with
/// their links resolved (as the system names what changed), each once,
/// none inside another. A folder is itself; a file, or a path not there
/// yet, its folder; a glob, the folder before its first wildcard. A path
/// whose folder is not there either is an error, not a watch of whatever
/// folder above it exists (the whole disk, for `/no/such/path`).
pub fn folders(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let here = [PathBuf::from(".")];
    let paths = match paths.is_empty() {
        true => &here[..],
        false => paths,
    };
    let mut found = Vec::with_capacity(paths.len());
    for given in paths {
        let path = absolute(given);
        let wild = path.components().position(|c| {
            c.as_os_str()
                .to_string_lossy()
                .contains(['*', '?', '[', '{'])
        });
        let candidates: Vec<&Path> = match wild {
            // The folder before the first wildcard.
            Some(at) => path
                .ancestors()
                .skip(path.components().count() - at)
                .take(1)
                .collect(),
            None => path.ancestors().take(2).collect(),
        };
        let folder = candidates
            .into_iter()
            .find_map(|p| disk::real_path(p).ok().filter(|real| real.is_dir()))
            .ok_or_else(|| {
                format!(
                    "`{}` cannot be watched: neither it nor its folder is there",
                    given.display()
                )
            })?;
        found.push(folder);
    }
    found.sort();
    found.dedup();
    let all = found.clone();
    found.retain(|folder| {
        !all.iter()
            .any(|other| other != folder && folder.starts_with(other))
    });
    Ok(found)
}

/// Watches `paths` ([`folders`]); calls `run` with no change first, then
/// after each batch of relevant changes once none came for `quiet`, with
/// the files changed (absolute, sorted, each once); returns when `stop`
/// is set (it is looked at between runs, at least every 100 ms), or with
/// why the folders could not be watched.
///
/// `run` returns the files it wrote itself (`check --fix`): their changes
/// until the next quiet moment are its own, not a reason to run again, so
/// that fixes that undo each other cannot run a watch for ever.
pub fn watch(
    paths: &[PathBuf],
    quiet: Duration,
    stop: &AtomicBool,
    mut run: impl FnMut(&[PathBuf]) -> Vec<PathBuf>,
) -> Result<(), String> {
    let roots = folders(paths)?;
    let (send, events) = mpsc::channel::<notify::Result<Event>>();
    let mut watcher = notify::recommended_watcher(send)
        .map_err(|error| format!("the folders cannot be watched: {error}"))?;
    for root in &roots {
        watcher
            .watch(root, RecursiveMode::Recursive)
            .map_err(|error| format!("`{}` cannot be watched: {error}", root.display()))?;
    }
    // The folder above each root, alone, so that a root removed, moved
    // away, or made again (a `git checkout` of an agent folder) is seen,
    // and watched again once it is back; of its events, only those about
    // a root are read. Where that folder cannot be watched, a root gone
    // is simply no longer seen, as before.
    let parents: BTreeSet<&Path> = roots.iter().filter_map(|root| root.parent()).collect();
    for parent in parents {
        let _ = watcher.watch(parent, RecursiveMode::NonRecursive);
    }
    let mut pending = Pending::default();
    let written = run(&[]);
    settle(&events, &mut watcher, &roots, &written, quiet, &mut pending);
    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        // Until the quiet moment would be over, looking at `stop` at
        // least every POLL.
        let wait = match pending.since {
            Some(first) => quiet
                .saturating_sub(first.elapsed())
                .clamp(Duration::from_millis(1), POLL),
            None => POLL,
        };
        let quiet_now = match events.recv_timeout(wait) {
            Ok(Ok(event)) => {
                absorb(event, &mut watcher, &roots, &BTreeSet::new(), &mut pending);
                false
            }
            // A watch that went wrong (a folder gone, too many events) is
            // no change; the folders still there are still watched.
            Ok(Err(_)) => false,
            Err(RecvTimeoutError::Timeout) => true,
            Err(RecvTimeoutError::Disconnected) => {
                return Err("the watch stopped".to_string());
            }
        };
        let Some(first) = pending.since else { continue };
        let waited = first.elapsed();
        if (quiet_now && waited >= quiet) || waited >= LONGEST {
            let batch: Vec<PathBuf> = std::mem::take(&mut pending).changed.into_iter().collect();
            if stop.load(Ordering::Relaxed) {
                return Ok(());
            }
            let written = run(&batch);
            settle(&events, &mut watcher, &roots, &written, quiet, &mut pending);
        }
    }
}

/// The changes a run waits for, and when the last relevant one came (a
/// relevant change starts the wait for a quiet moment again).
#[derive(Default)]
struct Pending {
    changed: BTreeSet<PathBuf>,
    since: Option<Instant>,
}

/// After a run that wrote `written`: waits for a quiet moment (at most
/// [`LONGEST`]), dropping the changes to those files and keeping the rest
/// in `pending` for the next run.
fn settle(
    events: &mpsc::Receiver<notify::Result<Event>>,
    watcher: &mut impl Watcher,
    roots: &[PathBuf],
    written: &[PathBuf],
    quiet: Duration,
    pending: &mut Pending,
) {
    if written.is_empty() {
        return;
    }
    let written: BTreeSet<PathBuf> = written.iter().map(|path| real(path)).collect();
    let start = Instant::now();
    while start.elapsed() < LONGEST {
        let Ok(Ok(event)) = events.recv_timeout(quiet) else {
            return;
        };
        absorb(event, watcher, roots, &written, pending);
    }
}

/// Takes the changes of `event` that matter into `pending`, but those to
/// the files in `skip`, and starts its wait again when one is new. A root
/// itself made, removed or moved (seen from the folder above it) is
/// watched again when it is there, and counts as a change; the other
/// events of that folder (about its other entries) are not the run's.
fn absorb(
    event: Event,
    watcher: &mut impl Watcher,
    roots: &[PathBuf],
    skip: &BTreeSet<PathBuf>,
    pending: &mut Pending,
) {
    if !changes(&event.kind) {
        return;
    }
    let changed = &mut pending.changed;
    let before = changed.len();
    let moved = matches!(
        event.kind,
        EventKind::Create(_) | EventKind::Remove(_) | EventKind::Modify(ModifyKind::Name(_))
    );
    for path in event.paths {
        if roots.contains(&path) {
            if moved {
                let _ = watcher.unwatch(&path);
                if path.is_dir() {
                    let _ = watcher.watch(&path, RecursiveMode::Recursive);
                }
                changed.insert(path);
            }
        } else if roots.iter().any(|root| path.starts_with(root))
            && !skip.contains(&path)
            && matters(roots, &path)
        {
            changed.insert(path);
        }
    }
    if changed.len() > before {
        pending.since = Some(Instant::now());
    }
}

/// `path` as the system names it in an event: its folder's links
/// resolved.
fn real(path: &Path) -> PathBuf {
    let path = absolute(path);
    match (path.parent(), path.file_name()) {
        (Some(folder), Some(name)) => disk::real_path(folder)
            .map(|folder| folder.join(name))
            .unwrap_or(path),
        _ => path,
    }
}

/// Whether an event of this kind can change a file's content or presence:
/// not opening or reading one (inotify reports both), nor its access time.
fn changes(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) | EventKind::Other => false,
        EventKind::Modify(ModifyKind::Metadata(MetadataKind::AccessTime)) => false,
        EventKind::Any | EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_) => true,
    }
}

/// Whether a change to `path` matters to a run over `roots`: judged by its
/// path below the root it is under.
fn matters(roots: &[PathBuf], path: &Path) -> bool {
    let relative = roots
        .iter()
        .find_map(|root| path.strip_prefix(root).ok())
        .unwrap_or(path);
    crate::watch::relevant(relative)
}

#[cfg(test)]
mod tests {
    use super::{changes, folders, matters};
    use notify::EventKind;
    use notify::event::{AccessKind, AccessMode, CreateKind, ModifyKind};
    use std::path::{Path, PathBuf};

    #[test]
    fn reading_is_no_change() {
        assert!(!changes(&EventKind::Access(AccessKind::Open(
            AccessMode::Any
        ))));
        assert!(!changes(&EventKind::Access(AccessKind::Close(
            AccessMode::Read
        ))));
        assert!(changes(&EventKind::Access(AccessKind::Close(
            AccessMode::Write
        ))));
        assert!(changes(&EventKind::Create(CreateKind::File)));
        assert!(changes(&EventKind::Modify(ModifyKind::Any)));
    }

    #[test]
    fn a_path_is_judged_below_its_root() {
        // A root inside a `target` folder is watched all the same.
        let roots = [PathBuf::from("/w/target/agents")];
        assert!(matters(
            &roots,
            Path::new("/w/target/agents/a/protocol.yaml")
        ));
        assert!(!matters(&roots, Path::new("/w/target/agents/a/notes.txt")));
    }

    #[test]
    fn a_file_or_glob_is_watched_by_its_folder() {
        let here = [crate::disk::real_path(Path::new(".")).unwrap()];
        let path = |p: &str| PathBuf::from(p);
        assert_eq!(folders(&[path("Cargo.toml")]), Ok(here.to_vec()));
        assert_eq!(folders(&[path("not-yet.yaml")]), Ok(here.to_vec()));
        assert_eq!(
            folders(&[path("src/*/nothing-*.rs")]),
            Ok(vec![here[0].join("src")])
        );
        assert_eq!(folders(&[path("src"), path(".")]), Ok(here.to_vec()));
        assert_eq!(folders(&[]), Ok(here.to_vec()));
        // Never the disk's root, for a path that is not there.
        assert!(folders(&[path("/no/such/folder/protocol.yaml")]).is_err());
        assert!(folders(&[path("no-such/*/protocol.yaml")]).is_err());
    }
}
