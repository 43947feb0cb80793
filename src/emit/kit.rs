//! The kit every target works with: what a target is asked for and
//! gives back ([`Target`], [`Selection`], [`Output`], [`EmitError`]), its
//! context ([`Cx`]: the model, each type's inlined size, where problems
//! go), the lookups of a selector's name, and the name helpers the
//! providers' rules share. It sits below the targets, which sit below the
//! dispatch in `mod.rs`, so the uses run one way.

use super::lower::{self, Kind, Lowering, Mode, Schema, Sizes};
use crate::diagnostic::{Code, Diagnostic, Diagnostics, did_you_mean};
use crate::model::{Model, TypeId};
use crate::syntax::{Tool, TypeDefKind, TypeExprKind};
use serde_json::Value;
use std::fmt;

/// A consumer of emitted schemas. The doc comments of the variants are
/// the help `agentc` shows for `--target`; [`Target::name`] is the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Target {
    /// Plain JSON Schema 2020-12, with `$defs`.
    JsonSchema,
    /// OpenAI strict function tools and `response_format`.
    #[cfg_attr(feature = "cli", value(name = "openai"))]
    OpenAi,
    /// Anthropic strict tools and `output_config.format`.
    Anthropic,
    /// Gemini `functionDeclarations` and `responseJsonSchema`.
    Gemini,
    /// An AG-UI `Tool[]` for `RunAgentInput.tools`.
    AgUi,
    /// An AAP `ToolSpec[]`, or with `--meta` a `GET /meta` response.
    Aap,
    /// The tools block a backend writes into its system prompt.
    ToolsPrompt,
}

impl Target {
    pub const ALL: [Target; 7] = [
        Target::JsonSchema,
        Target::OpenAi,
        Target::Anthropic,
        Target::Gemini,
        Target::AgUi,
        Target::Aap,
        Target::ToolsPrompt,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Target::JsonSchema => "json-schema",
            Target::OpenAi => "openai",
            Target::Anthropic => "anthropic",
            Target::Gemini => "gemini",
            Target::AgUi => "ag-ui",
            Target::Aap => "aap",
            Target::ToolsPrompt => "tools-prompt",
        }
    }

    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The consumer's name in a sentence.
    pub fn display(self) -> &'static str {
        match self {
            Target::JsonSchema => "JSON Schema",
            Target::OpenAi => "OpenAI",
            Target::Anthropic => "Anthropic",
            Target::Gemini => "Gemini",
            Target::AgUi => "AG-UI",
            Target::Aap => "AAP",
            Target::ToolsPrompt => "the tools prompt",
        }
    }
}

