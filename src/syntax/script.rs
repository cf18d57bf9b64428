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
//! A load repeats one INSERT with new constants. Once a plain INSERT of
//! constants has been handed out, a statement of the same shape is read
//! against it, lexing only its constants ([`InsertShape::read_prefix`]);
//! anything else is lexed as usual.
//!
//! Shell commands (`DESCRIBE`, `EXPAND`, …) end at the end of their line as
//! well as at `;`; the shell names them with
//! [`StatementSplitter::with_line_commands`].
//!
//! `COPY … FROM STDIN` reads its rows from the script itself, as cqlsh reads
//! them from its own input: [`StatementSplitter::data_lines`] hands over the
//! raw lines after the statement just yielded, up to a terminator line, and
//! the statements after them keep their true lines and offsets.

use std::fmt;
use std::io::{self, BufRead, Read};

use super::keyword::Keyword;
use super::lexer::{find_closing_quote, Lexer, Token, TokenKind};
use super::shape::InsertShape;
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
    /// Whether the splitter lexed it and none of its tokens is
    /// [`TokenKind::Invalid`] (text the lexer cannot read), so that a shell
    /// that reports such text need not lex it again. `false` for a
    /// statement built by hand makes the shell look for itself.
    pub lexes_cleanly: bool,
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
        /// The 1-based column (in characters) of the first bad byte.
        column: usize,
        /// The first bad byte, to name it.
        byte: u8,
    },
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScriptError::Io(e) => write!(f, "{e}"),
            ScriptError::InvalidUtf8 { line, column, byte } => {
                write!(
                    f,
                    "line {line}, column {column}: byte {byte:#04x} is not valid UTF-8"
                )
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
    /// A read error met while handing over data lines, reported after the
    /// statements already complete.
    failed: Option<ScriptError>,
    done: bool,
    /// The tokens of the line being scanned (kept for the next line).
    tokens: Vec<Token>,
    /// The line being read, as bytes (kept for the next line).
    line: Vec<u8>,
    /// The shape of the last INSERT handed out, when it was a plain INSERT
    /// of constants ending in `;`: a load repeats it, and a statement of
    /// that shape is handed out by matching it, lexing only its constants.
    template: Option<InsertShape>,
    /// Whether to match statements against `template` at all (turned off
    /// only by tests, to compare with lexing everything).
    use_templates: bool,
}

/// What is known of the statement being collected.
#[derive(Debug, Clone)]
struct Collecting {
    start: usize,
    first: TokenKind,
    first_text: String,
    last: [Option<TokenKind>; 2],
    has_invalid_token: bool,
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
            failed: None,
            done: false,
            tokens: Vec::new(),
            line: Vec::new(),
            template: None,
            use_templates: true,
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

    /// Reads and lexes one more line; at the end of the input, hands out
    /// what is left as an unterminated statement. Either ends the script.
    fn advance(&mut self) -> Result<(), ScriptError> {
        match self.read_line() {
            Ok(true) => {}
            Ok(false) => {
                self.done = true;
                let end = self.buf.trim_end_matches(CQL_BLANKS).len();
                self.emit(end, false);
            }
            Err(e) => {
                self.done = true;
                return Err(e);
            }
        }
        Ok(())
    }

