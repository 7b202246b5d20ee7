//! Play by file (`volley play --turn-file FILE --terminal`): a game sent back and forth by any
//! means, a player's turn at a time. The file is the game's recording (RON, as `volley
//! verify` reads it) with a last line that signs it: an HMAC-SHA256 of the text with a key
//! both players agreed on. A file changed on the way, or signed with another key, is refused.
//!
//! What it does not guarantee: the recording holds the dice's seed, so a player who works
//! the dice out can foresee the rolls to come (a server, `volley serve`, keeps the seed to
//! itself), and the key proves only that one of the two players wrote the file.

use super::Recording;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use std::path::Path;

/// The signature line's start.
const MARK: &str = "// volley turn file, hmac-sha256 ";

fn mac(text: &str, key: &str) -> Hmac<Sha256> {
    let mut m = <Hmac<Sha256> as KeyInit>::new_from_slice(key.as_bytes()).expect("HMAC takes a key of any length");
    m.update(text.as_bytes());
    m
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The file's text: the recording and its signature with `key`.
pub fn signed(rec: &Recording, key: &str) -> String {
    let text = rec.to_ron();
    let sig = hex(&mac(&text, key).finalize().into_bytes());
    format!("{text}\n{MARK}{sig}\n")
}

/// Write the signed file atomically.
pub fn write(path: &Path, rec: &Recording, key: &str) -> Result<(), String> {
    super::save_atomically(path, signed(rec, key).as_bytes())
        .map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

/// The recording in a turn file, if its signature is `key`'s.
pub fn read(path: &Path, key: &str) -> Result<Recording, String> {
    let shown = path.display();
    let all = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
    let (text, sig) = all
        .trim_end()
        .rsplit_once('\n')
        .and_then(|(text, last)| Some((text, last.strip_prefix(MARK)?)))
        .ok_or_else(|| format!("{shown}: not a turn file (its last line is no signature)"))?;
    let sig: Vec<u8> = (0..sig.len() / 2)
        .map(|i| u8::from_str_radix(sig.get(2 * i..2 * i + 2).unwrap_or("zz"), 16))
        .collect::<Result<_, _>>()
        .map_err(|_| format!("{shown}: its signature is not hex"))?;
    mac(text, key)
        .verify_slice(&sig)
        .map_err(|_| format!("{shown}: the signature does not match: the file was changed after it was written, or the key is not the one it was signed with"))?;
    Recording::parse(text, path).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_sha256_is_rfc_4231s() {
        // RFC 4231, test case 2.
        let m = mac("what do ya want for nothing?", "Jefe").finalize().into_bytes();
        assert_eq!(
            hex(&m),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
