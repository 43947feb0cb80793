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
        self.push(
            Diagnostic::new(
                Code::UnsupportedConstraint,
                entry.key.span,
                format!("`{}` is not supported in protocol types", entry.key.text),
            )
            .with_help("state the constraint in the `description`, which guides the model (for example \"1-10 items\")")
            .with_note("LLM providers do not enforce these JSON Schema keywords in tool calls or structured output"),
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
