//! The data of a diff: the options `[diff]` sets, a version compared, and
//! a change found, before [`super::judge`] gives it a severity.

use crate::diagnostic::{Code, Surface};
use crate::model::Model;
use crate::source::Source;
use crate::span::Span;

/// The order a team deploys the two halves in (`[diff] order`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// Either: a change safe in only one order is a warning naming it.
    #[default]
    Any,
    /// `octavus sync` first, then the code.
    ProtocolFirst,
    /// The code first, then `octavus sync`.
    CodeFirst,
}

impl Order {
    pub const ALL: [Order; 3] = [Order::Any, Order::ProtocolFirst, Order::CodeFirst];

    pub fn name(self) -> &'static str {
        match self {
            Order::Any => "any",
            Order::ProtocolFirst => "protocol-first",
            Order::CodeFirst => "code-first",
        }
    }
}

/// How a reader treats an object key it does not know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reader {
    /// Ignores it (handlers and UI code, as usually written).
    Tolerant,
    /// Refuses it (a validating reader: zod `.strict()`, pydantic
    /// `extra="forbid"`, the schema agentc emits).
    Strict,
}

impl Reader {
    pub const ALL: [Reader; 2] = [Reader::Tolerant, Reader::Strict];

    pub fn name(self) -> &'static str {
        match self {
            Reader::Tolerant => "tolerant",
            Reader::Strict => "strict",
        }
    }
}

/// What `[diff]` in `agentc.toml` sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub order: Order,
    /// How code (handlers, the UI, a worker's caller) reads objects.
    pub readers: Reader,
    /// How the platform reads trigger and session input.
    pub platform_reader: Reader,
    /// Fingerprints of accepted changes, which are not reported.
    pub ignore: Vec<String>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            order: Order::Any,
            readers: Reader::Tolerant,
            platform_reader: Reader::Strict,
            ignore: Vec::new(),
        }
    }
}

/// One version of a protocol: its text (for locations and rename hints)
/// and its checked model.
#[derive(Clone, Copy)]
pub struct Version<'a> {
    pub source: &'a Source,
    pub model: &'a Model,
}

/// A change found between two versions, before it is judged.
#[derive(Clone, Debug)]
pub(crate) struct Change {
    pub code: Code,
    /// Where in the new version (a removal: the parent that lost it).
    pub at: Span,
    /// Where in the old version, when it was there.
    pub was: Option<Span>,
    pub surface: Surface,
    pub contract: String,
    pub path: String,
    /// What the change made of the value or type at `path`, when the code,
    /// contract and path do not say it (the enum value added, the type
    /// before and after): part of the fingerprint, so that accepting one
    /// change does not accept the next one at the same place.
    pub subject: String,
    pub message: String,
    pub help: Option<String>,
    pub narrowed: bool,
    pub widened: bool,
}

/// The most nodes one diff compares; past it, the rest is reported as not
/// compared (`diff-skipped`). Far above any protocol a person writes, it
/// bounds what a generated pair can cost.
pub const MAX_COMPARED: usize = 1_000_000;
