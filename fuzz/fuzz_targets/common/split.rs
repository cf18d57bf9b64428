//! The `split` target's checks (see `fuzz_targets/split.rs`).

use std::io::{BufRead, BufReader, Read};

use widerow::syntax::keyword::Keyword;
use widerow::syntax::lexer::{tokenize, TokenKind};
use widerow::syntax::script::ScriptError;
use widerow::{ScriptStatement, StatementSplitter};

/// The words cqlsh treats as shell commands (what the REPL passes).
pub const LINE_COMMANDS: &[&str] = &[
    "describe",
    "desc",
    "consistency",
    "serial",
    "expand",
    "paging",
    "tracing",
    "show",
    "source",
    "capture",
    "login",
    "exit",
    "quit",
    "clear",
    "cls",
    "help",
    "?",
    "copy",
];

/// Runs one input: the first byte holds options (bit 0: shell commands end
/// at the end of their line; bits 1–4: read chunk size), the rest is the
/// script.
pub fn check(data: &[u8]) {
    let Some((&options, script)) = data.split_first() else {
        return;
    };
    let line_commands = options & 1 == 1;
    let chunk = 1 + ((options >> 1) & 0x0f) as usize;
    match std::str::from_utf8(script) {
        Ok(text) => check_text(text, line_commands, chunk),
        Err(e) => check_invalid(script, e.valid_up_to(), line_commands),
    }
}

fn splitter<R: BufRead>(reader: R, line_commands: bool) -> StatementSplitter<R> {
    let splitter = StatementSplitter::new(reader);
    if line_commands {
        splitter.with_line_commands(LINE_COMMANDS)
    } else {
        splitter
    }
}

/// A reader that hands out at most `chunk` bytes per read.
struct Chunked<'a> {
    data: &'a [u8],
    chunk: usize,
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.chunk.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn collect<R: BufRead>(reader: R, line_commands: bool) -> Vec<ScriptStatement> {
    splitter(reader, line_commands)
        .map(|r| r.expect("text that is UTF-8 reads without error"))
        .collect()
}

fn check_text(text: &str, line_commands: bool, chunk: usize) {
    let statements = collect(text.as_bytes(), line_commands);
    if !line_commands {
        assert_eq!(statements, widerow::split_statements(text));
    }
    let chunked = collect(
        BufReader::with_capacity(
            chunk,
            Chunked {
                data: text.as_bytes(),
                chunk,
            },
        ),
        line_commands,
    );
    assert_eq!(
        chunked, statements,
        "reading in chunks of {chunk} bytes changes the statements"
    );

    let mut previous_end = 0;
    let mut previous_line = 1;
    for (i, s) in statements.iter().enumerate() {
        assert!(
            !s.text.is_empty() || super::allowed("split-trim-unicode"),
            "empty statement {i}: {s:?}"
        );
        assert!(
            s.offset >= previous_end,
            "statement {i} overlaps the one before: {s:?}"
        );
        assert_eq!(
            text.get(s.offset..s.offset + s.text.len()),
            Some(s.text.as_str()),
            "statement {i} is not the input's text at its offset: {s:?}"
        );
        assert!(
            s.line >= previous_line,
            "line numbers decrease at statement {i}: {s:?}"
        );
        let before = &text[..s.offset];
        let line = 1 + before.bytes().filter(|&b| b == b'\n').count();
        let line_start = before.rfind('\n').map_or(0, |p| p + 1);
        let column = 1 + before[line_start..].chars().count();
        assert_eq!(s.line, line, "wrong line of statement {i}: {s:?}");
        if !super::allowed("split-column") {
            assert_eq!(s.column, column, "wrong column of statement {i}: {s:?}");
        }
        assert!(
            !s.text.starts_with(CQL_BLANKS),
            "statement {i} starts with blanks: {s:?}"
        );
        if i + 1 < statements.len() {
            assert!(
                s.terminated,
                "statement {i} is unterminated but not the last: {s:?}"
            );
        }
        if s.terminated && !line_commands {
            assert!(
                s.text.ends_with(';'),
                "terminated statement {i} does not end with ';': {s:?}"
            );
        }
        check_gap(&text[previous_end..s.offset]);
        previous_end = s.offset + s.text.len();
        previous_line = s.line;
    }
    check_gap(&text[previous_end..]);

    if !line_commands {
        let expected = reference_split(text);
        let got: Vec<(usize, usize, bool)> = statements
            .iter()
            .map(|s| (s.offset, s.offset + s.text.len(), s.terminated))
            .collect();
        assert_eq!(
            got, expected,
            "the splitter disagrees with the reference over the whole text"
        );
    }
}

