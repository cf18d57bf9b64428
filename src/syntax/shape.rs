//! The shape of a plain text INSERT: its text with every constant cut out.
//!
//! A load is mostly one `INSERT INTO t (…) VALUES (…)` written again and
//! again with different constants. Two statements of the same shape differ
//! only in their constants, so whatever depends on the rest — parsing,
//! resolving the table and its columns, compiling the write — can be done
//! once per shape, and each statement then only converts its constants.
//!
//! Only the plainest form is cut: `INSERT INTO name[.name] (names) VALUES
//! (constants)` with optional trailing `;`. Anything else — a comment, a
//! bind marker, a function call, a collection, `USING`, `IF NOT EXISTS`,
//! `JSON`, a lexical error — is not a shape, and is left to the parser.
//! Names are not checked here: a shape whose text does not parse is simply
//! one that is never served.

use super::keyword::Keyword;
use super::lexer::{first_token, Lexer, Token, TokenKind};

/// A text INSERT cut into its shape and its constants. The buffers are
/// kept from one statement to the next.
#[derive(Debug, Clone, Default)]
pub struct InsertShape {
    /// The statement's text with each constant replaced by `?`: what the
    /// shape is known by, and a statement the parser reads as prepared.
    pub text: String,
    /// The constants, in the order written (the markers' order in `text`).
    pub constants: Vec<Token>,
    /// Where each marker is in `text`.
    markers: Vec<usize>,
}

impl InsertShape {
    /// Cuts `source` into shape and constants, or returns `false` (leaving
    /// the buffers in an unspecified state) when it is not a plain INSERT
    /// of constants.
    pub fn read(&mut self, source: &str) -> bool {
        self.read_tokens(source, Lexer::new(source))
    }

    /// [`InsertShape::read`] of `source` already lexed into `tokens`
    /// (every token of it, comments included, with spans into `source`):
    /// a caller that has lexed the statement need not lex it again.
    pub fn read_tokens(&mut self, source: &str, tokens: impl IntoIterator<Item = Token>) -> bool {
        self.text.clear();
        self.constants.clear();
        self.markers.clear();
        let mut copied = 0;
        let mut expect = Expect::Insert;
        for token in tokens {
            expect = match expect.next(token.kind) {
                Some(next) => next,
                None => return false,
            };
            if expect == Expect::AfterConstant {
                self.text.push_str(&source[copied..token.span.start]);
                self.markers.push(self.text.len());
                self.text.push('?');
                copied = token.span.end;
                self.constants.push(token);
            }
        }
        if !matches!(expect, Expect::Semicolons) {
            return false;
        }
        self.text.push_str(&source[copied..]);
        true
    }

    /// Reads `source` as a statement of the shape last read, which is
    /// what a load repeats: only its constants are lexed. Returns `false`,
    /// leaving the constants in an unspecified state, when `source` is not
    /// of that shape (it may still be of another: see [`InsertShape::read`]).
    ///
    /// Where this succeeds, `read` gives the same shape and constants. The
    /// text between constants is the shape's byte for byte, and it starts
    /// and ends where the lexer is between tokens — after a constant, or at
    /// `(`, `,` or white space before one, none of which a following
    /// character can extend — so the lexer reads it as it did before.
    pub fn read_like(&mut self, source: &str) -> bool {
        self.read_prefix(source) == Some(source.len())
    }

    /// Reads the start of `source` as a statement of the shape last read,
    /// as [`InsertShape::read_like`] reads a whole one, and returns how
    /// long that statement is: a script splitter hands out a load's
    /// statements this way without lexing them. The shape's text must end
    /// in a `;` for the statement to end where the lexer would end it.
    pub fn read_prefix(&mut self, source: &str) -> Option<usize> {
        self.constants.clear();
        let mut at = 0;
        let mut from = 0;
        for &marker in &self.markers {
            let between = &self.text[from..marker];
            let rest = source.get(at..)?.strip_prefix(between)?;
            at += between.len();
            let token = first_token(rest)?;
            if token.span.start != 0 || !is_constant(token.kind) {
                return None;
            }
            self.constants.push(Token {
                kind: token.kind,
                span: token.span.shifted(at),
            });
            at += token.span.end;
            from = marker + 1;
        }
        let tail = &self.text[from..];
        source
            .get(at..)?
            .starts_with(tail)
            .then_some(at + tail.len())
    }
}

/// Where the cut is in the statement: what the next token may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    Insert,
    Into,
    Table,
    DotOrColumns,
    TableAfterDot,
    Columns,
    Column,
    AfterColumn,
    Values,
    ValuesOpen,
    Constant,
    AfterConstant,
    Semicolons,
}

impl Expect {
    /// The state after a token of `kind`, or `None` when the statement
    /// leaves the plain form.
    fn next(self, kind: TokenKind) -> Option<Expect> {
        use Expect as E;
        use TokenKind as K;
        Some(match (self, kind) {
            (E::Insert, K::Keyword(Keyword::Insert)) => E::Into,
            (E::Into, K::Keyword(Keyword::Into)) => E::Table,
            (E::Table, k) if is_name(k) => E::DotOrColumns,
            (E::DotOrColumns, K::Dot) => E::TableAfterDot,
            (E::TableAfterDot, k) if is_name(k) => E::Columns,
            (E::DotOrColumns | E::Columns, K::LParen) => E::Column,
            (E::Column, k) if is_name(k) => E::AfterColumn,
            (E::AfterColumn, K::Comma) => E::Column,
            (E::AfterColumn, K::RParen) => E::Values,
            (E::Values, K::Keyword(Keyword::Values)) => E::ValuesOpen,
            (E::ValuesOpen, K::LParen) => E::Constant,
            (E::Constant, k) if is_constant(k) => E::AfterConstant,
            (E::AfterConstant, K::Comma) => E::Constant,
            (E::AfterConstant, K::RParen) | (E::Semicolons, K::Semicolon) => E::Semicolons,
            _ => return None,
        })
    }
}