    /// The raw lines that follow the line on which the statement just
    /// yielded ends, up to the first one for which `is_end` holds (given
    /// the line with its line end), as cqlsh's `COPY … FROM STDIN` reads
    /// them from its own input: a [`BufRead`] that ends before that line,
    /// or at the end of the input.
    ///
    /// Nothing is read until the returned reader is; a line is taken from
    /// the script whole once any of it is read, and the terminator line is
    /// taken as well. Statements are then split from the line after the
    /// last line taken, their `line` and `offset` still counting every line
    /// and byte of the script. Statements after the yielded one on its own
    /// line are handed out afterwards, as cqlsh runs them after the COPY.
    ///
    /// A statement or comment left open at the end of that line keeps
    /// taking the lines it needs first (cqlsh runs nothing of its input
    /// until the last statement in it is complete); the lines handed over
    /// follow the line that closes it. Reading stays line by line: one line
    /// is held at a time.
    pub fn data_lines<F: FnMut(&[u8]) -> bool>(&mut self, is_end: F) -> DataLines<'_, R, F> {
        DataLines {
            splitter: self,
            is_end,
            line: Vec::new(),
            pos: 0,
            finished: false,
        }
    }

    /// Reads on until no statement or comment is left open (or the input
    /// ends), as cqlsh waits for a complete statement. Returns whether the
    /// input may go on.
    fn settle(&mut self) -> bool {
        while !self.done && (self.statement.is_some() || self.open.is_some()) {
            if let Err(e) = self.advance() {
                self.failed = Some(e);
            }
        }
        debug_assert!(self.done || self.buf.is_empty());
        !self.done
    }

    /// Takes one raw line for [`DataLines`] into `line`, counting it as the
    /// lexer would have: one more line, its bytes, and the column where the
    /// next text starts. Returns its length, 0 at the end of the input.
    fn take_raw_line(&mut self, line: &mut Vec<u8>) -> io::Result<usize> {
        line.clear();
        let n = self.reader.read_until(b'\n', line)?;
        if n == 0 {
            self.done = true;
            return Ok(0);
        }
        self.lines_read += 1;
        self.buf_offset += n;
        if line.ends_with(b"\n") {
            self.consumed_line += 1;
            self.drained_line_chars = 0;
        } else {
            self.drained_line_chars += String::from_utf8_lossy(line).chars().count();
        }
        Ok(n)
    }

    fn read_line(&mut self) -> Result<bool, ScriptError> {
        self.line.clear();
        let n = self
            .reader
            .read_until(b'\n', &mut self.line)
            .map_err(ScriptError::Io)?;
        if n == 0 {
            return Ok(false);
        }
        self.lines_read += 1;
        let line = std::str::from_utf8(&self.line).map_err(|e| {
            let good = &self.line[..e.valid_up_to()];
            ScriptError::InvalidUtf8 {
                line: self.lines_read,
                column: String::from_utf8_lossy(good).chars().count() + 1,
                byte: self.line[e.valid_up_to()],
            }
        })?;
        let added_at = self.buf.len();
        self.buf.push_str(line);
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
        self.emit_repeated_inserts();
        let rest_start = self.scan;
        let mut tokens = std::mem::take(&mut self.tokens);
        tokens.clear();
        tokens.extend(Lexer::new(&self.buf[rest_start..]));
        let left_open = self.note_tokens(&tokens, rest_start);
        self.tokens = tokens;
        if !left_open {
            self.scan = self.buf.len();
            self.end_of_line();
        }
        self.compact();
    }

    /// Notes `tokens`, lexed from `buf[rest_start..]`, handing out each
    /// statement they end. Returns whether the last is left open (a string
    /// or comment that goes on past the text).
    fn note_tokens(&mut self, tokens: &[Token], rest_start: usize) -> bool {
        for token in tokens {
            let span = token.span.shifted(rest_start);
            if token.kind.is_unterminated() {
                self.note_token(token.kind, span);
                self.open = Some(OpenToken {
                    kind: token.kind,
                    start: span.start,
                });
                self.scan = span.start;
                return true;
            }
            if self.note_token(token.kind, span) {
                self.learn_template(tokens, rest_start, span.end);
                self.emit(span.end, true);
            }
            self.scan = span.end;
        }
        false
    }

    /// Hands out each statement at `scan` that is of `template`'s shape,
    /// complete on the lines read, without lexing more than its constants.
    /// The lexer would read it the same way: see [`InsertShape::read_prefix`].
    fn emit_repeated_inserts(&mut self) {
        let Some(mut template) = self.template.take() else {
            return;
        };
        while self.statement.is_none() {
            let rest = &self.buf[self.scan..];
            let start = self.scan + (rest.len() - rest.trim_start_matches(CQL_BLANKS).len());
            let Some(len) = template.read_prefix(&self.buf[start..]) else {
                break;
            };
            self.statement = Some(Collecting {
                start,
                first: TokenKind::Keyword(Keyword::Insert),
                first_text: String::new(),
                last: [None, None],
                has_invalid_token: false,
            });
            self.emit(start + len, true);
            self.scan = start + len;
        }
        self.template = Some(template);
    }

    /// Keeps the shape of the statement about to be handed out, ending at
    /// the `;` at `end`, when it is a plain INSERT of constants lexed whole
    /// into `tokens` (lexed from `buf[rest_start..]`).
    fn learn_template(&mut self, tokens: &[Token], rest_start: usize, end: usize) {
        let Some(statement) = &self.statement else {
            return;
        };
        let insert = statement.first == TokenKind::Keyword(Keyword::Insert);
        if !self.use_templates || !insert || statement.start < rest_start {
            return;
        }
        let start = statement.start;
        let first = tokens.partition_point(|t| t.span.start + rest_start < start);
        let last = tokens.partition_point(|t| t.span.end + rest_start <= end);
        let shift = start - rest_start;
        let own = tokens[first..last].iter().map(|t| Token {
            kind: t.kind,
            span: Span::new(t.span.start - shift, t.span.end - shift),
        });
        let mut template = self.template.take().unwrap_or_default();
        if template.read_tokens(&self.buf[start..end], own) {
            self.template = Some(template);
        }
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
                has_invalid_token: kind == TokenKind::Invalid,
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
        statement.has_invalid_token |= kind == TokenKind::Invalid;
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
            lexes_cleanly: !statement.has_invalid_token,
        });
        self.advance_consumed(end);
    }

    /// Marks `buf[..end]` as handed out, counting its lines once.
    fn advance_consumed(&mut self, end: usize) {
        if end > self.consumed {
            let newlines =
                memchr::memchr_iter(b'\n', &self.buf.as_bytes()[self.consumed..end]).count();
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
            if let Some(e) = self.failed.take() {
                return Some(Err(e));
            }
            if self.done {
                return None;
            }
            if let Err(e) = self.advance() {
                return Some(Err(e));
            }
        }
    }
}

