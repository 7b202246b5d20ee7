//! A command line clap refuses, and why: the reason is added to clap's error as its tip.

/// Two options clap refuses together (declared on the options with `conflicts_with`), or one
/// it refuses without the other (`requires`), and the reason the player reads.
pub(super) struct Refusal {
    /// The option given (its clap id: the field's name).
    pub(super) given: &'static str,
    /// The option it may not go with, or the one it needs.
    pub(super) other: &'static str,
    /// `other` is needed (`requires`), not refused (`conflicts_with`).
    pub(super) needs: bool,
    pub(super) why: &'static str,
}

impl Refusal {
    pub(super) const fn conflict(given: &'static str, other: &'static str, why: &'static str) -> Refusal {
        Refusal {
            given,
            other,
            needs: false,
            why,
        }
    }

    pub(super) const fn needs(given: &'static str, other: &'static str, why: &'static str) -> Refusal {
        Refusal {
            given,
            other,
            needs: true,
            why,
        }
    }
}
