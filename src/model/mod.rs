//! The protocol's names resolved into symbols ([`resolve`]), its format
//! ([`format`]), and the type graph: an edge from each type to every type
//! it mentions, labelled with where it mentions it. The model owns the
//! protocol; checks, emitters and the language server read them through it.

pub mod format;
pub mod resolve;

use crate::span::Span;
use crate::syntax::{
    Field, Listed, McpServer, Protocol, Skill, Text, Tool, Trigger, TypeDef, TypeDefKind, TypeExpr,
    TypeExprKind, WorkerDecl,
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
        let graph = type_graph(&protocol, &names);
        Model {
            protocol,
            names,
            resolution: OnceLock::new(),
            graph,
        }
    }

    /// The protocol, and what the model after an edit may reuse.
    pub(crate) fn into_parts(self) -> (Protocol, Earlier) {
        let earlier = Earlier {
            names: self.names,
            graph: self.graph,
        };
        (self.protocol, earlier)
    }

    /// The model of `protocol`, which `edit` made from the protocol
    /// `earlier` was built for: the same as [`Model::new`]'s, reusing the
    /// names when they read the same of the edited entry, and the type
    /// graph, its references moved, when the edited entry names the same
    /// types.
    pub(crate) fn again(protocol: Protocol, earlier: Earlier, edit: &Edit) -> Model {
        let Earlier { names, mut graph } = earlier;
        if !edit.same_names || graph.node_count() != protocol.types.len() {
            return Model::new(protocol);
        }
        let kept = match (edit.section, &edit.before) {
            (Listed::Types, Some(before)) => protocol
                .types
                .get(edit.index)
                .filter(|def| before.same_references(def))
                .is_some_and(|def| move_references(&mut graph, edit, def, &names)),
            (Listed::Types, None) => false,
            (Listed::Tools | Listed::Triggers | Listed::Handlers, _) => {
                for span in graph.edge_weights_mut() {
                    move_after(span, edit);
                }
                true
            }
        };
        if !kept {
            graph = type_graph(&protocol, &names);
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

/// Node `i` is type `i`; an edge for each reference that resolves, in
/// declaration order, then in source order.
fn type_graph(protocol: &Protocol, names: &Names) -> DiGraph<TypeId, Span> {
    let mut graph = DiGraph::with_capacity(protocol.types.len(), protocol.types.len());
    for i in 0..protocol.types.len() {
        graph.add_node(TypeId(i as u32));
    }
    // One list of references, cleared for each type, rather than one
    // allocated for each.
    let mut found = Vec::new();
    for (i, def) in protocol.types.iter().enumerate() {
        found.clear();
        references_into(def, &mut found);
        for &(name, span) in &found {
            if let Some(target) = names.type_id(name) {
                graph.add_edge(NodeIndex::new(i), NodeIndex::new(target.index()), span);
            }
        }
    }
    graph
}

/// What a model leaves for the model after an edit ([`Model::again`]).
#[derive(Debug)]
pub(crate) struct Earlier {
    names: Arc<Names>,
    graph: DiGraph<TypeId, Span>,
}

/// An edit inside one entry of a listed section (`crate::incremental`),
/// as the model and the checks after it read it.
#[derive(Debug)]
pub(crate) struct Edit {
    pub(crate) section: Listed,
    /// The entry's index in its section.
    pub(crate) index: usize,
    /// The edited type before the edit, when the entry is a type.
    pub(crate) before: Option<TypeBefore>,
    /// Whether what the names read of the entry ([`resolve::read_of`]:
    /// its key, a trigger's inputs, the threads a handler starts) is what
    /// they read before.
    pub(crate) same_names: bool,
    /// The edited entry's lines in the text before the edit.
    pub(crate) region: Span,
    /// How far the text after them moved.
    pub(crate) delta: i64,
}

/// Moves a place in the text before the edit to the text after it, when
/// it is past the edited lines.
fn move_after(span: &mut Span, edit: &Edit) {
    if span.start >= edit.region.end {
        *span = span.shifted(edit.delta);
    }
}

/// Moves the references in `graph` past the edit, and gives the edited
/// type's the places they have now (the same types, in the same order);
/// false when they do not match.
fn move_references(
    graph: &mut DiGraph<TypeId, Span>,
    edit: &Edit,
    def: &TypeDef,
    names: &Names,
) -> bool {
    let mut now = references(def)
        .into_iter()
        .filter(|(name, _)| names.type_id(name).is_some())
        .map(|(_, span)| span);
    let edited = NodeIndex::new(edit.index);
    let edges: Vec<_> = graph.edge_indices().collect();
    for e in edges {
        let from_edited = graph
            .edge_endpoints(e)
            .is_some_and(|(from, _)| from == edited);
        let Some(span) = graph.edge_weight_mut(e) else {
            return false;
        };
        if from_edited {
            match now.next() {
                Some(new) => *span = new,
                None => return false,
            }
        } else {
            move_after(span, edit);
        }
    }
    now.next().is_none()
}

/// What an edited type was before the edit, as far as the model and the
/// checks of the other types read it.
#[derive(Clone, Debug)]
pub(crate) struct TypeBefore {
    /// The type names it used, in order.
    references: Vec<Text>,
    discriminator: Option<Text>,
}

impl TypeBefore {
    pub(crate) fn of(def: &TypeDef) -> TypeBefore {
        TypeBefore {
            references: references(def)
                .into_iter()
                .map(|(name, _)| Text::from(name))
                .collect(),
            discriminator: def.discriminator().map(Text::from),
        }
    }

    /// Whether `def` uses the same type names in the same order.
    pub(crate) fn same_references(&self, def: &TypeDef) -> bool {
        let now = references(def);
        now.len() == self.references.len()
            && now.iter().zip(&self.references).all(|((a, _), b)| a == b)
    }

    pub(crate) fn same_discriminator(&self, def: &TypeDef) -> bool {
        def.discriminator() == self.discriminator.as_deref()
    }

    /// The type names it used.
    pub(crate) fn references(&self) -> impl Iterator<Item = &str> {
        self.references.iter().map(Text::as_str)
    }
}

/// Every type name a definition mentions, with where, in source order.
pub fn references(def: &TypeDef) -> Vec<(&str, Span)> {
    let mut out = Vec::new();
    references_into(def, &mut out);
    out
}

/// [`references`], added to `out`.
fn references_into<'a>(def: &'a TypeDef, out: &mut Vec<(&'a str, Span)>) {
    match &def.kind {
        TypeDefKind::Object(properties) => {
            for property in properties {
                field_references(property, out);
            }
        }
        TypeDefKind::Array(field) => field_references(field, out),
        TypeDefKind::Union(union) => {
            for variant in &union.variants {
                expr_references(variant, out);
            }
        }
        TypeDefKind::Invalid => {}
    }
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
