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
use super::lexer::{Lexer, Token, TokenKind};

/// A text INSERT cut into its shape and its constants. The buffers are
/// kept from one statement to the next.
#[derive(Debug, Clone, Default)]
pub struct InsertShape {
    /// The statement's text with each constant replaced by `?`: what the
    /// shape is known by, and a statement the parser reads as prepared.
    pub text: String,
    /// The constants, in the order written (the markers' order in `text`).
    pub constants: Vec<Token>,
}

impl InsertShape {
    /// Cuts `source` into shape and constants, or returns `false` (leaving
    /// the buffers in an unspecified state) when it is not a plain INSERT
    /// of constants.
    pub fn read(&mut self, source: &str) -> bool {
        self.text.clear();
        self.constants.clear();
        let mut copied = 0;
        let mut expect = Expect::Insert;
        for token in Lexer::new(source) {
            expect = match expect.next(token.kind) {
                Some(next) => next,
                None => return false,
            };
            if expect == Expect::AfterConstant {
                self.text.push_str(&source[copied..token.span.start]);
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
}