/// The data lines after a statement: see [`StatementSplitter::data_lines`].
pub struct DataLines<'a, R, F> {
    splitter: &'a mut StatementSplitter<R>,
    is_end: F,
    /// The line being handed out; `line[..pos]` has been consumed.
    line: Vec<u8>,
    pos: usize,
    /// The terminator line or the end of the input has been met.
    finished: bool,
}

impl<R: BufRead, F: FnMut(&[u8]) -> bool> BufRead for DataLines<'_, R, F> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos == self.line.len() && !self.finished {
            self.pos = 0;
            self.line.clear();
            if !self.splitter.settle() {
                self.finished = true;
            } else if self.splitter.take_raw_line(&mut self.line)? == 0 || (self.is_end)(&self.line)
            {
                self.line.clear();
                self.finished = true;
            }
        }
        Ok(&self.line[self.pos..])
    }

    fn consume(&mut self, amount: usize) {
        self.pos = (self.pos + amount).min(self.line.len());
    }
}

impl<R: BufRead, F: FnMut(&[u8]) -> bool> Read for DataLines<'_, R, F> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
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
    use proptest::prelude::*;

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
            Some(Err(ScriptError::InvalidUtf8 {
                line: 2,
                column: 9,
                byte: 0xff
            }))
        ));
    }

    #[test]
    fn stray_semicolons_and_comments_make_no_statement() {
        assert!(texts(";;\n-- only a comment\n/* and another */\n").is_empty());
    }

    /// `.` ends the data, as COPY FROM STDIN's terminator does.
    fn dot(line: &[u8]) -> bool {
        line.strip_suffix(b"\n").unwrap_or(line) == b"."
    }

    fn read_all(mut reader: impl Read) -> String {
        let mut text = String::new();
        reader.read_to_string(&mut text).unwrap();
        text
    }

    #[test]
    fn data_lines_follow_the_statement_and_later_lines_keep_their_numbers() {
        let script = "COPY t FROM STDIN;\n1,a\n2,é\n.\nSELECT 1; SELECT 2;\n";
        let mut splitter = StatementSplitter::new(script.as_bytes());
        let copy = splitter.next().unwrap().unwrap();
        assert_eq!((copy.text.as_str(), copy.line), ("COPY t FROM STDIN;", 1));
        assert_eq!(read_all(splitter.data_lines(dot)), "1,a\n2,é\n");
        let rest: Vec<_> = splitter.map(Result::unwrap).collect();
        let at: Vec<_> = rest
            .iter()
            .map(|s| (s.text.as_str(), s.line, s.column, s.offset))
            .collect();
        let offset = script.find("SELECT").unwrap();
        assert_eq!(
            at,
            vec![
                ("SELECT 1;", 5, 1, offset),
                ("SELECT 2;", 5, 11, offset + 10)
            ]
        );
    }

    #[test]
    fn data_lines_read_nothing_until_read() {
        let mut splitter = StatementSplitter::new("COPY t FROM STDIN;\nSELECT 1;\n".as_bytes());
        splitter.next();
        drop(splitter.data_lines(dot));
        let rest: Vec<_> = splitter.map(|s| s.unwrap().line).collect();
        assert_eq!(rest, vec![2]);
    }

    #[test]
    fn data_lines_end_at_the_end_of_the_input() {
        let mut splitter = StatementSplitter::new("COPY t FROM STDIN;\n1\n2".as_bytes());
        splitter.next();
        let mut data = splitter.data_lines(dot);
        assert_eq!(read_all(&mut data), "1\n2");
        assert_eq!(read_all(&mut data), "");
        drop(data);
        assert!(splitter.next().is_none());
    }

    #[test]
    fn statements_on_the_copy_line_run_after_the_data() {
        let script = "COPY t FROM STDIN; SELECT 1;\nx\n.\nSELECT 2;";
        let mut splitter = StatementSplitter::new(script.as_bytes());
        splitter.next();
        assert_eq!(read_all(splitter.data_lines(dot)), "x\n");
        let rest: Vec<_> = splitter
            .map(|s| s.unwrap())
            .map(|s| (s.text, s.line))
            .collect();
        assert_eq!(
            rest,
            vec![("SELECT 1;".to_string(), 1), ("SELECT 2;".to_string(), 4)]
        );
    }

    #[test]
    fn a_statement_left_open_on_the_copy_line_is_completed_first() {
        let script = "COPY t FROM STDIN; SELECT 'a\nb';\nx\n.\n/* c\n*/ SELECT 3;\n";
        let mut splitter = StatementSplitter::new(script.as_bytes());
        splitter.next();
        assert_eq!(read_all(splitter.data_lines(dot)), "x\n");
        let rest: Vec<_> = splitter
            .map(|s| s.unwrap())
            .map(|s| (s.text, s.line, s.column))
            .collect();
        assert_eq!(
            rest,
            vec![
                ("SELECT 'a\nb';".to_string(), 1, 20),
                ("SELECT 3;".to_string(), 6, 4)
            ]
        );
    }

    #[test]
    fn line_commands_hand_over_after_their_line() {
        let script = "COPY t FROM STDIN\n1\n.\nEXPAND ON\n";
        let mut splitter =
            StatementSplitter::new(script.as_bytes()).with_line_commands(&["copy", "expand"]);
        assert_eq!(splitter.next().unwrap().unwrap().text, "COPY t FROM STDIN");
        assert_eq!(read_all(splitter.data_lines(dot)), "1\n");
        let last = splitter.next().unwrap().unwrap();
        assert_eq!(
            (last.text.as_str(), last.line, last.offset),
            ("EXPAND ON", 4, 22)
        );
    }

    #[test]
    fn data_lines_read_from_a_reader_a_byte_at_a_time() {
        let script = "COPY t FROM STDIN;\nab\n.\nSELECT 1;\n";
        let reader = io::BufReader::with_capacity(1, script.as_bytes());
        let mut splitter = StatementSplitter::new(reader);
        splitter.next();
        let mut data = splitter.data_lines(dot);
        let mut byte = [0u8; 1];
        assert_eq!(data.read(&mut byte).unwrap(), 1);
        assert_eq!(&byte, b"a");
        drop(data);
        // The line was taken whole; the rest was not read, and is script.
        let last = splitter.next().unwrap().unwrap();
        assert_eq!(
            (last.text.as_str(), last.line, last.offset),
            (".\nSELECT 1;", 3, 22)
        );
    }
    /// Pieces scripts are drawn from: INSERTs of one shape and of others,
    /// statements around them, and text that breaks a statement across
    /// lines, leaves it open or is not CQL.
    const SCRIPT_PIECES: &[&str] = &[
        "INSERT INTO t (k, v) VALUES (1, 'a');",
        "INSERT INTO t (k, v) VALUES (22, 'b;c');",
        "INSERT INTO t (k, v) VALUES (-3, $$d$$);",
        "INSERT INTO t (k, v) VALUES (1.5e3, 'it''s');",
        "INSERT INTO t (k, v) VALUES (1, 'a') ;",
        "INSERT INTO t (k, v) VALUES (1, 'a')",
        "INSERT INTO t (k, v) VALUES (1, 'a'",
        "INSERT INTO t (k, v) VALUES (1, 'open",
        "INSERT INTO t (k, v) VALUES (1, 'two\nlines');",
        "INSERT INTO t (k, v) VALUES (1h, 'a');",
        "INSERT INTO t (k, v) VALUES (1e, 'a');",
        "INSERT INTO t (k, v) VALUES (?, 'a');",
        "INSERT INTO t (k, v) VALUES (1, 'a') -- c\n;",
        "INSERT INTO t (k, v) VALUES (1, /* c */ 'a');",
        "INSERT INTO t (k, v) VALUES (1, @);",
        "insert into t(k,v)values(2,'x');",
        "INSERT INTO u (k) VALUES (0x0f);",
        "INSERT INTO u (k) VALUES (null);",
        "INSERT",
        "SELECT * FROM t;",
        "BEGIN BATCH",
        "APPLY BATCH;",
        "expand on",
        "-- comment ;",
        "/* open",
        "*/",
        ";",
        "é",
        "",
    ];

    /// A script of `pieces` joined by the separators chosen with them.
    fn script() -> impl Strategy<Value = String> {
        let separator = prop::sample::select(vec![" ", "", "\n", "\r\n", "\n\n", "\t"]);
        prop::collection::vec((prop::sample::select(SCRIPT_PIECES), separator), 0..24).prop_map(
            |parts| {
                parts
                    .into_iter()
                    .map(|(piece, separator)| format!("{piece}{separator}"))
                    .collect()
            },
        )
    }

    fn split(script: &str, use_templates: bool) -> Vec<String> {
        let mut splitter =
            StatementSplitter::new(script.as_bytes()).with_line_commands(&["expand", "insert"]);
        splitter.use_templates = use_templates;
        splitter.map(|s| format!("{s:?}")).collect()
    }

    proptest! {
        /// Handing out a load's statements by their shape changes nothing:
        /// the statements, their positions and flags are what lexing every
        /// token gives.
        #[test]
        fn templates_split_as_lexing_does(script in script()) {
            prop_assert_eq!(split(&script, true), split(&script, false));
        }
    }

    #[test]
    fn a_load_is_split_by_the_shape_of_its_first_insert() {
        let script = "INSERT INTO t (k) VALUES (1);\nINSERT INTO t (k) VALUES (2);\n";
        let mut splitter = StatementSplitter::new(script.as_bytes());
        assert_eq!(splitter.next().unwrap().unwrap().line, 1);
        let template = splitter.template.as_ref().map(|t| t.text.as_str());
        assert_eq!(template, Some("INSERT INTO t (k) VALUES (?);"));
        let second = splitter.next().unwrap().unwrap();
        assert_eq!(
            (
                second.text.as_str(),
                second.line,
                second.offset,
                second.lexes_cleanly
            ),
            ("INSERT INTO t (k) VALUES (2);", 2, 30, true)
        );
    }
}
