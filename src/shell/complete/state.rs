//! The cursor over a statement's tokens that the completion walks use.

use super::names;
use super::{words, Cand};
use crate::planner::PlanContext;
use crate::schema::Table;
use crate::syntax::lexer::{Token, TokenKind};

/// `Err` holds the candidates at the cursor.
pub(crate) type R<T> = Result<T, Vec<Cand>>;

/// The tokens of the statement before the word under the cursor, and that
/// word.
pub(crate) struct State<'a> {
    pub(crate) ctx: &'a PlanContext,
    pub(crate) src: &'a str,
    pub(crate) tokens: &'a [Token],
    pub(crate) pos: usize,
    pub(crate) partial: &'a str,
    pub(crate) partial_kind: Option<TokenKind>,
}

impl<'a> State<'a> {
    pub(crate) fn at_end(&self) -> bool {
        self.pos >= self.tokens.len()
    }

    /// `Err(cands)` when the tokens end here.
    pub(crate) fn stop(&self, cands: Vec<Cand>) -> R<()> {
        if self.at_end() {
            Err(cands)
        } else {
            Ok(())
        }
    }

    pub(crate) fn peek(&self) -> Option<Token> {
        self.tokens.get(self.pos).copied()
    }

    pub(crate) fn peek_kind(&self) -> Option<TokenKind> {
        self.peek().map(|t| t.kind)
    }

    /// A token's text.
    pub(crate) fn text(&self, token: Token) -> &'a str {
        token.text(self.src)
    }

    /// Consumes the next token if its text is `word` (any case).
    pub(crate) fn word(&mut self, word: &str) -> bool {
        let hit = self
            .peek()
            .is_some_and(|t| self.text(t).eq_ignore_ascii_case(word));
        self.pos += usize::from(hit);
        hit
    }

    /// Consumes the next token if it is `kind`.
    pub(crate) fn kind(&mut self, kind: TokenKind) -> bool {
        let hit = self.peek_kind() == Some(kind);
        self.pos += usize::from(hit);
        hit
    }

    /// The next token, consumed.
    pub(crate) fn bump(&mut self) -> Option<Token> {
        let token = self.peek()?;
        self.pos += 1;
        Some(token)
    }

    /// One of `expected` (offered at the end); anything else ends the walk.
    pub(crate) fn expect(&mut self, expected: &[&str]) -> R<String> {
        self.stop(words(expected))?;
        let token = self.bump().ok_or_else(Vec::new)?;
        let text = self.text(token);
        match expected.iter().find(|w| w.eq_ignore_ascii_case(text)) {
            Some(_) => Ok(text.to_ascii_lowercase()),
            None => Err(Vec::new()),
        }
    }

    /// A name: an unquoted word folded to lower case, or a quoted one.
    pub(crate) fn name(&mut self) -> Option<String> {
        let token = self.peek()?;
        let text = self.text(token);
        let name = match token.kind {
            TokenKind::Ident | TokenKind::Keyword(_) => text.to_ascii_lowercase(),
            TokenKind::QuotedIdent => text[1..text.len() - 1].replace("\"\"", "\""),
            _ => return None,
        };
        self.pos += 1;
        Some(name)
    }

    /// A name where `cands` are offered.
    pub(crate) fn require_name(&mut self, cands: Vec<Cand>) -> R<String> {
        self.stop(cands)?;
        self.name().ok_or_else(Vec::new)
    }

    /// A bracketed group, from its opening bracket to the matching one;
    /// `inside` is offered when the tokens end within it.
    pub(crate) fn balanced(&mut self, inside: Vec<Cand>) -> R<()> {
        let mut depth = 0usize;
        while let Some(token) = self.bump() {
            match token.kind {
                TokenKind::LParen | TokenKind::LBracket | TokenKind::LBrace => depth += 1,
                TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace => {
                    depth = depth.saturating_sub(1)
                }
                _ => {}
            }
            if depth == 0 {
                return Ok(());
            }
        }
        Err(inside)
    }

    /// One term (a literal, a name, a function call, a bracketed
    /// collection), with `cands` offered before it.
    pub(crate) fn term(&mut self, cands: Vec<Cand>) -> R<()> {
        self.stop(cands)?;
        let hint = vec![Cand::hint("<term>")];
        match self.peek_kind() {
            Some(TokenKind::LParen | TokenKind::LBracket | TokenKind::LBrace) => {
                self.balanced(hint)
            }
            Some(TokenKind::Ident | TokenKind::Keyword(_)) => {
                self.pos += 1;
                if self.peek_kind() == Some(TokenKind::LParen) {
                    self.balanced(hint)?;
                }
                Ok(())
            }
            Some(_) => {
                self.pos += 1;
                Ok(())
            }
            None => Err(hint),
        }
    }

    /// `[ks.]name` where a table goes; the table when the catalog has it.
    pub(crate) fn table(&mut self) -> R<Option<&'a Table>> {
        let first = self.require_name(names::table_position(self.ctx))?;
        let (keyspace, name) = if self.kind(TokenKind::Dot) {
            let tables = names::tables(self.ctx, Some(&first), false);
            let mut views = names::tables(self.ctx, Some(&first), true);
            views.extend(tables);
            (Some(first), self.require_name(views)?)
        } else {
            (self.ctx.keyspace.clone(), first)
        };
        Ok(keyspace.and_then(|k| self.ctx.catalog.table(&k, &name)))
    }

    /// Inside an open `'…'`: the file names of SOURCE and CAPTURE.
    pub(crate) fn in_string(&self) -> bool {
        self.partial_kind == Some(TokenKind::UnterminatedString)
    }
}
