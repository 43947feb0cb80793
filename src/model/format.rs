//! Which of the two agent formats a protocol is written in: interactive
//! (`triggers`, `handlers`, `agent`) or worker (`steps`, `output`). The
//! section lists are the grammar's ([`grammar::INTERACTIVE_SECTIONS`],
//! [`grammar::WORKER_SECTIONS`]); this reads them, and never repeats them.

use crate::grammar;
use crate::syntax::{Name, Protocol};

/// Whether `protocol` has a section of the worker format.
pub fn is_worker(protocol: &Protocol) -> bool {
    !worker_sections(protocol).is_empty()
}

/// The interactive sections `protocol` has, in the grammar's order.
pub fn interactive_sections(protocol: &Protocol) -> Vec<&Name> {
    sections(protocol, grammar::INTERACTIVE_SECTIONS)
}

/// The worker sections `protocol` has, in the grammar's order.
pub fn worker_sections(protocol: &Protocol) -> Vec<&Name> {
    sections(protocol, grammar::WORKER_SECTIONS)
}

fn sections<'p>(protocol: &'p Protocol, keys: &[&str]) -> Vec<&'p Name> {
    keys.iter()
        .filter_map(|key| protocol.section(key))
        .collect()
}
