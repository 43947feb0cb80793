//! The typed protocol AST and its lowering from the YAML tree. This stage
//! decides form: which keys a place accepts, whether a value is a mapping,
//! a list or a scalar, and how a type expression is written. What a name
//! means is decided later (`model`, `check`).

use crate::diagnostic::{Code, Diagnostic, Diagnostics, nearest};
use crate::grammar::{self, Place, UNSUPPORTED_CONSTRAINTS};
use crate::span::Span;
use crate::yaml::{Entry, Key, Node, NodeKind, Scalar, ScalarStyle, Value};

mod blocks;
mod sections;
mod shift;
mod types;
mod values;

pub use crate::grammar::{Builtin, is_variable_name};
pub use blocks::*;
pub use sections::*;
pub use types::*;
pub use values::*;

/// A protocol file, every section in declaration order.
#[derive(Clone, Debug, Default)]
pub struct Protocol {
    /// The top-level keys, in order (first occurrences).
    pub sections: Vec<Name>,
    pub types: Vec<TypeDef>,
    pub input: Vec<Field>,
    pub resources: Vec<Field>,
    pub variables: Vec<Field>,
    pub triggers: Vec<Trigger>,
    pub tools: Vec<Tool>,
    pub skills: Vec<Skill>,
    pub mcp_servers: Vec<McpServer>,
    /// `onDemandSkills:`, named by its key.
    pub on_demand_skills: Option<Skill>,
    pub on_demand_mcp_servers: Vec<OnDemandMcp>,
    pub workers: Vec<WorkerDecl>,
    pub agent: Option<Agent>,
    pub handlers: Vec<Handler>,
    pub steps: Vec<Block>,
    /// A worker's `output`.
    pub output: Option<Name>,
}

impl Protocol {
    /// The key of a top-level section, when present.
    pub fn section(&self, key: &str) -> Option<&Name> {
        self.sections.iter().find(|name| name.text == key)
    }

    /// Whether the protocol declares nothing: no section, or only empty
    /// ones (`{}`, `tools:`).
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
            && self.input.is_empty()
            && self.resources.is_empty()
            && self.variables.is_empty()
            && self.triggers.is_empty()
            && self.tools.is_empty()
            && self.skills.is_empty()
            && self.mcp_servers.is_empty()
            && self.on_demand_skills.is_none()
            && self.on_demand_mcp_servers.is_empty()
            && self.workers.is_empty()
            && self.agent.is_none()
            && self.handlers.is_empty()
            && self.steps.is_empty()
            && self.output.is_none()
    }

    /// Every block of every handler, then the steps.
    pub fn blocks(&self) -> impl Iterator<Item = &Block> {
        self.handlers
            .iter()
            .flat_map(|h| &h.blocks)
            .chain(&self.steps)
    }
}

/// The text of a name: inline up to 24 bytes, so the model's names (tens
/// of thousands in a big protocol) cost no allocation each.
pub type Text = compact_str::CompactString;

/// A name as written, where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    pub text: Text,
    pub span: Span,
}

impl Name {
    /// The name a mapping key gives.
    pub fn of(key: &Key) -> Name {
        Name {
            text: Text::from(key.text.as_ref()),
            span: key.span,
        }
    }
}

/// How a message names a declaration: "tool `search`", "block `Reply`".
/// Written out only when a message needs it: every declaration is lowered
/// with one, and few have a problem.
#[derive(Clone, Copy)]
struct Titled<'a> {
    kind: &'static str,
    name: &'a str,
}

impl<'a> Titled<'a> {
    fn new(kind: &'static str, name: &'a str) -> Self {
        Titled { kind, name }
    }
}

impl std::fmt::Display for Titled<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} `{}`", self.kind, self.name)
    }
}

/// Lowers the root mapping into a [`Protocol`]. It takes the tree and frees
/// each section (and each type) as soon as it is lowered, so the tree and
/// the model are never both whole in memory.
pub fn lower(root: Node, diags: &mut Diagnostics) -> Protocol {
    lower_read(root, Taken::default(), diags)
}

