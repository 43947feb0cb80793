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
//!
//! The parts, by concern: the symbols and what an occurrence is (here);
//! the declarations by name and the scopes names are read in
//! (`names.rs`, [`Names`]); the one walk that records every occurrence
//! (`occurrences.rs`, [`Resolution`]); and the editor's index over it
//! (`index.rs`, [`Index`]).

mod index;
mod names;
mod occurrences;

pub use index::{Index, rename_edit, unquoted};
pub use names::Names;
pub(crate) use names::read_of;
pub use occurrences::Resolution;

use super::{TypeId, VariableOrigin};
use crate::grammar;
use crate::span::Span;

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
            Refers::Trigger => SymbolKind::Trigger,
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

#[cfg(test)]
mod tests;
