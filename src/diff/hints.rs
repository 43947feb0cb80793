//! Rename hints: `# agentc-renamed-from: OLD` in the comment lines right
//! above a key (a tool, a trigger, a property or parameter) says that the
//! key is OLD renamed, so the diff reports one rename instead of a removal
//! and an addition. Renames are declared, never guessed: a guess that is
//! wrong hides a breaking change.

use crate::source::Source;
use crate::span::Span;

/// The marker, after `#` and any spaces.
pub const MARKER: &str = "agentc-renamed-from:";

/// The old name the comment lines right above the key at `key` declare,
/// if any.
pub fn renamed_from(source: &Source, key: Span) -> Option<&str> {
    let text = source.text();
    let start = (key.start as usize).min(text.len());
    // The start of the key's line, then each line above it, while they are
    // comments.
    let mut line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    while line_start > 0 {
        let above_end = line_start - 1;
        let above_start = text[..above_end].rfind('\n').map_or(0, |i| i + 1);
        let line = text[above_start..above_end].trim();
        let comment = line.strip_prefix('#')?;
        if let Some(name) = comment.trim_start().strip_prefix(MARKER) {
            let name = name.trim();
            return (!name.is_empty()).then_some(name);
        }
        line_start = above_start;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hint(text: &str, key: &str) -> Option<String> {
        let source = Source::new("p.yaml", text);
        let at = text.find(key).expect("key");
        renamed_from(&source, Span::new(at, at + key.len())).map(str::to_string)
    }

    #[test]
    fn reads_the_comment_lines_right_above_a_key() {
        let text = "tools:\n  # why\n  # agentc-renamed-from: get-order\n  get-order-status:\n    description: x\n";
        assert_eq!(hint(text, "get-order-status").as_deref(), Some("get-order"));
        let text = "tools:\n  #agentc-renamed-from:   a  \n  b:\n";
        assert_eq!(hint(text, "b:").as_deref(), Some("a"));
        // Not across a line that is not a comment.
        let text = "tools:\n  # agentc-renamed-from: a\n  x: 1\n  b:\n";
        assert_eq!(hint(text, "b:"), None);
        assert_eq!(hint("b:\n", "b:"), None);
        assert_eq!(hint("# agentc-renamed-from:\nb:\n", "b:"), None);
    }
}
