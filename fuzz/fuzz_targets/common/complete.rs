//! The `complete` target's checks: the REPL's tab completer
//! (`widerow::shell::complete`) and highlighter (`widerow::shell::highlight`,
//! with `shell::input::Pending` carrying open tokens from line to line).
//!
//! Input: byte 0 picks the schema the completer sees (see [`contexts`]:
//! none, a fixed schema with names that need quoting, or one of the example
//! scripts run through a `Shell`, or one of `super::SCHEMA_SOURCES`); byte 1
//! the cursor (0–127: that fraction of the line, possibly inside a
//! character; 128–254: the end; 255: past the end); the rest, as lossy
//! UTF-8, is the text typed so far (every line of the statement being
//! entered).
//!
//! Checked, besides "never panic":
//! * the replaced range `start..cursor` lies within the line, on character
//!   boundaries (the cursor taken as `complete` clamps it);
//! * candidates are non-empty, hints first, then the insertable ones in
//!   alphabetical order (case-insensitive, leading space aside), without
//!   duplicates; each insertable one matches the word it replaces
//!   case-insensitively, so applying it keeps the text before the cursor
//!   up to its case;
//! * completion depends only on the text before the cursor, and is
//!   deterministic (file names of SOURCE / CAPTURE / SAVE aside: the file
//!   system may change between two calls);
//! * inserting a candidate leaves the tokens before it as they were (it
//!   does not glue onto the token it follows);
//! * completing again after applying a candidate passes the same checks;
//! * highlighting (of the whole text, of every line with each token a
//!   previous line may leave open, and line by line as the REPL does) gives
//!   sorted, non-empty, disjoint spans on character boundaries, and a
//!   painted text that is the input once the colours are stripped;
//! * line by line, with `Pending` telling how each line starts, the colours
//!   are those of the whole text lexed at once.

use std::sync::OnceLock;

use widerow::shell::complete::{complete, Completion};
use widerow::shell::highlight::{self, Span, Style};
use widerow::shell::input::Pending;
use widerow::shell::{Settings, Shell, LINE_COMMANDS};
use widerow::syntax::lexer::{Lexer, TokenKind};
use widerow::PlanContext;

/// Selector 1: `tests/shell_complete.rs`'s schema, and names that need
/// quoting, a user type, an index, a view, a second strategy.
pub const FIXED_SCHEMA: &str = r#"
CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE KEYSPACE "Odd Space" WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 1};
CREATE TABLE ks.users (id int PRIMARY KEY, name text, score double);
CREATE TABLE ks.events (day date, ts timestamp, kind text, payload text, PRIMARY KEY (day, ts, kind));
CREATE TABLE shop.prefs (id int PRIMARY KEY, ok boolean, tags set<text>, nums list<int>, attrs map<text, int>);
CREATE TABLE shop."MixedCase" (id int PRIMARY KEY);
CREATE TYPE ks.addr (street text, "Zip" int);
CREATE TABLE ks."we""ird" ("é" int, "Two Words" text, "select" int, a frozen<addr>, v vector<float, 3>, PRIMARY KEY (("é", "Two Words"), "select")) WITH CLUSTERING ORDER BY ("select" DESC);
CREATE INDEX users_name ON ks.users (name);
CREATE MATERIALIZED VIEW ks.users_by_name AS SELECT * FROM ks.users WHERE name IS NOT NULL AND id IS NOT NULL PRIMARY KEY (name, id);
CREATE TABLE "Odd Space"."Ünï" (k int PRIMARY KEY, c counter);
USE ks;
"#;

/// The example scripts (`examples/*.cql`), as `super::SCHEMA_SOURCES`
/// lists them.
fn examples() -> impl Iterator<Item = &'static str> {
    super::SCHEMA_SOURCES
        .iter()
        .filter(|(name, _)| name.starts_with("examples/"))
        .map(|(_, script)| *script)
}

/// A shell that has run `script` (errors ignored), as the REPL would.
fn shell_after(script: &str) -> Shell {
    let (session, _) = super::new_session();
    let mut shell = Shell::new(session, Settings::default());
    for statement in
        widerow::syntax::script::split_statements_with_line_commands(script, LINE_COMMANDS)
    {
        let _ = shell.run("<fuzz>", &statement);
    }
    shell
}

