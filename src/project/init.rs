//! `agentc init FOLDER`: writes the files of a new agent folder
//! ([`crate::init::files`]), never over anything. Nothing is written when
//! any of them has something in its place (a file, a folder, a link,
//! dangling or not), and every one that has is named; each file is then
//! created exclusively ([`disk::create_new`]), so one that appears in the
//! meantime is left as it is too.

use crate::config::absolute;
use crate::diagnostic::{Code, Failure};
use crate::disk;
use crate::init::{self, Template};
use std::path::{Component, Path, PathBuf};

/// What `agentc init` did: the files it wrote, as the user sees them, and
/// why it wrote nothing, or (when something got in the way while it wrote)
/// not everything.
#[derive(Debug, Default)]
pub struct Written {
    pub files: Vec<PathBuf>,
    /// `init-would-overwrite` for each file in the way, `invalid-path` for
    /// a folder that cannot name an agent or a file that could not be
    /// written.
    pub failures: Vec<Failure>,
}

/// Writes a new agent folder of `template` at `folder` (as the user named
/// it; made when missing), named after the folder's last name (that of
/// its absolute path for `.`).
pub fn init(folder: &Path, template: Template) -> Written {
    let folder = match folder.as_os_str().is_empty() {
        true => Path::new("."),
        false => folder,
    };
    let show = |relative: &Path| shown(folder, relative).display().to_string();
    let name = agent_name(folder);
    let files = match init::files(template, &name) {
        Ok(files) => files,
        Err(mut failure) => {
            failure.path = folder.display().to_string();
            return Written {
                files: Vec::new(),
                failures: vec![failure],
            };
        }
    };
    let mut failures: Vec<Failure> = Vec::new();
    let mut seen: Vec<PathBuf> = Vec::new();
    for (relative, _) in &files {
        match disk::in_the_way(folder, relative) {
            Ok(None) => {}
            // A folder on the way of several files is named once.
            Ok(Some((at, _))) if seen.contains(&at) => {}
            Ok(Some((at, what))) => {
                let message = match at == *relative {
                    true => format!("`{}` exists ({what}), so nothing was written", show(&at)),
                    false => format!(
                        "`{}` is {what}, where `agentc init` makes a folder, so nothing was written",
                        show(&at)
                    ),
                };
                failures.push(
                    Failure::new(show(&at), Code::InitWouldOverwrite, message).with_help(
                        "`agentc init` writes only new files: move it away, or give another folder (`agentc init agents/my-agent`)",
                    ),
                );
                seen.push(at);
            }
            Err(error) => failures.push(Failure::new(
                show(relative),
                Code::InvalidPath,
                format!(
                    "`{}` could not be looked at, so nothing was written: {}",
                    show(relative),
                    disk::describe_io(&error)
                ),
            )),
        }
    }
    if !failures.is_empty() {
        return Written {
            files: Vec::new(),
            failures,
        };
    }
    let mut written = Vec::new();
    for (relative, text) in &files {
        match disk::create_new(folder, relative, text.as_bytes()) {
            Ok(()) => written.push(shown(folder, relative)),
            Err(disk::FileError::Io(error))
                if error.kind() == std::io::ErrorKind::AlreadyExists =>
            {
                failures.push(
                    Failure::new(
                        show(relative),
                        Code::InitWouldOverwrite,
                        format!(
                            "`{}` appeared while `agentc init` wrote the folder, and was left as it is",
                            show(relative)
                        ),
                    )
                    .with_help("something else writes into this folder; let it finish, and remove what `agentc init` wrote"),
                );
            }
            Err(error) => failures.push(Failure::new(
                show(relative),
                Code::InvalidPath,
                format!("`{}` could not be written: {error}", show(relative)),
            )),
        }
    }
    Written {
        files: written,
        failures,
    }
}

/// `relative` below `folder`, as the user sees it: below `.`, as it is.
fn shown(folder: &Path, relative: &Path) -> PathBuf {
    if relative.as_os_str().is_empty() {
        folder.to_path_buf()
    } else if folder.as_os_str() == "." {
        relative.to_path_buf()
    } else {
        folder.join(relative)
    }
}

/// The folder's own name: its last part, or for a path that ends in `.`
/// or `..` (or is empty), that of its absolute path, `..` taken back.
fn agent_name(folder: &Path) -> String {
    let name = match folder.components().next_back() {
        Some(Component::Normal(name)) => Some(name.to_os_string()),
        _ => absolute(&Path::new(".").join(folder))
            .file_name()
            .map(|name| name.to_os_string()),
    };
    name.map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_agent_is_named_after_the_folder() {
        assert_eq!(agent_name(Path::new("agents/support-bot")), "support-bot");
        assert_eq!(agent_name(Path::new("support-bot/")), "support-bot");
        let here = absolute(Path::new("."));
        let here_name = here.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(agent_name(Path::new(".")), here_name);
        assert_eq!(agent_name(Path::new("")), here_name);
        let parent = here.parent().unwrap().file_name().unwrap();
        assert_eq!(agent_name(Path::new("..")), parent.to_string_lossy());
        assert_eq!(agent_name(Path::new("x/..")), here_name);
    }
}