/// A token that may name a table or column: whether it really does is the
/// parser's to say when the shape is compiled.
fn is_name(kind: TokenKind) -> bool {
    matches!(
        kind,
        TokenKind::Ident | TokenKind::QuotedIdent | TokenKind::Keyword(_)
    )
}

/// A token that is one constant (or `NULL`) on its own.
fn is_constant(kind: TokenKind) -> bool {
    matches!(
        kind,
        TokenKind::String
            | TokenKind::DollarString
            | TokenKind::Integer
            | TokenKind::Float
            | TokenKind::Boolean
            | TokenKind::Duration
            | TokenKind::Uuid
            | TokenKind::Hex
            | TokenKind::Keyword(Keyword::Null)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn cut(source: &str) -> Option<(String, Vec<String>)> {
        let mut shape = InsertShape::default();
        shape.read(source).then(|| {
            let constants = shape
                .constants
                .iter()
                .map(|t| t.text(source).to_string())
                .collect();
            (shape.text.clone(), constants)
        })
    }

    #[test]
    fn plain_inserts_are_cut_at_their_constants() {
        assert_eq!(
            cut("INSERT INTO ks.t (a, \"B\", c) VALUES ('x''y', -5, null);;"),
            Some((
                "INSERT INTO ks.t (a, \"B\", c) VALUES (?, ?, ?);;".to_string(),
                vec!["'x''y'".into(), "-5".into(), "null".into()]
            ))
        );
        assert_eq!(
            cut("insert into t(k,v)values(1.5e3,0xFF)"),
            Some((
                "insert into t(k,v)values(?,?)".to_string(),
                vec!["1.5e3".into(), "0xFF".into()]
            ))
        );
    }

    #[test]
    fn anything_else_is_not_a_shape() {
        for source in [
            "INSERT INTO t (k) VALUES (?)",
            "INSERT INTO t (k) VALUES (now())",
            "INSERT INTO t (k) VALUES ([1])",
            "INSERT INTO t (k) VALUES (1) USING TTL 5",
            "INSERT INTO t (k) VALUES (1) IF NOT EXISTS",
            "INSERT INTO t (k) VALUES (1) -- note",
            "INSERT INTO t (k) VALUES (1); SELECT",
            "INSERT INTO t (k) VALUES (- 1)",
            "INSERT INTO t (k) VALUES ('open",
            "INSERT INTO t (k) VALUES (1",
            "INSERT INTO t JSON '{}'",
            "INSERT INTO t (k) VALUES ()",
            "SELECT * FROM t",
        ] {
            assert_eq!(cut(source), None, "{source}");
        }
    }

    /// Pieces a statement's constants are drawn from: constants of every
    /// kind, and text that is not one constant or runs into what follows.
    const PIECES: &[&str] = &[
        "1",
        "-5",
        "1.5e3",
        "1.",
        "'a'",
        "'it''s'",
        "'--'",
        "''",
        "$$x$$",
        "$$'$$",
        "true",
        "NaN",
        "-NaN",
        "0xcafe",
        "1h30m",
        "P1D",
        "-P1D",
        "123e4567-e89b-12d3-a456-426614174000",
        "null",
        "?",
        "- 1",
        "-abc",
        "1 2",
        "'open",
        "1,2",
        "(1)",
        "a.b",
        "1e",
        "'x'/*",
        "/* c */ 1",
        "1 -- c",
        "\"q\"",
        "",
    ];

    fn statement() -> impl Strategy<Value = String> {
        (
            prop::sample::select(vec![
                "INSERT INTO t (a, b) VALUES (",
                "insert into ks.t(a,b)values(",
            ]),
            prop::sample::select(PIECES),
            prop::sample::select(vec![", ", ",", " ,  "]),
            prop::sample::select(PIECES),
            prop::sample::select(vec![")", ");", ") ;;", ")x", ") "]),
        )
            .prop_map(|(head, a, comma, b, tail)| format!("{head}{a}{comma}{b}{tail}"))
    }

    fn texts(shape: &InsertShape, source: &str) -> Vec<String> {
        let constants = shape.constants.iter();
        constants.map(|t| t.text(source).to_string()).collect()
    }

    proptest! {
        /// Reading a statement as the last one's shape gives what reading it
        /// afresh gives, and succeeds whenever the shapes are the same.
        #[test]
        fn read_like_agrees_with_read(first in statement(), second in statement()) {
            let mut template = InsertShape::default();
            prop_assume!(template.read(&first));
            let mut fresh = InsertShape::default();
            let fresh_ok = fresh.read(&second);
            let like_ok = template.read_like(&second);
            prop_assert_eq!(like_ok, fresh_ok && fresh.text == template.text);
            if like_ok {
                prop_assert_eq!(&template.text, &fresh.text);
                prop_assert_eq!(texts(&template, &second), texts(&fresh, &second));
                let kinds = |s: &InsertShape| s.constants.iter().map(|t| t.kind).collect::<Vec<_>>();
                prop_assert_eq!(kinds(&template), kinds(&fresh));
            }
        }
    }
}
