//! Splitting scripts into statements, the way cqlsh collects them.
//!
//! A statement ends at a `;` outside strings, `$$` bodies, quoted names and
//! comments; `BEGIN … APPLY BATCH;` is one statement although its inner
//! statements end in `;` too. The splitter reads any [`BufRead`] line by line
//! and lexes every byte once (a string left open at the end of a line is
//! continued by searching only the new text for its closer), so a script of
//! any size streams through in linear time and bounded memory: only the
//! statement being collected is held.
//!
//! Shell commands (`DESCRIBE`, `EXPAND`, …) end at the end of their line as
//! well as at `;`; the shell names them with
//! [`StatementSplitter::with_line_commands`].

use std::fmt;
use std::io::{self, BufRead};

use super::keyword::Keyword;
use super::lexer::{find_closing_quote, Lexer, TokenKind};
use super::span::Span;

/// One statement of a script, with where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptStatement {
    /// The statement's text, from its first token through its `;`.
    pub text: String,
    /// 1-based line of its first token in the script.
    pub line: usize,
    /// 1-based column (in characters) of its first token.
    pub column: usize,
    /// Byte offset of its first token in the script.
    pub offset: usize,
    /// Whether it ended with `;` (or, for a shell command, at its line's
    /// end). A statement cut off by the end of the script is not.
    pub terminated: bool,
}

/// Why a script could not be read.
#[derive(Debug)]
pub enum ScriptError {
    /// The reader failed.
    Io(io::Error),
    /// A line is not valid UTF-8.
    InvalidUtf8 {
        /// The 1-based line number.
        line: usize,
    },
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScriptError::Io(e) => write!(f, "{e}"),
            ScriptError::InvalidUtf8 { line } => {
                write!(f, "line {line} is not valid UTF-8")
            }
        }
    }
}

impl std::error::Error for ScriptError {}

/// What the lexer skips as blank: only these, not every Unicode space (a
/// no-break space is an invalid character the parser must see).
const CQL_BLANKS: [char; 4] = [' ', '\t', '\r', '\n'];

/// A token that the end of a line left open, and where it began.
#[derive(Debug, Clone, Copy)]
struct OpenToken {
    kind: TokenKind,
    start: usize,
}

/// Streams the statements of a script. See the module documentation.
pub struct StatementSplitter<R> {
    reader: R,
    line_commands: Vec<String>,
    /// Text not yet forgotten; `buf[0]` is at `buf_offset` in the script.
    buf: String,
    buf_offset: usize,
    /// Characters of `buf[0]`'s line already drained from `buf`: what a
    /// column counts when the line's start is gone.
    drained_line_chars: usize,
    /// `buf[..consumed]` has been handed out (or skipped) already.
    consumed: usize,
    /// Line number at `buf[consumed]`.
    consumed_line: usize,
    /// Lines read so far.
    lines_read: usize,
    /// Tokens before this point of `buf` are final.
    scan: usize,
    open: Option<OpenToken>,
    statement: Option<Collecting>,
    ready: std::collections::VecDeque<ScriptStatement>,
    done: bool,
}

/// What is known of the statement being collected.
#[derive(Debug, Clone)]
struct Collecting {
    start: usize,
    first: TokenKind,
    first_text: String,
    last: [Option<TokenKind>; 2],
}

impl<R: BufRead> StatementSplitter<R> {
    /// Splits the script read from `reader`.
    pub fn new(reader: R) -> StatementSplitter<R> {
        StatementSplitter {
            reader,
            line_commands: Vec::new(),
            buf: String::new(),
            buf_offset: 0,
            drained_line_chars: 0,
            consumed: 0,
            consumed_line: 1,
            lines_read: 0,
            scan: 0,
            open: None,
            statement: None,
            ready: Default::default(),
            done: false,
        }
    }

    /// Statements starting with one of these words (case-insensitive) also
    /// end at the end of their line: cqlsh's shell commands.
    pub fn with_line_commands<S: AsRef<str>>(mut self, words: &[S]) -> StatementSplitter<R> {
        self.line_commands = words
            .iter()
            .map(|w| w.as_ref().to_ascii_lowercase())
            .collect();
        self
    }

    fn read_line(&mut self) -> Result<bool, ScriptError> {
        let mut bytes = Vec::new();
        let n = self
            .reader
            .read_until(b'\n', &mut bytes)
            .map_err(ScriptError::Io)?;
        if n == 0 {
            return Ok(false);
        }
        self.lines_read += 1;
        let line = String::from_utf8(bytes).map_err(|_| ScriptError::InvalidUtf8 {
            line: self.lines_read,
        })?;
        let added_at = self.buf.len();
        self.buf.push_str(&line);
        self.scan_from(added_at);
        Ok(true)
    }

