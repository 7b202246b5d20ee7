//! The one error type of data loading: a message with the place it refers to.

use std::fmt;
use std::path::{Path, PathBuf};

/// An error in a data file, with the place it refers to.
///
/// Displays as `{file}:{line}:{col}: {msg}`. `line` and `col` are 1-based (`col` counts
/// characters); both are 0 only when there is no place in the file at all (e.g. the file
/// could not be read).
#[derive(Debug, Clone, PartialEq)]
pub struct DataError {
    pub file: PathBuf,
    pub line: usize,
    pub col: usize,
    pub msg: String,
}

impl DataError {
    /// An error at `line:col` of `file`.
    pub fn new(file: &Path, line: usize, col: usize, msg: impl Into<String>) -> Self {
        DataError {
            file: file.to_path_buf(),
            line,
            col,
            msg: msg.into(),
        }
    }

    /// An error about the whole file, with no place in it (`0:0`).
    pub fn whole_file(file: &Path, msg: impl Into<String>) -> Self {
        DataError::new(file, 0, 0, msg)
    }

    /// An error at a byte offset of `text` (the file's contents).
    pub fn at_offset(file: &Path, text: &str, offset: usize, msg: impl Into<String>) -> Self {
        let (line, col) = line_col(text, offset);
        DataError::new(file, line, col, msg)
    }
}

/// Line and column (1-based, columns in characters) of byte `offset` in `text`.
/// Offsets past the end (or inside a character) are clamped back to a character boundary.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut off = offset.min(text.len());
    while !text.is_char_boundary(off) {
        off -= 1;
    }
    let before = &text[..off];
    let line = 1 + before.bytes().filter(|&b| b == b'\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = 1 + before[line_start..].chars().count();
    (line, col)
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: {}", self.file.display(), self.line, self.col, self.msg)
    }
}

impl std::error::Error for DataError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_file_line_col_msg() {
        let e = DataError::new(Path::new("maps/x.ron"), 3, 7, "bad thing");
        assert_eq!(e.to_string(), "maps/x.ron:3:7: bad thing");
        let e = DataError::whole_file(Path::new("maps/y.ron"), "cannot read: gone");
        assert_eq!(e.to_string(), "maps/y.ron:0:0: cannot read: gone");
    }

    #[test]
    fn at_offset_counts_lines_and_chars() {
        let text = "ab\ncé\nxyz";
        let e = DataError::at_offset(Path::new("f"), text, text.find('y').unwrap(), "m");
        assert_eq!((e.line, e.col), (3, 2));
        let e = DataError::at_offset(Path::new("f"), text, text.find('\u{e9}').unwrap(), "m");
        assert_eq!((e.line, e.col), (2, 2));
    }
}
