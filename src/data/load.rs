//! Reading RON data files with errors that point at `file:line:col`.
//!
//! Syntax and type errors come from `ron` with its position. Semantic errors found later
//! (an unknown row id, overlapping stands, …) are placed with [`RonSpans`], a small span map
//! of the same text that finds a value by its path (`sides[0].units[3].row`), or with
//! [`locate`] on a distinctive needle as a fallback.
//!
//! Nothing here panics, whatever the input: empty text, binary junk, huge numbers, deep nesting.

use super::error::DataError;
pub use super::error::line_col;
use serde::de::DeserializeOwned;
use std::path::Path;

/// Most nesting the span map follows; `ron` itself stops at 128.
const MAX_DEPTH: usize = 256;

/// Parses RON `text` (the contents of `file`, which only names the place in errors).
///
/// Uses `ron::Options::default()`: no extensions unless the file enables them itself
/// (`#![enable(implicit_some)]`), recursion limited to 128.
pub fn parse_ron<T: DeserializeOwned>(text: &str, file: &Path) -> Result<T, DataError> {
    ron::Options::default()
        .with_recursion_limit(MAX_NESTING)
        .from_str::<T>(text)
        .map_err(|e| {
            let (line, col) = (e.span.start.line.max(1), e.span.start.col.max(1));
            let what = match e.code {
                // ron's own words tell the user to change ron's settings.
                ron::Error::ExceededRecursionLimit => {
                    format!("brackets nested more than {MAX_NESTING} deep: no Volley file needs that many")
                }
                other => other.to_string(),
            };
            DataError::new(file, line, col, what)
        })
}

/// How deep brackets may nest in any file Volley reads (the deepest bundled file uses 8).
pub const MAX_NESTING: usize = 64;

/// The largest file Volley reads (the largest bundled scenario is under 40 KB; a long saved
/// game of the large scenario is under 1 MB).
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads and parses a RON file. A file that cannot be read is an error at `0:0`
/// ("cannot read: …"); a file that is not UTF-8 is an error at its first bad byte.
pub fn load_ron<T: DeserializeOwned>(path: &Path) -> Result<T, DataError> {
    let text = read_text(path)?;
    parse_ron(&text, path)
}

/// What kind of thing a path is, in words, for a message about something that is not a
/// regular file.
pub fn file_kind(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a pipe";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a folder"
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_file() {
        "a regular file"
    } else {
        "something else"
    }
}

/// The error for a path that is not a regular file.
fn not_regular(t: &std::fs::FileType) -> std::io::Error {
    std::io::Error::other(format!(
        "not a regular file ({}); Volley reads only regular files",
        file_kind(t)
    ))
}

/// Opens `path` for reading, only if it is a regular file (links followed): a pipe, a device
/// (`/dev/zero`, `/dev/stdin` on a terminal or a pipe), a socket or a folder is refused before
/// it is opened, so nothing blocks (a pipe with no writer) or reads without end. The opened
/// file's own type is checked again (it is opened without waiting, so a pipe put there in
/// between cannot block either).
pub fn open_regular(path: &Path) -> std::io::Result<std::fs::File> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(not_regular(&meta.file_type()));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(not_regular(&meta.file_type()));
    }
    Ok(file)
}

/// Reads all of `reader`, at most `limit` bytes: more (whatever a file's size said) is an
/// error of kind `InvalidData` ("more than `limit` bytes"), found after reading `limit` + 1.
pub fn read_bounded(reader: impl std::io::Read, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    reader.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("more than {limit} bytes"),
        ));
    }
    Ok(bytes)
}

/// Reads a whole file of at most [`MAX_FILE_BYTES`] bytes, a regular file only
/// ([`open_regular`], [`read_bounded`]); errors at `0:0` naming the file.
pub fn read_file(path: &Path) -> Result<Vec<u8>, DataError> {
    let cannot = |e: std::io::Error| DataError::whole_file(path, format!("cannot read: {e}"));
    let too_big = |size: &str| {
        DataError::whole_file(
            path,
            format!(
                "the file is {size} bytes; Volley reads files of at most {MAX_FILE_BYTES} bytes ({} MiB)",
                MAX_FILE_BYTES / (1024 * 1024)
            ),
        )
    };
    let file = open_regular(path).map_err(cannot)?;
    let size = file.metadata().map_err(cannot)?.len();
    if size > MAX_FILE_BYTES {
        return Err(too_big(&size.to_string()));
    }
    read_bounded(file, MAX_FILE_BYTES).map_err(|e| match e.kind() {
        // It grew while it was read.
        std::io::ErrorKind::InvalidData => too_big(&format!("more than {MAX_FILE_BYTES}")),
        _ => cannot(e),
    })
}