/// What to emit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection<'a> {
    /// Every tool (every type, for the json-schema target).
    All,
    /// One type's schema.
    Type(&'a str),
    /// One tool.
    Tool(&'a str),
    /// A provider's structured-output request for an object type.
    Response(&'a str),
}

/// What a target produces.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    Json(Value),
    /// JSON already printed as [`Output::into_text`] prints a value
    /// (pretty, two spaces, a final newline): a list of tools is written
    /// tool by tool ([`Entries`]) rather than held as one value.
    Printed(String),
    Text(String),
}

impl Output {
    /// The text to print: pretty JSON with a final newline, or the text as is.
    pub fn into_text(self) -> String {
        match self {
            Output::Printed(text) | Output::Text(text) => text,
            json => json.to_text(),
        }
    }

    /// [`Output::into_text`], keeping the output.
    pub fn to_text(&self) -> String {
        match self {
            Output::Json(value) => {
                let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
                text.push('\n');
                text
            }
            Output::Printed(text) | Output::Text(text) => text.clone(),
        }
    }

    /// The output as a value: printed JSON read back, a text as a string.
    pub fn into_value(self) -> Value {
        match self {
            Output::Json(value) => value,
            Output::Printed(text) => serde_json::from_str(&text).unwrap_or(Value::Null),
            Output::Text(text) => Value::String(text),
        }
    }
}

/// A JSON array printed as its entries are made: each entry's pretty text,
/// indented for its place, is appended to one text and its value dropped,
/// so the tools of a large protocol are never all held as values (a value
/// takes several times the memory of its text), and the text is never
/// copied. Once an error is among the problems reported, nothing more is
/// kept: output with errors is never used, so a protocol a target refuses
/// costs little more than its check.
pub struct Entries {
    /// `None` for every tool: the list is printed; for one tool
    /// ([`Selection::Tool`]), that tool's entry, once made.
    single: Option<Option<Value>>,
    text: String,
    count: usize,
    /// How many levels deep the array sits in the printed output.
    depth: usize,
    /// How many of the problems reported are known to hold no error.
    scanned: usize,
    refused: bool,
}

impl Entries {
    /// An empty array, printed after `before` (what encloses it, up to
    /// where it starts), `depth` levels deep; for a selection of one tool,
    /// that tool's entry alone, as a value.
    pub fn new(selection: Selection, before: &str, depth: usize) -> Entries {
        let single = matches!(selection, Selection::Tool(_)).then_some(None);
        Entries {
            single,
            text: format!("{before}["),
            count: 0,
            depth,
            scanned: 0,
            refused: false,
        }
    }

    /// Whether an entry would still be kept: one tool's always; in a
    /// list, while no error is among `diags` (a target need not make an
    /// entry that would be thrown away).
    pub fn keeps(&mut self, diags: &Diagnostics) -> bool {
        if self.single.is_some() {
            return true;
        }
        if !self.refused && diags.has_errors_since(self.scanned) {
            self.refused = true;
            self.text = String::new();
        }
        self.scanned = diags.len();
        !self.refused
    }

    /// Appends `entry`, unless `diags` holds an error.
    pub fn push(&mut self, diags: &Diagnostics, entry: Value) {
        if let Some(single) = &mut self.single {
            *single = Some(entry);
            return;
        }
        if !self.keeps(diags) {
            return;
        }
        let printed = serde_json::to_string_pretty(&entry).unwrap_or_default();
        drop(entry);
        self.text
            .push_str(if self.count == 0 { "\n" } else { ",\n" });
        let indent = "  ".repeat(self.depth + 1);
        self.text.push_str(&indent);
        push_nested(&mut self.text, &printed, &indent);
        self.count += 1;
    }

    /// The whole output: the array as `serde_json`'s pretty printer writes
    /// it at its depth, then `after` (what closes what encloses it) and
    /// the final newline. Empty when an error was reported.
    pub fn finish(mut self, after: &str) -> Output {
        if let Some(single) = self.single {
            return Output::Json(single.unwrap_or(Value::Null));
        }
        if self.refused {
            return Output::Printed(String::new());
        }
        if self.count == 0 {
            self.text.push(']');
        } else {
            self.text.push('\n');
            self.text.push_str(&"  ".repeat(self.depth));
            self.text.push(']');
        }
        self.text.push_str(after);
        self.text.push('\n');
        Output::Printed(self.text)
    }
}

/// Appends `printed` (a value printed by `serde_json`'s pretty printer)
/// as that printer writes it nested under `indent`: its first line where
/// the text is, each next line indented. A printed JSON string holds no
/// line break (it is escaped), so every line is one of its structure.
pub(super) fn push_nested(text: &mut String, printed: &str, indent: &str) {
    for (i, line) in printed.split('\n').enumerate() {
        if i > 0 {
            text.push('\n');
            text.push_str(indent);
        }
        text.push_str(line);
    }
}

/// A selector that names nothing in the protocol, or that the target has
/// no use for: a usage error, not a problem in the protocol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmitError {
    pub message: String,
    pub help: Option<String>,
}

impl EmitError {
    pub fn new(message: impl Into<String>) -> EmitError {
        EmitError {
            message: message.into(),
            help: None,
        }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> EmitError {
        self.help = Some(help.into());
        self
    }
}

impl fmt::Display for EmitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(help) = &self.help {
            write!(f, " ({help})")?;
        }
        Ok(())
    }
}

impl std::error::Error for EmitError {}

/// The object types named as a `responseType`, once each, in declaration
/// order.
pub fn response_types(model: &Model) -> Vec<TypeId> {
    let mut used = vec![false; model.protocol.types.len()];
    for block in model.protocol.blocks() {
        if let Some(TypeExprKind::Named(name)) = block.response_type.as_ref().map(|t| &t.kind)
            && let Some(id) = model.lookup(name)
            && matches!(model.def(id).kind, TypeDefKind::Object(_))
        {
            used[id.index()] = true;
        }
    }
    (0..used.len())
        .filter(|&i| used[i])
        .map(|i| TypeId(i as u32))
        .collect()
}

