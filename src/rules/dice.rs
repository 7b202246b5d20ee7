//! The game's single random stream (DECISIONS "Determinism").
//!
//! Every die in a game is drawn from one [`Dice`], inside an ordered, single-threaded
//! resolution step. A `Dice` is either *seeded* (ChaCha8 from a `u64`: same seed, same
//! faces, bit for bit, on every platform) or *scripted* (a fixed list of faces, for tests
//! and for replaying the worked examples in the rule book). Rules code always takes
//! `&mut Dice`, so both kinds go through exactly the same code paths.
//!
//! Faces are drawn by rejection sampling on 32-bit words of the stream (no modulo bias),
//! implemented here rather than borrowed from `rand`'s range sampling, so the sequence of
//! faces for a seed is fixed by this file alone.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Where the faces come from.
#[allow(
    clippy::large_enum_variant,
    reason = "one Dice per game, and the seeded variant is the one used in play: no need to box it"
)]
#[derive(Clone, Debug)]
enum Source {
    /// ChaCha8 seeded from the game seed.
    Seeded(ChaCha8Rng),
    /// A fixed list of faces, handed out in order.
    Scripted { faces: Vec<u32>, next: usize },
}

/// The game's single random stream (DECISIONS "Determinism"): ChaCha8 seeded from a u64,
/// or a scripted list of faces for tests and book examples.
#[derive(Clone, Debug)]
pub struct Dice {
    source: Source,
    seed: u64,
    draws: u64,
}