/// Reads a whole text file; errors as [`load_ron`] describes.
pub fn read_text(path: &Path) -> Result<String, DataError> {
    let mut bytes = read_file(path)?;
    // A byte-order mark some editors write at the start: not part of the text.
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        // The valid prefix is text: place the error right after it.
        let prefix = String::from_utf8_lossy(&e.as_bytes()[..good]).into_owned();
        DataError::at_offset(path, &prefix, good, "file is not valid UTF-8 text")
    })
}

/// Line and column (1-based, columns in characters) of the first occurrence of `needle`
/// in `text`; `(0, 0)` when it does not occur (or is empty).
pub fn locate(text: &str, needle: &str) -> (usize, usize) {
    if needle.is_empty() {
        return (0, 0);
    }
    match text.find(needle) {
        Some(i) => line_col(text, i),
        None => (0, 0),
    }
}

/// FNV-1a (64 bit) of `bytes`: pins a scenario's content in replays.
pub fn content_hash(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// One step of a path into a RON value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seg<'a> {
    /// A named field of a struct: `name: value`.
    Field(&'a str),
    /// An element of a list or a positional element of a tuple.
    Index(usize),
    /// The inside of a newtype struct, `Polygon([...])` / `([...])`; passes through when the
    /// value is not wrapped.
    Newtype,
}

#[derive(Debug)]
struct Node {
    /// Byte offset where the value starts.
    at: usize,
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    Leaf,
    Seq(Vec<Node>),
    Fields(Vec<(String, Node)>),
}

/// A span map of a RON text: where each value starts, found by its path.
///
/// Built leniently from text `ron` already accepted; on text it cannot follow it keeps what
/// it has (and [`RonSpans::find`] falls back to the start of the file).
#[derive(Debug)]
pub struct RonSpans<'t> {
    text: &'t str,
    root: Option<Node>,
}

impl<'t> RonSpans<'t> {
    pub fn new(text: &'t str) -> Self {
        let mut p = SpanParser {
            s: text.as_bytes(),
            i: 0,
            depth: 0,
        };
        p.ws();
        let root = p.value();
        RonSpans { text, root }
    }

    /// Byte offset of the value at `path`, or of its deepest ancestor that exists
    /// (a field left to its default points at the struct that omits it).
    pub fn offset(&self, path: &[Seg]) -> usize {
        let Some(mut node) = self.root.as_ref() else {
            return 0;
        };
        for seg in path {
            let next = match (*seg, &node.kind) {
                (Seg::Field(name), Kind::Fields(fields)) => fields.iter().find(|(k, _)| k == name).map(|(_, n)| n),
                (Seg::Index(i), Kind::Seq(items)) => items.get(i),
                (Seg::Newtype, Kind::Seq(items)) => match items.as_slice() {
                    [inner @ Node { kind: Kind::Seq(_), .. }] => Some(inner),
                    _ => Some(node),
                },
                (Seg::Newtype, _) => Some(node),
                _ => None,
            };
            match next {
                Some(n) => node = n,
                None => break,
            }
        }
        node.at
    }

    /// Line and column (1-based) of the value at `path`; see [`RonSpans::offset`].
    pub fn find(&self, path: &[Seg]) -> (usize, usize) {
        line_col(self.text, self.offset(path))
    }

    /// A [`DataError`] in `file` at the value at `path`.
    pub fn error(&self, file: &Path, path: &[Seg], msg: impl Into<String>) -> DataError {
        let (line, col) = self.find(path);
        DataError::new(file, line, col, msg)
    }
}

struct SpanParser<'a> {
    s: &'a [u8],
    i: usize,
    depth: usize,
}

/// The first place at or after `i` in RON text `s` that is not whitespace, a comment (`//` to
/// the end of the line, `/* … */` nested) or a `#![…]` attribute (the end of the text if
/// nothing else follows).
pub(crate) fn skip_ws(s: &[u8], mut i: usize) -> usize {
    loop {
        match (s.get(i).copied(), s.get(i + 1).copied()) {
            (Some(b), _) if b.is_ascii_whitespace() => i += 1,
            (Some(b'/'), Some(b'/')) => i = line_comment_end(s, i),
            (Some(b'/'), Some(b'*')) => i = block_comment_end(s, i),
            (Some(b'#'), Some(b'!')) => {
                while let Some(&b) = s.get(i) {
                    i += 1;
                    if b == b']' {
                        break;
                    }
                }
            }
            _ => return i,
        }
    }
}