    /// Lexes what has not been lexed yet; `added_at` is where the new text
    /// begins (an open token only needs its closer looked for there).
    fn scan_from(&mut self, added_at: usize) {
        if let Some(open) = self.open {
            match self.find_closer(open, added_at) {
                Some(end) => {
                    self.open = None;
                    self.scan = end;
                }
                None => return,
            }
        }
        let rest_start = self.scan;
        let tokens: Vec<_> = Lexer::new(&self.buf[rest_start..]).collect();
        for token in tokens {
            let span = token.span.shifted(rest_start);
            if token.kind.is_unterminated() {
                self.note_token(token.kind, span);
                self.open = Some(OpenToken {
                    kind: token.kind,
                    start: span.start,
                });
                self.scan = span.start;
                self.compact();
                return;
            }
            if self.note_token(token.kind, span) {
                self.emit(span.end, true);
            }
            self.scan = span.end;
        }
        self.scan = self.buf.len();
        self.end_of_line();
        self.compact();
    }

    fn find_closer(&self, open: OpenToken, added_at: usize) -> Option<usize> {
        let from = added_at.max(open.start + 1);
        let text = &self.buf[from..];
        let at = match open.kind {
            TokenKind::UnterminatedString => {
                find_closing_quote(text.as_bytes(), b'\'').map(|p| p + 1)
            }
            TokenKind::UnterminatedQuotedIdent => {
                find_closing_quote(text.as_bytes(), b'"').map(|p| p + 1)
            }
            TokenKind::UnterminatedDollarString => {
                let from_body = added_at.max(open.start + 2);
                return self.buf[from_body..].find("$$").map(|p| from_body + p + 2);
            }
            _ => text.find("*/").map(|p| p + 2),
        }?;
        Some(from + at)
    }

    /// Records a token of the statement being collected. Returns whether it
    /// is the `;` that ends the statement.
    fn note_token(&mut self, kind: TokenKind, span: Span) -> bool {
        if kind.is_comment() {
            return false;
        }
        let Some(statement) = self.statement.as_mut() else {
            if kind == TokenKind::Semicolon {
                self.advance_consumed(span.end);
                return false;
            }
            self.statement = Some(Collecting {
                start: span.start,
                first: kind,
                first_text: self.buf[span.range()].to_ascii_lowercase(),
                last: [None, Some(kind)],
            });
            return false;
        };
        if kind == TokenKind::Semicolon {
            let in_batch = statement.first == TokenKind::Keyword(Keyword::Begin);
            let closes_batch = statement.last
                == [
                    Some(TokenKind::Keyword(Keyword::Apply)),
                    Some(TokenKind::Keyword(Keyword::Batch)),
                ];
            if !in_batch || closes_batch {
                return true;
            }
        }
        statement.last = [statement.last[1], Some(kind)];
        false
    }

    /// A line ended: a shell command ends with it.
    fn end_of_line(&mut self) {
        let is_line_command = self.statement.as_ref().is_some_and(|s| {
            let word = match s.first {
                TokenKind::Question => "?",
                _ => s.first_text.as_str(),
            };
            self.line_commands.iter().any(|c| c == word)
        });
        if is_line_command {
            let end = self.buf.trim_end_matches(CQL_BLANKS).len();
            self.emit(end, true);
        }
    }

    /// Hands out the statement ending at `end` of `buf`.
    fn emit(&mut self, end: usize, terminated: bool) {
        let Some(statement) = self.statement.take() else {
            return;
        };
        self.advance_consumed(statement.start);
        let before = &self.buf[..statement.start];
        let column = match before.rfind('\n') {
            Some(p) => before[p + 1..].chars().count() + 1,
            None => self.drained_line_chars + before.chars().count() + 1,
        };
        self.ready.push_back(ScriptStatement {
            text: self.buf[statement.start..end].to_string(),
            line: self.consumed_line,
            column,
            offset: self.buf_offset + statement.start,
            terminated,
        });
        self.advance_consumed(end);
    }

    /// Marks `buf[..end]` as handed out, counting its lines once.
    fn advance_consumed(&mut self, end: usize) {
        if end > self.consumed {
            let newlines = self.buf[self.consumed..end]
                .bytes()
                .filter(|&b| b == b'\n')
                .count();
            self.consumed_line += newlines;
            self.consumed = end;
        }
    }

