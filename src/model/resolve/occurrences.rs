//! The one walk over the lowered protocol that records every place a
//! name is written, with its symbol, role, key and site, and what each
//! symbol resolves to.

use super::{MAIN_THREAD, Names, Occurrence, Role, Site, Symbol, SymbolId, SymbolKind, Target};
use crate::model::{field_references, references};
use crate::span::Span;
use crate::syntax::{
    ArgumentValue, Block, BlockKind, Field, InputMapping, Name, Protocol, Setting, ThreadConfig,
    TypeExpr, TypeExprKind,
};
use foldhash::{HashMap, HashMapExt};
use std::sync::Arc;

/// Every occurrence of every name in a protocol, in protocol order, each
/// with its symbol and what that resolves to. Built on first use (by the
/// language server, and the prompt checks of an agent folder): a check of
/// a lone file reads only the [`Names`].
#[derive(Debug, Default)]
pub struct Resolution {
    names: Arc<Names>,
    pub(super) symbols: Vec<Symbol>,
    /// By symbol: what it resolves to, if anything.
    targets: Vec<Option<Target>>,
    pub(super) occurrences: Vec<Occurrence>,
}

impl Resolution {
    /// Resolves every name of `protocol`, in one walk.
    pub fn new(protocol: &Protocol, names: Arc<Names>) -> Resolution {
        let mut builder = Builder {
            protocol,
            ids: HashMap::new(),
            site: Site::Declarations,
            scope: None,
            resolution: Resolution {
                names,
                ..Resolution::default()
            },
        };
        builder.protocol();
        let mut resolution = builder.resolution;
        resolution.resolve(protocol);
        resolution
    }

    /// The declarations and scopes the names were resolved against.
    pub fn names(&self) -> &Names {
        &self.names
    }

    /// What each symbol resolves to, once every occurrence is known.
    fn resolve(&mut self, protocol: &Protocol) {
        let names = &self.names;
        let d = &names.declarations;
        self.targets = self
            .symbols
            .iter()
            .map(|symbol| {
                let name = symbol.name.as_str();
                match symbol.kind {
                    SymbolKind::Type => d.types.get(name).map(|&id| Target::Type(id)),
                    SymbolKind::Variable => match &symbol.trigger {
                        Some(trigger) => {
                            let t = *d.triggers.get(trigger.as_str())?;
                            let input = protocol.triggers[t as usize]
                                .input
                                .iter()
                                .position(|f| f.name.text == name)?;
                            Some(Target::TriggerInput {
                                trigger: t,
                                input: input as u32,
                            })
                        }
                        None => d
                            .variables
                            .get(name)
                            .map(|&(origin, i)| Target::Variable(origin, i)),
                    },
                    SymbolKind::Trigger => d.triggers.get(name).map(|&i| Target::Trigger(i)),
                    SymbolKind::Tool => d.tools.get(name).map(|&i| Target::Tool(i)),
                    SymbolKind::Skill => d.skills.get(name).map(|&i| Target::Skill(i)),
                    SymbolKind::McpServer => d.mcp_servers.get(name).map(|&i| Target::McpServer(i)),
                    SymbolKind::Worker => d.workers.get(name).map(|&i| Target::Worker(i)),
                    SymbolKind::Thread => (names.is_started(name)
                        || (!names.worker && name == MAIN_THREAD))
                        .then_some(Target::Thread),
                    SymbolKind::Prompt | SymbolKind::Reference => Some(Target::File),
                }
            })
            .collect();
    }

    /// Every occurrence, in protocol order (a YAML alias's once per use).
    pub fn occurrences(&self) -> &[Occurrence] {
        &self.occurrences
    }

    pub fn symbol(&self, id: SymbolId) -> &Symbol {
        &self.symbols[id.0 as usize]
    }

    /// What `id` resolves to; `None` when nothing declares it.
    pub fn target(&self, id: SymbolId) -> Option<Target> {
        self.targets[id.0 as usize]
    }

    /// The occurrences whose name nothing declares, in protocol order.
    pub fn unresolved(&self) -> impl Iterator<Item = &Occurrence> {
        self.occurrences
            .iter()
            .filter(|o| self.target(o.symbol).is_none())
    }

    /// The names declared in the protocol of a kind, in declaration order,
    /// each once; for variables, the protocol-level ones.
    pub fn declared(&self, kind: SymbolKind) -> Vec<&str> {
        self.defined(|symbol| symbol.kind == kind && symbol.trigger.is_none())
    }

    fn defined(&self, wanted: impl Fn(&Symbol) -> bool) -> Vec<&str> {
        let mut seen = vec![false; self.symbols.len()];
        let mut names = Vec::new();
        for occurrence in &self.occurrences {
            let i = occurrence.symbol.0 as usize;
            if occurrence.role.is_definition() && !seen[i] && wanted(&self.symbols[i]) {
                seen[i] = true;
                names.push(self.symbols[i].name.as_str());
            }
        }
        names
    }

