//! Text from files made safe to show: a title or name in a scenario must not be able to
//! retitle, recolour or clear the player's terminal.

use std::borrow::Cow;

/// Whether `c` may stand in a name or title: no control characters (escape, bell, carriage
/// return, …), which a terminal would obey instead of printing.
pub fn allowed_in_name(c: char) -> bool {
    !c.is_control()
}

/// Whether `c` may stand in a longer text (a brief): as a name, plus new lines and tabs.
pub fn allowed_in_text(c: char) -> bool {
    allowed_in_name(c) || c == '\n' || c == '\t'
}

/// `s` with every control character other than a new line or tab shown as an escape
/// (`\u{1b}`), so it prints as text and does nothing to the terminal. Borrowed when clean.
pub fn printable(s: &str) -> Cow<'_, str> {
    if s.chars().all(allowed_in_text) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.chars()
            .map(|c| {
                if allowed_in_text(c) {
                    c.to_string()
                } else {
                    c.escape_unicode().to_string()
                }
            })
            .collect(),
    )
}

/// The first character of `s` that may not stand in it, with its position (in characters).
pub fn first_control(s: &str, multi_line: bool) -> Option<(usize, char)> {
    let ok = if multi_line { allowed_in_text } else { allowed_in_name };
    s.chars().enumerate().find(|(_, c)| !ok(*c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_are_shown_not_obeyed() {
        let evil = "Gettysburg\u{1b}]0;pwned\u{7}\u{1b}[31m";
        let p = printable(evil);
        assert!(!p.chars().any(|c| c.is_control()), "{p:?}");
        assert_eq!(p, "Gettysburg\\u{1b}]0;pwned\\u{7}\\u{1b}[31m");
        assert!(matches!(printable("Hickory Lane\nturn 1\tok"), Cow::Borrowed(_)));
        assert_eq!(printable("a\rb"), "a\\u{d}b");
    }

    #[test]
    fn names_refuse_control_characters_and_briefs_keep_their_lines() {
        assert_eq!(first_control("21st Georgia", false), None);
        assert_eq!(first_control("21st\u{1b}[2J", false), Some((4, '\u{1b}')));
        assert_eq!(first_control("two\nlines", false), Some((3, '\n')));
        assert_eq!(first_control("two\nlines", true), None);
        assert_eq!(first_control("bell\u{7}", true), Some((4, '\u{7}')));
    }
}