/// Where a `//` comment starting at `i` ends: its line's `\n` (left for the caller), or the end
/// of the text.
pub(crate) fn line_comment_end(s: &[u8], i: usize) -> usize {
    s[i..].iter().position(|&b| b == b'\n').map_or(s.len(), |k| i + k)
}

/// Where a quoted string or character starting at `i` (its `"` or `'`) ends: at its closing
/// quote (escapes skipped), or the end of the text if it is not closed.
pub(crate) fn quoted_end(s: &[u8], mut i: usize) -> usize {
    let quote = s[i];
    i += 1;
    while i < s.len() && s[i] != quote {
        i += if s[i] == b'\\' { 2 } else { 1 };
    }
    i
}

/// Where a raw string starting at `i` (the `r` of `r"…"` or `r#"…"#`) ends: just past its
/// closing quote and hashes; just past the hashes when no quote follows them (a raw
/// identifier); `None` when the string is never closed.
pub(crate) fn raw_string_end(s: &[u8], mut i: usize) -> Option<usize> {
    let mut hashes = 0;
    i += 1;
    while s.get(i) == Some(&b'#') {
        hashes += 1;
        i += 1;
    }
    if s.get(i) != Some(&b'"') {
        return Some(i);
    }
    let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
    s[i + 1..]
        .windows(close.len())
        .position(|w| w == close.as_slice())
        .map(|k| i + 1 + k + close.len())
}

