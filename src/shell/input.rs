//! Collecting what is typed into whole statements, as cqlsh does
//! (cqlsh.md §1.6): lines accumulate until the last statement ends with `;`
//! outside strings, `$$` bodies, quoted names and comments (a batch at its
//! `APPLY BATCH;`), or until the end of the line for a shell command.
//!
//! [`Pending`] lexes each line once, when it is added, carrying over a token
//! the line break left open (a string, a `$$` body, a quoted name, a block
//! comment): deciding completeness costs one pass of the project's lexer
//! over the new line, however long the statement grows. The same carried
//! state tells the highlighter how the next line starts.

use crate::syntax::keyword::Keyword;
use crate::syntax::lexer::{find_closing_quote, Lexer, TokenKind};

/// The text typed since the last complete statement, and what the lexer
/// knows of it.
#[derive(Debug, Clone)]
pub struct Pending {
    text: String,
    line_commands: Vec<String>,
    /// A token the end of the text leaves open.
    open: Option<TokenKind>,
    /// The statement being collected, when one is not yet terminated.
    statement: Option<Collecting>,
    /// Some statement began since the buffer was last taken.
    started: bool,
}

#[derive(Debug, Clone)]
struct Collecting {
    first: TokenKind,
    first_text: String,
    last: [Option<TokenKind>; 2],
}

impl Pending {
    /// An empty buffer whose statements starting with one of
    /// `line_commands` end at the end of their line.
    pub fn new<S: AsRef<str>>(line_commands: &[S]) -> Pending {
        Pending {
            text: String::new(),
            line_commands: line_commands
                .iter()
                .map(|w| w.as_ref().to_ascii_lowercase())
                .collect(),
            open: None,
            statement: None,
            started: false,
        }
    }

    /// The text so far, lines ended with `\n`.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Nothing has been typed (or only blank lines).
    pub fn is_empty(&self) -> bool {
        self.text.trim().is_empty()
    }

    /// Every statement typed is whole: nothing is left open and the last
    /// statement is terminated. (A buffer of comments only is whole too.)
    pub fn is_complete(&self) -> bool {
        self.open.is_none() && self.statement.is_none()
    }

    /// Whether the buffer holds a statement to run (not just blank lines
    /// and comments).
    pub fn has_statement(&self) -> bool {
        self.started
    }

    /// The token left open at the end of the text: how the next line
    /// starts, for highlighting.
    pub fn open_token(&self) -> Option<TokenKind> {
        self.open
    }

    /// Takes the text, leaving the buffer empty.
    pub fn take(&mut self) -> String {
        self.open = None;
        self.statement = None;
        self.started = false;
        std::mem::take(&mut self.text)
    }

    /// Adds one line (without its line break) and lexes it.
    pub fn push_line(&mut self, line: &str) {
        let start = self.text.len();
        self.text.push_str(line);
        self.text.push('\n');
        let new = self.text[start..].to_string();
        let from = match self.open {
            Some(open) => match closer(open, &new) {
                Some(end) => {
                    self.open = None;
                    end
                }
                None => return,
            },
            None => 0,
        };
        for token in Lexer::new(&new[from..]) {
            let text = token.text(&new[from..]);
            self.note(token.kind, text);
            if token.kind.is_unterminated() {
                self.open = Some(token.kind);
                return;
            }
        }
        self.end_of_line();
    }

    fn note(&mut self, kind: TokenKind, text: &str) {
        if kind.is_comment() {
            return;
        }
        let Some(statement) = self.statement.as_mut() else {
            if kind != TokenKind::Semicolon {
                self.started = true;
                self.statement = Some(Collecting {
                    first: kind,
                    first_text: text.to_ascii_lowercase(),
                    last: [None, Some(kind)],
                });
            }
            return;
        };
        if kind == TokenKind::Semicolon {
            let in_batch = statement.first == TokenKind::Keyword(Keyword::Begin);
            let closes_batch = statement.last
                == [
                    Some(TokenKind::Keyword(Keyword::Apply)),
                    Some(TokenKind::Keyword(Keyword::Batch)),
                ];
            if !in_batch || closes_batch {
                self.statement = None;
                return;
            }
        }
        statement.last = [statement.last[1], Some(kind)];
    }

    fn end_of_line(&mut self) {
        let ends = self.statement.as_ref().is_some_and(|s| {
            s.first == TokenKind::Question || self.line_commands.contains(&s.first_text)
        });
        if ends {
            self.statement = None;
        }
    }
}

/// Where the token left open by an earlier line closes in `line`: the
/// offset just past its closer.
pub fn closer(open: TokenKind, line: &str) -> Option<usize> {
    match open {
        TokenKind::UnterminatedString => find_closing_quote(line.as_bytes(), b'\'').map(|p| p + 1),
        TokenKind::UnterminatedQuotedIdent => {
            find_closing_quote(line.as_bytes(), b'"').map(|p| p + 1)
        }
        TokenKind::UnterminatedDollarString => line.find("$$").map(|p| p + 2),
        TokenKind::UnterminatedBlockComment => line.find("*/").map(|p| p + 2),
        _ => Some(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn complete_after(lines: &[&str]) -> bool {
        let mut pending = Pending::new(super::super::LINE_COMMANDS);
        for line in lines {
            pending.push_line(line);
        }
        pending.is_complete()
    }

    #[test]
    fn a_statement_ends_at_its_semicolon() {
        assert!(!complete_after(&["SELECT *", "FROM t"]));
        assert!(complete_after(&["SELECT *", "FROM t;"]));
        assert!(complete_after(&["SELECT 1; SELECT 2;"]));
        assert!(!complete_after(&["SELECT 1; SELECT 2"]));
    }

    #[test]
    fn semicolons_inside_strings_bodies_and_comments_do_not_count() {
        assert!(!complete_after(&["INSERT INTO t (k) VALUES ('a;", "b"]));
        assert!(complete_after(&["INSERT INTO t (k) VALUES ('a;", "b');"]));
        assert!(!complete_after(&["SELECT $$ ;", ";"]));
        assert!(complete_after(&["SELECT $$ ;", "$$;"]));
        assert!(!complete_after(&["SELECT 1 /* ;", "*/"]));
        assert!(complete_after(&["SELECT 1 -- ;", ";"]));
        assert!(!complete_after(&["SELECT \"a;", "\""]));
    }

    #[test]
    fn a_batch_ends_at_apply_batch() {
        let lines = ["BEGIN BATCH", "INSERT INTO t (k) VALUES (1);"];
        assert!(!complete_after(&lines));
        assert!(complete_after(&[lines[0], lines[1], "APPLY BATCH;"]));
    }

    #[test]
    fn shell_commands_end_at_the_end_of_their_line() {
        assert!(complete_after(&["EXPAND ON"]));
        assert!(complete_after(&["desc tables"]));
        assert!(complete_after(&["?"]));
        assert!(!complete_after(&["SELECT 1; EXPAND ON", "SELECT 2"]));
    }

    #[test]
    fn blank_and_comment_lines_hold_no_statement() {
        let mut pending = Pending::new(super::super::LINE_COMMANDS);
        pending.push_line("");
        pending.push_line("-- a comment");
        assert!(pending.is_complete() && !pending.has_statement());
        pending.push_line("SELECT");
        assert!(pending.has_statement() && !pending.is_complete());
        assert_eq!(pending.take(), "\n-- a comment\nSELECT\n");
        assert!(pending.is_empty());
    }
}