/// What the lexer skips as whitespace (`[ \t\r\n]`, as in Cassandra's
/// grammar): vertical tabs, form feeds and Unicode spaces are not blanks
/// but invalid characters.
const CQL_BLANKS: [char; 4] = [' ', '\t', '\r', '\n'];

/// Between statements there is only whitespace, comments and `;`.
fn check_gap(gap: &str) {
    for token in tokenize(gap) {
        if token.kind == TokenKind::Invalid
            && super::allowed("split-trim-unicode")
            && gap[token.span.start..token.span.end]
                .chars()
                .all(char::is_whitespace)
        {
            continue;
        }
        assert!(
            token.kind.is_comment() || token.kind == TokenKind::Semicolon,
            "{:?} left out of every statement in gap {gap:?}",
            token.kind
        );
    }
}

/// cqlsh's rule applied to the tokens of the whole text: (start, end,
/// terminated) of each statement.
fn reference_split(text: &str) -> Vec<(usize, usize, bool)> {
    let mut out = Vec::new();
    // (start, first kind, last two kinds)
    let mut current: Option<(usize, TokenKind, [Option<TokenKind>; 2])> = None;
    for token in tokenize(text) {
        let kind = token.kind;
        if kind.is_comment() {
            continue;
        }
        let Some((start, first, last)) = current.as_mut() else {
            if kind != TokenKind::Semicolon {
                current = Some((token.span.start, kind, [None, Some(kind)]));
            }
            continue;
        };
        if kind == TokenKind::Semicolon {
            let in_batch = *first == TokenKind::Keyword(Keyword::Begin);
            let closes = *last
                == [
                    Some(TokenKind::Keyword(Keyword::Apply)),
                    Some(TokenKind::Keyword(Keyword::Batch)),
                ];
            if !in_batch || closes {
                out.push((*start, token.span.end, true));
                current = None;
                continue;
            }
        }
        *last = [last[1], Some(kind)];
    }
    if let Some((start, _, _)) = current {
        // The statement runs to the end of the text less CQL's blanks.
        // widerow trims Rust's (Unicode) whitespace instead, which drops a
        // trailing vertical tab or no-break space that CQL would reject as
        // an invalid character: tolerated as `split-trim-unicode`.
        let end = if super::allowed("split-trim-unicode") {
            text.trim_end().len().max(start)
        } else {
            text.trim_end_matches(CQL_BLANKS).len()
        };
        out.push((start, end, false));
    }
    out
}

/// Not UTF-8: the splitter reports the line holding the first bad byte,
/// after statements that lie wholly in the text before it.
fn check_invalid(script: &[u8], valid_up_to: usize, line_commands: bool) {
    let bad_line = 1 + script[..valid_up_to]
        .iter()
        .filter(|&&b| b == b'\n')
        .count();
    let prefix = std::str::from_utf8(&script[..valid_up_to]).unwrap();
    let mut error = None;
    for item in splitter(script, line_commands) {
        match item {
            Ok(s) => {
                assert!(error.is_none(), "a statement after the read error: {s:?}");
                assert_eq!(
                    prefix.get(s.offset..s.offset + s.text.len()),
                    Some(s.text.as_str()),
                    "statement is not the valid prefix's text at its offset: {s:?}"
                );
            }
            Err(e) => {
                assert!(error.is_none(), "two read errors");
                error = Some(e);
            }
        }
    }
    match error {
        Some(ScriptError::InvalidUtf8 { line, .. }) => {
            assert_eq!(line, bad_line, "wrong line for the bad byte")
        }
        other => panic!("invalid UTF-8 not reported: {other:?}"),
    }
}
