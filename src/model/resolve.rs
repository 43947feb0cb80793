//! Every use of every name, resolved once: for each place a protocol
//! names a type, tool, trigger, variable, worker, thread, skill, MCP
//! server, prompt or reference, which symbol it is, what it does there (its
//! [`Role`]), the key it sits under, the [`Site`] (agent, handler, step),
//! and what it resolves to ([`Target`], or nothing when it is not
//! declared). [`crate::Model::new`] builds it; the checks, the prompt
//! checks and the language server (completion, and through [`Index`]
//! navigation) read it. It never reports.
//!
//! A name is one symbol per kind, except a trigger's inputs: `MESSAGE` of
//! trigger `user-message` is its own symbol, read only in that trigger's
//! handler, where it hides a protocol-level `MESSAGE`. A handler under a
//! misspelt trigger name is read as the handler of the trigger it most
//! likely means (the check reports the name once).

use super::{TypeId, VariableOrigin, field_references, references};
use crate::diagnostic::nearest;
use crate::grammar;
use crate::source::Source;
use crate::span::Span;
use crate::syntax::{
    Block, BlockKind, Field, InputMapping, Name, Protocol, Setting, ThreadConfig, TypeExpr,
    TypeExprKind,
};
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::sync::Arc;

/// The interactive agent's default thread, which no block starts.
pub const MAIN_THREAD: &str = "main";

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

    /// The kind a grammar key's name refers to; `None` for MCP sources,
    /// which are words of the grammar, not declared names.
    pub fn of(refers: grammar::Refers) -> Option<SymbolKind> {
        use grammar::Refers;
        Some(match refers {
            Refers::Variable => SymbolKind::Variable,
            Refers::Tool => SymbolKind::Tool,
            Refers::Skill => SymbolKind::Skill,
            Refers::McpServer => SymbolKind::McpServer,
            Refers::McpSource => return None,
            Refers::Worker => SymbolKind::Worker,
            Refers::Thread => SymbolKind::Thread,
            Refers::Prompt => SymbolKind::Prompt,
            Refers::Reference => SymbolKind::Reference,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Symbol {
    pub kind: SymbolKind,
    pub name: String,
    /// For a trigger's input, the trigger.
    pub trigger: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SymbolId(u32);

/// What an occurrence does with its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Declares it (`tools: {search: ...}`, a `start-thread`'s `thread`).
    Definition,
    /// Reads a variable's value (`input:` sources, `uiContent`, `model:
    /// MODEL`, a worker's `output`).
    Read,
    /// Writes a variable (`output:`) or a resource (`set-resource`).
    Write,
    /// Runs it: a `tool-call`'s `tool`, a `run-worker`'s `worker`, a
    /// handler's trigger.
    Call,
    /// Any other mention: a tool offered to a thread, a type in a type
    /// expression, a prompt, a thread a block talks to.
    Use,
}

impl Role {
    pub fn is_definition(self) -> bool {
        self == Role::Definition
    }
}

/// Where in the protocol an occurrence stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    /// A declaration section (`types`, `tools`, `workers`, ...).
    Declarations,
    /// The `agent:` section.
    Agent,
    /// A handler (by its position in `handlers:`), in one of its blocks or
    /// on its trigger name.
    Handler { handler: u32, block: Option<u32> },
    /// A worker's step, by position.
    Step { block: u32 },
    /// A worker's `output:`.
    Output,
}

impl Site {
    /// The block, in its handler or in `steps`.
    pub fn block(self) -> Option<u32> {
        match self {
            Site::Handler { block, .. } => block,
            Site::Step { block } => Some(block),
            _ => None,
        }
    }
}

/// What a symbol resolves to: its declaration, by position in its section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Type(TypeId),
    /// A protocol-level input, resource or variable.
    Variable(VariableOrigin, u32),
    TriggerInput {
        trigger: u32,
        input: u32,
    },
    Trigger(u32),
    Tool(u32),
    Skill(u32),
    McpServer(u32),
    Worker(u32),
    /// Started by some `start-thread`, or the interactive main thread.
    Thread,
    /// A file of the agent folder (`prompts/`, `references/`): resolved by
    /// the agent's checks, which read the folder.
    File,
}

/// One place a symbol's name is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occurrence {
    pub symbol: SymbolId,
    pub span: Span,
    pub role: Role,
    /// The key it is written under (`tools`, `output`, `uiContent`); for a
    /// declaration, its section.
    pub key: &'static str,
    pub site: Site,
    /// The name is also the label a prompt or worker sees (`input: [X]`
    /// passes `X` as `X`): a new name for the variable keeps the label
    /// (`X: NEW`).
    pub labelled: bool,
}

