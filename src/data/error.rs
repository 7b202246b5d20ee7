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
/// A line ends at a line feed, a carriage return and line feed (Windows), or a carriage return
/// alone (old Mac files).
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut off = offset.min(text.len());
    while !text.is_char_boundary(off) {
        off -= 1;
    }
    let before = &text.as_bytes()[..off];
    let mut line = 1;
    let mut line_start = 0;
    for (i, &b) in before.iter().enumerate() {
        // A carriage return before a line feed ends no line of its own (the line feed does);
        // one before the offset's own place does (the text after it is on the next line).
        let ends = b == b'\n' || (b == b'\r' && text.as_bytes().get(i + 1) != Some(&b'\n'));
        if ends {
            line += 1;
            line_start = i + 1;
        }
    }
    let col = 1 + text[line_start..off].chars().count();
    (line, col)
}

/// `e`, placed by a reader that ends lines at line feeds only (`ron`: its line counts line
/// feeds, its column the characters after the last one), placed again by [`line_col`]: in a
/// file whose lines end with a carriage return alone, `ron`'s line 1, column 4566 is line 75.
/// Unchanged for a text without a lone carriage return, or an error with no place.
pub fn recount_lines(text: &str, e: DataError) -> DataError {
    let b = text.as_bytes();
    let lone_cr = b
        .iter()
        .enumerate()
        .any(|(i, &c)| c == b'\r' && b.get(i + 1) != Some(&b'\n'));
    if e.line == 0 || !lone_cr {
        return e;
    }
    let start = if e.line == 1 {
        Some(0)
    } else {
        b.iter()
            .enumerate()
            .filter(|&(_, &c)| c == b'\n')
            .nth(e.line - 2)
            .map(|(i, _)| i + 1)
    };
    let Some(start) = start else { return e };
    let offset = text[start..]
        .char_indices()
        .nth(e.col.saturating_sub(1))
        .map_or(text.len(), |(i, _)| start + i);
    let (line, col) = line_col(text, offset);
    DataError { line, col, ..e }
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

    #[test]
    fn places_counted_by_line_feeds_are_counted_again() {
        let f = Path::new("f");
        let text = "ab\rcd\rxyz";
        // ron counts one line: `y` is its column 8.
        let e = recount_lines(text, DataError::new(f, 1, 8, "m"));
        assert_eq!((e.line, e.col, e.msg.as_str()), (3, 2, "m"));
        let text = "ab\ncd\rxyz";
        let e = recount_lines(text, DataError::new(f, 2, 5, "m"));
        assert_eq!((e.line, e.col), (3, 2));
        // Nothing to do without a lone carriage return, or without a place.
        assert_eq!(recount_lines("a\r\nb", DataError::new(f, 2, 1, "m")).line, 2);
        assert_eq!(recount_lines("a\rb", DataError::whole_file(f, "m")).line, 0);
        // A place past the end stays in the text.
        assert_eq!(recount_lines("a\rb", DataError::new(f, 9, 9, "m")).line, 9);
        assert_eq!(
            recount_lines("a\rb", DataError::new(f, 1, 99, "m")),
            DataError::new(f, 2, 2, "m")
        );
    }

    #[test]
    fn a_carriage_return_alone_ends_a_line_and_one_before_a_line_feed_does_not() {
        for text in ["ab\ncé\nxyz", "ab\r\ncé\r\nxyz", "ab\rcé\rxyz", "ab\r\ncé\rxyz"] {
            assert_eq!(line_col(text, text.find('y').unwrap()), (3, 2), "{text:?}");
            assert_eq!(line_col(text, text.find('\u{e9}').unwrap()), (2, 2), "{text:?}");
            assert_eq!(line_col(text, 0), (1, 1));
            assert_eq!(line_col(text, text.len()), (3, 4));
        }
        // The place of a line break itself is the end of its line.
        assert_eq!(line_col("ab\r\ncd", 2), (1, 3));
        assert_eq!(line_col("ab\r\ncd", 3), (1, 4));
        assert_eq!(line_col("ab\r\ncd", 4), (2, 1));
        assert_eq!(line_col("ab\rcd", 3), (2, 1));
        assert_eq!(line_col("\r\r\n\r", 4), (4, 1));
    }
}
