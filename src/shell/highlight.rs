//! Syntax highlighting for the REPL, from the project's one lexer: what is
//! coloured as a string is exactly what the parser reads as a string.
//!
//! [`spans`] classifies one line of input, given the token an earlier line
//! left open (see [`super::input::Pending::open_token`]); [`paint`] turns
//! the spans into ANSI colours. Only the line being edited is lexed.

use crate::syntax::lexer::{Lexer, TokenKind};

/// What a piece of input is, for colouring.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// A keyword (`SELECT`, `WHERE`).
    Keyword,
    /// A string, `$$` body, or a quoted name still open.
    String,
    /// A number, boolean, UUID, blob, duration.
    Literal,
    /// A comment.
    Comment,
    /// A character no CQL token starts with.
    Error,
}

/// A styled byte range of the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// How to colour it.
    pub style: Style,
}

/// The styled pieces of `line`, which starts inside `open` when an earlier
/// line left a string, `$$` body, quoted name or comment open.
pub fn spans(line: &str, open: Option<TokenKind>) -> Vec<Span> {
    let mut out = Vec::new();
    let from = match open {
        Some(kind) => {
            let end = super::input::closer(kind, line).unwrap_or(line.len());
            if let Some(style) = style_of(kind) {
                push(&mut out, 0, end, style);
            }
            end
        }
        None => 0,
    };
    for token in Lexer::new(&line[from..]) {
        if let Some(style) = style_of(token.kind) {
            push(
                &mut out,
                from + token.span.start,
                from + token.span.end,
                style,
            );
        }
    }
    out
}

fn push(out: &mut Vec<Span>, start: usize, end: usize, style: Style) {
    if start < end {
        out.push(Span { start, end, style });
    }
}

/// The style of a token kind; `None` for names and punctuation.
pub fn style_of(kind: TokenKind) -> Option<Style> {
    Some(match kind {
        TokenKind::Keyword(_) => Style::Keyword,
        TokenKind::String
        | TokenKind::DollarString
        | TokenKind::UnterminatedString
        | TokenKind::UnterminatedDollarString
        | TokenKind::UnterminatedQuotedIdent => Style::String,
        TokenKind::Integer
        | TokenKind::Float
        | TokenKind::Duration
        | TokenKind::Uuid
        | TokenKind::Hex
        | TokenKind::Boolean => Style::Literal,
        TokenKind::LineComment | TokenKind::BlockComment | TokenKind::UnterminatedBlockComment => {
            Style::Comment
        }
        TokenKind::Invalid => Style::Error,
        _ => return None,
    })
}

/// The ANSI colour of a style (cqlsh's palette: cqlsh.md §3.5).
pub fn ansi(style: Style) -> &'static str {
    match style {
        Style::Keyword => "\x1b[0;1;34m",
        Style::String => "\x1b[0;1;33m",
        Style::Literal => "\x1b[0;1;32m",
        Style::Comment => "\x1b[0;2m",
        Style::Error => "\x1b[0;1;31m",
    }
}

/// `line` with ANSI colours around its styled spans. The text is unchanged
/// apart from the escape sequences, so its display width is the same.
pub fn paint(line: &str, spans: &[Span]) -> String {
    let mut out = String::with_capacity(line.len() + spans.len() * 12);
    let mut at = 0;
    for span in spans {
        out.push_str(&line[at..span.start]);
        out.push_str(ansi(span.style));
        out.push_str(&line[span.start..span.end]);
        out.push_str("\x1b[0m");
        at = span.end;
    }
    out.push_str(&line[at..]);
    out
}

/// The longest line repainted in colour at every keystroke. Past it a
/// typed character is written as it is and the line is coloured again at
/// the editor's next full repaint (a new terminal row, Enter, an edit
/// inside the line), so typing or pasting a long line costs the same at
/// every keystroke instead of a lexing and a repaint of the whole line.
pub const LIVE_LIMIT: usize = 512;

/// Highlighting for a line editor: whether a keystroke needs the line
/// repainted, and the painted line, with a count of the bytes lexed so
/// the cost of typing can be checked.
#[derive(Debug, Default)]
pub struct Live {
    lexed: std::cell::Cell<usize>,
}

impl Live {
    /// Whether a character typed into `line` (as it now is) needs the whole
    /// line repainted: only while it is short (see [`LIVE_LIMIT`]).
    pub fn repaint_on_keystroke(&self, line: &str) -> bool {
        line.len() <= LIVE_LIMIT
    }

    /// `line` painted, or `None` when nothing in it is coloured.
    pub fn paint(&self, line: &str, open: Option<TokenKind>) -> Option<String> {
        self.lexed.set(self.lexed.get() + line.len());
        let spans = spans(line, open);
        (!spans.is_empty()).then(|| paint(line, &spans))
    }

    /// Bytes lexed so far by [`Live::paint`].
    pub fn lexed(&self) -> usize {
        self.lexed.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn styles(line: &str, open: Option<TokenKind>) -> Vec<(&str, Style)> {
        spans(line, open)
            .into_iter()
            .map(|s| (&line[s.start..s.end], s.style))
            .collect()
    }

    #[test]
    fn keywords_strings_numbers_comments_and_errors() {
        assert_eq!(
            styles("SELECT 'a', 1, true FROM t -- x", None),
            vec![
                ("SELECT", Style::Keyword),
                ("'a'", Style::String),
                ("1", Style::Literal),
                ("true", Style::Literal),
                ("FROM", Style::Keyword),
                ("-- x", Style::Comment),
            ]
        );
        assert_eq!(styles("select @", None)[1], ("@", Style::Error));
    }

    #[test]
    fn a_line_can_start_inside_an_open_string() {
        assert_eq!(
            styles("still text'; SELECT", Some(TokenKind::UnterminatedString)),
            vec![("still text'", Style::String), ("SELECT", Style::Keyword)]
        );
        assert_eq!(
            styles("no end", Some(TokenKind::UnterminatedBlockComment)),
            vec![("no end", Style::Comment)]
        );
    }

    /// Typing a 200 KB line one character at a time, as a line editor asks
    /// (repaint or not after each keystroke): the bytes lexed stay linear
    /// in the line's length, where lexing the whole line at every
    /// keystroke would be some 20 billion.
    #[test]
    fn typing_a_long_line_lexes_a_bounded_amount_per_keystroke() {
        let live = Live::default();
        let mut line = String::from("SELECT * FROM t WHERE k = '");
        let mut per_key_max = 0;
        while line.len() < 200_000 {
            line.push(if line.len() % 7 == 0 { ' ' } else { 'x' });
            let before = live.lexed();
            if live.repaint_on_keystroke(&line) {
                live.paint(&line, None);
            }
            per_key_max = per_key_max.max(live.lexed() - before);
        }
        assert!(
            per_key_max <= LIVE_LIMIT,
            "{per_key_max} bytes at one keystroke"
        );
        assert!(
            live.lexed() <= 2 * line.len(),
            "{} bytes lexed",
            live.lexed()
        );
    }

    #[test]
    fn painting_keeps_the_text() {
        let line = "SELECT 1";
        let painted = paint(line, &spans(line, None));
        assert_eq!(painted, "\x1b[0;1;34mSELECT\x1b[0m \x1b[0;1;32m1\x1b[0m");
    }
}