/// The protocol's declarations by name, first declaration wins. Lookups
/// only; never iterated, so no map order reaches any output.
#[derive(Debug, Default)]
struct Declarations {
    types: HashMap<String, TypeId>,
    variables: HashMap<String, (VariableOrigin, u32)>,
    triggers: HashMap<String, u32>,
    tools: HashMap<String, u32>,
    skills: HashMap<String, u32>,
    mcp_servers: HashMap<String, u32>,
    workers: HashMap<String, u32>,
    /// A trigger input's name → each (trigger, input) declaring it, in
    /// order.
    trigger_inputs: HashMap<String, Vec<(u32, u32)>>,
}

fn index_of<'a>(names: impl Iterator<Item = &'a Name>) -> HashMap<String, u32> {
    let mut index = HashMap::new();
    for (i, name) in names.enumerate() {
        index.entry(name.text.clone()).or_insert(i as u32);
    }
    index
}

impl Declarations {
    fn new(protocol: &Protocol) -> Declarations {
        let mut types = HashMap::new();
        for (i, def) in protocol.types.iter().enumerate() {
            // The syntax stage keeps only the first of duplicate names.
            types
                .entry(def.name.text.clone())
                .or_insert(TypeId(i as u32));
        }
        let mut variables = HashMap::new();
        let sections = [
            (VariableOrigin::Input, &protocol.input),
            (VariableOrigin::Resource, &protocol.resources),
            (VariableOrigin::Variable, &protocol.variables),
        ];
        for (origin, fields) in sections {
            for (i, field) in fields.iter().enumerate() {
                variables
                    .entry(field.name.text.clone())
                    .or_insert((origin, i as u32));
            }
        }
        let mut trigger_inputs: HashMap<String, Vec<(u32, u32)>> = HashMap::new();
        for (t, trigger) in protocol.triggers.iter().enumerate() {
            for (i, field) in trigger.input.iter().enumerate() {
                let owners = trigger_inputs.entry(field.name.text.clone()).or_default();
                if !owners.iter().any(|&(owner, _)| owner == t as u32) {
                    owners.push((t as u32, i as u32));
                }
            }
        }
        Declarations {
            types,
            variables,
            triggers: index_of(protocol.triggers.iter().map(|t| &t.name)),
            tools: index_of(protocol.tools.iter().map(|t| &t.name)),
            skills: index_of(protocol.skills.iter().map(|s| &s.name)),
            mcp_servers: index_of(protocol.mcp_servers.iter().map(|m| &m.name)),
            workers: index_of(protocol.workers.iter().map(|w| &w.name)),
            trigger_inputs,
        }
    }
}

/// The protocol's declarations by name and the scopes names are read in:
/// what every lookup reads. Built with the model, from the declarations
/// alone, so a check pays nothing per use of a name.
#[derive(Debug, Default)]
pub struct Names {
    declarations: Declarations,
    /// By handler: the trigger whose inputs its blocks read (the trigger of
    /// its name, or the one it most likely means).
    scopes: Vec<Option<u32>>,
    /// Threads some `start-thread` starts, in protocol order, each once.
    started: Vec<String>,
    /// The same, for lookups.
    started_names: HashSet<String>,
    worker: bool,
}

impl Names {
    pub fn new(protocol: &Protocol) -> Names {
        let declarations = Declarations::new(protocol);
        let scopes = protocol
            .handlers
            .iter()
            .map(|handler| {
                let name = handler.trigger.text.as_str();
                declarations.triggers.get(name).copied().or_else(|| {
                    let triggers = protocol.triggers.iter().map(|t| t.name.text.as_str());
                    nearest(name, triggers)
                        .and_then(|near| declarations.triggers.get(near).copied())
                })
            })
            .collect();
        let mut started = Vec::new();
        let mut started_names = HashSet::new();
        for block in protocol.blocks() {
            if block.kind == Some(BlockKind::StartThread)
                && let Some(thread) = &block.thread
                && started_names.insert(thread.text.clone())
            {
                started.push(thread.text.clone());
            }
        }
        Names {
            declarations,
            scopes,
            started,
            started_names,
            worker: super::format::is_worker(protocol),
        }
    }

    /// Whether the protocol is in the worker format.
    pub fn is_worker(&self) -> bool {
        self.worker
    }

    pub fn type_id(&self, name: &str) -> Option<TypeId> {
        self.declarations.types.get(name).copied()
    }

