//! An agent folder on disk: whether a folder is one, which files make it
//! up (listed without following a link out of it), and reading them
//! ([`Disk`], the [`agent::Files`] of the files as saved).

use super::{exists, inside, read};
use crate::FileReport;
use crate::agent::{self, AgentFiles, File, Files, Named, Skill, ordinary_folder};
use crate::files::{FileError, Reach};
use std::path::{Path, PathBuf};

/// The files as saved.
pub struct Disk;

impl Files for Disk {
    fn read(&self, path: &Path, reach: Reach) -> Result<Vec<u8>, FileError> {
        read(path, reach)
    }

    fn agent_folder(&self, dir: &Path, reader: &dyn Files) -> Option<AgentFiles> {
        is_agent_folder(dir).then(|| load_with(dir, reader))
    }
}

/// Whether `dir` is an agent folder: `protocol.yaml` with `settings.json`,
/// or with a `prompts/`, `references/` or `skills/` folder, beside it. The
/// settings may be missing (`missing-settings`, an error) or be a file that
/// cannot be read (a dangling link, a FIFO): the folder is still an
/// agent's, and the check says what is wrong. A `protocol.yaml` with none
/// of these beside it is a lone protocol.
pub fn is_agent_folder(dir: &Path) -> bool {
    exists(&dir.join("protocol.yaml"))
        && (exists(&dir.join("settings.json"))
            || agent::AGENT_FOLDERS
                .iter()
                .any(|sub| dir.join(sub).is_dir()))
}

/// Checks a protocol file: one named `protocol.yaml` in an agent folder
/// with its folder's settings, prompts, references and skills (with
/// `missing-settings` when the folder has no `settings.json`); any other
/// alone.
/// `reach` is how far reading the protocol itself may go; the files of an
/// agent folder are always read within it. A file that cannot be read is
/// a diagnostic of its own; the rest is checked as usual.
pub fn check_path(file: &Path, reach: Reach) -> Vec<FileReport> {
    check_agent(file, reach).into_reports()
}

/// [`check_path`], keeping the protocol's report apart from the others and
/// what `settings.json` says, for a caller that describes the agent
/// (`agentc emit --target aap --meta`).
pub fn check_agent(file: &Path, reach: Reach) -> agent::Checked {
    agent::check_in(&Disk, file, reach)
}

/// Reads an agent folder. File names in diagnostics are `dir` joined with
/// the file's path, as the user wrote `dir`.
pub fn load_agent(dir: &Path) -> AgentFiles {
    load_with(dir, &Disk)
}

fn load_with(dir: &Path, files: &dyn Files) -> AgentFiles {
    let within = Reach::Within(dir);
    let mut unlisted = Vec::new();
    AgentFiles {
        protocol: File::read(&dir.join("protocol.yaml"), within, files),
        settings: {
            let path = dir.join("settings.json");
            exists(&path).then(|| File::read(&path, within, files))
        },
        prompts: markdown_files(dir, "prompts", true, files, &mut unlisted),
        references: markdown_files(dir, "references", false, files, &mut unlisted),
        skills: skill_folders(dir, files, &mut unlisted),
        unlisted,
    }
}

/// The `.md` files under the agent folder `dir`'s `sub` folder (recursively
/// when `nested`), sorted by name; none when the folder does not exist.
/// What cannot be listed goes to `unlisted`.
fn markdown_files(
    dir: &Path,
    sub: &str,
    nested: bool,
    files: &dyn Files,
    unlisted: &mut Vec<File>,
) -> Vec<Named> {
    let folder = dir.join(sub);
    let (found, problems) = markdown_names(dir, &folder, nested);
    unlisted.extend(problems);
    found
        .into_iter()
        .map(|(name, path)| Named {
            name,
            file: File::read(&path, Reach::Within(dir), files),
        })
        .collect()
}

