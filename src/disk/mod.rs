//! Reading files from disk, as a tool that runs on other people's pull
//! requests must: only regular files are opened (never a FIFO, a socket or
//! a device, which could block or never end), a link is followed only when
//! it stays inside the folder being checked, and no read takes more than
//! one byte past [`MAX_FILE_BYTES`] (standard input, [`read_stdin`], is
//! bounded the same way). Whatever stops a read is a
//! [`FileError`], which becomes a diagnostic at the path as the user sees
//! it (the link, not its target), so the rest of the check goes on.
//!
//! `docs/security.md` lists these rules with the tests behind each.
//!
//! This is the disk adapter (the `disk` feature): the one module of the
//! library that reads or writes files, lists folders or asks what a path
//! is. The core reads through [`crate::agent::Files`]; [`Disk`] is that
//! over the files as saved.

mod agent;

pub use crate::files::{FileError, Reach, describe_io};
pub use agent::{Disk, check_agent, check_path, is_agent_folder, load_agent, prompt_names};

use crate::diagnostic::{Code, Diagnostic, Failure};
use crate::source::MAX_FILE_BYTES;
use crate::source::Source;
use std::fs::File;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// Reads the file at `path`, as far as `reach` allows: a regular file, at
/// most one byte more than [`MAX_FILE_BYTES`] (so a file past the limit is
/// reported rather than read whole).
pub fn read(path: &Path, reach: Reach) -> Result<Vec<u8>, FileError> {
    let real = resolve(path, reach)?;
    // Looked at before opening, so a FIFO or a device is never opened.
    let metadata = std::fs::metadata(&real)?;
    check_kind(&metadata)?;
    let file = open(&real)?;
    // And again on what was opened, in case the path changed in between.
    let metadata = file.metadata()?;
    check_kind(&metadata)?;
    let limit = MAX_FILE_BYTES as u64 + 1;
    // Sized from the file's length (as `std::fs::read` does), the buffer
    // becomes the source text without growing past it; the length is only
    // a hint, and the `take` is what bounds the read.
    let expected = metadata.len().min(limit);
    let mut bytes = Vec::with_capacity(usize::try_from(expected).unwrap_or(0) + 1);
    file.take(limit).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The data at `path` (`-`: standard input) as a source, and the reason it
/// cannot be read as text, if any; the failure when it cannot be read at
/// all (`agentc validate`).
pub fn read_data(path: &Path) -> Result<(Source, Option<Diagnostic>), Failure> {
    let (name, bytes) = if path.as_os_str() == "-" {
        match read_stdin() {
            Ok(bytes) => ("<stdin>".to_string(), bytes),
            Err(error) => {
                let message = format!("standard input was not read: {}", describe_io(&error));
                return Err(Failure::new("<stdin>", Code::InvalidPath, message));
            }
        }
    } else {
        match read(path, Reach::Named) {
            Ok(bytes) => (path.display().to_string(), bytes),
            Err(error) => {
                let shown = path.display().to_string();
                let message = format!("`{shown}` was not read: {error}");
                return Err(Failure::new(shown, Code::InvalidPath, message)
                    .with_help("give the path of a JSON file, or `-` to read standard input"));
            }
        }
    };
    // Past the limit nothing was read, so nothing can be validated: a
    // failure to read, as a FIFO is, not a finding in the data.
    if bytes.len() > MAX_FILE_BYTES {
        let limit = MAX_FILE_BYTES / (1024 * 1024);
        let what = match path.as_os_str() == "-" {
            true => "standard input".to_string(),
            false => format!("`{name}`"),
        };
        let message =
            format!("{what} was not read: it is larger than {limit} MiB, the most agentc reads");
        return Err(Failure::new(name, Code::FileTooLarge, message)
            .with_help("split the data into files under the limit and validate each"));
    }
    Ok(crate::source::decode(&name, bytes))
}

/// Reads standard input to its end, bounded as [`read`] is: at most one
/// byte more than [`MAX_FILE_BYTES`], so input past the limit is reported
/// rather than held whole.
pub fn read_stdin() -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let limit = MAX_FILE_BYTES as u64 + 1;
    std::io::stdin()
        .lock()
        .take(limit)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The path to open: `path` with every link resolved, provided (for a file
/// found in a folder) that it lies inside the folder.
///
/// A file found in a folder was found by listing it without following a
/// link to a folder (agent folders and searches never follow one), so only
/// its last component can be a link: when it is not one, the path lies
/// inside by construction, and resolving it, a system call per component,
/// is skipped. That is nearly every file, and it keeps a check's cost what
/// it was before links were looked at.
fn resolve(path: &Path, reach: Reach) -> Result<PathBuf, FileError> {
    let built_inside = match reach {
        Reach::Named => true,
        Reach::Own(folder) => return own(path, folder),
        Reach::Within(folder) => path
            .strip_prefix(folder)
            .is_ok_and(|rest| rest.components().all(|c| matches!(c, Component::Normal(_)))),
    };
    if built_inside && !std::fs::symlink_metadata(path)?.file_type().is_symlink() {
        return Ok(path.to_path_buf());
    }
    let real = match std::fs::canonicalize(path) {
        Ok(real) => real,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            // A link whose target is missing, or a file that went away.
            return Err(match std::fs::read_link(path) {
                Ok(target) => FileError::Dangling { target },
                Err(_) => FileError::Io(error),
            });
        }
        Err(error) => return Err(error.into()),
    };
    let (Reach::Within(folder) | Reach::Own(folder)) = reach else {
        return Ok(real);
    };
    let folder = canonical(folder)?;
    if real.starts_with(&folder) {
        Ok(real)
    } else {
        Err(FileError::Outside {
            target: std::fs::read_link(path).unwrap_or(real),
        })
    }
}

/// A file agentc writes itself: `path` as it is, when it lies directly in
/// `folder` (a real path) and is not a link.
fn own(path: &Path, folder: &Path) -> Result<PathBuf, FileError> {
    if path.parent() != Some(folder) {
        return Err(FileError::Outside {
            target: path.to_path_buf(),
        });
    }
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Err(FileError::Link {
            target: std::fs::read_link(path).unwrap_or_default(),
        }),
        Ok(_) => Ok(path.to_path_buf()),
        Err(error) => Err(error.into()),
    }
}

