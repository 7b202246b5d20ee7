//! Text from files made safe to show: a title or name in a scenario must not be able to
//! retitle, recolour or clear the player's terminal.

use std::borrow::Cow;

/// Whether `c` may stand in a name or title: no control characters (escape, bell, carriage
/// return, …), which a terminal would obey instead of printing, and no bidi or invisible
/// format characters ([`is_bidi_or_format`]), which would print the text reversed or hidden.
pub fn allowed_in_name(c: char) -> bool {
    !c.is_control() && !is_bidi_or_format(c)
}

/// Characters that reorder, hide or break text when it is printed: the Unicode bidirectional
/// controls (U+202E, right-to-left override, prints what follows reversed; the embeddings,
/// isolates and marks), invisible format characters (zero-width space, word joiner, the
/// invisible operators, the byte-order mark, interlinear annotations, language tags) and the
/// line and paragraph separators. The zero-width joiner and non-joiner (U+200C, U+200D),
/// which some scripts and emoji need, are not among them.
pub fn is_bidi_or_format(c: char) -> bool {
    matches!(
        c,
        '\u{061c}'
            | '\u{200b}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206f}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{e0000}'..='\u{e007f}'
    )
}

/// What `c`, a character [`first_control`] found, is: "the control character \u{1b}".
pub fn describe_refused(c: char) -> String {
    let kind = if c.is_control() {
        "the control character"
    } else if matches!(c, '\u{2028}' | '\u{2029}') {
        "the line or paragraph separator"
    } else {
        "the bidi or invisible format character"
    };
    format!("{kind} {}", c.escape_unicode())
}

/// At most the first `max` characters of `s`, printable, with `…` when cut: a long name
/// quoted in a message.
pub fn quoted_start(s: &str, max: usize) -> String {
    let mut cut: String = s.chars().take(max).collect();
    if cut.len() < s.len() {
        cut.push('…');
    }
    printable(&cut).into_owned()
}

/// Whether `c` may stand in a longer text (a brief): as a name, plus new lines and tabs.
pub fn allowed_in_text(c: char) -> bool {
    allowed_in_name(c) || c == '\n' || c == '\t'
}

/// `s` with every control character other than a new line or tab, and every bidi or format
/// character, shown as an escape (`\u{1b}`, `\u{202e}`), so it prints as text and does nothing
/// to the terminal or to the order of what follows. Borrowed when clean.
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

    #[test]
    fn bidi_and_format_characters_are_refused_and_shown_escaped() {
        for c in [
            '\u{202e}',
            '\u{202a}',
            '\u{2066}',
            '\u{2069}',
            '\u{200f}',
            '\u{200b}',
            '\u{feff}',
            '\u{2028}',
            '\u{e0041}',
        ] {
            let name = format!("1st{c}Texas");
            assert_eq!(first_control(&name, false), Some((3, c)), "{c:?}");
            assert_eq!(first_control(&name, true), Some((3, c)), "{c:?}");
            assert_eq!(printable(&name), format!("1st{}Texas", c.escape_unicode()));
        }
        // Scripts that need them keep the zero-width joiner and non-joiner; accents stay.
        assert_eq!(first_control("می\u{200c}خواهم Ça Ñ", false), None);
        assert!(describe_refused('\u{202e}').contains("bidi"));
        assert!(describe_refused('\u{1b}').contains("control character \\u{1b}"));
        assert_eq!(quoted_start("abcdef", 3), "abc…");
        assert_eq!(quoted_start("abc", 3), "abc");
        assert_eq!(quoted_start("a\u{202e}b", 9), "a\\u{202e}b");
    }
}
