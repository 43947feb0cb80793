//! Names resolved into symbols, and the type graph: an edge from each type
//! to every type it mentions, labelled with where it mentions it. The model
//! owns the protocol; checks and emitters read both through it.

use crate::source::Span;
use crate::syntax::{
    Field, McpServer, Protocol, Skill, Tool, Trigger, TypeDef, TypeDefKind, TypeExpr, TypeExprKind,
    WorkerDecl,
};
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::HashMap;

/// A declared type, by its position in `types:`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TypeId(pub u32);

impl TypeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Where a variable-like name is declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariableOrigin {
    Input,
    Resource,
    Variable,
}

impl VariableOrigin {
    pub fn describe(self) -> &'static str {
        match self {
            VariableOrigin::Input => "an input",
            VariableOrigin::Resource => "a resource",
            VariableOrigin::Variable => "a variable",
        }
    }
}

/// The protocol's names, resolved: each kind of symbol by name, first
/// declaration wins. Lookups only; never iterated.
#[derive(Default)]
struct Symbols {
    types: HashMap<String, TypeId>,
    variables: HashMap<String, (VariableOrigin, usize)>,
    triggers: HashMap<String, usize>,
    tools: HashMap<String, usize>,
    skills: HashMap<String, usize>,
    mcp_servers: HashMap<String, usize>,
    workers: HashMap<String, usize>,
}

fn index_of<'a>(names: impl Iterator<Item = &'a str>) -> HashMap<String, usize> {
    let mut index = HashMap::new();
    for (i, name) in names.enumerate() {
        index.entry(name.to_string()).or_insert(i);
    }
    index
}

pub struct Model {
    pub protocol: Protocol,
    symbols: Symbols,
    /// Node `i` is type `i`; each edge carries the span of the reference.
    pub graph: DiGraph<TypeId, Span>,
}

impl Model {
    pub fn new(protocol: Protocol) -> Model {
        let mut symbols = Symbols::default();
        for (i, def) in protocol.types.iter().enumerate() {
            // The syntax stage keeps only the first of duplicate names.
            symbols
                .types
                .entry(def.name.text.clone())
                .or_insert(TypeId(i as u32));
        }
        let sections = [
            (VariableOrigin::Input, &protocol.input),
            (VariableOrigin::Resource, &protocol.resources),
            (VariableOrigin::Variable, &protocol.variables),
        ];
        for (origin, fields) in sections {
            for (i, field) in fields.iter().enumerate() {
                symbols
                    .variables
                    .entry(field.name.text.clone())
                    .or_insert((origin, i));
            }
        }
        symbols.triggers = index_of(protocol.triggers.iter().map(|t| t.name.text.as_str()));
        symbols.tools = index_of(protocol.tools.iter().map(|t| t.name.text.as_str()));
        symbols.skills = index_of(protocol.skills.iter().map(|s| s.name.text.as_str()));
        symbols.mcp_servers = index_of(protocol.mcp_servers.iter().map(|m| m.name.text.as_str()));
        symbols.workers = index_of(protocol.workers.iter().map(|w| w.name.text.as_str()));
        let mut graph = DiGraph::with_capacity(protocol.types.len(), protocol.types.len());
        for i in 0..protocol.types.len() {
            graph.add_node(TypeId(i as u32));
        }
        let mut model = Model {
            protocol,
            symbols,
            graph,
        };
        let mut edges = Vec::new();
        for (i, def) in model.protocol.types.iter().enumerate() {
            for (name, span) in references(def) {
                if let Some(target) = model.lookup(name) {
                    edges.push((NodeIndex::new(i), NodeIndex::new(target.index()), span));
                }
            }
        }
        for (from, to, span) in edges {
            model.graph.add_edge(from, to, span);
        }
        model
    }

    pub fn lookup(&self, name: &str) -> Option<TypeId> {
        self.symbols.types.get(name).copied()
    }

    /// A protocol-level input, resource or variable.
    pub fn variable(&self, name: &str) -> Option<(VariableOrigin, &Field)> {
        let &(origin, i) = self.symbols.variables.get(name)?;
        let fields = match origin {
            VariableOrigin::Input => &self.protocol.input,
            VariableOrigin::Resource => &self.protocol.resources,
            VariableOrigin::Variable => &self.protocol.variables,
        };
        Some((origin, &fields[i]))
    }

    pub fn trigger(&self, name: &str) -> Option<&Trigger> {
        let &i = self.symbols.triggers.get(name)?;
        Some(&self.protocol.triggers[i])
    }

    pub fn tool(&self, name: &str) -> Option<&Tool> {
        let &i = self.symbols.tools.get(name)?;
        Some(&self.protocol.tools[i])
    }

    pub fn skill(&self, name: &str) -> Option<&Skill> {
        let &i = self.symbols.skills.get(name)?;
        Some(&self.protocol.skills[i])
    }

    pub fn mcp_server(&self, name: &str) -> Option<&McpServer> {
        let &i = self.symbols.mcp_servers.get(name)?;
        Some(&self.protocol.mcp_servers[i])
    }

    pub fn worker(&self, name: &str) -> Option<&WorkerDecl> {
        let &i = self.symbols.workers.get(name)?;
        Some(&self.protocol.workers[i])
    }

    /// Whether the protocol is in the worker format (`steps`/`output`).
    pub fn is_worker(&self) -> bool {
        self.protocol.section("steps").is_some() || self.protocol.section("output").is_some()
    }

    pub fn def(&self, id: TypeId) -> &TypeDef {
        &self.protocol.types[id.index()]
    }

    pub fn type_names(&self) -> impl Iterator<Item = &str> {
        self.protocol.types.iter().map(|def| def.name.text.as_str())
    }
}

/// Every type name a definition mentions, with where, in source order.
pub fn references(def: &TypeDef) -> Vec<(&str, Span)> {
    let mut out = Vec::new();
    match &def.kind {
        TypeDefKind::Object(properties) => {
            for property in properties {
                field_references(property, &mut out);
            }
        }
        TypeDefKind::Array(field) => field_references(field, &mut out),
        TypeDefKind::Union(union) => {
            for variant in &union.variants {
                expr_references(variant, &mut out);
            }
        }
        TypeDefKind::Invalid => {}
    }
    out
}

pub fn field_references<'a>(field: &'a Field, out: &mut Vec<(&'a str, Span)>) {
    if let Some(ty) = &field.ty {
        expr_references(ty, out);
    }
    if let Some(items) = &field.items {
        field_references(items, out);
    }
}

fn expr_references<'a>(expr: &'a TypeExpr, out: &mut Vec<(&'a str, Span)>) {
    match &expr.kind {
        TypeExprKind::Named(name) => out.push((name, expr.span)),
        TypeExprKind::List(element) => expr_references(element, out),
        TypeExprKind::Builtin(_) | TypeExprKind::Array | TypeExprKind::Object => {}
    }
}