/// Where a `/* … */` comment starting at `i` ends (nested comments counted): just past its
/// `*/`, or the end of the text if it is not closed.
pub(crate) fn block_comment_end(s: &[u8], mut i: usize) -> usize {
    let mut level = 0usize;
    while i < s.len() {
        if s[i] == b'/' && s.get(i + 1) == Some(&b'*') {
            level += 1;
            i += 2;
        } else if s[i] == b'*' && s.get(i + 1) == Some(&b'/') {
            level -= 1;
            i += 2;
            if level == 0 {
                break;
            }
        } else {
            i += 1;
        }
    }
    i.min(s.len())
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

impl SpanParser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn peek_at(&self, k: usize) -> Option<u8> {
        self.s.get(self.i + k).copied()
    }

    /// Skips whitespace, comments (line, nested block) and `#![...]` attributes.
    fn ws(&mut self) {
        self.i = skip_ws(self.s, self.i);
    }

    fn ident(&mut self) -> &str {
        let start = self.i;
        if self.peek() == Some(b'r') && self.peek_at(1) == Some(b'#') {
            self.i += 2;
        }
        while self.peek().is_some_and(is_ident_char) {
            self.i += 1;
        }
        std::str::from_utf8(&self.s[start..self.i]).unwrap_or("")
    }

    /// Skips a quoted string or char starting at the quote `q`, honouring backslash escapes.
    fn quoted(&mut self, q: u8) {
        self.i += 1;
        while let Some(b) = self.peek() {
            self.i += 1;
            if b == b'\\' {
                self.i += 1;
            } else if b == q {
                return;
            }
        }
    }

    /// Skips a raw string `r##"..."##` starting at the `r`.
    fn raw_string(&mut self) {
        self.i += 1;
        let mut hashes = 0;
        while self.peek() == Some(b'#') {
            hashes += 1;
            self.i += 1;
        }
        if self.peek() != Some(b'"') {
            return;
        }
        self.i += 1;
        while self.i < self.s.len() {
            if self.s[self.i] == b'"'
                && self.s[self.i + 1..].iter().take(hashes).filter(|&&b| b == b'#').count() == hashes
            {
                self.i += 1 + hashes;
                return;
            }
            self.i += 1;
        }
    }

    /// One value, starting at the current (non-whitespace) position.
    fn value(&mut self) -> Option<Node> {
        if self.depth >= MAX_DEPTH {
            return None;
        }
        self.depth += 1;
        let r = self.value_inner();
        self.depth -= 1;
        r
    }

    fn value_inner(&mut self) -> Option<Node> {
        let at = self.i;
        let b = self.peek()?;
        match b {
            b'(' => {
                self.i += 1;
                Some(Node {
                    at,
                    kind: self.group(b')')?,
                })
            }
            b'[' => {
                self.i += 1;
                Some(Node {
                    at,
                    kind: self.group(b']')?,
                })
            }
            b'{' => {
                self.i += 1;
                Some(Node { at, kind: self.map()? })
            }
            b'"' | b'\'' => {
                self.quoted(b);
                Some(Node { at, kind: Kind::Leaf })
            }
            b'r' if matches!(self.peek_at(1), Some(b'"') | Some(b'#'))
                && !(self.peek_at(1) == Some(b'#') && self.peek_at(2).is_some_and(is_ident_start)) =>
            {
                self.raw_string();
                Some(Node { at, kind: Kind::Leaf })
            }
            b'b' if matches!(self.peek_at(1), Some(b'"') | Some(b'\'')) => {
                self.i += 1;
                self.quoted(self.s[self.i]);
                Some(Node { at, kind: Kind::Leaf })
            }
            b if is_ident_start(b) => {
                let name = self.ident().to_owned();
                let after_ident = self.i;
                self.ws();
                if self.peek() == Some(b'(') {
                    self.i += 1;
                    let kind = self.group(b')')?;
                    // `Some(x)` is transparent: the path goes straight to `x`.
                    if name == "Some"
                        && let Kind::Seq(mut items) = kind
                    {
                        return match items.len() {
                            1 => items.pop(),
                            _ => Some(Node {
                                at,
                                kind: Kind::Seq(items),
                            }),
                        };
                    }
                    Some(Node { at, kind })
                } else {
                    self.i = after_ident;
                    Some(Node { at, kind: Kind::Leaf })
                }
            }
            _ => {
                // Numbers and anything else: up to the next delimiter.
                while let Some(c) = self.peek() {
                    if c.is_ascii_whitespace() || matches!(c, b',' | b')' | b']' | b'}' | b':' | b'/') {
                        break;
                    }
                    self.i += 1;
                }
                (self.i > at).then_some(Node { at, kind: Kind::Leaf })
            }
        }
    }

    /// The inside of `( … )` or `[ … ]`: named fields or positional items.
    fn group(&mut self, close: u8) -> Option<Kind> {
        let mut items = Vec::new();
        let mut fields = Vec::new();
        loop {
            self.ws();
            match self.peek()? {
                c if c == close => {
                    self.i += 1;
                    break;
                }
                b if is_ident_start(b) && close == b')' => {
                    let save = self.i;
                    let name = self.ident().to_owned();
                    self.ws();
                    if self.peek() == Some(b':') && self.peek_at(1) != Some(b':') {
                        self.i += 1;
                        self.ws();
                        let v = self.value()?;
                        fields.push((name.trim_start_matches("r#").to_owned(), v));
                    } else {
                        self.i = save;
                        items.push(self.value()?);
                    }
                }
                _ => items.push(self.value()?),
            }
            self.ws();
            match self.peek()? {
                b',' => self.i += 1,
                c if c == close => {}
                _ => return None,
            }
        }
        Some(if fields.is_empty() {
            Kind::Seq(items)
        } else {
            Kind::Fields(fields)
        })
    }

    /// The inside of `{ key: value, … }`: kept as the sequence of values.
    fn map(&mut self) -> Option<Kind> {
        let mut items = Vec::new();
        loop {
            self.ws();
            if self.peek()? == b'}' {
                self.i += 1;
                break;
            }
            self.value()?;
            self.ws();
            if self.peek()? != b':' {
                return None;
            }
            self.i += 1;
            self.ws();
            items.push(self.value()?);
            self.ws();
            match self.peek()? {
                b',' => self.i += 1,
                b'}' => {}
                _ => return None,
            }
        }
        Some(Kind::Seq(items))
    }
}

/// The `.ron` files in folder `dir`, sorted by path (none if it cannot be read).
pub fn ron_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

#[cfg(test)]
mod tests {