    /// A protocol-level input, resource or variable.
    pub fn variable(&self, name: &str) -> Option<(VariableOrigin, u32)> {
        self.declarations.variables.get(name).copied()
    }

    pub fn trigger(&self, name: &str) -> Option<u32> {
        self.declarations.triggers.get(name).copied()
    }

    pub fn tool(&self, name: &str) -> Option<u32> {
        self.declarations.tools.get(name).copied()
    }

    pub fn skill(&self, name: &str) -> Option<u32> {
        self.declarations.skills.get(name).copied()
    }

    pub fn mcp_server(&self, name: &str) -> Option<u32> {
        self.declarations.mcp_servers.get(name).copied()
    }

    pub fn worker(&self, name: &str) -> Option<u32> {
        self.declarations.workers.get(name).copied()
    }

    /// Input `name` of trigger `trigger` (by position), by position.
    pub fn trigger_input(&self, trigger: u32, name: &str) -> Option<u32> {
        let owners = self.declarations.trigger_inputs.get(name)?;
        owners
            .iter()
            .find(|&&(owner, _)| owner == trigger)
            .map(|&(_, input)| input)
    }

    /// The first trigger that has an input `name`.
    pub fn input_owner(&self, name: &str) -> Option<u32> {
        let owners = self.declarations.trigger_inputs.get(name)?;
        owners.first().map(|&(trigger, _)| trigger)
    }

    /// The trigger whose inputs handler `handler` reads: its own, or for a
    /// misspelt name the one it most likely means.
    pub fn handler_scope(&self, handler: usize) -> Option<u32> {
        self.scopes.get(handler).copied().flatten()
    }

    /// What `name` means where a handler scoped to `trigger` (or no
    /// handler) reads it: the trigger's own input first.
    pub fn readable_target(&self, trigger: Option<u32>, name: &str) -> Option<Target> {
        if let Some(t) = trigger
            && let Some(input) = self.trigger_input(t, name)
        {
            return Some(Target::TriggerInput { trigger: t, input });
        }
        self.variable(name)
            .map(|(origin, i)| Target::Variable(origin, i))
    }

    /// The threads a block may talk to: the main thread of an interactive
    /// agent, then every thread a `start-thread` starts.
    pub fn threads(&self) -> Vec<&str> {
        let main = (!self.worker).then_some(MAIN_THREAD);
        let started = self.started.iter().map(String::as_str);
        let mut threads: Vec<&str> = main.into_iter().collect();
        for name in started {
            if !threads.contains(&name) {
                threads.push(name);
            }
        }
        threads
    }

    /// The threads some `start-thread` starts, in protocol order.
    pub fn started_threads(&self) -> impl Iterator<Item = &str> + Clone {
        self.started.iter().map(String::as_str)
    }

    /// Whether some `start-thread` starts thread `name`.
    pub fn is_started(&self, name: &str) -> bool {
        self.started_names.contains(name)
    }
}

/// Every occurrence of every name in a protocol, in protocol order, each
/// with its symbol and what that resolves to. Built on first use (by the
/// language server, and the prompt checks of an agent folder): a check of
/// a lone file reads only the [`Names`].
#[derive(Debug, Default)]
pub struct Resolution {
    names: Arc<Names>,
    symbols: Vec<Symbol>,
    /// By symbol: what it resolves to, if anything.
    targets: Vec<Option<Target>>,
    occurrences: Vec<Occurrence>,
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

/// The editor's view of a [`Resolution`]: the occurrences written in the
/// file as the name itself, in source order, each place once.
#[derive(Debug, Default)]
pub struct Index {
    resolution: Arc<Resolution>,
    /// Positions in `resolution.occurrences`, by span.
    order: Vec<u32>,
}

impl Index {
    /// The index of `model`, compiled from `source`. A place is kept only
    /// where the text under its span is the name itself (quotes aside), so
    /// an edit there can never reach past the name: a type written with
    /// escapes (`"Fo\x6F[]"`) has only its whole scalar's span.
    pub fn new(model: &super::Model, source: &Source) -> Index {
        let resolution = Arc::clone(model.resolution_arc());
        let all = &resolution.occurrences;
        let mut order: Vec<u32> = (0..all.len() as u32)
            .filter(|&i| {
                let o = &all[i as usize];
                unquoted(source, o.span).1 == resolution.symbol(o.symbol).name
            })
            .collect();
        // A YAML alias repeats its anchor's spans; keep each place once.
        order.sort_by_key(|&i| {
            let span = all[i as usize].span;
            (span.start, span.end)
        });
        order.dedup_by_key(|i| all[*i as usize].span);
        Index { resolution, order }
    }

