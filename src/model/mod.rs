//! The protocol's names resolved into symbols ([`resolve`]), its format
//! ([`format`]), and the type graph: an edge from each type to every type
//! it mentions, labelled with where it mentions it. The model owns the
//! protocol; checks, emitters and the language server read them through it.

pub mod format;
pub mod resolve;

use crate::span::Span;
use crate::syntax::{
    Field, McpServer, Protocol, Skill, Tool, Trigger, TypeDef, TypeDefKind, TypeExpr, TypeExprKind,
    WorkerDecl,
};
use petgraph::graph::{DiGraph, NodeIndex};
use resolve::{Names, Resolution};
use std::sync::{Arc, OnceLock};

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

pub struct Model {
    pub protocol: Protocol,
    /// The declarations by name, and the scopes names are read in.
    names: Arc<Names>,
    /// Every use of every name, resolved once, when first asked for.
    resolution: OnceLock<Arc<Resolution>>,
    /// Node `i` is type `i`; each edge carries the span of the reference.
    pub graph: DiGraph<TypeId, Span>,
}

impl Model {
    pub fn new(protocol: Protocol) -> Model {
        let names = Arc::new(Names::new(&protocol));
        let mut graph = DiGraph::with_capacity(protocol.types.len(), protocol.types.len());
        for i in 0..protocol.types.len() {
            graph.add_node(TypeId(i as u32));
        }
        for (i, def) in protocol.types.iter().enumerate() {
            for (name, span) in references(def) {
                if let Some(target) = names.type_id(name) {
                    graph.add_edge(NodeIndex::new(i), NodeIndex::new(target.index()), span);
                }
            }
        }
        Model {
            protocol,
            names,
            resolution: OnceLock::new(),
            graph,
        }
    }

    /// The declarations by name and the scopes names are read in: what
    /// the checks look names up in.
    pub fn names(&self) -> &Names {
        &self.names
    }

    /// Every use of every name in the protocol, resolved (built on the
    /// first call).
    pub fn resolution(&self) -> &Resolution {
        self.resolution_arc()
    }

    /// The resolution, when it was asked for already.
    pub fn resolved(&self) -> Option<&Arc<Resolution>> {
        self.resolution.get()
    }

    /// The same, to keep past the model (the language server's index).
    pub fn resolution_arc(&self) -> &Arc<Resolution> {
        self.resolution
            .get_or_init(|| Arc::new(Resolution::new(&self.protocol, Arc::clone(&self.names))))
    }

    pub fn lookup(&self, name: &str) -> Option<TypeId> {
        self.names.type_id(name)
    }

    /// A protocol-level input, resource or variable.
    pub fn variable(&self, name: &str) -> Option<(VariableOrigin, &Field)> {
        let (origin, i) = self.names.variable(name)?;
        let fields = match origin {
            VariableOrigin::Input => &self.protocol.input,
            VariableOrigin::Resource => &self.protocol.resources,
            VariableOrigin::Variable => &self.protocol.variables,
        };
        Some((origin, &fields[i as usize]))
    }

    pub fn trigger(&self, name: &str) -> Option<&Trigger> {
        let i = self.names.trigger(name)?;
        Some(&self.protocol.triggers[i as usize])
    }

    pub fn tool(&self, name: &str) -> Option<&Tool> {
        let i = self.names.tool(name)?;
        Some(&self.protocol.tools[i as usize])
    }

    pub fn skill(&self, name: &str) -> Option<&Skill> {
        let i = self.names.skill(name)?;
        Some(&self.protocol.skills[i as usize])
    }

    pub fn mcp_server(&self, name: &str) -> Option<&McpServer> {
        let i = self.names.mcp_server(name)?;
        Some(&self.protocol.mcp_servers[i as usize])
    }

    pub fn worker(&self, name: &str) -> Option<&WorkerDecl> {
        let i = self.names.worker(name)?;
        Some(&self.protocol.workers[i as usize])
    }

    /// Whether the protocol is in the worker format (`steps`/`output`).
    pub fn is_worker(&self) -> bool {
        self.names.is_worker()
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
