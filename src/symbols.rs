//! Every place a protocol names something: where each type, tool, trigger,
//! variable, worker, thread, skill, MCP server, prompt and reference is
//! declared and where it is used. Editors navigate with it (definition,
//! references, rename); it reads the model and never reports.
//!
//! A name is one symbol per kind, except a trigger's inputs: `MESSAGE` of
//! trigger `user-message` is its own symbol, read only in that trigger's
//! handler, where it hides a protocol-level `MESSAGE`.

use crate::model::{Model, field_references};
use crate::source::{Source, Span};
use crate::syntax::{
    Block, Field, InputMapping, Name, Setting, ThreadConfig, TypeExpr, TypeExprKind,
};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    Type,
    Tool,
    Trigger,
    /// An input, resource or variable, or a trigger's input.
    Variable,
    Worker,
    Thread,
    Skill,
    McpServer,
    /// A file under `prompts/`; declared by the file, not in the protocol.
    Prompt,
    /// A file under `references/`.
    Reference,
}

impl SymbolKind {
    pub fn describe(self) -> &'static str {
        match self {
            SymbolKind::Type => "type",
            SymbolKind::Tool => "tool",
            SymbolKind::Trigger => "trigger",
            SymbolKind::Variable => "variable",
            SymbolKind::Worker => "worker",
            SymbolKind::Thread => "thread",
            SymbolKind::Skill => "skill",
            SymbolKind::McpServer => "MCP server",
            SymbolKind::Prompt => "prompt",
            SymbolKind::Reference => "reference",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Symbol {
    pub kind: SymbolKind,
    pub name: String,
    /// For a trigger's input, the trigger.
    pub trigger: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Definition,
    Reference,
}

/// One place a symbol's name is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occurrence {
    pub symbol: SymbolId,
    pub span: Span,
    pub role: Role,
    /// The name is also the label a prompt or worker sees (`input: [X]`
    /// passes `X` as `X`): a new name for the variable keeps the label
    /// (`X: NEW`).
    pub labelled: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SymbolId(u32);

/// The symbols of one protocol and their occurrences, in source order.
#[derive(Debug, Default)]
pub struct Index {
    symbols: Vec<Symbol>,
    occurrences: Vec<Occurrence>,
}

impl Index {
    /// The index of `model`, compiled from `source`. A place is kept only
    /// where the text under its span is the name itself (quotes aside), so
    /// an edit there can never reach past the name: a type written with
    /// escapes (`"Fo\x6F[]"`) has only its whole scalar's span.
    pub fn new(model: &Model, source: &Source) -> Index {
        let mut builder = Builder {
            model,
            ids: HashMap::new(),
            index: Index::default(),
        };
        builder.protocol();
        let mut index = builder.index;
        let symbols = &index.symbols;
        index
            .occurrences
            .retain(|o| unquoted(source, o.span).1 == symbols[o.symbol.0 as usize].name);
        // A YAML alias repeats its anchor's spans; keep each place once.
        index
            .occurrences
            .sort_by_key(|o| (o.span.start, o.span.end));
        index.occurrences.dedup_by_key(|o| o.span);
        index
    }

    pub fn symbol(&self, id: SymbolId) -> &Symbol {
        &self.symbols[id.0 as usize]
    }

    /// The occurrence whose name contains `offset`, or ends at it (a cursor
    /// just after a name is on it).
    pub fn at(&self, offset: usize) -> Option<&Occurrence> {
        let offset = offset as u32;
        // Occurrences do not overlap; the last one starting at or before
        // `offset` is the only candidate.
        let after = self.occurrences.partition_point(|o| o.span.start <= offset);
        let candidate = self.occurrences[..after].last()?;
        (candidate.span.end >= offset).then_some(candidate)
    }

    /// Every occurrence of `id`, in source order.
    pub fn occurrences(&self, id: SymbolId) -> impl Iterator<Item = &Occurrence> {
        self.occurrences.iter().filter(move |o| o.symbol == id)
    }

    /// Where `id` is declared (first declaration first).
    pub fn definitions(&self, id: SymbolId) -> impl Iterator<Item = &Occurrence> {
        self.occurrences(id).filter(|o| o.role == Role::Definition)
    }

    /// The symbols of a kind, in the order first seen.
    pub fn symbols(&self, kind: SymbolKind) -> impl Iterator<Item = &Symbol> {
        self.symbols.iter().filter(move |s| s.kind == kind)
    }
}

struct Builder<'m> {
    model: &'m Model,
    ids: HashMap<Symbol, SymbolId>,
    index: Index,
}

impl<'m> Builder<'m> {
    fn add(&mut self, symbol: Symbol, span: Span, role: Role) {
        let symbols = &mut self.index.symbols;
        let id = *self.ids.entry(symbol).or_insert_with_key(|symbol| {
            symbols.push(symbol.clone());
            SymbolId(symbols.len() as u32 - 1)
        });
        self.index.occurrences.push(Occurrence {
            symbol: id,
            span,
            role,
            labelled: false,
        });
    }