/// Writes `bytes` to `path` as far as `reach` allows:
/// - [`Reach::Named`]: the path the user named, its links followed (the
///   file written is the one the link leads to);
/// - [`Reach::Own`]: a file agentc generates, directly in the folder, which
///   must be the folder's real path (see [`folder_within`]); a link or a
///   special file at the path is refused, never written through.
///
/// The bytes go to a temporary file created exclusively (`O_EXCL`, so a
/// link or a file planted at its name is never opened) in the real
/// destination folder, which is then renamed over the destination: a
/// reader sees the old file or the new one, never half, and a failed
/// write leaves nothing behind.
pub fn write(path: &Path, bytes: &[u8], reach: Reach) -> Result<(), FileError> {
    write_over(path, None, bytes, reach)
}

/// [`write`] over a file agentc read and changed (a fix): `before` is what
/// it read, and the file is written only if it still holds that, compared
/// just before the new text takes its place ([`FileError::Changed`]
/// otherwise), so an edit made meanwhile is not lost.
pub fn write_if_unchanged(
    path: &Path,
    before: &[u8],
    bytes: &[u8],
    reach: Reach,
) -> Result<(), FileError> {
    write_over(path, Some(before), bytes, reach)
}

fn write_over(
    path: &Path,
    before: Option<&[u8]>,
    bytes: &[u8],
    reach: Reach,
) -> Result<(), FileError> {
    let target = match reach {
        Reach::Own(folder) => match own(path, folder) {
            Err(FileError::Io(error)) if error.kind() == std::io::ErrorKind::NotFound => {
                path.to_path_buf()
            }
            other => other?,
        },
        Reach::Named | Reach::Within(_) => {
            let real = match std::fs::canonicalize(path) {
                Ok(real) => real,
                // A file to create: its folder's real path, and its name.
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                    if let Ok(target) = std::fs::read_link(path) {
                        return Err(FileError::Dangling { target });
                    }
                    let name = path.file_name().ok_or_else(|| {
                        FileError::Io(std::io::Error::other("the path names no file"))
                    })?;
                    canonical(path.parent().unwrap_or(Path::new("")))?.join(name)
                }
                Err(error) => return Err(error.into()),
            };
            if let Reach::Within(folder) = reach
                && !real.starts_with(canonical(folder)?)
            {
                return Err(FileError::Outside {
                    target: std::fs::read_link(path).unwrap_or(real),
                });
            }
            real
        }
    };
    if let Ok(meta) = std::fs::symlink_metadata(&target) {
        check_kind(&meta)?;
    }
    let folder = match target.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    replace(folder, &target, before, bytes)
}

