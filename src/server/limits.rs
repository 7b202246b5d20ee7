//! The server's limits: message size, actions a second from one seat, games held, how long an
//! idle game lives.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

/// What the server allows (`volley serve`'s options).
#[derive(Clone, Debug)]
pub struct Limits {
    /// The largest request body, in bytes.
    pub max_body: usize,
    /// Actions a second from one seat, on average, and how many may come at once.
    pub actions_per_second: f64,
    pub burst: f64,
    /// Games held (not expired) at most.
    pub max_games: u64,
    /// A game with no action for this many seconds expires.
    pub idle_expiry: u64,
    /// Games kept in memory; past this, those no request is using are let go (they are set
    /// up again from the database when next asked for).
    pub in_memory: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body: 64 * 1024,
            actions_per_second: 50.0,
            burst: 100.0,
            max_games: 10_000,
            idle_expiry: 30 * 24 * 3600,
            in_memory: 1000,
        }
    }
}

/// A token bucket per seat.
pub struct RateLimiter {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

impl RateLimiter {
    pub fn new(rate: f64, burst: f64) -> Self {
        RateLimiter {
            rate,
            burst,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// May seat `key` act now? Takes one from its bucket if so.
    pub fn allow(&self, key: &str) -> bool {
        self.allow_at(key, Instant::now())
    }

    fn allow_at(&self, key: &str, now: Instant) -> bool {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let (left, last) = buckets.entry(key.to_string()).or_insert((self.burst, now));
        *left = (*left + now.saturating_duration_since(*last).as_secs_f64() * self.rate).min(self.burst);
        *last = now;
        if *left >= 1.0 {
            *left -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_bucket_lets_its_burst_through_then_its_rate() {
        let r = RateLimiter::new(10.0, 3.0);
        let t = Instant::now();
        assert!((0..3).all(|_| r.allow_at("a", t)));
        assert!(!r.allow_at("a", t), "the fourth at once is refused");
        assert!(r.allow_at("b", t), "another seat has its own bucket");
        // A tenth of a second later, one more (10 a second).
        assert!(r.allow_at("a", t + Duration::from_millis(100)));
        assert!(!r.allow_at("a", t + Duration::from_millis(100)));
    }
}