    pub fn symbol(&self, id: SymbolId) -> &Symbol {
        self.resolution.symbol(id)
    }

    fn sorted(&self) -> impl DoubleEndedIterator<Item = &Occurrence> + Clone {
        self.order
            .iter()
            .map(|&i| &self.resolution.occurrences[i as usize])
    }

    /// The occurrence whose name contains `offset`, or ends at it (a cursor
    /// just after a name is on it).
    pub fn at(&self, offset: usize) -> Option<&Occurrence> {
        let offset = offset as u32;
        let occurrences = &self.resolution.occurrences;
        // Occurrences do not overlap; the last one starting at or before
        // `offset` is the only candidate.
        let after = self
            .order
            .partition_point(|&i| occurrences[i as usize].span.start <= offset);
        let candidate = &occurrences[*self.order[..after].last()? as usize];
        (candidate.span.end >= offset).then_some(candidate)
    }

    /// Every occurrence of `id`, in source order.
    pub fn occurrences(&self, id: SymbolId) -> impl Iterator<Item = &Occurrence> {
        self.sorted().filter(move |o| o.symbol == id)
    }

    /// Where `id` is declared (first declaration first).
    pub fn definitions(&self, id: SymbolId) -> impl Iterator<Item = &Occurrence> {
        self.occurrences(id).filter(|o| o.role.is_definition())
    }

