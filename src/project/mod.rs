//! A run over files on disk (the `disk` feature; `agentc check` over many
//! paths, `gen`, `--against`): which files a run checks, under which
//! configuration ([`crate::config`], `agentc.toml`, found beside them), and
//! checking each through the library's one check
//! ([`crate::Workspace::check_in`] over [`crate::disk::Disk`]), in parallel
//! with the results in path order, whatever the scheduling (one file on the
//! calling thread: [`threads`]).
//!
//! A path is a file (checked as named, even when a configuration excludes
//! it), a folder (searched for the files its configuration includes), or,
//! when no such file exists, a glob (`agents/*/protocol.yaml`, for shells
//! that do not expand it, and on Windows), whose matches are checked unless
//! excluded. Searches skip what git ignores (`.gitignore`, `.ignore`,
//! `.git/info/exclude` and the global excludes, read by ripgrep's `ignore`
//! crate; `--no-ignore` turns that off), hidden folders, `node_modules` and
//! `target`, and never follow a link to a folder. A file a search finds is
//! read only when it lies inside the folder searched ([`Reach::Within`](crate::files::Reach::Within));
//! one named on the command line is read wherever it leads.

pub mod against;
pub mod baseline;
pub mod generate;
pub mod init;
mod run;
#[cfg(feature = "walk")]
mod walk;
#[cfg(feature = "watch")]
pub mod watch;

pub use run::*;
#[cfg(feature = "walk")]
pub use walk::plan;
