//! Asking a long compile to stop. A compile from nothing asks whether its
//! result is still wanted before it reads the YAML, every few thousand
//! events of it and every few thousand lines of the indentation repair,
//! after the parse and after lowering (the model and the checks that
//! follow are a few percent of a compile, and run to their end):
//! the language server stops the check of a text that an edit waiting in
//! its queue has already made stale ([`crate::compile_again_unless`]).

use std::sync::atomic::{AtomicBool, Ordering};

/// Whether a compile's result is still wanted, asked between its steps.
/// Once it has said yes it says yes from then on, so every step after the
/// first that saw it stops too.
pub struct Cancel<'a> {
    asked: Option<&'a (dyn Fn() -> bool + Sync)>,
    seen: AtomicBool,
}

impl Cancel<'static> {
    /// A compile that runs to its end.
    pub fn never() -> &'static Cancel<'static> {
        static NEVER: Cancel<'static> = Cancel {
            asked: None,
            seen: AtomicBool::new(false),
        };
        &NEVER
    }
}

impl<'a> Cancel<'a> {
    /// A compile that stops at its next step once `asked` says so. It is
    /// asked often (every few thousand YAML events), so it should be
    /// cheap: the language server looks at its queue without waiting.
    pub fn when(asked: &'a (dyn Fn() -> bool + Sync)) -> Cancel<'a> {
        Cancel {
            asked: Some(asked),
            seen: AtomicBool::new(false),
        }
    }

    /// Whether to stop now.
    pub fn is_cancelled(&self) -> bool {
        if self.seen.load(Ordering::Relaxed) {
            return true;
        }
        let now = self.asked.is_some_and(|asked| asked());
        if now {
            self.seen.store(true, Ordering::Relaxed);
        }
        now
    }
}

impl std::fmt::Debug for Cancel<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cancel")
            .field("asked", &self.asked.is_some())
            .field("seen", &self.seen.load(Ordering::Relaxed))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn never_is_never_cancelled() {
        assert!(!Cancel::never().is_cancelled());
    }

    #[test]
    fn once_cancelled_it_stays_cancelled_without_asking_again() {
        let asks = AtomicUsize::new(0);
        let asked = || asks.fetch_add(1, Ordering::Relaxed) == 1;
        let cancel = Cancel::when(&asked);
        assert!(!cancel.is_cancelled());
        assert!(cancel.is_cancelled());
        assert!(cancel.is_cancelled());
        assert_eq!(asks.load(Ordering::Relaxed), 2);
    }
}