    #[test]
    fn strings_end_where_their_quotes_close() {
        let s = br#"x "a\"b" y"#;
        assert_eq!(quoted_end(s, 2), 7);
        assert_eq!(quoted_end(br"'\''", 0), 3);
        assert_eq!(quoted_end(b"\"open", 0), 5);
        let raw = br###"r#"a "quote" b"# rest"###;
        assert_eq!(raw_string_end(raw, 0), Some(16));
        assert_eq!(raw_string_end(br#"r"x" y"#, 0), Some(4));
        assert_eq!(raw_string_end(b"r#ident", 0), Some(2));
        assert_eq!(raw_string_end(br##"r#"never"##, 0), None);
    }

    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Pt {
        x: f64,
        y: f64,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Doc {
        name: String,
        pts: Vec<Pt>,
        #[serde(default)]
        opt: Option<u32>,
    }

    fn p() -> &'static Path {
        Path::new("t.ron")
    }

    #[test]
    fn parses_and_reports_syntax_errors_with_place() {
        let d: Doc = parse_ron("(name: \"a\", pts: [(x: 1, y: 2.5)], opt: Some(3))", p()).unwrap();
        assert_eq!(d.pts[0], Pt { x: 1.0, y: 2.5 });
        assert_eq!(d.opt, Some(3));
        let e = parse_ron::<Doc>("(\n  name: \"a\",\n  pts: [(x: 1, y: )],\n)", p()).unwrap_err();
        assert_eq!((e.line, e.col), (3, 18), "{e}");
        assert!(e.to_string().starts_with("t.ron:3:18: "), "{e}");
    }

    #[test]
    fn hostile_inputs_are_errors_not_panics() {
        let deep = "[".repeat(100_000);
        let deep_struct = "(name: ".to_owned() + &"(".repeat(50_000);
        let cases: Vec<String> = vec![
            String::new(),
            " \n\t".into(),
            "\u{0}\u{1}\u{7f}\u{fffd}".into(),
            deep,
            deep_struct,
            "(name: \"a\", pts: [(x: 1e999999, y: 0)])".into(),
            "(name: \"a\", pts: [], opt: Some(99999999999999999999999))".into(),
            "(name: \"unterminated".into(),
            "/* unclosed".into(),
            "(name: r#\"".into(),
        ];
        for c in &cases {
            let r = parse_ron::<Doc>(c, p());
            // 1e999999 parses as inf: that is the validator's business, not a parse error.
            if let Err(e) = r {
                assert!(e.line >= 1 && e.col >= 1, "{e}");
            }
            let _ = RonSpans::new(c).find(&[Seg::Field("pts"), Seg::Index(0)]);
        }
    }

    #[test]
    fn missing_file_is_0_0() {
        let e = load_ron::<Doc>(Path::new("/nonexistent/volley/x.ron")).unwrap_err();
        assert_eq!((e.line, e.col), (0, 0));
        assert!(e.msg.starts_with("cannot read: "), "{e}");
    }

    #[test]
    fn locate_finds_first_occurrence() {
        let t = "a\nbb \"x\"\n\"x\"";
        assert_eq!(locate(t, "\"x\""), (2, 4));
        assert_eq!(locate(t, "zz"), (0, 0));
        assert_eq!(locate(t, ""), (0, 0));
        assert_eq!(line_col(t, 10_000), (3, 4));
    }

    #[test]
    fn fnv1a_known_values() {
        assert_eq!(content_hash(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(content_hash(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(content_hash(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn spans_follow_paths() {
        let t = "// c\n#![enable(implicit_some)]\nDoc(\n  name: \"a\", // (x: 9)\n  pts: [\n    (x: 1, y: 2),\n    Pt(x: 3, /* ) */ y: 4),\n  ],\n  opt: Some(7),\n  poly: Polygon([(x: 0, y: 0), (x: 1, y: 1)]),\n  s: r#\"a\"b\"#, t: (1, \"two\"),\n)";
        let s = RonSpans::new(t);
        assert_eq!(s.find(&[]), (3, 1));
        assert_eq!(s.find(&[Seg::Field("name")]), (4, 9));
        assert_eq!(s.find(&[Seg::Field("pts"), Seg::Index(1)]), (7, 5));
        assert_eq!(s.find(&[Seg::Field("pts"), Seg::Index(1), Seg::Field("y")]), (7, 25));
        assert_eq!(s.find(&[Seg::Field("opt")]), (9, 13));
        let poly = [Seg::Field("poly"), Seg::Newtype, Seg::Index(1)];
        assert_eq!(s.find(&poly), (10, 32));
        assert_eq!(s.find(&[Seg::Field("t"), Seg::Index(1)]), (11, 23));
        // Missing pieces fall back to the deepest ancestor that exists.
        assert_eq!(s.find(&[Seg::Field("pts"), Seg::Index(9)]), (5, 8));
        assert_eq!(s.find(&[Seg::Field("nope")]), (3, 1));
    }
}