    /// The threads a block may talk to.
    pub fn threads(&self) -> Vec<&str> {
        self.names.threads()
    }

    /// The variables a block's `output` may write: those declared under
    /// `variables:` (an input or a resource is not written so).
    pub fn writable(&self) -> Vec<&str> {
        let mut seen = vec![false; self.symbols.len()];
        let mut names = Vec::new();
        for occurrence in &self.occurrences {
            let i = occurrence.symbol.0 as usize;
            let Some(symbol) = self.symbols.get(i) else {
                continue;
            };
            if occurrence.role.is_definition()
                && occurrence.key == "variables"
                && symbol.kind == SymbolKind::Variable
                && !seen[i]
            {
                seen[i] = true;
                names.push(symbol.name.as_str());
            }
        }
        names
    }

    /// The variables readable in the handler of the trigger named `trigger`
    /// (or outside any): its inputs, then the protocol-level ones.
    pub fn readable(&self, trigger: Option<&str>) -> Vec<&str> {
        let mut names = match trigger {
            Some(trigger) => self.defined(|symbol| {
                symbol.kind == SymbolKind::Variable && symbol.trigger.as_deref() == Some(trigger)
            }),
            None => Vec::new(),
        };
        for name in self.declared(SymbolKind::Variable) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
        names
    }
}

/// The symbol key while building: borrowed from the protocol, so an
/// occurrence of a known symbol allocates nothing.
type Key<'m> = (SymbolKind, &'m str, Option<u32>);

struct Builder<'m> {
    protocol: &'m Protocol,
    ids: HashMap<Key<'m>, SymbolId>,
    site: Site,
    /// The trigger whose inputs the current handler reads.
    scope: Option<u32>,
    resolution: Resolution,
}

impl<'m> Builder<'m> {
    fn add(&mut self, key: Key<'m>, span: Span, role: Role, under: &'static str) -> SymbolId {
        let symbols = &mut self.resolution.symbols;
        let protocol = self.protocol;
        let id = *self.ids.entry(key).or_insert_with(|| {
            let (kind, name, trigger) = key;
            symbols.push(Symbol {
                kind,
                name: name.to_string(),
                trigger: trigger.map(|t| protocol.triggers[t as usize].name.text.to_string()),
            });
            SymbolId(symbols.len() as u32 - 1)
        });
        self.resolution.occurrences.push(Occurrence {
            symbol: id,
            span,
            role,
            key: under,
            site: self.site,
            labelled: false,
        });
        id
    }

    fn name(
        &mut self,
        kind: SymbolKind,
        name: &'m Name,
        role: Role,
        key: &'static str,
    ) -> SymbolId {
        self.add((kind, name.text.as_str(), None), name.span, role, key)
    }

    fn names(
        &mut self,
        kind: SymbolKind,
        names: impl IntoIterator<Item = &'m Name>,
        key: &'static str,
    ) {
        for name in names {
            self.name(kind, name, Role::Use, key);
        }
    }

    /// A variable named in the current handler (or outside handlers): its
    /// trigger's own input when it has one of the name.
    fn variable(&mut self, name: &'m Name, role: Role, key: &'static str) {
        let own = self
            .scope
            .filter(|&t| self.resolution.names.trigger_input(t, &name.text).is_some());
        self.add(
            (SymbolKind::Variable, name.text.as_str(), own),
            name.span,
            role,
            key,
        );
    }

    /// An input mapping's source; in `input: [X]` the label too.
    fn mapping(&mut self, mapping: &'m InputMapping) {
        self.variable(&mapping.source, Role::Read, "input");
        if mapping.label.span == mapping.source.span
            && let Some(last) = self.resolution.occurrences.last_mut()
        {
            last.labelled = true;
        }
    }

    fn types_in_field(&mut self, field: &'m Field) {
        let mut found = Vec::new();
        field_references(field, &mut found);
        for (name, span) in found {
            self.add((SymbolKind::Type, name, None), span, Role::Use, "type");
        }
    }

    fn types_in_expr(&mut self, expr: &'m TypeExpr, key: &'static str) {
        match &expr.kind {
            TypeExprKind::Named(name) => {
                self.add((SymbolKind::Type, name, None), expr.span, Role::Use, key);
            }
            TypeExprKind::List(element) => self.types_in_expr(element, key),
            TypeExprKind::Builtin(_) | TypeExprKind::Array | TypeExprKind::Object => {}
        }
    }

