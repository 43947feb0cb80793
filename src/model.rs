//! Names resolved into symbols, and the type graph: an edge from each type
//! to every type it mentions, labelled with where it mentions it. The model
//! owns the protocol; checks and emitters read both through it.

use crate::source::Span;
use crate::syntax::{Field, Protocol, TypeDef, TypeDefKind, TypeExpr, TypeExprKind};
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

pub struct Model {
    pub protocol: Protocol,
    /// Lookups only; never iterated, so its order never reaches output.
    index: HashMap<String, TypeId>,
    /// Node `i` is type `i`; each edge carries the span of the reference.
    pub graph: DiGraph<TypeId, Span>,
}

impl Model {
    pub fn new(protocol: Protocol) -> Model {
        let mut index = HashMap::new();
        for (i, def) in protocol.types.iter().enumerate() {
            // The syntax stage keeps only the first of duplicate names.
            index
                .entry(def.name.text.clone())
                .or_insert(TypeId(i as u32));
        }
        let mut graph = DiGraph::with_capacity(protocol.types.len(), protocol.types.len());
        for i in 0..protocol.types.len() {
            graph.add_node(TypeId(i as u32));
        }
        let mut model = Model {
            protocol,
            index,
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
        self.index.get(name).copied()
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