/// The catalogs byte 0 picks from: an empty one, [`FIXED_SCHEMA`], each
/// example script run through a `Shell`, then the schema of every
/// `super::SCHEMA_SOURCES` script.
pub fn contexts() -> &'static [PlanContext] {
    static CONTEXTS: OnceLock<Vec<PlanContext>> = OnceLock::new();
    CONTEXTS.get_or_init(|| {
        let mut out = vec![PlanContext::new()];
        out.push(shell_after(FIXED_SCHEMA).session().context().clone());
        for script in examples() {
            out.push(shell_after(script).session().context().clone());
        }
        out.extend(super::schema_sessions().iter().map(|s| s.context().clone()));
        out
    })
}

/// The number of schemas byte 0 picks from (it is taken modulo this).
pub fn schema_count() -> usize {
    contexts().len()
}

/// The cursor byte 1 stands for in a text of `len` bytes.
pub fn cursor_for(selector: u8, len: usize) -> usize {
    match selector {
        0..=127 => len * selector as usize / 127,
        128..=254 => len,
        255 => len + 3,
    }
}

pub fn check(data: &[u8]) {
    let [schema, cursor, rest @ ..] = data else {
        return;
    };
    let ctx = &contexts()[*schema as usize % schema_count()];
    let line = String::from_utf8_lossy(rest);
    let cursor = cursor_for(*cursor, line.len());
    check_completion(ctx, &line, cursor, true);
    check_highlighting(&line);
}

