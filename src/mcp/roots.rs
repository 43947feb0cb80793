//! Where the server may read and write: the folders the client declares
//! as its roots (`roots/list`), or the working folder when it declares
//! none. A path from a tool call is taken only when the file it names,
//! links resolved, is inside one of them.

use crate::disk;
use std::path::{Component, Path, PathBuf};

/// The folders a session may touch, each as the system resolves it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Roots {
    /// Resolved (no links, absolute), without duplicates, in the client's
    /// order.
    folders: Vec<PathBuf>,
    /// The folder relative paths start from: the server's working folder.
    here: PathBuf,
}

impl Roots {
    /// `declared` (the client's roots, as paths) resolved against `here`;
    /// a root that does not exist, or is not a folder, is left out. With
    /// nothing declared, `here` is the one root.
    pub fn new(here: &Path, declared: Option<Vec<PathBuf>>) -> Roots {
        let resolve = |folder: &Path| {
            disk::real_path(&here.join(folder))
                .ok()
                .filter(|real| real.is_dir())
        };
        let mut folders: Vec<PathBuf> = Vec::new();
        match declared {
            Some(declared) => {
                for real in declared.iter().filter_map(|folder| resolve(folder)) {
                    if !folders.contains(&real) {
                        folders.push(real);
                    }
                }
            }
            None => folders.extend(resolve(Path::new("."))),
        }
        Roots {
            folders,
            here: here.to_path_buf(),
        }
    }

    /// The folders, resolved.
    pub fn folders(&self) -> &[PathBuf] {
        &self.folders
    }

    /// `given` as the file or folder it names, checked: relative to the
    /// working folder when it is not absolute, existing, and with every
    /// link resolved inside a root. What is returned is `given` as written
    /// (diagnostics name files as the client named them); the error says
    /// why it was refused.
    pub fn admit(&self, given: &str) -> Result<PathBuf, String> {
        if given.is_empty() {
            return Err("the path is empty".to_string());
        }
        if given.contains('\0') {
            return Err("the path holds a NUL character".to_string());
        }
        let path = strip_current(Path::new(given));
        let real = disk::real_path(&self.here.join(&path))
            .map_err(|error| format!("`{given}` was not found: {error}"))?;
        if !self.folders.iter().any(|root| real.starts_with(root)) {
            return Err(match self.folders.is_empty() {
                true => format!(
                    "`{given}` is outside the roots: the client declared no folder that exists"
                ),
                false => format!(
                    "`{given}` is outside the roots ({}); the server reads only under them",
                    self.folders
                        .iter()
                        .map(|f| f.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            });
        }
        Ok(path)
    }
}

/// `path` without a leading `./`, as `agentc check` shows a path.
fn strip_current(path: &Path) -> PathBuf {
    let mut components = path.components().peekable();
    while components.peek() == Some(&Component::CurDir) && path.components().count() > 1 {
        components.next();
    }
    components.collect()
}

/// The path a `file://` URI names, or `None` for any other URI.
pub fn from_uri(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file:///home/x`, or `file://localhost/home/x`.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let bytes: Vec<u8> = percent_encoding::percent_decode_str(rest).collect();
    if bytes.contains(&0) {
        return None;
    }
    #[cfg(unix)]
    let path = {
        use std::os::unix::ffi::OsStringExt;
        PathBuf::from(std::ffi::OsString::from_vec(bytes))
    };
    #[cfg(not(unix))]
    let path = {
        // `file:///C:/x` on Windows.
        let text = String::from_utf8(bytes).ok()?;
        PathBuf::from(text.strip_prefix('/').unwrap_or(&text))
    };
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_become_paths() {
        assert_eq!(
            from_uri("file:///home/a%20b/x"),
            Some(PathBuf::from("/home/a b/x"))
        );
        assert_eq!(
            from_uri("file://localhost/srv"),
            Some(PathBuf::from("/srv"))
        );
        assert_eq!(from_uri("https://example.com/"), None);
        assert_eq!(from_uri("file://host/x"), None);
        assert_eq!(from_uri("file:///a%00b"), None);
    }

    #[test]
    fn paths_outside_the_roots_are_refused() {
        let inside = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(inside.path().join("protocol.yaml"), "").unwrap();
        std::fs::write(outside.path().join("protocol.yaml"), "").unwrap();
        let roots = Roots::new(inside.path(), None);
        assert_eq!(
            roots.admit("./protocol.yaml"),
            Ok(PathBuf::from("protocol.yaml"))
        );
        let out = outside.path().join("protocol.yaml");
        assert!(roots.admit(&out.display().to_string()).is_err());
        assert!(roots.admit("../x").is_err());
        assert!(roots.admit("").is_err());
        assert!(roots.admit("a\0b").is_err());
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&out, inside.path().join("link.yaml")).unwrap();
            assert!(roots.admit("link.yaml").is_err());
        }
        // Declared roots replace the working folder.
        let roots = Roots::new(inside.path(), Some(vec![outside.path().to_path_buf()]));
        assert!(roots.admit("protocol.yaml").is_err());
        assert!(roots.admit(&out.display().to_string()).is_ok());
    }
}
