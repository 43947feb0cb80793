//! The protocol format reference, as Markdown (`agentc schema --reference`,
//! and the MCP resource `agentc://reference`): every place of a protocol
//! file, what it is for, where it is written, and its keys: what each
//! holds, whether it is required, whether it may name a variable instead,
//! and its deprecation.
//!
//! It is written by walking the tables, as the editor schema is: a row
//! added to the grammar shows up here, and nothing the tables say is
//! written twice. What is written here is how to read them (the legend,
//! how each kind of value is worded). The output is the same on every run.

use super::*;
use std::fmt::Write;

/// The protocol format reference, as Markdown: a legend, then every place
/// in the order a walk from the top of a protocol first reaches it (the
/// file's top level first), with the blocks and the named types each
/// introduced where they are first reached, then the values several keys
/// share.
pub fn reference() -> String {
    let sections = sections();
    let mut out = String::new();
    out.push_str("# Protocol format reference\n\n");
    out.push_str(
        "Every place in a protocol file and the keys it takes, in the order `agentc check` \
         lists them, generated from agentc's grammar (`agentc schema --reference` prints it). \
         In each table:\n\n",
    );
    out.push_str("- **Value**: what the key holds; a link leads to the place it holds.\n");
    out.push_str(
        "- **Required**: `yes` when the place needs the key; `may be empty` when `key:` with \
         no value is allowed, `not empty` when it is not.\n",
    );
    out.push_str(
        "- **Variable**: `yes` when a plain UPPERCASE_SNAKE_CASE scalar there names an input \
         or a variable holding the value instead of giving it.\n",
    );
    for section in &sections {
        out.push('\n');
        write_section(&mut out, *section, &sections);
    }
    out.push('\n');
    write_values(&mut out);
    out
}

/// A section of the reference: a place, or what several places share.
#[derive(Clone, Copy, Debug)]
pub(super) enum Section {
    Place(&'static Place),
    /// A step of a handler or worker, before its `block:` says its kind.
    Blocks,
    /// A named type, before its keys say its form.
    NamedTypes,
}

impl Section {
    fn is(self, other: Section) -> bool {
        match (self, other) {
            (Section::Place(a), Section::Place(b)) => std::ptr::eq(a, b),
            (Section::Blocks, Section::Blocks) | (Section::NamedTypes, Section::NamedTypes) => true,
            _ => false,
        }
    }

    /// The heading, as plain text (its anchor is made from it).
    fn title(self) -> String {
        match self {
            Section::Place(place) if is_block(place) => format!("{} block", place.name),
            Section::Place(place) => place.name.to_string(),
            Section::Blocks => "Blocks".to_string(),
            Section::NamedTypes => "Named types".to_string(),
        }
    }

    /// The heading, as Markdown.
    fn heading(self) -> String {
        match self {
            Section::Place(place) if is_block(place) => format!("{} block", code(place.name)),
            other => escape(&other.title(), false),
        }
    }

    /// The anchor GitHub and most renderers give the heading.
    pub(super) fn anchor(self) -> String {
        self.title()
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect()
    }

    fn link(self) -> String {
        format!("[{}](#{})", self.heading(), self.anchor())
    }

