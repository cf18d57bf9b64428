//! Tab completion, as cqlsh does it (cqlsh.md §4): grammar driven, from the
//! project's one lexer and the session's live catalog, so a table created a
//! moment ago completes at once.
//!
//! [`complete`] is a pure function of the catalog, the text typed so far
//! (every line of the statement being entered) and the cursor. It returns
//! where the word under the cursor starts and what may replace it:
//! keywords (upper case, except `exit`, `quit` and `history`), names
//! (quoted where CQL needs it), punctuation, and hints such as
//! `<value for id (int)>` that are shown but never inserted.
//!
//! The mechanics follow cqlshlib's `cql_complete`: candidates match the word
//! under the cursor case-insensitively; a single candidate ending in a
//! letter or digit gets a trailing space; and a single candidate is extended
//! through the fixed tokens that must follow it (`SELECT * F` becomes
//! `SELECT * FROM `, `USE k` becomes `USE ks ;`).

mod ddl;
mod grammar;
mod names;
mod state;

use crate::planner::PlanContext;
use crate::syntax::keyword::Keyword;
use crate::syntax::lexer::{Lexer, Token, TokenKind};

/// What may replace the text from `start` to the cursor.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Completion {
    /// Byte offset where the replaced word starts (the cursor when there is
    /// no word under it).
    pub start: usize,
    /// The candidates, hints first, then the rest in alphabetical order.
    pub candidates: Vec<Candidate>,
}

/// One completion candidate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The text: what is inserted, or the hint shown.
    pub text: String,
    /// A hint (`<colname>`): displayed, never inserted.
    pub hint: bool,
}

impl Completion {
    /// The texts of the candidates that can be inserted.
    pub fn texts(&self) -> Vec<&str> {
        self.candidates
            .iter()
            .filter(|c| !c.hint)
            .map(|c| c.text.as_str())
            .collect()
    }

    /// The hints.
    pub fn hints(&self) -> Vec<&str> {
        self.candidates
            .iter()
            .filter(|c| c.hint)
            .map(|c| c.text.as_str())
            .collect()
    }
}

/// A candidate before matching: a keyword, a word (name, punctuation,
/// snippet) written as is, or a hint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Cand {
    Word(String),
    Hint(String),
}

impl Cand {
    pub(crate) fn word(text: impl Into<String>) -> Cand {
        Cand::Word(text.into())
    }

    pub(crate) fn hint(text: impl Into<String>) -> Cand {
        Cand::Hint(text.into())
    }
}

/// Keywords as candidates, written as given.
pub(crate) fn words(list: &[&str]) -> Vec<Cand> {
    list.iter().map(|w| Cand::word(*w)).collect()
}

/// The candidates for the word under `cursor` in `line` (the whole text of
/// the statement being entered, earlier lines included).
pub fn complete(ctx: &PlanContext, line: &str, cursor: usize) -> Completion {
    let cursor = floor_char_boundary(line, cursor.min(line.len()));
    let mut completion = complete_once(ctx, line, cursor);
    if let [only] = completion.candidates.as_slice() {
        if !only.hint {
            let text = extend(ctx, &line[..completion.start], only.text.clone());
            completion.candidates = vec![Candidate { text, hint: false }];
        }
    }
    completion
}

/// One round of completion, without extension through following tokens.
fn complete_once(ctx: &PlanContext, line: &str, cursor: usize) -> Completion {
    let before = &line[..cursor];
    let tokens: Vec<Token> = statement_tokens(before);
    let (partial, context) = split_partial(before, &tokens);
    if context
        .last()
        .is_some_and(|t| t.kind.is_comment() && t.span.end == cursor)
    {
        return Completion {
            start: cursor,
            candidates: Vec::new(),
        };
    }
    let context: Vec<Token> = context
        .iter()
        .copied()
        .filter(|t| !t.kind.is_comment())
        .collect();
    let (start, partial_text, partial_kind) = match partial {
        Some(t) => (t.span.start, t.text(before), Some(t.kind)),
        None => (cursor, "", None),
    };
    if partial_kind == Some(TokenKind::UnterminatedBlockComment) {
        return Completion {
            start,
            candidates: Vec::new(),
        };
    }
    let state = grammar::State {
        ctx,
        src: before,
        tokens: &context,
        pos: 0,
        partial: partial_text,
        partial_kind,
    };
    let cands = grammar::statement(state);
    let mut candidates = matching(cands, partial_text, partial_kind);
    if partial.is_none() && needs_space(before, context.last()) {
        for c in candidates.iter_mut().filter(|c| !c.hint) {
            if want_space_between(before, context.last(), &c.text) {
                c.text.insert(0, ' ');
            }
        }
    }
    if !partial_text.is_empty() {
        candidates.retain(|c| !(c.hint && c.text == "<enter>"));
    }
    let unclosed = partial_kind.is_some_and(TokenKind::is_unterminated);
    let mut words = candidates.iter_mut().filter(|c| !c.hint);
    if let (Some(only), None) = (words.next(), words.next()) {
        if !unclosed && only.text.ends_with(|c: char| c.is_alphanumeric()) {
            only.text.push(' ');
        }
    }
    Completion { start, candidates }
}

/// cqlsh's `cql_complete_multiple`: a unique candidate is extended while the
/// text it makes has exactly one continuation (or a common prefix of
/// several), stopping at hints.
fn extend(ctx: &PlanContext, head: &str, mut first: String) -> String {
    for _ in 0..12 {
        let text = format!("{head}{first}");
        let next = complete_once(ctx, &text, text.len());
        if next.start != text.len() {
            return first;
        }
        if next.candidates.iter().any(|c| c.hint) {
            if !first.ends_with(char::is_whitespace) {
                first.push(' ');
            }
            return first;
        }
        let texts: Vec<&str> = next.candidates.iter().map(|c| c.text.as_str()).collect();
        let (addition, done) = match texts.as_slice() {
            [] => return first,
            [only] => (only.to_string(), false),
            many => (common_prefix(many), true),
        };
        if addition.is_empty() {
            return first;
        }
        if addition.starts_with([',', ')', ':']) && first.ends_with(' ') {
            first.pop();
        }
        first.push_str(&addition);
        if done {
            return first;
        }
    }
    first
}