/// Where `complete` puts a cursor: within the text, on a boundary.
fn clamp(line: &str, cursor: usize) -> usize {
    let mut at = cursor.min(line.len());
    while !line.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Whether a line (its statement) may complete file names, which can
/// change between two calls.
fn names_files(line: &str) -> bool {
    let lower = line.to_lowercase();
    ["source", "capture", "save"]
        .iter()
        .any(|w| lower.contains(w))
}

fn check_completion(ctx: &PlanContext, line: &str, cursor: usize, again: bool) {
    let completion = complete(ctx, line, cursor);
    let at = clamp(line, cursor);
    check_one(line, at, &completion);

    let files = names_files(&line[..at]);
    let second = complete(ctx, line, cursor);
    assert!(
        files || second == completion,
        "completion of {line:?} at {cursor} not deterministic:\n{completion:?}\n{second:?}"
    );
    // Only the text before the cursor counts.
    let head = complete(ctx, &line[..at], at);
    assert!(
        files || head == completion,
        "completion of {line:?} at {cursor} depends on the text after the cursor:\n\
         {completion:?}\n{head:?}"
    );

    let texts = completion.texts();
    let last = texts.len().saturating_sub(1);
    for (i, text) in texts.iter().enumerate() {
        if i < 3 || i == last {
            check_no_merge(line, completion.start, text);
        }
    }

    if !again {
        return;
    }
    // Apply the first candidate that can be inserted, and complete at the
    // end of the inserted text, as a second Tab would.
    if let Some(text) = completion.texts().first() {
        let applied = format!("{}{}{}", &line[..completion.start], text, &line[at..]);
        let end = completion.start + text.len();
        assert!(
            applied.is_char_boundary(end),
            "applying {text:?} to {line:?} at {cursor}: no boundary at {end}"
        );
        check_completion(ctx, &applied, end, false);
    }
}

/// Inserting `text` at `start` leaves the tokens before it as they were:
/// the candidate does not glue onto the token it follows (the completer
/// puts a space between where one is needed, as cqlsh does).
fn check_no_merge(line: &str, start: usize, text: &str) {
    let head = &line[..start];
    let applied = format!("{head}{text}");
    let before: Vec<_> = Lexer::new(head).collect();
    let after: Vec<_> = Lexer::new(&applied).take(before.len()).collect();
    assert!(
        before == after,
        "inserting {text:?} after {head:?} changes the tokens before it: \
         {before:?} became {after:?}"
    );
}

/// The invariants of one completion of `line` at the (clamped) cursor `at`.
fn check_one(line: &str, at: usize, completion: &Completion) {
    let what = || format!("completing {line:?} at {at}: {completion:?}");
    let start = completion.start;
    assert!(
        start <= at && line.is_char_boundary(start),
        "replaced range {start}..{at} not within the line: {}",
        what()
    );
    let typed = line[start..at].to_lowercase();
    let mut seen_word = false;
    let mut previous: Option<String> = None;
    let mut words: Vec<&str> = Vec::new();
    for candidate in &completion.candidates {
        assert!(!candidate.text.is_empty(), "an empty candidate: {}", what());
        if candidate.hint {
            assert!(!seen_word, "a hint after a word: {}", what());
            continue;
        }
        seen_word = true;
        assert!(
            candidate.text.to_lowercase().starts_with(&typed),
            "{:?} does not match the word {:?} it replaces: {}",
            candidate.text,
            &line[start..at],
            what()
        );
        assert!(
            !words.contains(&candidate.text.as_str()),
            "{:?} offered twice: {}",
            candidate.text,
            what()
        );
        words.push(&candidate.text);
        let key = candidate.text.trim_start().to_lowercase();
        if let Some(prev) = &previous {
            assert!(
                *prev <= key,
                "{:?} after {prev:?}: not in alphabetical order: {}",
                candidate.text,
                what()
            );
        }
        previous = Some(key);
    }
}

/// The token kinds an earlier line may leave open (and none).
const OPEN: [Option<TokenKind>; 5] = [
    None,
    Some(TokenKind::UnterminatedString),
    Some(TokenKind::UnterminatedDollarString),
    Some(TokenKind::UnterminatedQuotedIdent),
    Some(TokenKind::UnterminatedBlockComment),
];

fn check_highlighting(text: &str) {
    for open in OPEN {
        check_paint(text, open);
        for line in text.split('\n') {
            check_paint(line, open);
        }
    }
    check_line_by_line(text);
}

/// Highlights `line` (starting inside `open`) and checks the spans and the
/// painted text; returns the spans.
fn check_paint(line: &str, open: Option<TokenKind>) -> Vec<Span> {
    let spans = highlight::spans(line, open);
    let mut end = 0;
    for span in &spans {
        assert!(
            end <= span.start
                && span.start < span.end
                && span.end <= line.len()
                && line.is_char_boundary(span.start)
                && line.is_char_boundary(span.end),
            "highlighting {line:?} (open {open:?}): bad span {span:?} in {spans:?}"
        );
        end = span.end;
    }
    let painted = highlight::paint(line, &spans);
    // An escape sequence of the painter's own typed in the line would make
    // stripping ambiguous; any other escape character is kept as it is.
    if !COLOURS.iter().any(|c| line.contains(c)) {
        assert_eq!(
            strip_colours(&painted),
            line,
            "highlighting {line:?} (open {open:?}) changed the text: {painted:?}"
        );
    }
    spans
}

/// The escape sequences `highlight::paint` writes: a style's colour, and
/// the reset.
const COLOURS: [&str; 6] = [
    "\x1b[0m",
    "\x1b[0;1;34m",
    "\x1b[0;1;33m",
    "\x1b[0;1;32m",
    "\x1b[0;2m",
    "\x1b[0;1;31m",
];

/// `text` without the painter's escape sequences ([`COLOURS`]).
pub fn strip_colours(text: &str) -> String {
    for style in [
        Style::Keyword,
        Style::String,
        Style::Literal,
        Style::Comment,
        Style::Error,
    ] {
        assert!(
            COLOURS.contains(&highlight::ansi(style)),
            "{style:?}'s colour {:?} is not in COLOURS",
            highlight::ansi(style)
        );
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('\x1b') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        match COLOURS.iter().find(|c| rest.starts_with(*c)) {
            Some(colour) => rest = &rest[colour.len()..],
            None => {
                out.push('\x1b');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The REPL's way: each line highlighted with the token `Pending` says the
/// lines before left open. The style of every byte (line breaks aside) is
/// the one the whole text, lexed at once, gives it.
fn check_line_by_line(text: &str) {
    let whole = styles_of_whole(text);
    let mut pending = Pending::new(LINE_COMMANDS);
    let mut offset = 0;
    for line in text.split('\n') {
        let open = pending.open_token();
        let spans = check_paint(line, open);
        let mut styles = vec![None; line.len()];
        for span in spans {
            styles[span.start..span.end].fill(Some(span.style));
        }
        for (i, style) in styles.iter().enumerate() {
            assert_eq!(
                *style,
                whole[offset + i],
                "line {line:?} (open {open:?}) of {text:?}: byte {i} styled {style:?}, \
                 but {:?} in the whole text",
                whole[offset + i]
            );
        }
        pending.push_line(line);
        offset += line.len() + 1;
    }
}

/// The style of each byte of `text` lexed at once. A quoted name that
/// spans lines is styled as a string: line by line, its first lines are an
/// open quoted name, which the highlighter shows as one.
fn styles_of_whole(text: &str) -> Vec<Option<Style>> {
    let mut out = vec![None; text.len()];
    for token in Lexer::new(text) {
        let multi_line_name =
            token.kind == TokenKind::QuotedIdent && token.text(text).contains('\n');
        let style = if multi_line_name {
            Some(Style::String)
        } else {
            highlight::style_of(token.kind)
        };
        out[token.span.range()].fill(style);
    }
    out
}
