//! The contract diff: what changed between two versions of a protocol that
//! the code around it can notice (`agentc diff`, `agentc check --against`).
//!
//! An agent has two halves that deploy separately: the protocol (`octavus
//! sync`) and the code that handles its tools, renders its replies and
//! sends its triggers. Each contract between them runs one way:
//!
//! | contract | produced by | consumed by |
//! |---|---|---|
//! | tool arguments, the set of callable tools | the model, a `tool-call` block | handlers |
//! | `responseType` (stored with each reply) | the model | the UI |
//! | a worker's `output` | the worker's model | its caller |
//! | trigger and session input | code | the protocol |
//!
//! Every change found ([`compare`]) carries two facts about the values
//! the contract allows: **narrowed**, every value the new version accepts
//! the old one accepted, and **widened**, the reverse. Objects are read
//! as their reader reads them: code tolerates keys it does not know, the
//! platform is taken to refuse them (both configurable, [`Options`]). The
//! severity follows from those two facts and the contract's direction, in
//! [`judge`], and nowhere else:
//!
//! - syncing the protocol first means old code meets new values (for
//!   what the protocol produces) or the new protocol meets old callers
//!   (for input): it is safe when narrowed, respectively widened;
//! - deploying code first is the mirror image;
//! - an error when neither order is safe, a warning naming the safe one
//!   when one is, information when both are. Replies are stored, so new UI
//!   code reads old replies for ever: a reply that is not widened is an
//!   error whatever the order.

mod change;
mod compare;
mod contracts;
pub mod git;
mod hints;
mod renames;

use change::Change;
pub use change::{MAX_COMPARED, Options, Order, Reader, Version};

use crate::FileReport;
use crate::diagnostic::{Code, ContractChange, Diagnostic, Located, Severity, Surface};
use crate::source::Source;
use crate::span::Span;
use std::collections::HashSet;

/// Every change from `old` to `new` that the code around the protocol can
/// notice, as diagnostics located in `new`, each with the old location
/// and in the order of `new`'s text. `base_name` names the old version in
/// output (`origin/main:agents/shop/protocol.yaml`). Both versions must
/// check without errors.
pub fn diff(old: Version, new: Version, base_name: &str, options: &Options) -> Vec<Diagnostic> {
    let (changes, stopped) = contracts::changes(old, new, options);
    let ignore: HashSet<&str> = options.ignore.iter().map(String::as_str).collect();
    let mut out = Vec::with_capacity(changes.len() + 1);
    for change in changes {
        let diagnostic = judge(change, old.source, base_name, options.order);
        let ignored = diagnostic
            .change
            .as_ref()
            .is_some_and(|c| ignore.contains(c.fingerprint.as_str()));
        if !ignored {
            out.push(diagnostic);
        }
    }
    // A limit reached may hide a breaking change: an error, so that a
    // generated pair never passes a check by being too large to compare.
    let limit = |message: String, help: &str| {
        let mut diagnostic = Diagnostic::new(Code::DiffSkipped, Span::empty(0), message)
            .with_help(help.to_string())
            .with_note("it is an error: what was not compared may break either side");
        diagnostic.severity = Severity::Error;
        diagnostic
    };
    if stopped.too_large {
        out.push(limit(
            format!(
                "the protocols are too large to compare whole: the diff stopped after {} nodes",
                crate::diagnostic::thousands(MAX_COMPARED)
            ),
            "changes past that point are not reported",
        ));
    }
    if stopped.dropped > 0 {
        out.push(limit(
            format!(
                "{} more changes were found than one diff lists (it stops at {})",
                crate::diagnostic::thousands(stopped.dropped),
                crate::diagnostic::thousands(crate::diagnostic::MAX_DIAGNOSTICS)
            ),
            "the changes listed usually share one cause; fix or accept them and compare again",
        ));
    }
    if stopped.too_deep {
        out.push(limit(
            format!(
                "types nest more than {} levels deep: the diff did not look below that",
                compare::MAX_DEPTH
            ),
            "changes below that depth are not reported",
        ));
    }
    crate::order(&mut out);
    out
}