impl Dice {
    /// A seeded stream: ChaCha8 seeded from `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            source: Source::Seeded(ChaCha8Rng::seed_from_u64(seed)),
            seed,
            draws: 0,
        }
    }

    /// Scripted dice for tests and book examples: each draw returns the next face of
    /// `faces`, in order. A draw panics (with a message naming the die asked for) if the
    /// script is exhausted or if the scripted face is not a face of the die asked for
    /// (`1..=sides`). The seed of scripted dice is 0.
    pub fn scripted(faces: Vec<u32>) -> Self {
        Self {
            source: Source::Scripted { faces, next: 0 },
            seed: 0,
            draws: 0,
        }
    }

    /// The seed this stream was created from (0 for scripted dice).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// How many dice have been drawn so far (part of the state hash).
    pub fn draws(&self) -> u64 {
        self.draws
    }

    /// Whether these are scripted dice.
    pub fn is_scripted(&self) -> bool {
        matches!(self.source, Source::Scripted { .. })
    }

    /// Scripted faces not yet drawn (`None` for seeded dice). Tests use it to check that
    /// a book example consumed exactly the dice it scripted.
    pub fn remaining_scripted(&self) -> Option<usize> {
        match &self.source {
            Source::Seeded(_) => None,
            Source::Scripted { faces, next } => Some(faces.len() - next),
        }
    }

    /// One die with `sides` faces: uniform in `1..=sides`, unbiased.
    ///
    /// # Panics
    /// If `sides` is 0; for scripted dice, if the script is exhausted or the next scripted
    /// face is not in `1..=sides`.
    pub fn d(&mut self, sides: u32) -> u32 {
        assert!(sides > 0, "Dice::d: a die needs at least one side (asked for a d0)");
        let face = match &mut self.source {
            Source::Seeded(rng) => {
                // Accept words below the largest multiple of `sides` that fits in 2^32,
                // so every face is equally likely.
                let sides64 = u64::from(sides);
                let zone = ((1u64 << 32) / sides64) * sides64;
                loop {
                    let word = u64::from(rng.next_u32());
                    if word < zone {
                        // `word % sides64 < sides <= u32::MAX`, so the cast is lossless.
                        break (word % sides64) as u32 + 1;
                    }
                }
            }
            Source::Scripted { faces, next } => {
                let Some(&face) = faces.get(*next) else {
                    panic!(
                        "scripted dice exhausted: a d{sides} was asked for as draw #{} but \
                         the script has only {} faces: {faces:?}",
                        self.draws + 1,
                        faces.len()
                    );
                };
                assert!(
                    (1..=sides).contains(&face),
                    "scripted dice: draw #{} expected a d{sides} face (1..={sides}) but the \
                     script says {face} (script: {faces:?})",
                    self.draws + 1
                );
                *next += 1;
                face
            }
        };
        self.draws += 1;
        face
    }

    /// One six-sided die.
    pub fn d6(&mut self) -> u32 {
        self.d(6)
    }

    /// `n` dice with `sides` faces each, in the order drawn.
    pub fn roll(&mut self, n: u32, sides: u32) -> Vec<u32> {
        (0..n).map(|_| self.d(sides)).collect()
    }

    /// Shuffle `v` in place (Fisher–Yates): for `i` from the last index down to 1, swap
    /// `v[i]` with `v[d(i + 1) - 1]`. Draws `v.len() - 1` dice (none for 0 or 1 items).
    ///
    /// # Panics
    /// If `v` has more than `u32::MAX` items.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let sides = u32::try_from(i + 1).expect("Dice::shuffle: slice too long");
            let j = (self.d(sides) - 1) as usize;
            v.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence() {
        let mut a = Dice::new(42);
        let mut b = Dice::new(42);
        let ra: Vec<u32> = (0..1000).map(|i| a.d(2 + i % 19)).collect();
        let rb: Vec<u32> = (0..1000).map(|i| b.d(2 + i % 19)).collect();
        assert_eq!(ra, rb);
        assert_eq!(a.draws(), 1000);
        assert_eq!(a.seed(), 42);
        // A clone continues the same stream.
        let mut c = a.clone();
        assert_eq!(a.roll(50, 6), c.roll(50, 6));
    }

    /// The faces for a seed are part of the save/replay format: pin them, so a change to
    /// the stream (a rand/rand_chacha upgrade, a different sampling method) is noticed.
    #[test]
    fn golden_sequence_seed_42() {
        let mut dice = Dice::new(42);
        assert_eq!(dice.roll(12, 6), vec![4, 4, 5, 1, 3, 3, 5, 4, 1, 3, 3, 4]);
        assert_eq!(dice.roll(6, 20), vec![5, 10, 13, 6, 9, 11]);
    }

    #[test]
    fn different_seeds_differ() {
        let ra = Dice::new(1).roll(100, 6);
        let rb = Dice::new(2).roll(100, 6);
        assert_ne!(ra, rb);
    }

    #[test]
    fn faces_in_range() {
        let mut dice = Dice::new(7);
        for sides in 1..=20 {
            for _ in 0..500 {
                let f = dice.d(sides);
                assert!((1..=sides).contains(&f), "d{sides} gave {f}");
            }
        }
        // The largest die still works (zone is the whole 2^32 range minus the remainder).
        let f = dice.d(u32::MAX);
        assert!(f >= 1);
    }

    /// 60 000 d6: each face's frequency within ±3% (absolute, i.e. 1/6 ± 0.03) of 1/6.
    #[test]
    fn d6_frequencies_uniform() {
        const N: usize = 60_000;
        const TOLERANCE: f64 = 0.03;
        let mut dice = Dice::new(20_240_601);
        let mut counts = [0usize; 6];
        for _ in 0..N {
            counts[(dice.d6() - 1) as usize] += 1;
        }
        for (face, &c) in counts.iter().enumerate() {
            let freq = c as f64 / N as f64;
            assert!(
                (freq - 1.0 / 6.0).abs() <= TOLERANCE,
                "face {} frequency {freq} outside 1/6 ± {TOLERANCE}",
                face + 1
            );
        }
        assert_eq!(dice.draws(), N as u64);
    }

    #[test]
    fn scripted_returns_faces_in_order() {
        let mut dice = Dice::scripted(vec![6, 1, 4, 12, 3]);
        assert!(dice.is_scripted());
        assert_eq!(dice.seed(), 0);
        assert_eq!(dice.d6(), 6);
        assert_eq!(dice.roll(2, 6), vec![1, 4]);
        assert_eq!(dice.d(12), 12);
        assert_eq!(dice.remaining_scripted(), Some(1));
        assert_eq!(dice.d(4), 3);
        assert_eq!(dice.draws(), 5);
        assert_eq!(dice.remaining_scripted(), Some(0));
        assert_eq!(Dice::new(3).remaining_scripted(), None);
    }

    #[test]
    #[should_panic(expected = "scripted dice exhausted: a d6 was asked for as draw #3")]
    fn scripted_panics_when_exhausted() {
        let mut dice = Dice::scripted(vec![2, 5]);
        dice.roll(3, 6);
    }

    #[test]
    #[should_panic(expected = "expected a d6 face (1..=6) but the script says 7")]
    fn scripted_panics_on_face_out_of_range() {
        let mut dice = Dice::scripted(vec![7]);
        dice.d6();
    }

    #[test]
    #[should_panic(expected = "expected a d6 face (1..=6) but the script says 0")]
    fn scripted_panics_on_zero_face() {
        Dice::scripted(vec![0]).d6();
    }

    #[test]
    fn shuffle_is_a_seeded_permutation() {
        let mut v: Vec<u32> = (0..20).collect();
        let mut w = v.clone();
        Dice::new(9).shuffle(&mut v);
        Dice::new(9).shuffle(&mut w);
        assert_eq!(v, w);
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..20).collect::<Vec<_>>());
        assert_ne!(v, sorted, "20 items staying in order is a 1 in 20! chance");

        let mut empty: [u8; 0] = [];
        let mut dice = Dice::new(1);
        dice.shuffle(&mut empty);
        dice.shuffle(&mut [1]);
        assert_eq!(dice.draws(), 0);
    }

    #[test]
    fn shuffle_scripted() {
        // i = 2: d3 = 1 swaps v[2] and v[0]; i = 1: d2 = 2 keeps v[1].
        let mut v = ['a', 'b', 'c'];
        let mut dice = Dice::scripted(vec![1, 2]);
        dice.shuffle(&mut v);
        assert_eq!(v, ['c', 'b', 'a']);
        assert_eq!(dice.remaining_scripted(), Some(0));
    }

    /// Every ordering of 3 items comes up about equally often (each ≈ 1/6 within ±0.02
    /// over 30 000 shuffles).
    #[test]
    fn shuffle_uniform() {
        let mut dice = Dice::new(5);
        let mut counts = std::collections::BTreeMap::new();
        const N: usize = 30_000;
        for _ in 0..N {
            let mut v = [0, 1, 2];
            dice.shuffle(&mut v);
            *counts.entry(v).or_insert(0usize) += 1;
        }
        assert_eq!(counts.len(), 6);
        for (perm, c) in counts {
            let f = c as f64 / N as f64;
            assert!((f - 1.0 / 6.0).abs() < 0.02, "{perm:?}: {f}");
        }
    }

    #[test]
    #[should_panic(expected = "d0")]
    fn d0_panics() {
        Dice::new(0).d(0);
    }
}
