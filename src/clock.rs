//! The clock [`Timings`](crate::Timings) are read from. A browser's
//! WebAssembly (`wasm32-unknown-unknown`) has none: there
//! `std::time::Instant::now` panics, so this clock stands still and every
//! phase takes no time.

use std::time::Duration;

/// A moment, where there is a clock.
#[derive(Clone, Copy, Debug)]
pub struct Instant {
    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    at: std::time::Instant,
}

impl Instant {
    pub fn now() -> Instant {
        Instant {
            #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
            at: std::time::Instant::now(),
        }
    }

    /// The time since this moment.
    pub fn elapsed(&self) -> Duration {
        Instant::now() - *self
    }
}

impl std::ops::Sub for Instant {
    type Output = Duration;

    #[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
    fn sub(self, earlier: Instant) -> Duration {
        self.at.saturating_duration_since(earlier.at)
    }

    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    fn sub(self, _earlier: Instant) -> Duration {
        Duration::ZERO
    }
}

#[cfg(test)]
mod tests {
    use super::Instant;

    #[test]
    fn time_goes_forward_only() {
        let start = Instant::now();
        let later = Instant::now();
        // Never negative, never a panic: an earlier moment less a later
        // one is no time.
        assert_eq!(start - later, std::time::Duration::ZERO);
        assert!(later - start <= start.elapsed());
    }
}
