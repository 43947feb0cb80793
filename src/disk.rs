//! Reading files from disk, as a tool that runs on other people's pull
//! requests must: only regular files are opened (never a FIFO, a socket or
//! a device, which could block or never end), a link is followed only when
//! it stays inside the folder being checked, and no read takes more than
//! one byte past [`MAX_FILE_BYTES`] (standard input, [`read_stdin`], is
//! bounded the same way). Whatever stops a read is a
//! [`ReadError`], which becomes a diagnostic at the path as the user sees
//! it (the link, not its target), so the rest of the check goes on.
//!
//! `docs/security.md` lists these rules with the tests behind each.

use crate::diagnostic::{Code, Diagnostic};
use crate::source::MAX_FILE_BYTES;
use crate::span::Span;
use std::fs::File;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// How far a read may reach.
#[derive(Clone, Copy, Debug)]
pub enum Reach<'a> {
    /// The user named this file: links are followed wherever they lead.
    Named,
    /// The file was found in this folder (an agent folder, or a folder
    /// searched for protocols): it is read only when it, with every link on
    /// its way resolved, lies inside the folder. The path is the folder
    /// joined with what listing it found, without following a link to a
    /// folder on the way, as every listing agentc makes is.
    Within(&'a Path),
}

/// Why a file was not read.
#[derive(Debug)]
pub enum ReadError {
    /// A FIFO, socket, device or folder where a file was expected.
    NotAFile { kind: &'static str },
    /// The path resolves, through links, to a file outside the folder
    /// being checked.
    Outside { target: PathBuf },
    /// A link to something that does not exist.
    Dangling { target: PathBuf },
    /// Links that lead to each other without end.
    Loop,
    /// Anything else the system reports (permission denied, say).
    Io(std::io::Error),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::NotAFile { kind } => write!(f, "it is {kind}, not a regular file"),
            ReadError::Outside { target } => write!(
                f,
                "it leads, through a link, to `{}`, outside the folder being checked",
                target.display()
            ),
            ReadError::Dangling { target } => write!(
                f,
                "it is a link to `{}`, which does not exist",
                target.display()
            ),
            ReadError::Loop => f.write_str("it is a link in a loop of links that never ends"),
            ReadError::Io(error) => write!(f, "{}", describe_io(error)),
        }
    }
}

impl From<std::io::Error> for ReadError {
    fn from(error: std::io::Error) -> ReadError {
        if is_loop(&error) {
            ReadError::Loop
        } else {
            ReadError::Io(error)
        }
    }
}

impl ReadError {
    /// The diagnostic for the file `name` (as the user sees the path),
    /// placed at the start of its (empty) text.
    pub fn diagnostic(&self, name: &str) -> Diagnostic {
        let (code, help) = match self {
            ReadError::NotAFile { .. } => (
                Code::NotAFile,
                "agentc opens only regular files; remove it, or replace it with the file it stands for",
            ),
            ReadError::Outside { .. } => (
                Code::LinkOutsideFolder,
                "agentc does not follow links out of the folder it checks, so a pull request cannot make it read (and print) a file elsewhere; copy the file into the folder instead",
            ),
            ReadError::Dangling { .. } | ReadError::Loop => (
                Code::UnreadableFile,
                "point the link at a file that exists, or remove it",
            ),
            ReadError::Io(error) if error.kind() == std::io::ErrorKind::PermissionDenied => (
                Code::UnreadableFile,
                "check the file's permissions; agentc needs to read every file of the agent",
            ),
            ReadError::Io(_) => (
                Code::UnreadableFile,
                "agentc needs to read every file of the agent",
            ),
        };
        Diagnostic::new(
            code,
            Span::empty(0),
            format!("`{name}` was not read: {self}"),
        )
        .with_help(help)
    }
}

/// Reads the file at `path`, as far as `reach` allows: a regular file, at
/// most one byte more than [`MAX_FILE_BYTES`] (so a file past the limit is
/// reported rather than read whole).
pub fn read(path: &Path, reach: Reach) -> Result<Vec<u8>, ReadError> {
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
fn resolve(path: &Path, reach: Reach) -> Result<PathBuf, ReadError> {
    let built_inside = match reach {
        Reach::Named => true,
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
                Ok(target) => ReadError::Dangling { target },
                Err(_) => ReadError::Io(error),
            });
        }
        Err(error) => return Err(error.into()),
    };
    let Reach::Within(folder) = reach else {
        return Ok(real);
    };
    let folder = canonical(folder)?;
    if real.starts_with(&folder) {
        Ok(real)
    } else {
        Err(ReadError::Outside {
            target: std::fs::read_link(path).unwrap_or(real),
        })
    }
}

/// Whether `path` names an entry of any kind (a file, a folder, a link,
/// even a dangling one, a FIFO): what makes a folder an agent folder is
/// that its files are there, whether or not they can be read.
pub fn exists(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// Whether the folder `dir`, with its links resolved, lies inside
/// `folder`: a folder found by a search may be listed only then.
pub fn inside(dir: &Path, folder: &Path) -> Result<bool, ReadError> {
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

fn check_kind(metadata: &std::fs::Metadata) -> Result<(), ReadError> {
    let kind = metadata.file_type();
    if kind.is_file() {
        return Ok(());
    }
    Err(ReadError::NotAFile {
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

fn is_loop(error: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        error.raw_os_error() == Some(libc::ELOOP)
    }
    #[cfg(not(unix))]
    {
        let _ = error;
        false
    }
}

/// An I/O error in words, without the `(os error N)` the system adds.
pub fn describe_io(error: &std::io::Error) -> String {
    let text = error.to_string();
    let text = match text.rfind(" (os error") {
        Some(at) => &text[..at],
        None => &text,
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => text.to_string(),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("agentc-disk-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("agent")).unwrap();
        dir
    }

    #[test]
    fn reads_regular_files_and_links_inside_the_folder() {
        let dir = scratch("inside");
        let agent = dir.join("agent");
        std::fs::write(agent.join("a.md"), "text").unwrap();
        symlink("a.md", agent.join("b.md")).unwrap();
        let within = Reach::Within(&agent);
        assert_eq!(read(&agent.join("a.md"), within).unwrap(), b"text");
        assert_eq!(read(&agent.join("b.md"), within).unwrap(), b"text");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn refuses_links_out_dangling_links_loops_and_fifos() {
        let dir = scratch("refuses");
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
            Err(ReadError::Outside { .. })
        ));
        assert!(matches!(
            read(&agent.join("gone.md"), within),
            Err(ReadError::Dangling { .. })
        ));
        assert!(matches!(
            read(&agent.join("loop1.md"), within),
            Err(ReadError::Loop)
        ));
        assert!(matches!(
            read(&agent, within),
            Err(ReadError::NotAFile { .. })
        ));
        if made.is_ok_and(|s| s.success()) {
            // Named or found, a FIFO is never opened (opening it would
            // wait for a writer).
            for reach in [within, Reach::Named] {
                assert!(matches!(
                    read(&fifo, reach),
                    Err(ReadError::NotAFile {
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
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn io_errors_read_as_words() {
        let error = std::io::Error::from_raw_os_error(libc::EACCES);
        assert_eq!(describe_io(&error), "permission denied");
    }
}