/// Writes `bytes` to `target` through a temporary file in `folder`; with
/// `before`, only if `target` still holds it.
#[cfg(not(target_family = "wasm"))]
fn replace(
    folder: &Path,
    target: &Path,
    before: Option<&[u8]>,
    bytes: &[u8],
) -> Result<(), FileError> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".agentc-").suffix(".tmp");
    // A new file gets what any program's would, 0666 less the umask
    // (0644 under the usual 022), not the temporary file's 0600, which
    // would leave generated code and schemas unreadable to the rest of a
    // team's or a CI job's users.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut temporary = builder.tempfile_in(folder)?;
    std::io::Write::write_all(&mut temporary, bytes)?;
    // A file replaced keeps its permissions, and its owner where the
    // system lets agentc give it (run as root, say in a CI container over
    // a checkout; otherwise it is the user's own file, or stays the user's).
    if let Ok(meta) = std::fs::symlink_metadata(target)
        && meta.is_file()
    {
        temporary.as_file().set_permissions(meta.permissions())?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let _ =
                std::os::unix::fs::fchown(temporary.as_file(), Some(meta.uid()), Some(meta.gid()));
        }
    }
    // As late as can be: what stands between this read and the rename is
    // the system's time for a rename.
    if let Some(before) = before
        && read(target, Reach::Own(folder))? != before
    {
        return Err(FileError::Changed);
    }
    temporary
        .persist(target)
        .map_err(|error| FileError::Io(error.error))?;
    Ok(())
}

/// A browser has no files to write.
#[cfg(target_family = "wasm")]
fn replace(
    _folder: &Path,
    _target: &Path,
    _before: Option<&[u8]>,
    _bytes: &[u8],
) -> Result<(), FileError> {
    Err(FileError::Io(std::io::ErrorKind::Unsupported.into()))
}

/// What stands where the new file `relative` below `folder` would go, if
/// anything: the entry at its path, of any kind (a file, a folder, a link,
/// dangling or not, a FIFO), or one of its folders below `folder` that is
/// not a real folder (a link, even to a folder, or a file), as its path
/// relative to `folder` and what it is (`a file`, ``a link to `x` ``).
/// `folder` itself may be missing, or a link to a folder (the user named
/// it); anything else there stands in the way of everything, as the
/// empty path. For `agentc init`, which writes nothing when anything is
/// in the way; [`create_new`] refuses the same when it writes.
pub fn in_the_way(folder: &Path, relative: &Path) -> std::io::Result<Option<(PathBuf, String)>> {
    match std::fs::metadata(folder) {
        Ok(meta) if meta.is_dir() => {}
        Ok(meta) => {
            return Ok(Some((
                PathBuf::new(),
                describe_kind(&meta.file_type()).into(),
            )));
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            // A dangling link is in the way; a missing folder is made.
            return match std::fs::symlink_metadata(folder) {
                Ok(_) => Ok(Some((PathBuf::new(), describe_entry(folder)))),
                Err(_) => Ok(None),
            };
        }
        Err(error) => return Err(error),
    }
    let mut at = PathBuf::new();
    let parts: Vec<Component> = relative.components().collect();
    for (i, part) in parts.iter().enumerate() {
        let Component::Normal(name) = part else {
            return Err(std::io::Error::other("the path leaves the folder"));
        };
        at.push(name);
        let last = i + 1 == parts.len();
        match std::fs::symlink_metadata(folder.join(&at)) {
            Ok(meta) if !last && meta.is_dir() => {}
            Ok(_) => return Ok(Some((at.clone(), describe_entry(&folder.join(&at))))),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(error),
        }
    }
    Ok(None)
}