/// The diff of two compiled versions of one protocol, for the new one's
/// report. When the new version has errors there is nothing to add: its
/// check reports them, and the diff assumes a clean model. When the old
/// one has errors, one `diff-skipped` says why nothing was compared: a
/// broken base must not block its own fix.
pub fn reports(
    old: &FileReport,
    new: &FileReport,
    base_name: &str,
    options: &Options,
) -> Vec<Diagnostic> {
    if new.has_errors() {
        return Vec::new();
    }
    let Some(new_model) = new.sound_model() else {
        // Errors a configuration or an `agentc-ignore` comment silenced:
        // the diff needs a sound model, and a gate that skips in silence
        // passes what it did not compare.
        let mut skipped = Diagnostic::new(
            Code::DiffSkipped,
            Span::empty(0),
            format!(
                "`{}` was not compared with `{base_name}`: it has errors that the configuration or an `agentc-ignore` comment silences",
                new.source.name()
            ),
        )
        .with_help("run `agentc check --no-config` on it to see them; the diff compares only a protocol without errors");
        skipped.severity = Severity::Error;
        return vec![skipped];
    };
    let skipped = |reason: String| {
        vec![
            Diagnostic::new(
                Code::DiffSkipped,
                Span::empty(0),
                format!("`{base_name}` was not compared: {reason}"),
            )
            .with_help("run `agentc check` on the old version to see why; the changes to this protocol are not checked until it is"),
        ]
    };
    let Some(old_model) = &old.model else {
        return skipped("it could not be read as a protocol".to_string());
    };
    if old.has_errors() || !old.sound {
        let errors = old.count(Severity::Error);
        return skipped(match errors {
            0 => "it has errors that the configuration or an `agentc-ignore` comment silences"
                .to_string(),
            _ => format!(
                "it has {errors} error{}",
                if errors == 1 { "" } else { "s" }
            ),
        });
    }
    diff(
        Version {
            source: &old.source,
            model: old_model,
        },
        Version {
            source: &new.source,
            model: new_model,
        },
        base_name,
        options,
    )
}

/// Whether each rollout order is safe for a change, from the two facts
/// and the direction: (protocol first, code first).
fn safe_orders(surface: Surface, narrowed: bool, widened: bool) -> (bool, bool) {
    match surface {
        // The protocol produces, code consumes: old code reading new values
        // needs them narrowed; new code reading old values, widened.
        Surface::Tool | Surface::Response | Surface::WorkerOutput => (narrowed, widened),
        // Code produces, the protocol consumes: the new protocol reading
        // old callers needs widened; the old protocol reading new callers,
        // narrowed.
        Surface::Input => (widened, narrowed),
    }
}

/// Who consumes (or, for input, produces) the contract, as the help
/// names them in the rollout order.
fn code_side(surface: Surface) -> &'static str {
    match surface {
        Surface::Tool => "the tool handlers",
        Surface::Response => "the UI that renders replies",
        Surface::WorkerOutput => "the code that reads the worker's output",
        Surface::Input => "the code that sends it",
    }
}

/// The one place a change's severity is decided.
fn judge(change: Change, old: &Source, base_name: &str, order: Order) -> Diagnostic {
    let (protocol_first, code_first) = safe_orders(change.surface, change.narrowed, change.widened);
    let code = code_side(change.surface);
    let protocol_then_code = format!("safe order: `octavus sync` first, then deploy {code}");
    let code_then_protocol = format!("safe order: deploy {code} first, then `octavus sync`");
    let stored = change.surface == Surface::Response && !change.widened;
    let (severity, note) = if stored {
        (
            Severity::Error,
            Some(
                "replies are stored with the session, and the new UI renders the old ones: no rollout order is safe"
                    .to_string(),
            ),
        )
    } else if protocol_first && code_first {
        (Severity::Info, None)
    } else {
        let neither = || {
            "no rollout order is safe: the code of each version fails on values of the other"
                .to_string()
        };
        match order {
            Order::Any if protocol_first => (Severity::Warning, Some(protocol_then_code)),
            Order::Any if code_first => (Severity::Warning, Some(code_then_protocol)),
            Order::Any => (Severity::Error, Some(neither())),
            // The team's order is the safe one.
            Order::ProtocolFirst if protocol_first => (Severity::Info, None),
            Order::CodeFirst if code_first => (Severity::Info, None),
            Order::ProtocolFirst if code_first => (
                Severity::Error,
                Some(format!(
                    "`[diff] order` is `protocol-first`, but only deploying {code} first is safe"
                )),
            ),
            Order::CodeFirst if protocol_first => (
                Severity::Error,
                Some(
                    "`[diff] order` is `code-first`, but only syncing the protocol first is safe"
                        .to_string(),
                ),
            ),
            Order::ProtocolFirst | Order::CodeFirst => (Severity::Error, Some(neither())),
        }
    };
    let fingerprint = fingerprint(change.code, &change.contract, &change.path, &change.subject);
    let base = change.was.map(|span| {
        let start = old.position(span.start as usize);
        let end = old.position(span.end as usize);
        Located {
            file: base_name.to_string(),
            line: start.line,
            column: start.column,
            end_line: end.line,
            end_column: end.column,
        }
    });
    // The message names the contract when the change is inside it; a
    // change of the contract itself (a tool added) names it already.
    let message = match change.path.is_empty() {
        true => change.message,
        false => format!("{}: {}", change.contract, change.message),
    };
    let mut diagnostic = Diagnostic::new(change.code, change.at, message);
    diagnostic.severity = severity;
    if let Some(help) = change.help {
        diagnostic = diagnostic.with_help(help);
    }
    if let Some(note) = note {
        diagnostic = diagnostic.with_note(note);
    }
    diagnostic.change = Some(Box::new(ContractChange {
        surface: change.surface,
        contract: change.contract,
        path: change.path,
        narrowed: change.narrowed,
        widened: change.widened,
        fingerprint,
        base,
    }));
    diagnostic
}