    fn name(&mut self, kind: SymbolKind, name: &Name, role: Role) {
        let symbol = Symbol {
            kind,
            name: name.text.clone(),
            trigger: None,
        };
        self.add(symbol, name.span, role);
    }

    fn names<'n>(&mut self, kind: SymbolKind, names: impl IntoIterator<Item = &'n Name>) {
        for name in names {
            self.name(kind, name, Role::Reference);
        }
    }

    /// A variable read in the handler of `trigger` (or outside handlers).
    fn variable(&mut self, name: &Name, role: Role, trigger: Option<&str>) {
        let own_input = trigger.filter(|t| {
            self.model
                .trigger(t)
                .is_some_and(|t| t.input.iter().any(|f| f.name.text == name.text))
        });
        let symbol = Symbol {
            kind: SymbolKind::Variable,
            name: name.text.clone(),
            trigger: own_input.map(str::to_string),
        };
        self.add(symbol, name.span, role);
    }

    /// An input mapping's source; in `input: [X]` the label too.
    fn mapping(&mut self, mapping: &InputMapping, trigger: Option<&str>) {
        self.variable(&mapping.source, Role::Reference, trigger);
        if mapping.label.span == mapping.source.span {
            if let Some(last) = self.index.occurrences.last_mut() {
                last.labelled = true;
            }
        }
    }

    fn setting(&mut self, setting: &Option<Setting>, trigger: Option<&str>) {
        if let Some(Setting::Variable(name)) = setting {
            self.variable(name, Role::Reference, trigger);
        }
    }

    fn types_in_field(&mut self, field: &Field) {
        let mut found = Vec::new();
        field_references(field, &mut found);
        for (name, span) in found {
            let symbol = Symbol {
                kind: SymbolKind::Type,
                name: name.to_string(),
                trigger: None,
            };
            self.add(symbol, span, Role::Reference);
        }
    }

    fn types_in_expr(&mut self, expr: &TypeExpr) {
        match &expr.kind {
            TypeExprKind::Named(name) => {
                let symbol = Symbol {
                    kind: SymbolKind::Type,
                    name: name.clone(),
                    trigger: None,
                };
                self.add(symbol, expr.span, Role::Reference);
            }
            TypeExprKind::List(element) => self.types_in_expr(element),
            TypeExprKind::Builtin(_) | TypeExprKind::Array | TypeExprKind::Object => {}
        }
    }

    fn protocol(&mut self) {
        let protocol = &self.model.protocol;
        for def in &protocol.types {
            self.name(SymbolKind::Type, &def.name, Role::Definition);
            for (name, span) in crate::model::references(def) {
                let symbol = Symbol {
                    kind: SymbolKind::Type,
                    name: name.to_string(),
                    trigger: None,
                };
                self.add(symbol, span, Role::Reference);
            }
        }
        let fields = protocol
            .input
            .iter()
            .chain(&protocol.resources)
            .chain(&protocol.variables);
        for field in fields {
            self.variable(&field.name, Role::Definition, None);
            self.types_in_field(field);
        }
        for trigger in &protocol.triggers {
            self.name(SymbolKind::Trigger, &trigger.name, Role::Definition);
            for field in &trigger.input {
                self.variable(&field.name, Role::Definition, Some(&trigger.name.text));
                self.types_in_field(field);
            }
        }
        for tool in &protocol.tools {
            self.name(SymbolKind::Tool, &tool.name, Role::Definition);
            for parameter in &tool.parameters {
                self.types_in_field(parameter);
            }
        }
        for skill in &protocol.skills {
            self.name(SymbolKind::Skill, &skill.name, Role::Definition);
        }
        for server in &protocol.mcp_servers {
            self.name(SymbolKind::McpServer, &server.name, Role::Definition);
        }
        for worker in &protocol.workers {
            self.name(SymbolKind::Worker, &worker.name, Role::Definition);
            self.names(
                SymbolKind::Tool,
                worker.tools.iter().map(|(_, parent)| parent),
            );
        }
        if let Some(agent) = &protocol.agent {
            self.config(&agent.config, None);
        }
        for handler in &protocol.handlers {
            self.name(SymbolKind::Trigger, &handler.trigger, Role::Reference);
            for block in &handler.blocks {
                self.block(block, Some(&handler.trigger.text));
            }
        }
        for block in &protocol.steps {
            self.block(block, None);
        }
        if let Some(output) = &protocol.output {
            self.variable(output, Role::Reference, None);
        }
    }