/// What the entry at `path` is, in words: `a file`, `a folder`, ``a link
/// to `target` ``.
fn describe_entry(path: &Path) -> String {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => match std::fs::read_link(path) {
            Ok(target) => format!("a link to `{}`", target.display()),
            Err(_) => "a link".to_string(),
        },
        Ok(meta) => describe_kind(&meta.file_type()).to_string(),
        Err(error) => describe_io(&error),
    }
}

/// Creates the file `relative` below `folder` holding `bytes`, never over
/// anything. `folder` is the one the user named, made when missing and
/// followed where its links lead; below it, the missing folders are made
/// and an existing one must be a real folder (a link is refused,
/// [`FileError::Link`], even one that stays inside). The file is created
/// exclusively (`O_EXCL`, and `O_NOFOLLOW`): whatever is at its path, a
/// file, a link (dangling or not) or anything else, even one made by
/// another process an instant before, is left as it is, and the error is
/// an `Io` error of kind `AlreadyExists`.
pub fn create_new(folder: &Path, relative: &Path, bytes: &[u8]) -> Result<(), FileError> {
    std::fs::create_dir_all(folder)?;
    let mut real = folder.to_path_buf();
    let parts: Vec<Component> = relative.components().collect();
    let Some((Component::Normal(name), parents)) = parts.split_last() else {
        return Err(FileError::Io(std::io::Error::other(
            "the path names no file",
        )));
    };
    for part in parents {
        let Component::Normal(part) = part else {
            return Err(FileError::Outside {
                target: relative.to_path_buf(),
            });
        };
        real.push(part);
        if let Err(error) = std::fs::create_dir(&real)
            && error.kind() != std::io::ErrorKind::AlreadyExists
        {
            return Err(error.into());
        }
        // Made now or before, by us or by another process: it must be a
        // real folder, never a link.
        let meta = std::fs::symlink_metadata(&real)?;
        if meta.file_type().is_symlink() {
            return Err(FileError::Link {
                target: std::fs::read_link(&real).unwrap_or_default(),
            });
        }
        if !meta.is_dir() {
            return Err(FileError::NotAFolder {
                kind: describe_kind(&meta.file_type()),
            });
        }
    }
    let mut file = create_exclusive(&real.join(name))?;
    std::io::Write::write_all(&mut file, bytes)?;
    file.sync_all()?;
    Ok(())
}

/// Creates the file at `path`, which must not exist (`O_EXCL`: not even as
/// a dangling link), without following a link (`O_NOFOLLOW`).
#[cfg(unix)]
fn create_exclusive(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)
}

#[cfg(not(unix))]
fn create_exclusive(path: &Path) -> std::io::Result<File> {
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
}

/// The real path of the folder `folder` below `within`, for [`Reach::Own`]:
/// `folder` must be `within` joined with a relative path, and an existing
/// part of it may be a link only when the link stays inside `within`.
/// With `create`, the parts that do not exist are made (never through a
/// link that leads out); without, a missing part is an `Io` error of kind
/// `NotFound`.
pub fn folder_within(folder: &Path, within: &Path, create: bool) -> Result<PathBuf, FileError> {
    let root = canonical(within)?;
    let rest = folder
        .strip_prefix(within)
        .map_err(|_| FileError::Outside {
            target: folder.to_path_buf(),
        })?;
    let mut real = root.clone();
    for part in rest.components() {
        let Component::Normal(name) = part else {
            if part == Component::CurDir {
                continue;
            }
            return Err(FileError::Outside {
                target: folder.to_path_buf(),
            });
        };
        let next = real.join(name);
        match std::fs::symlink_metadata(&next) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let resolved = std::fs::canonicalize(&next)?;
                if !resolved.starts_with(&root) {
                    return Err(FileError::Outside {
                        target: std::fs::read_link(&next).unwrap_or(resolved),
                    });
                }
                real = resolved;
            }
            Ok(meta) if meta.is_dir() => real = next,
            Ok(meta) => {
                return Err(FileError::NotAFolder {
                    kind: describe_kind(&meta.file_type()),
                });
            }
            Err(error) if create && error.kind() == std::io::ErrorKind::NotFound => {
                std::fs::create_dir(&next)?;
                real = next;
            }
            Err(error) => return Err(error.into()),
        }
        // A link inside may lead to a file.
        let meta = std::fs::metadata(&real)?;
        if !meta.is_dir() {
            return Err(FileError::NotAFolder {
                kind: describe_kind(&meta.file_type()),
            });
        }
    }
    Ok(real)
}

