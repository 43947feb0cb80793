//! `agentc check --watch`, `agentc gen --watch`: which changed files can
//! change what a run reports, so that a watch runs again for them and not
//! for the rest (an editor's swap file, a build's output, the files `gen`
//! itself writes).
//!
//! This is core: a function over a path, no clock, no threads. Watching
//! folders and waiting for a quiet moment is the adapter's
//! (`project::watch`, the `watch` feature); running again is the binary's.
//!
//! ```
//! use agentc::watch::relevant;
//! use std::path::Path;
//!
//! assert!(relevant(Path::new("agents/support/protocol.yaml")));
//! assert!(relevant(Path::new("agents/support/prompts/system.md")));
//! assert!(!relevant(Path::new("web/src/agents/support.ts")));
//! assert!(!relevant(Path::new("node_modules/pkg/protocol.yaml")));
//! ```

use crate::agent::AGENT_FOLDERS;
use crate::config::FILE_NAME;
use std::path::{Component, Path};

/// Folders a change under which never matters: what git keeps, and the
/// folders a search skips (`node_modules`, `target`).
const SKIPPED: &[&str] = &[".git", "node_modules", "target"];

/// Whether a change to `path` (relative to the folder watched, or a bare
/// file name) can change what `agentc check` or `agentc gen` reports: a
/// protocol (any `.yaml` or `.yml`: `include` may name other names than
/// `protocol.yaml`), an `agentc.toml` or any other `.toml` (a baseline may
/// have any name), a `settings.json`, the Markdown files under `prompts/`
/// and `references/`, anything under `skills/` (its `.env` too), or one of
/// those folders itself (removed or renamed whole). Nothing under `.git/`,
/// `node_modules/` or `target/`.
///
/// It errs on the side of running: a `.yaml` file no `include` takes is
/// relevant, and a run over it reports what it reported before.
pub fn relevant(path: &Path) -> bool {
    let names: Vec<&str> = path
        .components()
        .filter_map(|component| match component {
            Component::Normal(name) => Some(name.to_str().unwrap_or("")),
            _ => None,
        })
        .collect();
    let Some((&last, folders)) = names.split_last() else {
        return false;
    };
    if names.iter().any(|name| SKIPPED.contains(name)) {
        return false;
    }
    let extension = Path::new(last).extension().and_then(|e| e.to_str());
    let under = |folder: &str| folders.contains(&folder);
    last == FILE_NAME
        || last == "settings.json"
        || matches!(extension, Some("yaml" | "yml" | "toml"))
        || AGENT_FOLDERS.contains(&last)
        || under("skills")
        || (extension == Some("md") && (under("prompts") || under("references")))
}

#[cfg(test)]
mod tests {
    use super::relevant;
    use std::path::Path;

    #[test]
    fn what_a_check_reads_is_relevant() {
        for path in [
            "protocol.yaml",
            "agents/a/protocol.yaml",
            "agents/a/other.yml",
            "agentc.toml",
            "ci/agentc-baseline.toml",
            "agents/a/settings.json",
            "agents/a/prompts/system.md",
            "agents/a/prompts/shared/deep/x.md",
            "agents/a/references/guide.md",
            "agents/a/skills/pdf/SKILL.md",
            "agents/a/skills/pdf/.env",
            "agents/a/prompts",
            "agents/a/skills",
            "/abs/agents/a/protocol.yaml",
        ] {
            assert!(relevant(Path::new(path)), "{path}");
        }
    }

    #[test]
    fn what_no_check_reads_is_not() {
        for path in [
            "",
            "/",
            "README.md",
            "agents/a/notes.md",
            "agents/a/prompts/.system.md.swp",
            "agents/a/prompts/system.md~",
            "agents/a/other.json",
            "web/src/agents/support.ts",
            "web/src/agents/support.py",
            "node_modules/x/protocol.yaml",
            "target/debug/agentc.toml",
            ".git/index",
            ".git/config.toml",
            "a/.git/prompts/x.md",
        ] {
            assert!(!relevant(Path::new(path)), "{path}");
        }
    }
}