    /// Forgets the text handed out so far (once per line, so a long line of
    /// many statements is not copied once per statement).
    fn compact(&mut self) {
        let end = match &self.statement {
            Some(statement) => statement.start.min(self.scan),
            None => self.scan,
        };
        self.advance_consumed(end);
        let end = self.consumed;
        let drained = &self.buf[..end];
        self.drained_line_chars = match drained.rfind('\n') {
            Some(p) => drained[p + 1..].chars().count(),
            None => self.drained_line_chars + drained.chars().count(),
        };
        self.buf_offset += end;
        self.buf.drain(..end);
        self.consumed = 0;
        self.scan -= end;
        if let Some(open) = self.open.as_mut() {
            open.start -= end;
        }
        if let Some(statement) = self.statement.as_mut() {
            statement.start -= end;
        }
    }
}

impl<R: BufRead> Iterator for StatementSplitter<R> {
    type Item = Result<ScriptStatement, ScriptError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(statement) = self.ready.pop_front() {
                return Some(Ok(statement));
            }
            if self.done {
                return None;
            }
            match self.read_line() {
                Ok(true) => {}
                Ok(false) => {
                    self.done = true;
                    let end = self.buf.trim_end_matches(CQL_BLANKS).len();
                    self.emit(end, false);
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
    }
}

/// Splits a script held in memory.
pub fn split_statements(text: &str) -> Vec<ScriptStatement> {
    StatementSplitter::new(text.as_bytes())
        .filter_map(Result::ok)
        .collect()
}

/// Splits a whole script whose lines starting with one of `words` (shell
/// commands) end at the end of their line.
pub fn split_statements_with_line_commands<S: AsRef<str>>(
    text: &str,
    words: &[S],
) -> Vec<ScriptStatement> {
    StatementSplitter::new(text.as_bytes())
        .with_line_commands(words)
        .filter_map(Result::ok)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(script: &str) -> Vec<String> {
        split_statements(script)
            .into_iter()
            .map(|s| s.text)
            .collect()
    }

    #[test]
    fn splits_on_semicolons_outside_strings_and_comments() {
        let script =
            "SELECT 'a;b' FROM t; -- c;\nINSERT INTO t (k) VALUES ($$x;y$$);\n/* ; */ USE ks;";
        assert_eq!(
            texts(script),
            vec![
                "SELECT 'a;b' FROM t;",
                "INSERT INTO t (k) VALUES ($$x;y$$);",
                "USE ks;"
            ]
        );
    }

    #[test]
    fn strings_open_across_lines() {
        let script = "INSERT INTO t (k, v) VALUES (1, 'line one;\nline two');\nSELECT * FROM t;\n";
        let got = split_statements(script);
        assert_eq!(got.len(), 2);
        assert_eq!(
            got[0].text,
            "INSERT INTO t (k, v) VALUES (1, 'line one;\nline two');"
        );
        assert_eq!((got[1].line, got[1].column), (3, 1));
    }

    #[test]
    fn batch_is_one_statement() {
        let script = "BEGIN BATCH\n INSERT INTO t (k) VALUES (1);\n UPDATE t SET v = 1 WHERE k = 2;\nAPPLY BATCH;\nSELECT * FROM t;";
        let got = texts(script);
        assert_eq!(got.len(), 2);
        assert!(got[0].starts_with("BEGIN BATCH") && got[0].ends_with("APPLY BATCH;"));
    }

    #[test]
    fn positions_are_lines_and_character_columns() {
        let got = split_statements("\n  é; SELECT 1;\n\n   USE x;");
        let at: Vec<_> = got.iter().map(|s| (s.line, s.column, s.offset)).collect();
        assert_eq!(at, vec![(2, 3, 3), (2, 6, 7), (4, 4, 21)]);
    }

    #[test]
    fn unterminated_last_statement_is_flagged() {
        let got = split_statements("SELECT 1; SELECT 2");
        assert!(got[0].terminated);
        assert_eq!(got[1].text, "SELECT 2");
        assert!(!got[1].terminated);
    }

    #[test]
    fn line_commands_end_at_end_of_line() {
        let got: Vec<_> =
            StatementSplitter::new("expand on\nSELECT\n1;\nDESC tables;\n".as_bytes())
                .with_line_commands(&["expand", "desc"])
                .map(|s| s.unwrap().text)
                .collect();
        assert_eq!(got, vec!["expand on", "SELECT\n1;", "DESC tables;"]);
    }

    #[test]
    fn invalid_utf8_names_its_line() {
        let bytes: &[u8] = b"SELECT 1;\nSELECT '\xff';\n";
        let results: Vec<_> = StatementSplitter::new(bytes).collect();
        assert!(matches!(
            results.last(),
            Some(Err(ScriptError::InvalidUtf8 { line: 2 }))
        ));
    }

    #[test]
    fn stray_semicolons_and_comments_make_no_statement() {
        assert!(texts(";;\n-- only a comment\n/* and another */\n").is_empty());
    }
}