/// Whether `path` names an entry of any kind (a file, a folder, a link,
/// even a dangling one, a FIFO): what makes a folder an agent folder is
/// that its files are there, whether or not they can be read.
pub fn exists(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// What `path` itself is (a link, not what it leads to): the error says
/// why it cannot be looked at.
pub fn look(path: &Path) -> std::io::Result<std::fs::Metadata> {
    std::fs::symlink_metadata(path)
}

/// `path` with every link resolved, from the root.
pub fn real_path(path: &Path) -> std::io::Result<PathBuf> {
    std::fs::canonicalize(path)
}

/// The entries of the folder `folder`, in no particular order.
pub fn list(folder: &Path) -> std::io::Result<std::fs::ReadDir> {
    std::fs::read_dir(folder)
}

/// Whether the folder `dir`, with its links resolved, lies inside
/// `folder`: a folder found by a search may be listed only then.
pub fn inside(dir: &Path, folder: &Path) -> Result<bool, FileError> {
    Ok(canonical(dir)?.starts_with(canonical(folder)?))
}

/// A folder with every link resolved; the empty path (the folder of a file
/// named without one, `protocol.yaml`) is the current folder.
fn canonical(folder: &Path) -> std::io::Result<PathBuf> {
    match folder.as_os_str().is_empty() {
        true => std::fs::canonicalize("."),
        false => std::fs::canonicalize(folder),
    }
}

fn check_kind(metadata: &std::fs::Metadata) -> Result<(), FileError> {
    let kind = metadata.file_type();
    if kind.is_file() {
        return Ok(());
    }
    Err(FileError::NotAFile {
        kind: describe_kind(&kind),
    })
}

/// "a FIFO", "a folder": what an entry that is not a regular file is.
fn describe_kind(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else if kind.is_symlink() {
        "a link"
    } else if kind.is_file() {
        "a file"
    } else {
        "a special file"
    }
}

/// Opens a file for reading without blocking (a FIFO put in its place
/// after it was looked at would otherwise wait for a writer) and without
/// following a link in its last component.
#[cfg(unix)]
fn open(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)
}