    /// The sections this one leads to, each with the path of keys from
    /// here (empty when it is this section's own kind or form) and the
    /// docs of the mappings on the way.
    fn children(self) -> Vec<Lead> {
        let mut out = Vec::new();
        match self {
            Section::Place(place) => {
                for key in place.keys() {
                    leads(key.value, code_text(key.name), &[], &mut out);
                }
            }
            Section::Blocks => {
                for place in &BLOCKS {
                    out.push(Lead {
                        to: Section::Place(place),
                        path: format!("block: {}", place.name),
                        docs: Vec::new(),
                    });
                }
            }
            Section::NamedTypes => {
                for form in TypeDefForm::ALL {
                    leads(form.value(), String::new(), &[], &mut out);
                }
            }
        }
        out
    }
}

/// Where a section is reached from another.
struct Lead {
    to: Section,
    /// The keys from the section it is reached from, as in
    /// `tools.<name>`.
    path: String,
    docs: Vec<&'static str>,
}

fn leads(value: Value, path: String, docs: &[&'static str], out: &mut Vec<Lead>) {
    let to = match value {
        Value::Nested(place) => Section::Place(place),
        Value::Block => Section::Blocks,
        Value::TypeDef => Section::NamedTypes,
        Value::MapOf(map) => {
            let entry = format!("<{}>", map_key(map.keys));
            let path = if path.is_empty() {
                entry
            } else {
                format!("{path}.{entry}")
            };
            let mut docs = docs.to_vec();
            if !map.doc.is_empty() {
                docs.push(map.doc);
            }
            return leads(map.entry, path, &docs, out);
        }
        _ => return,
    };
    out.push(Lead {
        to,
        path,
        docs: docs.to_vec(),
    });
}

/// What stands for an entry's key in a path.
fn map_key(keys: MapKeys) -> String {
    match keys {
        MapKeys::Any | MapKeys::Pattern(_) => "name".to_string(),
        MapKeys::Fixed(words) => words.join("|"),
        MapKeys::Names(refers) => noun(refers).to_string(),
    }
}

/// Every section, each once, in the order a walk from the top of a
/// protocol first reaches it: the order of [`places`], with the blocks
/// before the first block kind and the named types before their forms.
pub(super) fn sections() -> Vec<Section> {
    fn visit(section: Section, out: &mut Vec<Section>) {
        if out.iter().any(|s| s.is(section)) {
            return;
        }
        out.push(section);
        for lead in section.children() {
            visit(lead.to, out);
        }
    }
    let mut out = Vec::new();
    visit(Section::Place(&PROTOCOL), &mut out);
    out
}

fn is_block(place: &Place) -> bool {
    BLOCKS.iter().any(|block| std::ptr::eq(block, place))
}

fn write_section(out: &mut String, section: Section, sections: &[Section]) {
    let _ = writeln!(out, "## {}\n", section.heading());
    match section {
        Section::Place(place) => {
            if !place.doc.is_empty() {
                let _ = writeln!(out, "{}\n", escape(place.doc, false));
            }
        }
        Section::Blocks => {
            let _ = writeln!(out, "{}\n", escape(BLOCK_DOC, false));
        }
        Section::NamedTypes => {
            let _ = writeln!(out, "{}\n", escape(TYPE_DEF_DOC, false));
        }
    }
    write_where(out, section, sections);
    match section {
        Section::Place(place) => write_place(out, place),
        Section::Blocks => write_blocks(out),
        Section::NamedTypes => write_named_types(out),
    }
}

/// Where the section is written: the sections that lead to it and the
/// keys on the way, and what the mappings on the way say.
fn write_where(out: &mut String, section: Section, sections: &[Section]) {
    let mut places = Vec::new();
    let mut docs: Vec<&str> = Vec::new();
    for from in sections {
        let mut paths = Vec::new();
        let mut reached = false;
        for lead in from.children() {
            if !lead.to.is(section) {
                continue;
            }
            reached = true;
            if !lead.path.is_empty() && !paths.contains(&lead.path) {
                paths.push(lead.path);
            }
            for doc in lead.docs {
                if !docs.contains(&doc) {
                    docs.push(doc);
                }
            }
        }
        if reached {
            let paths: Vec<String> = paths.iter().map(|path| code(path)).collect();
            let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
            places.push(
                format!("{} {}", from.link(), list(&paths))
                    .trim_end()
                    .to_string(),
            );
        }
    }
    if !places.is_empty() {
        let _ = writeln!(out, "Written in: {}.\n", places.join("; "));
    }
    for doc in docs {
        let _ = writeln!(out, "{}\n", escape(doc, false));
    }
}

fn write_place(out: &mut String, place: &'static Place) {
    if let Some(deprecation) = place.deprecated {
        let _ = writeln!(out, "{}\n", deprecated(deprecation));
    }
    if place.field {
        let _ = writeln!(
            out,
            "A typed slot: {} decides its shape, and {} goes with {} and nothing else.\n",
            code("type"),
            code("items"),
            code("type: array")
        );
    }
    if !place.closed {
        out.push_str("Keys other than these are accepted too.\n\n");
    }
    let kind = is_block(place).then_some(place.name);
    write_keys(out, place.keys(), kind);
}

fn write_blocks(out: &mut String) {
    out.push_str("Its `block:` is one of these kinds:\n\n");
    out.push_str("| Kind | Description |\n|---|---|\n");
    for place in &BLOCKS {
        let mut doc = escape(place.doc, true);
        if let Some(deprecation) = place.deprecated {
            doc = format!("{doc} {}", deprecated(deprecation));
        }
        let _ = writeln!(out, "| {} | {doc} |", Section::Place(place).link());
    }
    out.push_str("\nThe keys every kind takes:\n\n");
    write_keys(out, BLOCK_COMMON.iter(), None);
}

fn write_named_types(out: &mut String) {
    out.push_str("Its keys decide its form, tried in this order:\n\n");
    for (form, marker, needs_scalar) in TypeDefForm::MARKED {
        let scalar = if needs_scalar {
            " holding a scalar"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "- with {}{scalar}: {}",
            code(marker),
            value_text(form.value(), None)
        );
    }
    let object = TypeDefForm::Object.value();
    let mut otherwise = value_text(object, None);
    if let Value::MapOf(map) = object
        && !map.doc.is_empty()
    {
        otherwise = format!("{otherwise}. {}", escape(map.doc, false));
    }
    let _ = writeln!(out, "- otherwise: {otherwise}");
    out.push('\n');
}

fn write_keys(out: &mut String, keys: impl Iterator<Item = &'static Key>, kind: Option<&str>) {
    out.push_str("| Key | Value | Required | Variable | Description |\n");
    out.push_str("|---|---|---|---|---|\n");
    for key in keys {
        let required = match key.presence {
            Presence::Required => "yes, not empty",
            Presence::RequiredNullable => "yes, may be empty",
            Presence::OptionalNonNull => "no, not empty",
            Presence::Optional => "no",
        };
        let variable = if key.dynamic { "yes" } else { "" };
        let mut doc = escape(key.doc, true);
        if let Some(deprecation) = key.deprecated {
            doc = format!("{doc} {}", deprecated(deprecation));
        }
        let _ = writeln!(
            out,
            "| {} | {} | {required} | {variable} | {doc} |",
            cell(&code(key.name)),
            cell(&value_text(key.value, kind)),
        );
    }
}

/// A deprecation: what to write instead, the key that replaces it and how
/// values carry over, and its note.
fn deprecated(deprecation: &Deprecation) -> String {
    let mut text = format!("**Deprecated:** {}", sentence(deprecation.help));
    if let Some(replacement) = &deprecation.replacement {
        let _ = write!(text, " Replaced by {}", code(replacement.key));
        if replacement.values.is_empty() {
            text.push_str(", every value as it is.");
        } else {
            let values: Vec<String> = replacement
                .values
                .iter()
                .map(|(old, new)| format!("{} becomes {}", code(old), code(new)))
                .collect();
            let _ = write!(text, ": {}.", values.join(", "));
        }
    }
    if let Some(note) = deprecation.note {
        let mut note = sentence(note);
        if let Some(first) = note.get(..1) {
            note = first.to_uppercase() + &note[1..];
        }
        let _ = write!(text, " {note}");
    }
    text
}

/// A piece of text from the tables as a sentence: escaped, ending in a
/// full stop.
fn sentence(text: &str) -> String {
    let mut text = escape(text, false);
    if !text.ends_with(['.', '!', '?']) {
        text.push('.');
    }
    text
}

/// The values several keys share, with what the tables say of them.
fn write_values(out: &mut String) {
    out.push_str("## Values\n\n");
    for (name, doc) in [
        ("model", MODEL_DOC),
        ("input mapping", INPUT_MAPPING_DOC),
        ("type expression", TYPE_EXPR_DOC),
        ("object type name", TYPE_NAME_DOC),
    ] {
        let _ = writeln!(out, "- **{name}**: {}", escape(doc, false));
    }
}

/// What a value is, in words, as Markdown. `kind` is the block kind whose
/// `block:` this is.
fn value_text(value: Value, kind: Option<&str>) -> String {
    let values = format!("#{}", "values");
    match value {
        Value::Text => "text".to_string(),
        Value::Name(Refers::McpSource) => format!("one of {}", codes(MCP_SOURCES)),
        Value::Name(refers) => format!("{} name", noun(refers)),
        Value::Names(Refers::McpSource) => format!("list of {}", codes(MCP_SOURCES)),
        Value::Names(refers) => format!("list of {} names", noun(refers)),
        Value::Flag => format!("{} or {}", code("true"), code("false")),
        Value::Integer { min, max } if max == i64::MAX => {
            format!("whole number, at least {min}")
        }
        Value::Integer { min, max } => format!("whole number, {min} to {max}"),
        Value::Number { min, max } => format!("number, {min} to {max}"),
        Value::Fraction => "number above 0, at most 1".to_string(),
        Value::Temperature => format!("number, 0 to 2, or {}", code("off")),
        Value::AspectRatio => format!("{}, as in {}", code("width:height"), code("16:9")),
        Value::Choice(choices) => format!("one of {}", codes(choices)),
        Value::Model => format!("[model]({values})"),
        Value::InputMapping => format!("[input mapping]({values})"),
        Value::Arguments => "mapping of parameter names to values".to_string(),
        Value::TypeExpr => format!("[type expression]({values})"),
        Value::ArrayTypeExpr => format!(
            "{}, or a [type expression]({values}) ending in {}",
            code("array"),
            code("[]")
        ),
        Value::TypeName => format!("[object type name]({values})"),
        Value::Variants => format!("list of at least two [object type names]({values})"),
        Value::EnumValues => "list of at least one string".to_string(),
        Value::Literal => "a value of the slot's type".to_string(),
        Value::Any => "any value".to_string(),
        Value::BlockKind => match kind {
            Some(kind) => code(kind),
            // Only the blocks' section lists the common keys, below the kinds.
            None => "one of the kinds above".to_string(),
        },
        Value::Nested(place) => Section::Place(place).link(),
        Value::MapOf(map) => {
            let keys = match map.keys {
                MapKeys::Any => "names".to_string(),
                MapKeys::Pattern(pattern) => format!("names matching {}", code(pattern)),
                MapKeys::Fixed(words) => codes(words),
                MapKeys::Names(refers) => format!("{} names", noun(refers)),
            };
            let mut entry = value_text(map.entry, None);
            if map.entry_nullable {
                entry.push_str(" (or empty)");
            }
            format!("mapping of {keys} to {entry}")
        }
        Value::Block => format!("[block](#{})", Section::Blocks.anchor()),
        Value::TypeDef => format!("[named type](#{})", Section::NamedTypes.anchor()),
    }
}

/// What a name refers to, in words.
fn noun(refers: Refers) -> &'static str {
    match refers {
        Refers::Variable => "input or variable",
        Refers::Tool => "tool",
        Refers::Skill => "skill",
        Refers::McpServer => "MCP server",
        Refers::McpSource => "MCP source",
        Refers::Worker => "worker",
        Refers::Thread => "thread",
        Refers::Prompt => "prompt",
        Refers::Reference => "reference",
        Refers::Trigger => "trigger",
    }
}

/// Words as code spans, listed: `` `a`, `b` or `c` ``.
fn codes(words: &[&str]) -> String {
    let words: Vec<String> = words.iter().map(|word| code(word)).collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let listed = list(&words);
    listed.replacen(" and ", " or ", usize::from(words.len() > 1))
}

/// Items listed: `a`, `b` and `c`.
fn list(items: &[&str]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// Text as a code span, whatever backticks it holds.
pub(super) fn code(text: &str) -> String {
    let text = code_text(text);
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// Text for a code span: on one line.
fn code_text(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

/// A table cell: a `|` is escaped (inside code spans too, as tables read
/// the row before the spans), and a line break is a space.
pub(super) fn cell(markdown: &str) -> String {
    markdown.replace(['\r', '\n'], " ").replace('|', "\\|")
}

/// Text from the tables, which is Markdown with code spans, made safe
/// where it lands: outside code spans `<` cannot open HTML, and a line
/// does not start a heading, list or quote; in a table cell (`in_cell`)
/// [`cell`]'s rules apply too.
pub(super) fn escape(text: &str, in_cell: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    let mut at = 0;
    let mut line_start = true;
    while at < chars.len() {
        let c = chars[at];
        if c == '`' {
            let run = chars[at..].iter().take_while(|&&c| c == '`').count();
            // A code span ends at the next run of exactly as many.
            let end = (at + run..chars.len()).find(|&i| {
                chars[i] == '`'
                    && (i == 0 || chars[i - 1] != '`')
                    && chars[i..].iter().take_while(|&&c| c == '`').count() == run
            });
            if let Some(end) = end {
                out.extend(&chars[at..end + run]);
                at = end + run;
                line_start = false;
                continue;
            }
            out.extend(&chars[at..at + run]);
            at += run;
            line_start = false;
            continue;
        }
        if line_start && matches!(c, '#' | '-' | '+' | '*' | '>' | '=') {
            out.push('\\');
        }
        match c {
            '<' => out.push_str("&lt;"),
            '\\' => out.push_str("\\\\"),
            _ => out.push(c),
        }
        line_start = c == '\n' || (line_start && c == ' ');
        at += 1;
    }
    if in_cell { cell(&out) } else { out }
}
