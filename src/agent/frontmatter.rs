//! YAML frontmatter at the head of a Markdown file (a reference, a skill's
//! `SKILL.md`), found as the Octavus CLI finds it: a first line `---`, the
//! YAML, and a line `---`. One reader for both; what a missing or broken
//! frontmatter means, and its words, stay with each kind of file.

use crate::diagnostic::{Code, Diagnostic, Diagnostics};
use crate::source::Source;
use crate::span::Span;
use crate::yaml::{self, Node};

/// Why a file has no frontmatter to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Missing {
    /// The first line is `---` ending in `\r\n`: the CLI matches frontmatter
    /// with `/^---\n/`, so it finds none ([`crlf`] words it).
    Crlf,
    /// The file opens with a line `---` that no line `---` closes.
    Unclosed,
    /// The file does not open with a line `---`.
    Absent,
}

/// The YAML between the `---` lines, with the file's name. It keeps the
/// opening `---` (a document start) and stops before the closing one, so
/// its offsets are the file's.
pub(super) struct Frontmatter {
    source: Source,
}

impl Frontmatter {
    /// The YAML tree, and the problems of the YAML (without
    /// `root-not-mapping`: each kind of file says what it wants there).
    pub(super) fn parse(&self) -> (Option<Node<'_>>, Vec<Diagnostic>) {
        let mut diags = Diagnostics::default();
        let root = yaml::parse(&self.source, &mut diags);
        let problems = diags
            .into_vec()
            .into_iter()
            .filter(|d| d.code != Code::RootNotMapping)
            .collect();
        (root, problems)
    }
}

/// The frontmatter of `source`, or why it has none.
pub(super) fn read(source: &Source) -> Result<Frontmatter, Missing> {
    let text = source.text();
    if text.starts_with("---\r\n") {
        return Err(Missing::Crlf);
    }
    match end(text) {
        Some(end) => Ok(Frontmatter {
            source: Source::new(source.name(), &text[..end]),
        }),
        None if opens(text) => Err(Missing::Unclosed),
        None => Err(Missing::Absent),
    }
}

/// The problem with frontmatter whose first line ends in `\r\n`
/// ([`Missing::Crlf`]). `code` is what a file without frontmatter gets.
pub(super) fn crlf(code: Code) -> Diagnostic {
    Diagnostic::new(
        code,
        Span::new(0, 3),
        "the frontmatter's lines end in CRLF (`\\r\\n`), and the Octavus CLI finds none there",
    )
    .with_help("save the file with LF (`\\n`) line ends; with git, add `*.md text eol=lf` to `.gitattributes`")
    .with_note("the CLI matches frontmatter with `/^---\\n/`")
}

/// Whether the first line is `---`.
fn opens(text: &str) -> bool {
    text.split_inclusive('\n')
        .next()
        .is_some_and(|l| l.trim_end() == "---")
}

/// Where the closing `---` line starts, when the text opens with a
/// frontmatter block.
fn end(text: &str) -> Option<usize> {
    let first = text.split_inclusive('\n').next()?;
    if first.trim_end() != "---" {
        return None;
    }
    let mut offset = first.len();
    for line in text[first.len()..].split_inclusive('\n') {
        if line.trim_end() == "---" {
            return Some(offset);
        }
        offset += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(text: &str) -> Result<Frontmatter, Missing> {
        read(&Source::new("f.md", text))
    }

    #[test]
    fn finds_the_block_or_says_why_not() {
        let found = read_text("---\ndescription: x\n---\nbody\n").expect("frontmatter");
        assert_eq!(found.source.text(), "---\ndescription: x\n");
        let (root, problems) = found.parse();
        assert!(root.is_some() && problems.is_empty());
        assert_eq!(
            read_text("---\r\na: b\r\n---\r\n").err(),
            Some(Missing::Crlf)
        );
        assert_eq!(read_text("---\na: b\n").err(), Some(Missing::Unclosed));
        assert_eq!(read_text("a: b\n---\n").err(), Some(Missing::Absent));
        assert_eq!(read_text("").err(), Some(Missing::Absent));
    }

    #[test]
    fn an_empty_block_is_not_a_yaml_problem() {
        let (_, problems) = read_text("---\n---\n").expect("frontmatter").parse();
        assert!(problems.is_empty(), "{problems:?}");
    }
}