fn common_prefix(texts: &[&str]) -> String {
    let first = texts[0];
    let mut end = first.len();
    for t in &texts[1..] {
        end = end.min(
            first
                .char_indices()
                .zip(t.chars())
                .find(|((_, a), b)| a != b)
                .map_or(first.len().min(t.len()), |((i, _), _)| i),
        );
    }
    first[..end].to_string()
}

/// Filters the grammar's candidates by the word under the cursor
/// (case-insensitively), removes duplicates, and orders them.
fn matching(cands: Vec<Cand>, partial: &str, kind: Option<TokenKind>) -> Vec<Candidate> {
    let lower = partial.to_lowercase();
    let quoted_name = matches!(
        kind,
        Some(TokenKind::QuotedIdent | TokenKind::UnterminatedQuotedIdent)
    );
    let mut hints = Vec::new();
    let mut words: Vec<String> = Vec::new();
    for cand in cands {
        match cand {
            Cand::Hint(text) => {
                if !hints.contains(&text) {
                    hints.push(text)
                }
            }
            Cand::Word(text) => {
                let text = if quoted_name && !text.starts_with('"') {
                    format!("\"{}\"", text.replace('"', "\"\""))
                } else {
                    text
                };
                if text.to_lowercase().starts_with(&lower) && !words.contains(&text) {
                    words.push(text);
                }
            }
        }
    }
    words.sort_by_key(|w| w.to_lowercase());
    let hints = hints.into_iter().map(|text| Candidate { text, hint: true });
    let words = words
        .into_iter()
        .map(|text| Candidate { text, hint: false });
    hints.chain(words).collect()
}

/// Whether the text before the cursor ends right after a token (no space).
fn needs_space(before: &str, last: Option<&Token>) -> bool {
    last.is_some() && !before.ends_with(char::is_whitespace)
}

/// cqlsh's `want_space_between`: a space goes between the last token and a
/// candidate typed right after it, except before `,`, `)` and `:`.
fn want_space_between(src: &str, last: Option<&Token>, following: &str) -> bool {
    let Some(last) = last else {
        return false;
    };
    if matches!(following, "," | ")" | ":") {
        return false;
    }
    let text = last.text(src);
    match last.kind {
        TokenKind::Comma | TokenKind::RParen | TokenKind::Eq => true,
        TokenKind::String => !following.starts_with(';'),
        TokenKind::Star => !following.starts_with(')'),
        TokenKind::Semicolon => true,
        _ => text.ends_with(|c: char| c.is_alphanumeric()) && !following.starts_with(','),
    }
}

/// The tokens of the statement the cursor is in: those after the last `;`
/// that ends a statement (a batch ends only at `APPLY BATCH;`), or after the
/// line break that ends a shell command.
fn statement_tokens(before: &str) -> Vec<Token> {
    let mut tokens: Vec<Token> = Vec::new();
    let mut first: Option<(TokenKind, String)> = None;
    let mut last = [None, None];
    for token in Lexer::new(before) {
        if token.kind.is_comment() {
            tokens.push(token);
            continue;
        }
        if let Some((kind, word)) = &first {
            let gap = &before[tokens.last().map_or(0, |t| t.span.end)..token.span.start];
            if is_line_command(*kind, word) && gap.contains('\n') {
                tokens.clear();
                first = None;
            }
        }
        match &first {
            None if token.kind == TokenKind::Semicolon => continue,
            None => {
                first = Some((token.kind, token.text(before).to_ascii_lowercase()));
                last = [None, Some(token.kind)];
                tokens.push(token);
            }
            Some((kind, _)) => {
                let batch = *kind == TokenKind::Keyword(Keyword::Begin);
                let closes_batch = last
                    == [
                        Some(TokenKind::Keyword(Keyword::Apply)),
                        Some(TokenKind::Keyword(Keyword::Batch)),
                    ];
                if token.kind == TokenKind::Semicolon && (!batch || closes_batch) {
                    tokens.clear();
                    first = None;
                    continue;
                }
                last = [last[1], Some(token.kind)];
                tokens.push(token);
            }
        }
    }
    tokens
}

fn is_line_command(kind: TokenKind, word: &str) -> bool {
    kind == TokenKind::Question || super::LINE_COMMANDS.contains(&word)
}

/// The token under the cursor, when the cursor is at its end and it can be
/// completed (a word, a number, an open string or name), and the tokens
/// before it.
fn split_partial<'t>(before: &str, tokens: &'t [Token]) -> (Option<Token>, &'t [Token]) {
    let Some((last, rest)) = tokens.split_last() else {
        return (None, tokens);
    };
    if last.span.end != before.len() {
        return (None, tokens);
    }
    let completable = matches!(
        last.kind,
        TokenKind::Keyword(_)
            | TokenKind::Ident
            | TokenKind::QuotedIdent
            | TokenKind::Boolean
            | TokenKind::Integer
            | TokenKind::Float
            | TokenKind::Duration
            | TokenKind::Hex
            | TokenKind::Uuid
            | TokenKind::UnterminatedString
            | TokenKind::UnterminatedQuotedIdent
            | TokenKind::UnterminatedBlockComment
    );
    if completable {
        (Some(*last), rest)
    } else {
        (None, tokens)
    }
}

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}