#[cfg(not(unix))]
fn open(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    /// A fresh folder with an `agent/` folder in it, removed when dropped.
    fn scratch() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("agent")).unwrap();
        dir
    }

    /// A fix is written only over the text it was made from: an edit made
    /// in between is kept, and reported.
    #[test]
    fn a_file_changed_since_it_was_read_is_not_written_over() {
        let scratch = scratch();
        let agent = scratch.path().join("agent");
        let file = agent.join("p.yaml");
        std::fs::write(&file, "edited meanwhile\n").unwrap();
        let own = Reach::Own(&agent);
        let refused = write_if_unchanged(&file, b"as read\n", b"fixed\n", own);
        assert!(matches!(refused, Err(FileError::Changed)), "{refused:?}");
        assert_eq!(std::fs::read(&file).unwrap(), b"edited meanwhile\n");
        // Run as root (as CI containers run), a file of another user's
        // stays that user's.
        // SAFETY: `geteuid` has no preconditions and cannot fail.
        let root = unsafe { libc::geteuid() } == 0;
        if root {
            std::os::unix::fs::chown(&file, Some(65534), Some(65534)).unwrap();
        }
        write_if_unchanged(&file, b"edited meanwhile\n", b"fixed\n", own).unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), b"fixed\n");
        if root {
            use std::os::unix::fs::MetadataExt;
            let meta = std::fs::metadata(&file).unwrap();
            assert_eq!((meta.uid(), meta.gid()), (65534, 65534));
        }
        // One removed meanwhile is not made again.
        std::fs::remove_file(&file).unwrap();
        assert!(write_if_unchanged(&file, b"fixed\n", b"again\n", own).is_err());
        assert!(!file.exists());
        // Nor is a temporary file left behind.
        let left: Vec<_> = std::fs::read_dir(&agent).unwrap().collect();
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn reads_regular_files_and_links_inside_the_folder() {
        let scratch = scratch();
        let agent = scratch.path().join("agent");
        std::fs::write(agent.join("a.md"), "text").unwrap();
        symlink("a.md", agent.join("b.md")).unwrap();
        let within = Reach::Within(&agent);
        assert_eq!(read(&agent.join("a.md"), within).unwrap(), b"text");
        assert_eq!(read(&agent.join("b.md"), within).unwrap(), b"text");
    }

    #[test]
    fn refuses_links_out_dangling_links_loops_and_fifos() {
        let scratch = scratch();
        let dir = scratch.path();
        let agent = dir.join("agent");
        std::fs::write(dir.join("secret"), "secret").unwrap();
        symlink("../secret", agent.join("out.md")).unwrap();
        symlink("/nonexistent/x", agent.join("gone.md")).unwrap();
        symlink("loop2.md", agent.join("loop1.md")).unwrap();
        symlink("loop1.md", agent.join("loop2.md")).unwrap();
        let fifo = agent.join("pipe.md");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        let within = Reach::Within(&agent);
        assert!(matches!(
            read(&agent.join("out.md"), within),
            Err(FileError::Outside { .. })
        ));
        assert!(matches!(
            read(&agent.join("gone.md"), within),
            Err(FileError::Dangling { .. })
        ));
        assert!(matches!(
            read(&agent.join("loop1.md"), within),
            Err(FileError::Loop)
        ));
        assert!(matches!(
            read(&agent, within),
            Err(FileError::NotAFile { .. })
        ));
        if made.is_ok_and(|s| s.success()) {
            // Named or found, a FIFO is never opened (opening it would
            // wait for a writer).
            for reach in [within, Reach::Named] {
                assert!(matches!(
                    read(&fifo, reach),
                    Err(FileError::NotAFile {
                        kind: "a FIFO (named pipe)"
                    })
                ));
            }
        }
        // Named by the user, a link is followed.
        assert_eq!(
            read(&agent.join("out.md"), Reach::Named).unwrap(),
            b"secret"
        );
    }

    #[test]
    fn own_files_are_written_and_read_only_as_regular_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let folder = folder_within(&root.join("web/gen"), &root, true).unwrap();
        assert_eq!(folder, root.join("web/gen"));
        let file = folder.join("a.ts");
        write(&file, b"one", Reach::Own(&folder)).unwrap();
        write(&file, b"two", Reach::Own(&folder)).unwrap();
        assert_eq!(read(&file, Reach::Own(&folder)).unwrap(), b"two");
        // Nothing left beside it.
        assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 1);

        // A link in its place, even to a file inside, is neither read nor
        // written through.
        std::fs::write(root.join("secret"), "secret").unwrap();
        let link = folder.join("b.ts");
        symlink(root.join("secret"), &link).unwrap();
        assert!(matches!(
            read(&link, Reach::Own(&folder)),
            Err(FileError::Link { .. })
        ));
        assert!(matches!(
            write(&link, b"x", Reach::Own(&folder)),
            Err(FileError::Link { .. })
        ));
        assert_eq!(std::fs::read(root.join("secret")).unwrap(), b"secret");
        // Only directly in the folder.
        assert!(matches!(
            write(&root.join("c.ts"), b"x", Reach::Own(&folder)),
            Err(FileError::Outside { .. })
        ));
    }

    #[test]
    fn folders_are_made_and_found_only_inside() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let project = root.join("project");
        std::fs::create_dir_all(project.join("inside")).unwrap();
        std::fs::create_dir_all(root.join("outside")).unwrap();
        symlink("../outside", project.join("out")).unwrap();
        symlink("inside", project.join("in")).unwrap();
        std::fs::write(project.join("file"), "").unwrap();
        for create in [false, true] {
            assert!(matches!(
                folder_within(&project.join("out/gen"), &project, create),
                Err(FileError::Outside { .. })
            ));
            assert!(matches!(
                folder_within(&project.join("../outside"), &project, create),
                Err(FileError::Outside { .. })
            ));
            assert!(matches!(
                folder_within(&project.join("file/gen"), &project, create),
                Err(FileError::NotAFolder { .. })
            ));
        }
        assert!(matches!(
            folder_within(&project.join("new"), &project, false),
            Err(FileError::Io(_))
        ));
        assert_eq!(
            folder_within(&project.join("in/gen"), &project, true).unwrap(),
            project.join("inside/gen")
        );
        assert_eq!(std::fs::read_dir(root.join("outside")).unwrap().count(), 0);
    }

    #[test]
    fn a_named_file_is_written_where_its_link_leads() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("target.json"), "old").unwrap();
        symlink("target.json", root.join("link.json")).unwrap();
        write(&root.join("link.json"), b"new", Reach::Named).unwrap();
        assert_eq!(std::fs::read(root.join("target.json")).unwrap(), b"new");
        assert!(
            std::fs::symlink_metadata(root.join("link.json"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        write(&root.join("fresh.json"), b"x", Reach::Named).unwrap();
        assert_eq!(std::fs::read(root.join("fresh.json")).unwrap(), b"x");
    }

    #[test]
    fn new_files_are_created_only_where_nothing_is() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let agent = root.join("agent");
        std::fs::write(root.join("outside.txt"), "outside").unwrap();
        // The folder and the folders below it are made.
        assert!(
            in_the_way(&agent, Path::new("prompts/a.md"))
                .unwrap()
                .is_none()
        );
        create_new(&agent, Path::new("prompts/a.md"), b"a").unwrap();
        assert_eq!(std::fs::read(agent.join("prompts/a.md")).unwrap(), b"a");

        // Nothing is written over a file, a link to a file outside or a
        // dangling link, and each is in the way.
        symlink(root.join("outside.txt"), agent.join("out.md")).unwrap();
        symlink(root.join("nothing"), agent.join("gone.md")).unwrap();
        for name in ["prompts/a.md", "out.md", "gone.md"] {
            let error = create_new(&agent, Path::new(name), b"new").unwrap_err();
            assert!(
                matches!(&error, FileError::Io(e) if e.kind() == std::io::ErrorKind::AlreadyExists),
                "{name}: {error}"
            );
            let (at, _) = in_the_way(&agent, Path::new(name)).unwrap().unwrap();
            assert_eq!(at, Path::new(name));
        }
        assert_eq!(std::fs::read(agent.join("prompts/a.md")).unwrap(), b"a");
        assert_eq!(std::fs::read(root.join("outside.txt")).unwrap(), b"outside");
        assert!(!root.join("nothing").exists());

        // A folder on the way that is a link, even to a folder inside, is
        // neither gone through nor made.
        std::fs::create_dir(root.join("elsewhere")).unwrap();
        symlink(root.join("elsewhere"), agent.join("linked")).unwrap();
        assert!(matches!(
            create_new(&agent, Path::new("linked/b.md"), b"b"),
            Err(FileError::Link { .. })
        ));
        let (at, what) = in_the_way(&agent, Path::new("linked/b.md"))
            .unwrap()
            .unwrap();
        assert_eq!(at, Path::new("linked"));
        assert!(what.starts_with("a link to `"), "{what}");
        assert_eq!(
            std::fs::read_dir(root.join("elsewhere")).unwrap().count(),
            0
        );
        // A file where a folder goes.
        assert!(matches!(
            create_new(&agent, Path::new("prompts/a.md/c.md"), b"c"),
            Err(FileError::NotAFolder { .. })
        ));
        // The named folder itself may be a link (the user named it).
        symlink(&agent, root.join("named")).unwrap();
        create_new(&root.join("named"), Path::new("d.md"), b"d").unwrap();
        assert_eq!(std::fs::read(agent.join("d.md")).unwrap(), b"d");
    }

    #[test]
    fn io_errors_read_as_words() {
        let error = std::io::Error::from_raw_os_error(libc::EACCES);
        assert_eq!(describe_io(&error), "permission denied");
    }
}