/// The entries of the listed sections (`types`, `tools`, `triggers`,
/// `handlers`) lowered while the YAML was read ([`crate::yaml::Sections`]),
/// each as soon as it was read, with what lowering them found, apart, so
/// that [`lower_read`] reports it where [`lower`] would: the order of the
/// diagnostics, and which are kept past [`crate::MAX_DIAGNOSTICS`], are
/// the same.
#[derive(Default)]
pub(crate) struct Taken {
    types: Vec<TypeDef>,
    tools: Vec<Tool>,
    triggers: Vec<Trigger>,
    handlers: Vec<Handler>,
    /// For each listed section whose entries were taken, what lowering
    /// them found.
    found: [Option<Diagnostics>; Listed::ALL.len()],
    /// The time lowering them took, which `--timings` counts as lowering.
    pub(crate) took: std::time::Duration,
}

impl<'s> crate::yaml::Sections<'s> for Taken {
    fn section(&self, key: &str) -> Option<usize> {
        Listed::of(key).map(Listed::index)
    }

    fn take(&mut self, section: usize, entry: &Entry<'s>) {
        let (Some(&listed), Some(found)) = (Listed::ALL.get(section), self.found.get_mut(section))
        else {
            return;
        };
        let started = crate::clock::Instant::now();
        let mut lower = Lower {
            diags: found.get_or_insert_with(Diagnostics::default),
        };
        match listed {
            Listed::Types => self.types.push(lower.type_def(entry)),
            Listed::Tools => self.tools.push(lower.tool(entry)),
            Listed::Triggers => self.triggers.push(lower.trigger(entry)),
            Listed::Handlers => self.handlers.push(lower.handler(entry)),
        }
        self.took += started.elapsed();
    }

    fn restart(&mut self) {
        *self = Taken::default();
    }
}

impl Taken {
    /// What lowering the entries of `listed` found, when they were taken.
    fn found(&mut self, listed: Listed) -> Option<Diagnostics> {
        self.found.get_mut(listed.index())?.take()
    }
}

/// What lowering `source` gives both ways, as text to compare: reading the
/// tree whole and then lowering it ([`lower`]), and lowering the listed
/// sections' entries as they are read ([`Taken`], what `agentc::compile`
/// does); each the protocol and every diagnostic of reading and lowering,
/// in the order found. They are the same: the unit tests hold this over
/// the fixtures and the `check` fuzz target over whatever it makes.
#[doc(hidden)]
pub fn lowered_both_ways(source: &crate::Source) -> [String; 2] {
    let mut whole = Diagnostics::default();
    let protocol = crate::yaml::parse_whole(source, &mut whole)
        .root
        .map(|root| lower(root, &mut whole));
    let whole = format!("{protocol:#?}\n{:#?}", whole.into_vec());
    let mut taken = Taken::default();
    let mut diags = Diagnostics::default();
    let parsed = crate::yaml::parse_whole_unless(
        source,
        &mut diags,
        crate::cancel::Cancel::never(),
        Some(&mut taken),
    );
    let protocol = parsed.root.map(|root| lower_read(root, taken, &mut diags));
    let read = format!("{protocol:#?}\n{:#?}", diags.into_vec());
    [whole, read]
}

