//! Agent folders: `protocol.yaml` with `settings.json`, `prompts/` and
//! `references/` beside it. The protocol is compiled as a lone file would
//! be; then the files around it are checked against it: the settings, every
//! prompt it names (and the prompts those include), every reference.
//!
//! Each file gets its own [`Compilation`], so every diagnostic points into
//! the file it is about. Loading from disk ([`load`]) is separate from
//! checking ([`check`]), which works on text, as an editor has it.

mod prompts;
mod references;
mod settings;
pub mod template;

use crate::diagnostic::Diagnostic;
use crate::source::{self, MAX_FILE_BYTES, Source};
use crate::{Compilation, Timings, compile_source};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A file of the agent folder, decoded; `problem` says why its text could
/// not be read (too large, not UTF-8), in which case the text is empty.
pub struct File {
    pub source: Source,
    pub problem: Option<Diagnostic>,
}

impl File {
    pub fn new(name: &str, bytes: impl Into<Vec<u8>>) -> File {
        let (source, problem) = source::decode(name, bytes);
        File { source, problem }
    }
}

/// A named file under `prompts/` or `references/`: `name` is its path
/// relative to that folder without `.md` (`shared/company-info`).
pub struct Named {
    pub name: String,
    pub file: File,
}

/// The files of one agent folder.
pub struct AgentFiles {
    pub protocol: File,
    pub settings: File,
    /// Sorted by name.
    pub prompts: Vec<Named>,
    /// Sorted by name.
    pub references: Vec<Named>,
}

/// Whether `dir` is an agent folder: `protocol.yaml` with `settings.json`
/// beside it.
pub fn is_agent_folder(dir: &Path) -> bool {
    dir.join("protocol.yaml").is_file() && dir.join("settings.json").is_file()
}

/// Whether `dir` looks like an agent folder that lacks its `settings.json`:
/// it has `protocol.yaml` and a `prompts/` or `references/` folder.
fn lacks_settings(dir: &Path) -> bool {
    dir.join("protocol.yaml").is_file()
        && !dir.join("settings.json").exists()
        && (dir.join("prompts").is_dir() || dir.join("references").is_dir())
}

/// Checks a protocol file: one named `protocol.yaml` in an agent folder
/// with its folder's settings, prompts and references; any other alone
/// (with `missing-settings` when it looks like an agent that lacks them).
pub fn check_path(file: &Path) -> std::io::Result<Vec<Compilation>> {
    check_path_with(file, &Disk)
}

/// Where the files of an agent folder are read from: the disk, or an
/// editor's buffers, which may hold text not yet saved.
pub trait Files {
    /// The file's bytes, at most one more than [`MAX_FILE_BYTES`].
    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>>;
}

/// The files as saved.
pub struct Disk;

impl Files for Disk {
    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        read(path)
    }
}

/// [`check_path`], reading through `files`. Which files make up the folder
/// is still decided by what is on disk.
pub fn check_path_with(file: &Path, files: &dyn Files) -> std::io::Result<Vec<Compilation>> {
    let dir = file.parent().unwrap_or(Path::new(""));
    let is_protocol = file.file_name().is_some_and(|n| n == "protocol.yaml");
    let started = Instant::now();
    if is_protocol && is_agent_folder(dir) {
        let loaded = load_with(dir, files)?;
        let read = started.elapsed();
        let mut checked = check(loaded);
        if let Some(protocol) = checked.first_mut() {
            protocol.timings.read += read;
        }
        return Ok(checked);
    }
    let bytes = files.read(file)?;
    let read = started.elapsed();
    let mut compilation = crate::compile(&file.display().to_string(), bytes);
    compilation.timings.read += read;
    if is_protocol && lacks_settings(dir) {
        compilation.diagnostics.insert(0, missing_settings());
    }
    Ok(vec![compilation])
}

/// The warning for a protocol beside `prompts/` or `references/` but no
/// `settings.json`: the folder is checked as a lone protocol.
fn missing_settings() -> Diagnostic {
    Diagnostic::new(
        crate::Code::MissingSettings,
        crate::Span::empty(0),
        "this agent folder has no `settings.json`",
    )
    .with_help("add `settings.json` with `slug`, `name` and `format`; until then the prompts and references are not checked")
}

/// Reads an agent folder. File names in diagnostics are `dir` joined with
/// the file's path, as the user wrote `dir`.
pub fn load(dir: &Path) -> std::io::Result<AgentFiles> {
    load_with(dir, &Disk)
}

fn load_with(dir: &Path, files: &dyn Files) -> std::io::Result<AgentFiles> {
    let file = |path: PathBuf| -> std::io::Result<File> {
        let bytes = files.read(&path)?;
        Ok(File::new(&path.display().to_string(), bytes))
    };
    Ok(AgentFiles {
        protocol: file(dir.join("protocol.yaml"))?,
        settings: file(dir.join("settings.json"))?,
        prompts: markdown_files(&dir.join("prompts"), true, files)?,
        references: markdown_files(&dir.join("references"), false, files)?,
    })
}