    fn protocol(&mut self) {
        let protocol = self.protocol;
        for def in &protocol.types {
            self.name(SymbolKind::Type, &def.name, Role::Definition, "types");
            for (name, span) in references(def) {
                self.add((SymbolKind::Type, name, None), span, Role::Use, "type");
            }
        }
        let sections = [
            ("input", &protocol.input),
            ("resources", &protocol.resources),
            ("variables", &protocol.variables),
        ];
        for (section, fields) in sections {
            for field in fields {
                self.variable(&field.name, Role::Definition, section);
                self.types_in_field(field);
            }
        }
        for (t, trigger) in protocol.triggers.iter().enumerate() {
            self.name(
                SymbolKind::Trigger,
                &trigger.name,
                Role::Definition,
                "triggers",
            );
            self.scope = Some(t as u32);
            for field in &trigger.input {
                self.variable(&field.name, Role::Definition, "input");
                self.types_in_field(field);
            }
            self.scope = None;
        }
        for tool in &protocol.tools {
            self.name(SymbolKind::Tool, &tool.name, Role::Definition, "tools");
            for parameter in &tool.parameters {
                self.types_in_field(parameter);
            }
        }
        for skill in &protocol.skills {
            self.name(SymbolKind::Skill, &skill.name, Role::Definition, "skills");
        }
        for server in &protocol.mcp_servers {
            self.name(
                SymbolKind::McpServer,
                &server.name,
                Role::Definition,
                "mcpServers",
            );
        }
        for worker in &protocol.workers {
            self.name(
                SymbolKind::Worker,
                &worker.name,
                Role::Definition,
                "workers",
            );
            let parents = worker.tools.iter().map(|(_, parent)| parent);
            self.names(SymbolKind::Tool, parents, "tools");
        }
        if let Some(agent) = &protocol.agent {
            self.site = Site::Agent;
            self.config(&agent.config);
        }
        for (h, handler) in protocol.handlers.iter().enumerate() {
            self.site = Site::Handler {
                handler: h as u32,
                block: None,
            };
            self.scope = self.resolution.names.handler_scope(h);
            self.name(
                SymbolKind::Trigger,
                &handler.trigger,
                Role::Call,
                "handlers",
            );
            for (b, block) in handler.blocks.iter().enumerate() {
                self.site = Site::Handler {
                    handler: h as u32,
                    block: Some(b as u32),
                };
                self.block(block);
            }
        }
        self.scope = None;
        for (b, block) in protocol.steps.iter().enumerate() {
            self.site = Site::Step { block: b as u32 };
            self.block(block);
        }
        if let Some(output) = &protocol.output {
            self.site = Site::Output;
            self.variable(output, Role::Read, "output");
        }
    }

    fn config(&mut self, config: &'m ThreadConfig) {
        for (key, name) in &config.dynamic {
            self.variable(name, Role::Read, key);
        }
        if let Some(system) = &config.system {
            self.name(SymbolKind::Prompt, system, Role::Use, "system");
        }
        for mapping in &config.input {
            self.mapping(mapping);
        }
        self.names(SymbolKind::Tool, &config.tools, "tools");
        self.names(SymbolKind::Skill, &config.skills, "skills");
        self.names(SymbolKind::McpServer, &config.mcp_servers, "mcpServers");
        self.names(SymbolKind::Worker, &config.workers, "workers");
        self.names(SymbolKind::Reference, &config.references, "references");
        if let Some(management) = &config.context_management {
            let summarizer = &management.summarizer_worker;
            self.names(SymbolKind::Worker, summarizer, "summarizerWorker");
        }
    }

    fn block(&mut self, block: &'m Block) {
        if let Some(thread) = &block.thread {
            let role = match block.kind {
                Some(BlockKind::StartThread) => Role::Definition,
                _ => Role::Use,
            };
            self.name(SymbolKind::Thread, thread, role, "thread");
        }
        if let Some(output) = &block.output {
            self.variable(output, Role::Write, "output");
        }
        if let Some(resource) = &block.resource {
            self.variable(resource, Role::Write, "resource");
        }
        for mapping in &block.input {
            self.mapping(mapping);
        }
        for read in &block.reads {
            self.variable(&read.name, Role::Read, read.key);
        }
        if let Some(expr) = &block.response_type {
            self.types_in_expr(expr, "responseType");
        }
        if let Some(prompt) = &block.prompt {
            self.name(SymbolKind::Prompt, prompt, Role::Use, "prompt");
        }
        if let Some(tool) = &block.tool {
            self.name(SymbolKind::Tool, tool, Role::Call, "tool");
        }
        for argument in &block.arguments {
            if let ArgumentValue::Variable(name) = &argument.value {
                self.variable(name, Role::Read, "input");
            }
        }
        if let Some(worker) = &block.worker {
            self.name(SymbolKind::Worker, worker, Role::Call, "worker");
        }
        for (key, setting) in &block.models {
            if let Setting::Variable(name) = setting {
                self.variable(name, Role::Read, key);
            }
        }
        if let Some(config) = &block.config {
            self.config(config);
        }
    }
}