/// A change's name for `[diff] ignore`: the first 12 hex digits of the
/// 64-bit FNV-1a hash of `code:contract:path`, and `:subject` when the
/// change has one (what it made of a value or a type: the enum value
/// added, `integer -> number`), so that accepting one change at a place
/// does not accept the next one there. It leaves out the message, so
/// rewording one does not undo an accepted change, and the line, so
/// moving the text does not either.
pub fn fingerprint(code: Code, contract: &str, path: &str, subject: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let subject = match subject.is_empty() {
        true => ["", ""],
        false => [":", subject],
    };
    for byte in [code.name(), ":", contract, ":", path]
        .iter()
        .chain(&subject)
        .flat_map(|part| part.bytes())
    {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{:016x}", hash)[..12].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn severity(surface: Surface, narrowed: bool, widened: bool, order: Order) -> Severity {
        let change = Change {
            code: Code::PropertyAdded,
            at: Span::empty(0),
            was: None,
            surface,
            contract: "tool `t`".to_string(),
            path: String::new(),
            subject: String::new(),
            message: String::new(),
            help: None,
            narrowed,
            widened,
        };
        judge(change, &Source::new("old", ""), "old", order).severity
    }

    #[test]
    fn severity_follows_from_direction_and_inclusion() {
        use Severity::*;
        use Surface::*;
        // (surface, narrowed, widened) → any, protocol-first, code-first
        let table = [
            (Tool, true, true, [Info, Info, Info]),
            (Tool, true, false, [Warning, Info, Error]),
            (Tool, false, true, [Warning, Error, Info]),
            (Tool, false, false, [Error, Error, Error]),
            (Input, true, false, [Warning, Error, Info]),
            (Input, false, true, [Warning, Info, Error]),
            (Response, true, false, [Error, Error, Error]),
            (Response, false, true, [Warning, Error, Info]),
            (Response, true, true, [Info, Info, Info]),
        ];
        for (surface, n, w, expected) in table {
            for (order, want) in Order::ALL.into_iter().zip(expected) {
                assert_eq!(
                    severity(surface, n, w, order),
                    want,
                    "{surface:?} narrowed={n} widened={w} {order:?}"
                );
            }
        }
    }

    /// The values are pinned: users keep fingerprints in `[diff] ignore`,
    /// so a change to how one is computed (the hash, its seed or prime,
    /// what is hashed, the separators, the length) would quietly un-ignore
    /// every change they accepted. Such a change must fail here and be
    /// made on purpose. The values are FNV-1a 64 of `code:contract:path`,
    /// computed apart from this code (FNV-1a 64 of `a` is the published
    /// `af63dc4c8601ec8c`).
    #[test]
    fn fingerprints_are_stable() {
        assert_eq!(
            fingerprint(Code::ToolAdded, "tool `set-chat-metadata`", "", ""),
            "fe18c312a63d"
        );
        assert_eq!(
            fingerprint(
                Code::PropertyRemoved,
                "tool `add-to-cart`",
                "parameters.quantity",
                ""
            ),
            "1143a510d1d2"
        );
        assert_ne!(
            fingerprint(Code::ToolAdded, "tool `a`", "", ""),
            fingerprint(Code::ToolRemoved, "tool `a`", "", "")
        );
        assert_eq!(fingerprint(Code::ToolAdded, "", "", "").len(), 12);
        // With a subject, `:subject` is hashed after the path: each enum
        // value added has a fingerprint of its own.
        let added = |value| fingerprint(Code::EnumValueAdded, "tool `t`", "parameters.p", value);
        assert_eq!(added("b"), "9e60c8eb3060");
        assert_eq!(added("c"), "9e60c7eb3060");
    }
}
