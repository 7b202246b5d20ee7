//! The server's secrets: seat tokens (kept only as their SHA-256), invite and spectator
//! codes, game ids and seeds, all from the operating system's random source.

use sha2::{Digest, Sha256};

fn random_bytes<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    getrandom::fill(&mut b).expect("the operating system's random source");
    b
}

/// A seat's token: 128 random bits as 32 hex digits.
pub fn token() -> String {
    random_bytes::<16>().iter().map(|b| format!("{b:02x}")).collect()
}

/// A code of `n` characters a person can read out (no 0/O, 1/I/L).
pub fn code(n: usize) -> String {
    const ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZ";
    random_bytes::<32>()
        .iter()
        .take(n)
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect()
}

/// A game's dice seed (it never leaves the server).
pub fn seed() -> u64 {
    u64::from_le_bytes(random_bytes::<8>()) >> 1
}

/// What the database keeps of a token.
pub fn hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_codes_are_their_length_and_differ() {
        let (a, b) = (token(), token());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        let c = code(10);
        assert_eq!(c.len(), 10);
        assert!(c.bytes().all(|x| x.is_ascii_uppercase() || x.is_ascii_digit()));
        // The SHA-256 of "abc" (FIPS 180-2's example).
        assert_eq!(
            hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