    fn config(&mut self, config: &ThreadConfig, trigger: Option<&str>) {
        let settings = [
            &config.model,
            &config.backup_model,
            &config.image_model,
            &config.video_model,
            &config.speech_model,
            &config.speech_voice,
            &config.transcription_model,
            &config.temperature,
            &config.thinking,
            &config.speed,
            &config.max_steps,
        ];
        for setting in settings {
            self.setting(setting, trigger);
        }
        if let Some(system) = &config.system {
            self.name(SymbolKind::Prompt, system, Role::Reference);
        }
        for mapping in &config.input {
            self.mapping(mapping, trigger);
        }
        self.names(SymbolKind::Tool, &config.tools);
        self.names(SymbolKind::Skill, &config.skills);
        self.names(SymbolKind::McpServer, &config.mcp_servers);
        self.names(SymbolKind::Worker, &config.workers);
        self.names(SymbolKind::Reference, &config.references);
        if let Some(management) = &config.context_management {
            self.names(SymbolKind::Worker, &management.summarizer_worker);
        }
    }

    fn block(&mut self, block: &Block, trigger: Option<&str>) {
        if let Some(thread) = &block.thread {
            let role = match block.kind {
                Some(crate::syntax::BlockKind::StartThread) => Role::Definition,
                _ => Role::Reference,
            };
            self.name(SymbolKind::Thread, thread, role);
        }
        for name in block.output.iter().chain(&block.resource) {
            self.variable(name, Role::Reference, trigger);
        }
        for mapping in &block.input {
            self.mapping(mapping, trigger);
        }
        for read in &block.reads {
            self.variable(&read.name, Role::Reference, trigger);
        }
        if let Some(expr) = &block.response_type {
            self.types_in_expr(expr);
        }
        if let Some(prompt) = &block.prompt {
            self.name(SymbolKind::Prompt, prompt, Role::Reference);
        }
        if let Some(tool) = &block.tool {
            self.name(SymbolKind::Tool, tool, Role::Reference);
        }
        for argument in &block.arguments {
            if let Setting::Variable(name) = &argument.value {
                self.variable(name, Role::Reference, trigger);
            }
        }
        if let Some(worker) = &block.worker {
            self.name(SymbolKind::Worker, worker, Role::Reference);
        }
        for setting in &block.models {
            if let Setting::Variable(name) = setting {
                self.variable(name, Role::Reference, trigger);
            }
        }
        if let Some(config) = &block.config {
            self.config(config, trigger);
        }
    }
}

/// The name under a span without the quotes of a quoted scalar: its span
/// and its text.
pub fn unquoted(source: &Source, span: Span) -> (Span, &str) {
    let text = source.slice(span);
    let quoted = text.len() >= 2
        && ((text.starts_with('"') && text.ends_with('"'))
            || (text.starts_with('\'') && text.ends_with('\'')));
    if quoted {
        let inner = Span::new(span.start as usize + 1, span.end as usize - 1);
        (inner, source.slice(inner))
    } else {
        (span, text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::BlockKind;

    /// `BlockKind::names_variables`, which completion reads, says exactly
    /// which keys the lowering reads as variables: for every key of every
    /// block kind, `key: SOME_VAR` is a variable reference in the index
    /// just when it says so.
    #[test]
    fn names_variables_agrees_with_the_lowering() {
        for kind in BlockKind::ALL {
            for &key in kind.keys().iter().chain(&["output"]) {
                if key == "input" || key == "thread" {
                    continue;
                }
                // A single name, or a list of them (`files`).
                let read = ["SOME_VAR", "[SOME_VAR]"].into_iter().any(|value| {
                    let text = format!(
                        "variables:\n  SOME_VAR: {{ type: string }}\ntriggers:\n  go: {{ input: {{}} }}\nhandlers:\n  go:\n    Step:\n      block: {}\n      {key}: {value}\n",
                        kind.name()
                    );
                    let compiled = crate::compile("t.yaml", text.as_bytes());
                    let Some(model) = &compiled.model else {
                        return false;
                    };
                    let index = Index::new(model, &compiled.source);
                    let at = text.rfind("SOME_VAR").unwrap_or(0);
                    index
                        .at(at)
                        .is_some_and(|o| index.symbol(o.symbol).kind == SymbolKind::Variable)
                });
                assert_eq!(read, kind.names_variables(key), "{} `{key}`", kind.name());
            }
        }
    }
}
