//! The COPY command's grammar (cqlsh's `<copyCommand>`):
//!
//! ```text
//! COPY [ks.]table [( column [, column …] )]
//!      FROM ( 'file[, file …]' | STDIN ) | TO ( 'file' | STDOUT )
//!      [WITH option = value [AND option = value …]]
//! ```
//!
//! Names fold to lower case unless double-quoted; option names are case-insensitive;
//! a value is one term or name, quoted strings losing their quotes (cqlsh's
//! `cql_unprotect_value`).

use crate::syntax::lexer::{tokenize, Token, TokenKind};

use super::python;

/// Which way the data goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Direction {
    /// `COPY … FROM`: import.
    From,
    /// `COPY … TO`: export.
    To,
}

impl Direction {
    /// `from` or `to`, as cqlsh names configuration sections and messages.
    pub(super) fn word(self) -> &'static str {
        match self {
            Direction::From => "from",
            Direction::To => "to",
        }
    }
}

/// A parsed COPY command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct CopyCommand {
    /// The keyspace named before the table, if any.
    pub keyspace: Option<String>,
    /// The table.
    pub table: String,
    /// The columns listed, if any.
    pub columns: Option<Vec<String>>,
    /// FROM or TO.
    pub direction: Direction,
    /// The file name(s) (normalised as cqlsh does), or `None` for STDIN / STDOUT.
    pub file: Option<String>,
    /// `WITH` options in order, names as written.
    pub options: Vec<(String, String)>,
}

/// Parses a COPY command; on failure, the command word as typed (for cqlsh's
/// `Improper COPY command.`).
pub(super) fn parse(text: &str) -> Result<CopyCommand, String> {
    let tokens: Vec<Token> = tokenize(text)
        .into_iter()
        .filter(|t| !t.kind.is_comment())
        .collect();
    let word = tokens.first().map_or("COPY", |t| t.text(text)).to_string();
    let mut cursor = Cursor {
        text,
        tokens: &tokens,
        at: 0,
    };
    cursor.command().ok_or(word)
}

struct Cursor<'a> {
    text: &'a str,
    tokens: &'a [Token],
    at: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn next(&mut self) -> Option<(TokenKind, &str)> {
        let token = self.tokens.get(self.at)?;
        self.at += 1;
        Some((token.kind, token.text(self.text)))
    }

    fn is_word(&self, word: &str) -> bool {
        self.peek()
            .is_some_and(|t| is_wordlike(t.kind) && t.text(self.text).eq_ignore_ascii_case(word))
    }

    fn eat_word(&mut self, word: &str) -> bool {
        let found = self.is_word(word);
        if found {
            self.at += 1;
        }
        found
    }

    fn eat(&mut self, kind: TokenKind) -> bool {
        let found = self.peek().is_some_and(|t| t.kind == kind);
        if found {
            self.at += 1;
        }
        found
    }

    fn command(&mut self) -> Option<CopyCommand> {
        if !self.eat_word("copy") {
            return None;
        }
        let first = self.name()?;
        let (keyspace, table) = if self.eat(TokenKind::Dot) {
            (Some(first), self.name()?)
        } else {
            (None, first)
        };
        let columns = if self.eat(TokenKind::LParen) {
            Some(self.columns()?)
        } else {
            None
        };
        let (direction, std_name) = if self.eat_word("from") {
            (Direction::From, "stdin")
        } else if self.eat_word("to") {
            (Direction::To, "stdout")
        } else {
            return None;
        };
        let file = if self.eat_word(std_name) {
            None
        } else {
            match self.next()? {
                (TokenKind::String, raw) => Some(python::normpath(&unquote(raw))),
                _ => return None,
            }
        };
        let options = self.options()?;
        self.eat(TokenKind::Semicolon);
        if self.peek().is_some() {
            return None;
        }
        Some(CopyCommand {
            keyspace,
            table,
            columns,
            direction,
            file,
            options,
        })
    }

    /// A name: unquoted ones fold to lower case.
    fn name(&mut self) -> Option<String> {
        match self.next()? {
            (TokenKind::QuotedIdent, raw) => Some(raw[1..raw.len() - 1].replace("\"\"", "\"")),
            (kind, raw) if is_wordlike(kind) => Some(raw.to_lowercase()),
            _ => None,
        }
    }

    fn columns(&mut self) -> Option<Vec<String>> {
        let mut columns = vec![self.name()?];
        while self.eat(TokenKind::Comma) {
            columns.push(self.name()?);
        }
        self.eat(TokenKind::RParen).then_some(columns)
    }

    fn options(&mut self) -> Option<Vec<(String, String)>> {
        let mut options = Vec::new();
        if !self.eat_word("with") {
            return Some(options);
        }
        loop {
            let name = match self.next()? {
                (kind, raw) if is_wordlike(kind) => raw.to_string(),
                _ => return None,
            };
            if !self.eat(TokenKind::Eq) {
                return None;
            }
            let value = match self.next()? {
                (TokenKind::String, raw) => unquote(raw),
                (kind, raw) if is_value(kind) => raw.to_string(),
                _ => return None,
            };
            options.push((name, value));
            if !self.eat_word("and") {
                return Some(options);
            }
        }
    }
}

fn is_wordlike(kind: TokenKind) -> bool {
    matches!(
        kind,
        TokenKind::Ident | TokenKind::Keyword(_) | TokenKind::Boolean
    )
}

fn is_value(kind: TokenKind) -> bool {
    is_wordlike(kind)
        || matches!(
            kind,
            TokenKind::QuotedIdent
                | TokenKind::DollarString
                | TokenKind::Integer
                | TokenKind::Float
                | TokenKind::Duration
                | TokenKind::Uuid
                | TokenKind::Hex
        )
}

/// A `'…'` literal's text, `''` undoubled.
fn unquote(raw: &str) -> String {
    raw[1..raw.len() - 1].replace("''", "'")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_cqlsh_s_grammar() {
        let c = parse("COPY ks.t (a, \"B\") FROM 'f.csv' WITH header = true AND delimiter='|' AND null = null AND maxrows=5;")
            .expect("parses");
        assert_eq!(c.keyspace.as_deref(), Some("ks"));
        assert_eq!(c.columns, Some(vec!["a".to_string(), "B".into()]));
        assert_eq!(c.direction, Direction::From);
        assert_eq!(c.file.as_deref(), Some("f.csv"));
        let names: Vec<&str> = c
            .options
            .iter()
            .map(|(n, v)| {
                if n == "delimiter" {
                    v.as_str()
                } else {
                    n.as_str()
                }
            })
            .collect();
        assert_eq!(names, ["header", "|", "null", "maxrows"]);
        let out = parse("copy T to STDOUT").expect("parses");
        assert_eq!(
            (out.table.as_str(), out.file, out.direction),
            ("t", None, Direction::To)
        );
        let ttl = parse("COPY t FROM 'f' WITH TTL = -1").expect("parses");
        assert_eq!(ttl.options, vec![("TTL".to_string(), "-1".to_string())]);
    }

    #[test]
    fn malformed_commands_name_the_word() {
        assert_eq!(parse("copy t to;"), Err("copy".into()));
        assert_eq!(parse("COPY t TO 'f' WITH x;"), Err("COPY".into()));
        assert_eq!(parse("COPY t FROM STDOUT"), Err("COPY".into()));
        assert_eq!(parse("COPY t TO 'f' WITH a = b c"), Err("COPY".into()));
    }
}