/// [`lower`], with the listed sections' entries that were lowered while
/// the YAML was read: the tree holds only their keys.
pub(crate) fn lower_read(root: Node, mut read: Taken, diags: &mut Diagnostics) -> Protocol {
    let mut lower = Lower { diags };
    let mut protocol = Protocol::default();
    let NodeKind::Mapping(entries) = root.kind else {
        return protocol;
    };
    for entry in entries {
        let value = &entry.value;
        let key = entry.key.text.as_ref();
        match grammar::PROTOCOL.key(key) {
            Some(section) => {
                protocol.sections.push(Name::of(&entry.key));
                if let Some(deprecation) = section.deprecated {
                    lower.deprecated(entry.key.span, deprecation, deprecation.help.to_string());
                }
            }
            None => {
                lower.unknown_key(&entry, key, &grammar::PROTOCOL, "the protocol");
                continue;
            }
        }
        // A section whose entries were taken as they were read: what
        // lowering them found is reported here, where `lower` finds it.
        let listed = Listed::of(key).and_then(|listed| Some((listed, read.found(listed)?)));
        if let Some((listed, found)) = listed {
            lower.diags.append(found);
            // Each grew by doubling as its entries were read, not knowing
            // how many there would be: what it holds is kept at its size
            // (at 10k types, 0.3 MB of the heap's peak).
            fn whole<T>(entries: &mut Vec<T>) -> Vec<T> {
                let mut entries = std::mem::take(entries);
                entries.shrink_to_fit();
                entries
            }
            match listed {
                Listed::Types => protocol.types = whole(&mut read.types),
                Listed::Tools => protocol.tools = whole(&mut read.tools),
                Listed::Triggers => protocol.triggers = whole(&mut read.triggers),
                Listed::Handlers => protocol.handlers = whole(&mut read.handlers),
            }
            continue;
        }
        match key {
            "types" => protocol.types = lower.types(entry.value),
            "input" => protocol.input = lower.fields(value, "input", FieldContext::Input),
            "resources" => {
                protocol.resources = lower.fields(value, "resources", FieldContext::Resource)
            }
            "variables" => {
                protocol.variables = lower.fields(value, "variables", FieldContext::Variable)
            }
            "triggers" => protocol.triggers = lower.triggers(value),
            "tools" => protocol.tools = lower.tools(value),
            "skills" => protocol.skills = lower.skills(value),
            "onDemandSkills" => protocol.on_demand_skills = Some(lower.on_demand_skills(&entry)),
            "mcpServers" => protocol.mcp_servers = lower.mcp_servers(value),
            "onDemandMcpServers" => {
                protocol.on_demand_mcp_servers = lower.on_demand_mcp_servers(value)
            }
            "workers" => protocol.workers = lower.workers(value),
            "agent" => protocol.agent = Some(lower.agent(&entry)),
            "handlers" => protocol.handlers = lower.handlers(value),
            "steps" => protocol.steps = lower.blocks(value, "`steps`"),
            "output" => protocol.output = lower.text(value, "`output`"),
            _ => lower.unread(&entry, "the protocol"),
        }
    }
    protocol
}

/// The sections lowered entry by entry, one item for each entry of their
/// mapping, whatever the other entries hold: an edit inside one entry
/// is lowered again alone (`crate::incremental`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Listed {
    Types,
    Tools,
    Triggers,
    Handlers,
}

impl Listed {
    pub(crate) const ALL: [Listed; 4] = [
        Listed::Types,
        Listed::Tools,
        Listed::Triggers,
        Listed::Handlers,
    ];

    /// Where the section is in [`Listed::ALL`].
    fn index(self) -> usize {
        self as usize
    }

    pub(crate) fn of(key: &str) -> Option<Listed> {
        match key {
            "types" => Some(Listed::Types),
            "tools" => Some(Listed::Tools),
            "triggers" => Some(Listed::Triggers),
            "handlers" => Some(Listed::Handlers),
            _ => None,
        }
    }

    /// The name of each item, in order: the keys of the section's entries.
    pub(crate) fn names(self, protocol: &Protocol) -> Vec<&Name> {
        match self {
            Listed::Types => protocol.types.iter().map(|t| &t.name).collect(),
            Listed::Tools => protocol.tools.iter().map(|t| &t.name).collect(),
            Listed::Triggers => protocol.triggers.iter().map(|t| &t.name).collect(),
            Listed::Handlers => protocol.handlers.iter().map(|h| &h.trigger).collect(),
        }
    }

    /// Lowers `entry` again as item `index` of the section, in place;
    /// false when there is no such item.
    pub(crate) fn relower(
        self,
        protocol: &mut Protocol,
        index: usize,
        entry: &Entry,
        diags: &mut Diagnostics,
    ) -> bool {
        let mut lower = Lower { diags };
        match self {
            Listed::Types => put(&mut protocol.types, index, || lower.type_def(entry)),
            Listed::Tools => put(&mut protocol.tools, index, || lower.tool(entry)),
            Listed::Triggers => put(&mut protocol.triggers, index, || lower.trigger(entry)),
            Listed::Handlers => put(&mut protocol.handlers, index, || lower.handler(entry)),
        }
    }
}

fn put<T>(items: &mut [T], index: usize, make: impl FnOnce() -> T) -> bool {
    match items.get_mut(index) {
        Some(item) => {
            *item = make();
            true
        }
        None => false,
    }
}