/// What every target module works with: the model, each type's inlined
/// size, and where problems go.
pub struct Cx<'m, 'd> {
    pub model: &'m Model,
    pub target: Target,
    pub diags: &'d mut Diagnostics,
    sizes: Sizes,
}

impl<'m, 'd> Cx<'m, 'd> {
    pub(super) fn new(model: &'m Model, target: Target, diags: &'d mut Diagnostics) -> Cx<'m, 'd> {
        Cx {
            model,
            target,
            diags,
            sizes: Sizes::new(model),
        }
    }

    /// The tools a selection names: all of them, or one.
    pub fn tools(&self, selection: Selection) -> Result<Vec<&'m Tool>, EmitError> {
        match selection {
            Selection::Tool(name) => Ok(vec![find_tool(self.model, name)?]),
            _ => Ok(self.model.protocol.tools.iter().collect()),
        }
    }

    /// A tool's parameters, inlined; `None` (reported) when too large.
    pub fn parameters(&mut self, tool: &'m Tool) -> Option<Schema<'m>> {
        let model = self.model;
        let size = self.sizes.fields(model, &tool.parameters);
        if !size.fits() {
            self.too_large(tool.name.span, &format!("tool `{}`", tool.name.text), size);
            return None;
        }
        let schema = Lowering::new(model, Mode::Inline).object(&tool.parameters, tool.name.span);
        self.warn_files(&schema);
        Some(schema)
    }

    /// A type's schema, inlined; `None` (reported) when too large.
    pub fn definition(&mut self, id: TypeId) -> Option<Schema<'m>> {
        let model = self.model;
        let size = self.sizes.definition(id);
        let name = &model.def(id).name;
        if !size.fits() {
            self.too_large(name.span, &format!("type `{}`", name.text), size);
            return None;
        }
        let schema = Lowering::new(model, Mode::Inline).definition(id);
        self.warn_files(&schema);
        Some(schema)
    }

    /// An object type for `--response`; other types are a usage error.
    pub fn response(&mut self, name: &str) -> Result<Option<Schema<'m>>, EmitError> {
        let id = find_type(self.model, name)?;
        let what = match &self.model.def(id).kind {
            TypeDefKind::Object(_) => return Ok(self.definition(id)),
            TypeDefKind::Union(_) => "a union",
            TypeDefKind::Array(_) => "an array type",
            TypeDefKind::Invalid => "not a valid type",
        };
        Err(EmitError::new(format!(
            "`--response` takes an object type, and `{name}` is {what}"
        ))
        .with_help(format!(
            "a structured reply is an object: declare an object type with a property of type `{name}`, or emit this one with `--type {name}`"
        )))
    }

    fn too_large(&mut self, span: crate::span::Span, what: &str, size: lower::Size) {
        let (measure, limit) = if size.nodes == u64::MAX {
            ("is too large to count".to_string(), String::new())
        } else if size.depth > lower::MAX_INLINED_DEPTH {
            (
                format!("is {} schemas deep", size.depth),
                format!(" (at most {} deep)", lower::MAX_INLINED_DEPTH),
            )
        } else {
            (
                format!("has {} schema nodes", size.nodes),
                format!(" (at most {} nodes)", lower::MAX_INLINED_NODES),
            )
        };
        self.diags.push(
            Diagnostic::new(
                Code::SchemaTooLarge,
                span,
                format!(
                    "{what} {measure} once its types are written out, more than agentc writes for {}{limit}",
                    self.target.display()
                ),
            )
            .with_help("a type used many times by a type that is itself used many times multiplies; give the schema fewer, flatter types"),
        );
    }

    /// `file` reaches a model as a reference object it can only copy.
    fn warn_files(&mut self, schema: &Schema) {
        let target = self.target;
        let diags = &mut *self.diags;
        schema.walk(&mut |visit| {
            if let lower::Visit::Schema(node, _) = visit
                && matches!(node.kind, Kind::File)
            {
                diags.push(
                    Diagnostic::new(
                        Code::FileReference,
                        node.span,
                        format!(
                            "`file` is sent to {} as a file-reference object (`id`, `mediaType`, `url`, `filename`, `size`)",
                            target.display()
                        ),
                    )
                    .with_help("a model cannot upload a file; it can only copy a reference it was given. Pass files as trigger inputs, or take a `string` URL"),
                );
            }
        });
    }
}