/// The `.md` files under `folder` (recursively when `nested`), sorted by
/// name; none when the folder does not exist.
fn markdown_files(folder: &Path, nested: bool, files: &dyn Files) -> std::io::Result<Vec<Named>> {
    let mut found = Vec::new();
    for (name, path) in markdown_names(folder, nested)? {
        let bytes = files.read(&path)?;
        found.push(Named {
            name,
            file: File::new(&path.display().to_string(), bytes),
        });
    }
    Ok(found)
}

/// The names of the prompts of the agent folder `dir`, sorted; none when
/// they cannot be listed.
pub fn prompt_names(dir: &Path) -> Vec<String> {
    let found = markdown_names(&dir.join("prompts"), true).unwrap_or_default();
    found.into_iter().map(|(name, _)| name).collect()
}

/// The `.md` files under `folder` with their names, sorted by name.
fn markdown_names(folder: &Path, nested: bool) -> std::io::Result<Vec<(String, PathBuf)>> {
    let mut found = Vec::new();
    if !folder.is_dir() {
        return Ok(found);
    }
    let is_markdown = |path: &Path| path.extension().is_some_and(|e| e == "md");
    for path in files_below(folder, nested, is_markdown, ordinary_folder)? {
        let Ok(relative) = path.strip_prefix(folder) else {
            continue;
        };
        let name = relative
            .with_extension("")
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        found.push((name, path));
    }
    found.sort();
    Ok(found)
}

/// The files below `folder` that `wanted` accepts, in no particular order;
/// with `nested`, in the subfolders that `descend` accepts too. Links to
/// folders are not followed (a link to a folder above would never end).
pub(crate) fn files_below(
    folder: &Path,
    nested: bool,
    wanted: impl Fn(&Path) -> bool,
    mut descend: impl FnMut(&Path) -> bool,
) -> std::io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(current) = pending.pop() {
        for entry in std::fs::read_dir(&current)? {
            let entry = entry?;
            let path = entry.path();
            let kind = entry.file_type()?;
            if kind.is_dir() {
                if nested && descend(&path) {
                    pending.push(path);
                }
            } else if kind.is_symlink() && path.is_dir() {
                continue;
            } else if wanted(&path) {
                found.push(path);
            }
        }
    }
    Ok(found)
}

/// Whether a search goes into the folder `dir`: not a hidden one,
/// `node_modules` or `target`.
pub(crate) fn ordinary_folder(dir: &Path) -> bool {
    let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("");
    !(name.starts_with('.') || name == "node_modules" || name == "target")
}

/// Reads at most one byte more than the limit, so a huge or endless file
/// is reported rather than read whole.
pub fn read(path: &Path) -> std::io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let limit = MAX_FILE_BYTES as u64 + 1;
    // Sized from the file's length (as `std::fs::read` does), the buffer
    // becomes the source text without growing past it; the length is only
    // a hint, and the `take` is what bounds the read.
    let expected = file.metadata().map_or(0, |m| m.len().min(limit));
    let mut bytes = Vec::with_capacity(usize::try_from(expected).unwrap_or(0) + 1);
    file.take(limit).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// One report per file, in order: the protocol, `settings.json`, then every
/// prompt and every reference, by name. The time spent on the files around
/// the protocol counts as the protocol's check.
pub fn check(files: AgentFiles) -> Vec<Compilation> {
    let mut protocol = compile(files.protocol);
    let started = Instant::now();
    let mut settings = Report::new(files.settings);
    let mut prompts: Vec<Report> = files.prompts.into_iter().map(Report::named).collect();
    let mut references: Vec<Report> = files.references.into_iter().map(Report::named).collect();
    if let Some(model) = &protocol.model {
        settings::check(model, &protocol.source, &mut settings);
        prompts::check(
            model,
            &protocol.source,
            &mut protocol.diagnostics,
            &mut prompts,
        );
        references::check(model, &mut protocol.diagnostics, &mut references);
    }
    let mut out = vec![protocol, settings.finish()];
    out.extend(prompts.into_iter().map(Report::finish));
    out.extend(references.into_iter().map(Report::finish));
    for compilation in &mut out {
        crate::order(&mut compilation.diagnostics);
    }
    if let Some(protocol) = out.first_mut() {
        protocol.timings.check += started.elapsed();
    }
    out
}

fn compile(file: File) -> Compilation {
    match file.problem {
        Some(problem) => Compilation {
            source: file.source,
            model: None,
            diagnostics: vec![problem],
            timings: Timings::default(),
        },
        None => compile_source(file.source),
    }
}

/// A file being checked and what has been found in it.
struct Report {
    name: String,
    source: Source,
    /// The file could not be read as text; its content is not checked.
    unreadable: bool,
    diagnostics: Vec<Diagnostic>,
}

impl Report {
    fn new(file: File) -> Report {
        Report::with_name(String::new(), file)
    }

    fn named(named: Named) -> Report {
        Report::with_name(named.name, named.file)
    }

    fn with_name(name: String, file: File) -> Report {
        Report {
            name,
            source: file.source,
            unreadable: file.problem.is_some(),
            diagnostics: file.problem.into_iter().collect(),
        }
    }

    fn finish(self) -> Compilation {
        Compilation {
            source: self.source,
            model: None,
            diagnostics: self.diagnostics,
            timings: Timings::default(),
        }
    }
}