    /// The symbols of a kind, in the order first seen.
    pub fn symbols(&self, kind: SymbolKind) -> impl Iterator<Item = &Symbol> {
        self.resolution
            .symbols
            .iter()
            .filter(move |s| s.kind == kind)
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
                trigger: trigger.map(|t| protocol.triggers[t as usize].name.text.clone()),
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
            if let Setting::Variable(name) = &argument.value {
                self.variable(name, Role::Read, "input");
            }
        }
        if let Some(worker) = &block.worker {
            self.name(SymbolKind::Worker, worker, Role::Call, "worker");
        }
        for setting in &block.models {
            if let Setting::Variable(name) = setting {
                self.variable(name, Role::Read, "model");
            }
        }
        if let Some(config) = &block.config {
            self.config(config);
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

    /// An occurrence as the tests read it: kind, name, role, key, resolved.
    type Seen = (SymbolKind, String, Role, &'static str, bool);

    fn resolution_of(text: &str) -> (crate::FileReport, Vec<Seen>) {
        let compiled = crate::compile("t.yaml", text.as_bytes());
        let found = match &compiled.model {
            Some(model) => {
                let r = model.resolution();
                r.occurrences()
                    .iter()
                    .map(|o| {
                        let symbol = r.symbol(o.symbol);
                        let resolved = r.target(o.symbol).is_some();
                        (symbol.kind, symbol.name.clone(), o.role, o.key, resolved)
                    })
                    .collect()
            }
            None => Vec::new(),
        };
        (compiled, found)
    }

    /// Every key of a block that the grammar says names a declared thing
    /// (a tool, worker, thread, prompt, ...) yields an occurrence of that
    /// kind under that key.
    #[test]
    fn every_name_valued_block_key_is_an_occurrence() {
        for kind in BlockKind::ALL {
            for key in kind.place().keys() {
                let (refers, value) = match key.value {
                    grammar::Value::Name(refers) => (refers, "some-name"),
                    grammar::Value::Names(refers) => (refers, "[some-name]"),
                    _ => continue,
                };
                let Some(symbol) = SymbolKind::of(refers) else {
                    continue;
                };
                if symbol == SymbolKind::Variable {
                    // `names_variables_agrees_with_the_lowering` covers these.
                    continue;
                }
                let text = format!(
                    "triggers:\n  go: {{ input: {{}} }}\nhandlers:\n  go:\n    Step:\n      block: {}\n      {}: {value}\n",
                    kind.name(),
                    key.name
                );
                let (_, found) = resolution_of(&text);
                assert!(
                    found.iter().any(|(k, name, _, under, _)| *k == symbol
                        && name == "some-name"
                        && *under == key.name),
                    "{} `{}`: {found:?}",
                    kind.name(),
                    key.name
                );
            }
        }
    }

    /// The same for the agent's own settings: every key of `agent:` that
    /// names something (a prompt, tools, workers, a variable given as a
    /// setting) yields an occurrence of that kind under that key.
    #[test]
    fn every_name_valued_agent_key_is_an_occurrence() {
        for key in grammar::AGENT.keys() {
            let (symbol, value) = match key.value {
                grammar::Value::Name(refers) => (SymbolKind::of(refers), "some-name"),
                grammar::Value::Names(refers) => (SymbolKind::of(refers), "[some-name]"),
                _ if key.dynamic => (Some(SymbolKind::Variable), "SOME_NAME"),
                _ => continue,
            };
            let Some(symbol) = symbol else {
                continue;
            };
            let name = value.trim_matches(['[', ']']);
            let text = format!("agent:\n  {}: {value}\n", key.name);
            let (_, found) = resolution_of(&text);
            assert!(
                found
                    .iter()
                    .any(|(k, n, _, under, _)| *k == symbol && n == name && *under == key.name),
                "agent `{}`: {found:?}",
                key.name
            );
        }
    }

    #[test]
    fn roles_and_unresolved_names() {
        let text = "variables:\n  OUT: { type: string }\ntools:\n  search: {}\ntriggers:\n  go: { input: { MESSAGE: { type: string } } }\nagent:\n  model: anthropic/claude-sonnet-4-5\n  system: system\n  tools: [search, missing]\nhandlers:\n  go:\n    Call:\n      block: tool-call\n      tool: serch\n      output: OUT\n    Say:\n      block: add-message\n      role: user\n      prompt: greeting\n      input: [MESSAGE, NOPE]\n";
        let (compiled, found) = resolution_of(text);
        let has = |kind, name: &str, role, resolved| {
            found
                .iter()
                .any(|(k, n, r, _, ok)| *k == kind && n == name && *r == role && *ok == resolved)
        };
        assert!(
            has(SymbolKind::Tool, "search", Role::Definition, true),
            "{found:?}"
        );
        assert!(
            has(SymbolKind::Tool, "search", Role::Use, true),
            "{found:?}"
        );
        assert!(
            has(SymbolKind::Tool, "missing", Role::Use, false),
            "{found:?}"
        );
        assert!(
            has(SymbolKind::Tool, "serch", Role::Call, false),
            "{found:?}"
        );
        assert!(
            has(SymbolKind::Variable, "OUT", Role::Write, true),
            "{found:?}"
        );
        assert!(
            has(SymbolKind::Variable, "MESSAGE", Role::Read, true),
            "{found:?}"
        );
        assert!(
            has(SymbolKind::Variable, "NOPE", Role::Read, false),
            "{found:?}"
        );
        assert!(
            has(SymbolKind::Trigger, "go", Role::Call, true),
            "{found:?}"
        );
        assert!(
            has(SymbolKind::Prompt, "greeting", Role::Use, true),
            "{found:?}"
        );
        let Some(model) = &compiled.model else {
            panic!("the protocol lowers");
        };
        let r = model.resolution();
        // The handler's read of `MESSAGE` is the trigger's own input.
        let message = r
            .occurrences()
            .iter()
            .find(|o| r.symbol(o.symbol).name == "MESSAGE" && o.role == Role::Read)
            .map(|o| (r.target(o.symbol), o.site));
        assert_eq!(
            message,
            Some((
                Some(Target::TriggerInput {
                    trigger: 0,
                    input: 0
                }),
                Site::Handler {
                    handler: 0,
                    block: Some(1)
                }
            ))
        );
        let unresolved: Vec<&str> = r
            .unresolved()
            .map(|o| r.symbol(o.symbol).name.as_str())
            .collect();
        assert_eq!(unresolved, ["missing", "serch", "NOPE"]);
        assert_eq!(r.threads(), ["main"]);
        assert_eq!(r.readable(Some("go")), ["MESSAGE", "OUT"]);
        assert_eq!(r.declared(SymbolKind::Tool), ["search"]);
    }

    /// A misspelt handler reads the inputs of the trigger it most likely
    /// means, as the checks do.
    #[test]
    fn a_misspelt_handler_reads_the_nearest_triggers_inputs() {
        let text = "triggers:\n  user-message: { input: { MESSAGE: { type: string } } }\nhandlers:\n  user-mesage:\n    Say:\n      block: add-message\n      role: user\n      prompt: p\n      input: [MESSAGE]\n";
        let (_, found) = resolution_of(text);
        assert!(
            found
                .iter()
                .any(|(k, n, r, _, ok)| *k == SymbolKind::Variable
                    && n == "MESSAGE"
                    && *r == Role::Read
                    && *ok),
            "{found:?}"
        );
        assert!(
            found
                .iter()
                .any(|(k, n, _, _, ok)| *k == SymbolKind::Trigger && n == "user-mesage" && !*ok),
            "{found:?}"
        );
    }
}