pub(crate) fn find_type(model: &Model, name: &str) -> Result<TypeId, EmitError> {
    model.lookup(name).ok_or_else(|| EmitError {
        message: format!("no type named `{name}` in the protocol"),
        help: Some(suggest(name, "types", || model.type_names())),
    })
}

pub(crate) fn find_tool<'m>(model: &'m Model, name: &str) -> Result<&'m Tool, EmitError> {
    let tools = || model.protocol.tools.iter().map(|t| t.name.text.as_str());
    model.tool(name).ok_or_else(|| EmitError {
        message: format!("no tool named `{name}` in the protocol"),
        help: Some(suggest(name, "tools", tools)),
    })
}

/// "did you mean `x`?", or else what there is to choose from: a name given
/// on the command line is a guess more often than a typo.
fn suggest<'a, I: Iterator<Item = &'a str>>(
    name: &str,
    what: &str,
    names: impl Fn() -> I,
) -> String {
    /// How many names are listed at most.
    const LISTED: usize = 12;
    if let Some(near) = did_you_mean(name, names()) {
        return near;
    }
    let listed: Vec<String> = names().take(LISTED).map(|n| format!("`{n}`")).collect();
    let count = names().count();
    match count {
        0 => format!("the protocol declares no {what}"),
        _ if count > LISTED => format!(
            "the protocol declares {count} {what}, among them {}",
            listed.join(", ")
        ),
        _ => format!("the {what} are {}", listed.join(", ")),
    }
}

/// A name in backticks, with its length when that is worth saying.
pub(crate) fn quote_name(name: &str) -> String {
    match name.chars().count() {
        length if length > 32 => format!("`{name}` ({length} characters)"),
        _ => format!("`{name}`"),
    }
}

/// Whether `name` is 1 to `max` characters from `[a-zA-Z0-9_-]` (and `.`
/// when `dot`): the name patterns OpenAI and Anthropic publish.
pub(crate) fn is_simple_name(name: &str, max: usize, dot: bool) -> bool {
    let length = name.chars().count();
    (1..=max).contains(&length)
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || (dot && c == '.'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    /// Entries printed one by one are the array (or the object holding
    /// it) printed whole, byte for byte.
    fn printed_alike(entries: Vec<Value>) {
        let whole = Output::Json(Value::Array(entries.clone())).into_text();
        let mut list = Entries::new(Selection::All, "", 0);
        let wrapped = Output::Json(json!({ "functionDeclarations": entries.clone() })).into_text();
        let mut inner = Entries::new(Selection::All, "{\n  \"functionDeclarations\": ", 1);
        let none = Diagnostics::default();
        for entry in entries {
            list.push(&none, entry.clone());
            inner.push(&none, entry);
        }
        assert_eq!(list.finish("").into_text(), whole);
        assert_eq!(inner.finish("\n}").into_text(), wrapped);
    }

    #[test]
    fn entries_print_as_the_whole_array() {
        printed_alike(vec![]);
        printed_alike(vec![json!({})]);
        printed_alike(vec![
            json!([]),
            json!({"a": [1, {"b": "x\ny"}], "c": {}}),
            json!(null),
        ]);
    }

    #[test]
    fn an_error_stops_the_entries() {
        let mut list = Entries::new(Selection::All, "", 0);
        let mut diags = Diagnostics::default();
        list.push(&diags, json!({"kept": true}));
        diags.push(Diagnostic::new(
            Code::SchemaTooDeep,
            crate::Span::new(0, 0),
            "deep",
        ));
        assert!(!list.keeps(&diags));
        list.push(&diags, json!({"kept": false}));
        assert_eq!(list.finish("").into_text(), "");
    }

    proptest! {
        #[test]
        fn entries_print_as_the_whole_array_for_any_values(
            entries in prop::collection::vec(crate::testing::json_value(), 0..6)
        ) {
            printed_alike(entries);
        }
    }
}