/// Lowers each entry into a list allocated once, at its size (the YAML
/// layer has dropped duplicate keys).
fn lower_each<'e, 's, T>(
    entries: &'e [Entry<'s>],
    lower: impl FnMut(&'e Entry<'s>) -> T,
) -> Vec<T> {
    let mut out = Vec::with_capacity(entries.len());
    out.extend(entries.iter().map(lower));
    out
}

struct Lower<'d> {
    diags: &'d mut Diagnostics,
}

impl Lower<'_> {
    fn push(&mut self, diagnostic: Diagnostic) {
        self.diags.push(diagnostic);
    }

    /// The entries of a mapping; an empty value counts as an empty mapping.
    fn mapping<'n, 's>(
        &mut self,
        node: &'n Node<'s>,
        what: &(impl std::fmt::Display + ?Sized),
    ) -> &'n [Entry<'s>] {
        match &node.kind {
            NodeKind::Mapping(entries) => entries,
            NodeKind::Scalar(s) if s.is_null() => &[],
            _ => {
                self.push(Diagnostic::new(
                    Code::WrongShape,
                    node.span,
                    format!("{what} must be a mapping, found {}", node.describe()),
                ));
                &[]
            }
        }
    }

    fn unknown_key(
        &mut self,
        entry: &Entry,
        key: &str,
        allowed: &Place,
        place: &(impl std::fmt::Display + ?Sized),
    ) {
        // Built only while diagnostics are recorded: the suggestion is the
        // costly part, and a flood repeats it.
        self.diags.push_with(Code::UnknownKey, || {
            let diagnostic = Diagnostic::new(
                Code::UnknownKey,
                entry.key.span,
                format!("unknown key `{key}` in {place}"),
            );
            let help = match key {
                "properties" => Some(
                    "declare a named object type under `types:` and use its name as the `type`"
                        .to_string(),
                ),
                "required" => {
                    Some("properties are required unless marked `optional: true`".to_string())
                }
                "nullable" => Some("mark the field `optional: true` instead".to_string()),
                "oneOf" | "allOf" => {
                    Some("a union is a named type with `anyOf:` and `discriminator:`".to_string())
                }
                _ => None,
            };
            match (help, nearest(key, allowed.keys().map(|k| k.name))) {
                (Some(help), _) => diagnostic.with_help(help),
                (None, Some(near)) => diagnostic.did_you_mean(entry.key.span, near),
                (None, None) => diagnostic
                    .with_help(format!("the keys here are {}", list(&allowed.key_names()))),
            }
        });
    }

    /// A key of the grammar's row that the lowering has no arm for: the
    /// grammar and the lowering disagree. It is reported, never dropped
    /// without a word, and `tests/grammar_rows.rs`, which writes every key
    /// of the grammar, holds that it never is.
    fn unread(&mut self, entry: &Entry, place: &(impl std::fmt::Display + ?Sized)) {
        self.push(Diagnostic::new(
            Code::UnknownKey,
            entry.key.span,
            format!("agentc does not read key `{}` in {place}", entry.key.text),
        ));
    }

    /// Reports every key `allowed` does not take.
    fn check_keys(
        &mut self,
        entries: &[Entry],
        allowed: &Place,
        place: &(impl std::fmt::Display + ?Sized),
    ) {
        for entry in entries {
            let key = entry.key.text.as_ref();
            if allowed.key(key).is_some() {
                continue;
            }
            if UNSUPPORTED_CONSTRAINTS.contains(&key) {
                self.unsupported_constraint(entry);
            } else {
                self.unknown_key(entry, key, allowed, place);
            }
        }
    }

    fn unsupported_constraint(&mut self, entry: &Entry) {
        let key = entry.key.text.as_ref();
        // What the docs say of array lengths; of the rest, only that the
        // types language has none of them.
        let (example, note) = match key {
            "minItems" | "maxItems" | "uniqueItems" => (
                "1-10 items",
                "LLM providers do not enforce array constraints in tool calls or structured output",
            ),
            "minLength" | "maxLength" => ("at most 80 characters", LANGUAGE_HAS_NO_CONSTRAINTS),
            "pattern" | "format" => (
                "an ISO 8601 date, such as 2026-01-31",
                LANGUAGE_HAS_NO_CONSTRAINTS,
            ),
            _ => ("between 1 and 10", LANGUAGE_HAS_NO_CONSTRAINTS),
        };
        self.push(
            Diagnostic::new(
                Code::UnsupportedConstraint,
                entry.key.span,
                format!("`{key}` is not supported in protocol types"),
            )
            .with_help(format!(
                "state the constraint in the `description`, which guides the model (for example \"{example}\")"
            ))
            .with_note(note),
        );
    }

    fn text(&mut self, node: &Node, what: &(impl std::fmt::Display + ?Sized)) -> Option<Name> {
        match &node.kind {
            NodeKind::Scalar(s) if !s.is_null() => Some(Name {
                text: Text::from(s.text.as_ref()),
                span: node.span,
            }),
            NodeKind::Scalar(_) => None,
            _ => {
                self.push(Diagnostic::new(
                    Code::WrongShape,
                    node.span,
                    format!("{what} must be text, found {}", node.describe()),
                ));
                None
            }
        }
    }

    /// A `description`: text, without the line break that ends a block
    /// scalar (`description: >` or `|` keeps one, as YAML says). What a
    /// description is for, a sentence sent to a model or shown to a
    /// person, never ends in one, and each emitted schema and the tools
    /// prompt would carry it. Line breaks inside stay.
    fn description(&mut self, node: &Node) -> Option<Name> {
        let mut description = self.text(node, "`description`")?;
        let kept = description.text.trim_end_matches(['\n', '\r']).len();
        description.text.truncate(kept);
        Some(description)
    }

    fn boolean(&mut self, node: &Node, what: &(impl std::fmt::Display + ?Sized)) -> bool {
        if let Some(Value::Bool(b)) = node.as_scalar().map(Scalar::value) {
            return b;
        }
        let mut diagnostic = Diagnostic::new(
            Code::InvalidValue,
            node.span,
            format!(
                "{what} must be `true` or `false`, found {}",
                node.describe()
            ),
        );
        if let Some(s) = node.as_scalar() {
            let lower = s.text.to_lowercase();
            let meant_true = matches!(lower.as_str(), "yes" | "y" | "on" | "true");
            let meant_false = matches!(lower.as_str(), "no" | "n" | "off" | "false");
            if s.style != ScalarStyle::Plain && (lower == "true" || lower == "false") {
                diagnostic = diagnostic.with_help(format!("remove the quotes: `{lower}`"));
            } else if meant_true || meant_false {
                diagnostic = diagnostic.with_help(format!(
                    "YAML 1.2 reads `{}` as text; write `{}`",
                    s.text, meant_true
                ));
            }
        }
        self.push(diagnostic);
        false
    }
}

