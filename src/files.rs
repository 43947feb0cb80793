//! Where a file is read from, and why it could not be: how far a read may
//! reach ([`Reach`]) and what stops it ([`FileError`], which becomes a
//! diagnostic at the path as the user sees it). The reading itself is an
//! adapter's: the disk (`disk`, the `disk` feature), or files held
//! in memory ([`crate::Workspace`]).

use crate::diagnostic::{Code, Diagnostic};
use crate::span::Span;
use std::path::{Path, PathBuf};

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
    /// A file agentc writes itself (generated code) in this folder, which
    /// must be the folder's real path: read or written only as the regular
    /// file at that very path, never through a link, wherever it leads.
    Own(&'a Path),
}

/// Why a file was not read or written.
#[derive(Debug)]
pub enum FileError {
    /// A FIFO, socket, device or folder where a file was expected.
    NotAFile { kind: &'static str },
    /// A file or a special file where a folder was expected.
    NotAFolder { kind: &'static str },
    /// The path resolves, through links, to a file outside the folder
    /// being checked.
    Outside { target: PathBuf },
    /// A link to something that does not exist.
    Dangling { target: PathBuf },
    /// Links that lead to each other without end.
    Loop,
    /// A link where agentc reads or writes only its own regular file
    /// ([`Reach::Own`]).
    Link { target: PathBuf },
    /// The file is no longer what agentc read and changed: someone else
    /// wrote it in between, and writing over it would lose that.
    Changed,
    /// Anything else the system reports (permission denied, say).
    Io(std::io::Error),
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileError::NotAFile { kind } => write!(f, "it is {kind}, not a regular file"),
            FileError::NotAFolder { kind } => write!(f, "it is {kind}, not a folder"),
            FileError::Outside { target } => write!(
                f,
                "it leads, through a link, to `{}`, outside the folder being checked",
                target.display()
            ),
            FileError::Dangling { target } => write!(
                f,
                "it is a link to `{}`, which does not exist",
                target.display()
            ),
            FileError::Loop => f.write_str("it is a link in a loop of links that never ends"),
            FileError::Link { target } => write!(
                f,
                "it is a link (to `{}`), and agentc reads and writes the files it generates only as regular files, never through a link",
                target.display()
            ),
            FileError::Changed => f.write_str(
                "it changed on disk after agentc read it, and writing over it would lose that change",
            ),
            FileError::Io(error) => write!(f, "{}", describe_io(error)),
        }
    }
}

impl From<std::io::Error> for FileError {
    fn from(error: std::io::Error) -> FileError {
        if is_loop(&error) {
            FileError::Loop
        } else {
            FileError::Io(error)
        }
    }
}

impl FileError {
    /// The diagnostic for the file `name` (as the user sees the path),
    /// placed at the start of its (empty) text.
    pub fn diagnostic(&self, name: &str) -> Diagnostic {
        let (code, help) = match self {
            FileError::NotAFile { .. } | FileError::NotAFolder { .. } => (
                Code::NotAFile,
                "agentc opens only regular files; remove it, or replace it with the file it stands for",
            ),
            FileError::Outside { .. } => (
                Code::LinkOutsideFolder,
                "agentc does not follow links out of the folder it checks, so a pull request cannot make it read (and print) a file elsewhere; copy the file into the folder instead",
            ),
            FileError::Link { .. } => (
                Code::LinkOutsideFolder,
                "replace the link with the file itself",
            ),
            FileError::Dangling { .. } | FileError::Loop => (
                Code::UnreadableFile,
                "point the link at a file that exists, or remove it",
            ),
            FileError::Changed => (
                Code::UnreadableFile,
                "run agentc again on the file as it is now",
            ),
            FileError::Io(error) if error.kind() == std::io::ErrorKind::PermissionDenied => (
                Code::UnreadableFile,
                "check the file's permissions; agentc needs to read every file of the agent",
            ),
            FileError::Io(_) => (
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
