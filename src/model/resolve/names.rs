//! The protocol's declarations by name, and the scopes names are read
//! in: what every lookup goes through, built with the model from the
//! declarations alone.

use super::{MAIN_THREAD, Target};
use crate::diagnostic::nearest;
use crate::model::{TypeId, VariableOrigin};
use crate::syntax::{Block, BlockKind, Listed, Name, Protocol, Text};
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

/// The protocol's declarations by name, first declaration wins. Lookups
/// only; never iterated, so no map order reaches any output.
#[derive(Debug, Default)]
pub(super) struct Declarations {
    pub(super) types: HashMap<Text, TypeId>,
    pub(super) variables: HashMap<Text, (VariableOrigin, u32)>,
    pub(super) triggers: HashMap<Text, u32>,
    pub(super) tools: HashMap<Text, u32>,
    pub(super) skills: HashMap<Text, u32>,
    pub(super) mcp_servers: HashMap<Text, u32>,
    pub(super) workers: HashMap<Text, u32>,
    /// A trigger input's name → each (trigger, input) declaring it, in
    /// order.
    pub(super) trigger_inputs: HashMap<Text, Vec<(u32, u32)>>,
}

fn index_of<'a>(names: impl ExactSizeIterator<Item = &'a Name>) -> HashMap<Text, u32> {
    let mut index = HashMap::with_capacity(names.len());
    for (i, name) in names.enumerate() {
        index.entry(name.text.clone()).or_insert(i as u32);
    }
    index
}

impl Declarations {
    fn new(protocol: &Protocol) -> Declarations {
        // Sized once: growing by doubling rehashes the table a dozen times
        // on the way to 10k types.
        let mut types = HashMap::with_capacity(protocol.types.len());
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
        let mut trigger_inputs: HashMap<Text, Vec<(u32, u32)>> = HashMap::new();
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

/// The thread a `start-thread` block starts.
fn started_thread(block: &Block) -> Option<&Name> {
    block
        .thread
        .as_ref()
        .filter(|_| block.kind == Some(BlockKind::StartThread))
}

/// What [`Names::new`] reads of entry `index` of a listed section: its
/// key, and a trigger's input names or the threads a handler's blocks
/// start. Alike before and after an edit inside the entry, the names are
/// the same (`Model::again`).
pub(crate) fn read_of(protocol: &Protocol, section: Listed, index: usize) -> Option<Vec<&str>> {
    let read = match section {
        Listed::Types => vec![protocol.types.get(index)?.name.text.as_str()],
        Listed::Tools => vec![protocol.tools.get(index)?.name.text.as_str()],
        Listed::Triggers => {
            let trigger = protocol.triggers.get(index)?;
            let inputs = trigger.input.iter().map(|field| field.name.text.as_str());
            std::iter::once(trigger.name.text.as_str())
                .chain(inputs)
                .collect()
        }
        Listed::Handlers => {
            let handler = protocol.handlers.get(index)?;
            let threads = handler.blocks.iter().filter_map(started_thread);
            std::iter::once(&handler.trigger)
                .chain(threads)
                .map(|name| name.text.as_str())
                .collect()
        }
    };
    Some(read)
}

/// The protocol's declarations by name and the scopes names are read in:
/// what every lookup reads. Built with the model, from the declarations
/// alone, so a check pays nothing per use of a name.
#[derive(Debug, Default)]
pub struct Names {
    pub(super) declarations: Declarations,
    /// By handler: the trigger whose inputs its blocks read (the trigger of
    /// its name, or the one it most likely means).
    scopes: Vec<Option<u32>>,
    /// Threads some `start-thread` starts, in protocol order, each once.
    started: Vec<Text>,
    /// The same, for lookups.
    started_names: HashSet<Text>,
    pub(super) worker: bool,
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
                        .and_then(|near| declarations.triggers.get(near.name).copied())
                })
            })
            .collect();
        let mut started = Vec::new();
        let mut started_names = HashSet::new();
        for thread in protocol.blocks().filter_map(started_thread) {
            if started_names.insert(thread.text.clone()) {
                started.push(thread.text.clone());
            }
        }
        Names {
            declarations,
            scopes,
            started,
            started_names,
            worker: crate::model::format::is_worker(protocol),
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
        let started = self.started.iter().map(Text::as_str);
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
        self.started.iter().map(Text::as_str)
    }

    /// Whether some `start-thread` starts thread `name`.
    pub fn is_started(&self, name: &str) -> bool {
        self.started_names.contains(name)
    }
}