/// The skill folders under the agent folder `dir`'s `skills/`, sorted by
/// name: its ordinary subfolders, and links to folders inside `dir`; a link
/// that leads out of `dir` is reported instead. Files directly in
/// `skills/` are not skills. What cannot be listed goes to `unlisted`.
fn skill_folders(dir: &Path, files: &dyn Files, unlisted: &mut Vec<File>) -> Vec<Skill> {
    let folder = dir.join("skills");
    if !folder.is_dir() {
        return Vec::new();
    }
    let outside = |path: &Path| {
        File::unread(
            &path.display().to_string(),
            &FileError::Outside {
                target: std::fs::read_link(path).unwrap_or_else(|_| path.to_path_buf()),
            },
        )
    };
    match inside(&folder, dir) {
        Ok(true) => {}
        Ok(false) => {
            unlisted.push(outside(&folder));
            return Vec::new();
        }
        Err(error) => {
            unlisted.push(File::unread(&folder.display().to_string(), &error));
            return Vec::new();
        }
    }
    let entries = match std::fs::read_dir(&folder) {
        Ok(entries) => entries,
        Err(error) => {
            unlisted.push(File::unread(&folder.display().to_string(), &error.into()));
            return Vec::new();
        }
    };
    let mut found = Vec::new();
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(error) => {
                unlisted.push(File::unread(&folder.display().to_string(), &error.into()));
                continue;
            }
        };
        let path = entry.path();
        let kind = entry.file_type().ok();
        if kind.is_some_and(|k| k.is_dir()) {
            if ordinary_folder(&path) {
                found.push(path);
            }
        } else if kind.is_some_and(|k| k.is_symlink()) && path.is_dir() {
            if matches!(inside(&path, dir), Ok(true)) {
                found.push(path);
            } else {
                unlisted.push(outside(&path));
            }
        }
    }
    found.sort();
    found
        .into_iter()
        .map(|path| {
            let skill = path.join("SKILL.md");
            let env = path.join(".env");
            let name = skill.display().to_string();
            Skill {
                skill: if exists(&skill) {
                    File::read(&skill, Reach::Within(dir), files)
                } else {
                    Skill::without_skill_file(&name)
                },
                env: exists(&env).then(|| File::read(&env, Reach::Within(dir), files)),
            }
        })
        .collect()
}

/// The names of the prompts of the agent folder `dir`, sorted; none when
/// they cannot be listed.
pub fn prompt_names(dir: &Path) -> Vec<String> {
    let (found, _) = markdown_names(dir, &dir.join("prompts"), true);
    found.into_iter().map(|(name, _)| name).collect()
}

/// The `.md` entries under `folder` (a folder of the agent folder `dir`)
/// with their names, sorted by name; and a file for each folder that could
/// not be listed, with the reason. A folder that leads out of `dir` through
/// a link is not listed.
fn markdown_names(dir: &Path, folder: &Path, nested: bool) -> (Vec<(String, PathBuf)>, Vec<File>) {
    let mut found = Vec::new();
    let mut problems = Vec::new();
    if !folder.is_dir() {
        return (found, problems);
    }
    let listed = match inside(folder, dir) {
        Ok(true) => markdown_below(dir, folder, nested),
        Ok(false) => Err(FileError::Outside {
            target: std::fs::read_link(folder).unwrap_or_else(|_| folder.to_path_buf()),
        }),
        Err(error) => Err(error),
    };
    let (paths, unreadable) = match listed {
        Ok(listed) => listed,
        Err(error) => (Vec::new(), vec![(folder.to_path_buf(), error)]),
    };
    for (path, error) in unreadable {
        problems.push(File::unread(&path.display().to_string(), &error));
    }
    for path in paths {
        let Ok(relative) = path.strip_prefix(folder) else {
            continue;
        };
        let name = agent::name_below(relative);
        found.push((name, path));
    }
    found.sort();
    (found, problems)
}

/// What [`markdown_below`] found: the entries, and what it could not list
/// or would not follow, with why.
type Listing = (Vec<PathBuf>, Vec<(PathBuf, FileError)>);

/// The `.md` entries below `folder` of the agent folder `dir` (files, and
/// links and other entries that are not folders: reading them decides what
/// they are), in no particular order; with `nested`, in its ordinary
/// subfolders too. A link to a folder is not followed (one to a folder
/// above would never end); one that leads out of `dir` is reported, as a
/// file that does would be. A subfolder that cannot be listed is reported
/// and the rest listed; `folder` itself that cannot is the error.
fn markdown_below(dir: &Path, folder: &Path, nested: bool) -> Result<Listing, FileError> {
    let mut found = Vec::new();
    let mut problems = Vec::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(current) = pending.pop() {
        let entries = match std::fs::read_dir(&current) {
            Ok(entries) => entries,
            Err(error) if current == folder => return Err(error.into()),
            Err(error) => {
                problems.push((current, error.into()));
                continue;
            }
        };
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(error) => {
                    problems.push((current.clone(), error.into()));
                    continue;
                }
            };
            let path = entry.path();
            let is_markdown = path.extension().is_some_and(|e| e == "md");
            // The entry itself, not what a link leads to.
            let kind = entry.file_type().ok();
            if kind.is_some_and(|k| k.is_dir()) {
                if nested && ordinary_folder(&path) {
                    pending.push(path);
                }
            } else if kind.is_some_and(|k| k.is_symlink()) && path.is_dir() {
                if !matches!(inside(&path, dir), Ok(true)) {
                    let target = std::fs::read_link(&path).unwrap_or_default();
                    problems.push((path, FileError::Outside { target }));
                }
            } else if is_markdown {
                found.push(path);
            }
        }
    }
    Ok((found, problems))
}