/// "`a`, `b` and `c`"
const LANGUAGE_HAS_NO_CONSTRAINTS: &str = "the types language has none of JSON Schema's validation keywords; a type says only a value's shape";

fn list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [only] => format!("`{only}`"),
        [init @ .., last] => format!(
            "{} and `{last}`",
            init.iter()
                .map(|i| format!("`{i}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::{Taken, lower_read};
    use crate::cancel::Cancel;
    use crate::diagnostic::Diagnostics;
    use crate::source::Source;
    use crate::yaml::{self, NodeKind};

    fn both_ways(text: &str) -> (String, String) {
        let [whole, read] = super::lowered_both_ways(&Source::new("p.yaml", text));
        (whole, read)
    }

    /// The text, and its first lines alone, cut at up to 12 lines spread
    /// over it: cut texts end anywhere, inside a type, a tool or a handler.
    /// A long text, or one with aliases (the fixtures of the limits, which
    /// expand to a hundred thousand nodes), is read whole only.
    fn with_cuts(text: &str) -> impl Iterator<Item = &str> {
        let lines = match text.len() < 8_000 && !text.contains('*') {
            true => text.matches('\n').count(),
            false => 0,
        };
        let every = lines.div_ceil(12).max(1);
        let cuts = text
            .match_indices('\n')
            .step_by(every)
            .take(lines)
            .map(|(at, _)| &text[..at]);
        std::iter::once(text).chain(cuts)
    }

    const EDGES: &[&str] = &[
        // A section with an anchor is read whole: an alias finds its entries.
        "types: &t\n  A:\n    x: { type: string }\ntools: *t\n",
        "types:\n  A: &a\n    x: { type: string }\n  B: *a\n  C:\n    y: { type: A }\n",
        // A section written twice: the second is dropped, entries and all.
        "types:\n  A: { x: { type: string } }\ntypes:\n  B: { y: 1 }\n",
        "types:\n  A: { x: { type: string } }\n  A: { y: 1 }\n  B: { z: 2 }\n",
        "types:\n  <<: { x: 1 }\n  A: { x: { type: string } }\n",
        "types:\n  ? [a, b]\n  : { x: 1 }\n  A: { x: 2 }\n",
        // A syntax error the indentation repair explains: read again.
        "types:\n  A:\n    x: { type: string }\n   y: { type: string }\n  B:\n    z: 3\ntools:\n  t:\n    description: d\n",
        "types:\n  A:\n    x: { type: string\n  B:\n    z: 3\n",
        "{types: {A: {x: {type: string}, y: 1}}, tools: {t: {description: d, parameters: {p: 2}}}}",
        "types:\n  - A\n  - B\ntools: 3\ntriggers:\nhandlers: {}\n",
        "types: {}\ntools:\n  t: {}\ntriggers:\n  go: { input: { a: 1 } }\nhandlers:\n  go:\n    - nothing\n    - { block: next-message, x: 1 }\n",
        "types:\n  A: { x: { type: string } }\n---\ntypes:\n  B: { y: 1 }\n",
        "agent: { model: m }\nsteps:\n  - x\ntypes:\n  A:\n    b: { type: strin }\n    c: { enum: [a, a, 1] }\n",
        "types:\n  A:\n    x: { type: string, description: \"esc\\taped\" }\n    'q''uoted': { type: string }\n    folded: >\n      not a mapping\n",
    ];

    #[test]
    fn lowering_entries_as_they_are_read_changes_nothing() {
        let mut texts: Vec<String> = EDGES.iter().map(|s| s.to_string()).collect();
        // Nested past the limit, inside a type.
        texts.push(format!(
            "types:\n  A:\n    x: {}1{}\n  B: {{ y: 1 }}\n",
            "[".repeat(200),
            "]".repeat(200)
        ));
        texts.extend(crate::testing::fixture_texts());
        for text in &texts {
            for cut in with_cuts(text) {
                let (whole, read) = both_ways(cut);
                assert!(
                    whole == read,
                    "{cut}\n--- whole:\n{whole}\n--- read:\n{read}"
                );
            }
        }
    }

    /// Past the limit of what is recorded, the same diagnostics are kept
    /// and the same counted: the YAML's first, then each section's.
    #[test]
    fn a_flood_keeps_and_counts_the_same() {
        let mut text = String::from("variables:\n");
        for _ in 0..2_000 {
            text.push_str("  v: { type: string }\n");
        }
        text.push_str("types:\n");
        for n in 0..51_000 {
            text.push_str(&format!("  T{n}: {{ a: 1, b: 2 }}\n"));
        }
        let (whole, read) = both_ways(&text);
        assert!(whole.contains("TooManyProblems"), "past the limit");
        assert!(whole == read);
    }

    #[test]
    fn each_listed_section_is_where_its_index_says() {
        for (at, listed) in super::Listed::ALL.into_iter().enumerate() {
            assert_eq!(listed.index(), at);
        }
    }

    /// The tree holds a taken entry's key, and a null value over the span
    /// of what was read: its subtree is freed as soon as it is lowered.
    #[test]
    fn the_tree_keeps_only_the_keys_of_taken_entries() {
        let text = "types:\n  A:\n    x: { type: string }\nagent: { model: m }\n";
        let source = Source::new("p.yaml", text);
        let mut taken = Taken::default();
        let mut diags = Diagnostics::default();
        let parsed =
            yaml::parse_whole_unless(&source, &mut diags, Cancel::never(), Some(&mut taken));
        let root = parsed.root.expect("a tree");
        let sections = root.as_mapping().expect("a mapping");
        let types = sections[0].value.as_mapping().expect("the types");
        assert_eq!(types[0].key.text, "A");
        assert!(types[0].value.is_null());
        assert_eq!(source.slice(types[0].value.span), "x: { type: string }");
        assert!(matches!(sections[1].value.kind, NodeKind::Mapping(_)));
        let protocol = lower_read(root, taken, &mut diags);
        assert_eq!(protocol.types.len(), 1);
        assert_eq!(protocol.types[0].name.text, "A");
    }
}
