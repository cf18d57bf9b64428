//! The CQL parser: nom combinators over the lexer's tokens.
//!
//! [`parse_statement`] reads one statement (any number of trailing `;`, as
//! Cassandra's server grammar allows). A syntax error is a
//! `SyntaxException` whose message carries Cassandra's `line L:C` text and
//! whose label says what was expected and what was found; a message a
//! production raises itself (a duplicate property, `X = Y + 1`) is the
//! server's bare text, as Cassandra adds no position to those.

mod common;
mod input;
mod modify;
mod nesting;
mod optional;
mod property_map;
mod role;
mod schema;
mod select;
mod term;

use std::cell::Cell;

use super::ast::Statement;
use super::keyword::Keyword;
use super::lexer::{Token, TokenKind};
use super::span::Span;
use crate::error::Error;
pub(crate) use common::token_constant;
use input::{Class, CustomError, Expected, ExpectedSet, PResult, Shared, Tokens, Tracker};

/// How deeply brackets, type parameters and chained type hints may nest.
/// Deeper input is refused with a clear error instead of exhausting the stack.
pub const MAX_NESTING: usize = 48;

/// The statements a label lists when the first word is wrong. LIST (of
/// LIST ROLES) parses but is left out: ten names fit the label, and the
/// data and schema statements are the ones worth suggesting.
const STATEMENT_KEYWORDS: [Keyword; 10] = [
    Keyword::Select,
    Keyword::Insert,
    Keyword::Update,
    Keyword::Delete,
    Keyword::Begin,
    Keyword::Create,
    Keyword::Alter,
    Keyword::Drop,
    Keyword::Use,
    Keyword::Truncate,
];

fn statement(i: Tokens<'_>) -> PResult<'_, Statement> {
    use Statement as S;
    match i.peek_kind() {
        Some(TokenKind::Keyword(Keyword::Select)) => {
            select::select(i).map(|(i, s)| (i, S::Select(s)))
        }
        Some(TokenKind::Keyword(Keyword::Insert)) => {
            modify::insert(i).map(|(i, s)| (i, S::Insert(s)))
        }
        Some(TokenKind::Keyword(Keyword::Update)) => {
            modify::update(i).map(|(i, s)| (i, S::Update(s)))
        }
        Some(TokenKind::Keyword(Keyword::Delete)) => {
            modify::delete(i).map(|(i, s)| (i, S::Delete(s)))
        }
        Some(TokenKind::Keyword(Keyword::Begin)) => modify::batch(i).map(|(i, s)| (i, S::Batch(s))),
        Some(TokenKind::Keyword(Keyword::Create)) => schema::create(i),
        Some(TokenKind::Keyword(Keyword::Alter)) => schema::alter(i),
        Some(TokenKind::Keyword(Keyword::Drop)) => schema::drop(i),
        Some(TokenKind::Keyword(Keyword::Use)) => schema::use_keyspace(i),
        Some(TokenKind::Keyword(Keyword::Truncate)) => schema::truncate(i),
        Some(TokenKind::Keyword(Keyword::List)) => role::list(i),
        _ => {
            let mut set = ExpectedSet::default();
            for k in STATEMENT_KEYWORDS {
                set.keyword(k);
            }
            i.expected(set)
        }
    }
}

/// Fills `tokens` with the tokens the parser reads: everything but complete
/// comments. A comment left open is kept so that [`lexical_error`] reports
/// it, as Cassandra's lexer does, instead of it silently swallowing the rest.
fn significant_tokens(text: &str, tokens: &mut Vec<Token>) {
    // Statements average a token every five or six bytes: reserving up
    // front saves the repeated doubling of pushing one by one.
    tokens.reserve(text.len() / 5 + 4);
    for token in super::lexer::Lexer::new(text) {
        if !matches!(token.kind, TokenKind::LineComment | TokenKind::BlockComment) {
            tokens.push(token);
        }
    }
}

/// A token buffer kept beyond this size is given back to the allocator
/// rather than kept for the next statement, so that one huge statement
/// does not pin its memory for the life of the thread.
const KEPT_TOKEN_CAPACITY: usize = 4096;

thread_local! {
    /// Each thread's token buffer, reused from one statement to the next: a
    /// statement's tokens take a kilobyte or more, and a fresh allocation
    /// of that size per statement costs as much as lexing a short one.
    static TOKEN_BUFFER: Cell<Vec<Token>> = const { Cell::new(Vec::new()) };
}

/// Parses one statement. Trailing `;` are allowed; anything else after the
/// statement is an error.
pub fn parse_statement(text: &str) -> Result<Statement, Error> {
    parse_statement_with_nesting(text, MAX_NESTING)
}

/// Parses one statement whose brackets and type hints may nest at most
/// `max_nesting` levels (at most [`MAX_NESTING`]; see `[limits]`).
pub fn parse_statement_with_nesting(text: &str, max_nesting: usize) -> Result<Statement, Error> {
    // Taken rather than borrowed: a parse that somehow started another on
    // the same thread would find an empty buffer, not a borrowed one.
    let mut tokens = TOKEN_BUFFER.take();
    significant_tokens(text, &mut tokens);
    let result = parse_tokens_with_nesting(text, &tokens, max_nesting.min(MAX_NESTING));
    if tokens.capacity() <= KEPT_TOKEN_CAPACITY {
        tokens.clear();
        TOKEN_BUFFER.set(tokens);
    }
    result
}

fn parse_tokens_with_nesting(
    text: &str,
    tokens: &[Token],
    max_nesting: usize,
) -> Result<Statement, Error> {
    if let Some(error) = lexical_error(text, tokens) {
        return Err(error);
    }
    nesting::check(text, tokens, max_nesting)?;
    let tracker = Tracker::default();
    let shared = Shared {
        all: tokens,
        source: text,
        tracker: &tracker,
    };
    let input = Tokens::new(&shared);
    match statement(input) {
        Ok((rest, statement)) => {
            let mut rest = rest;
            while rest.peek_kind() == Some(TokenKind::Semicolon) {
                rest = rest.advance(1);
            }
            if rest.peek().is_none() {
                return Ok(statement);
            }
            if tracker.furthest().0 <= rest.start {
                return Err(trailing_error(text, tokens, rest.start));
            }
            let mut set = ExpectedSet::default();
            set.kind(TokenKind::Semicolon);
            set.class(Class::End);
            rest.expected::<()>(set).ok();
            Err(expectation_error(text, tokens, &tracker))
        }
        Err(nom::Err::Failure(e)) | Err(nom::Err::Error(e)) => match e.custom {
            Some(custom) => Err(custom_error(*custom)),
            None => Err(expectation_error(text, tokens, &tracker)),
        },
        Err(nom::Err::Incomplete(_)) => Err(expectation_error(text, tokens, &tracker)),
    }
}

/// Input after a whole statement, worded as Cassandra's parser words it:
/// `mismatched input 'x' expecting EOF`, except where its grammar was still
/// looking ahead when it met the extra token — after the value of a WHERE
/// relation, after an unqualified table name followed by a token that
/// never follows one (where it was deciding whether a `.` and a table name
/// follow, so it points at the name) and after `IF EXISTS`.
fn trailing_error(text: &str, tokens: &[Token], position: usize) -> Error {
    let extra = &tokens[position];
    let before = |back: usize| position.checked_sub(back).and_then(|i| tokens.get(i));
    let extra_text = antlr_text(extra, text);
    let header = cassandra_position(text, extra.span.start);
    let (message, highlight) = if ends_relation(before(1), before(2)) {
        (
            format!("{header} no viable alternative at input '{extra_text}'"),
            position,
        )
    } else if (ends_unqualified_table(before(1), before(2))
        && !common::may_follow_a_table_name(Some(extra.kind)))
        || ends_if_exists(before(1), before(2))
    {
        (
            format!("{header} no viable alternative at input '{extra_text}'"),
            position - 1,
        )
    } else {
        (
            format!("{header} mismatched input '{extra_text}' expecting EOF"),
            position,
        )
    };
    let message = message + &snippet_to(text, tokens, highlight, position);
    Error::syntax(message)
        .with_span(extra.span)
        .with_label(format!(
            "expected the end of the statement — found {}",
            describe_found(extra, text)
        ))
}

fn ends_relation(last: Option<&Token>, operator: Option<&Token>) -> bool {
    let value = last.is_some_and(|t| is_literal(t.kind));
    let compares = operator.is_some_and(|t| t.kind.is_comparison());
    value && compares
}

/// A constant's token (quoted strings only: `$$…$$` aside).
fn is_literal(kind: TokenKind) -> bool {
    matches!(
        kind,
        TokenKind::Integer
            | TokenKind::Float
            | TokenKind::String
            | TokenKind::Uuid
            | TokenKind::Hex
            | TokenKind::Boolean
            | TokenKind::Duration
    )
}

/// A token a term can end with: a constant or a bind marker.
fn ends_value(token: &Token) -> bool {
    use crate::syntax::keyword::Keyword;
    is_literal(token.kind)
        || matches!(
            token.kind,
            TokenKind::DollarString | TokenKind::Question | TokenKind::Keyword(Keyword::Null)
        )
}

/// The tokens that follow a term somewhere in Cassandra's grammar.
fn may_follow_a_value(kind: Option<TokenKind>) -> bool {
    use crate::syntax::keyword::Keyword as K;
    match kind {
        None => true,
        Some(TokenKind::Keyword(k)) => matches!(
            k,
            K::And
                | K::If
                | K::Where
                | K::Apply
                | K::Insert
                | K::Update
                | K::Delete
                | K::Begin
                | K::Order
                | K::Group
                | K::Per
                | K::Limit
                | K::Allow
                | K::As
                | K::From
        ),
        Some(kind) => {
            kind.is_comparison()
                || matches!(
                    kind,
                    TokenKind::Comma
                        | TokenKind::RParen
                        | TokenKind::RBracket
                        | TokenKind::RBrace
                        | TokenKind::Colon
                        | TokenKind::Semicolon
                        | TokenKind::DotDot
                        | TokenKind::Plus
                        | TokenKind::Minus
                        | TokenKind::Star
                        | TokenKind::Slash
                        | TokenKind::Percent
                )
        }
    }
}

fn ends_unqualified_table(last: Option<&Token>, keyword: Option<&Token>) -> bool {
    use crate::syntax::keyword::Keyword;
    let name = last.is_some_and(|t| common::is_name_token(Some(t.kind)));
    let names_a_table = keyword.is_some_and(|t| {
        matches!(
            t.kind,
            TokenKind::Keyword(Keyword::From | Keyword::Table | Keyword::Truncate)
        )
    });
    name && names_a_table
}

/// `IF EXISTS` at the end, where the grammar was telling `IF EXISTS`
/// from a condition on a column named `exists`.
fn ends_if_exists(last: Option<&Token>, keyword: Option<&Token>) -> bool {
    use crate::syntax::keyword::Keyword;
    let is = |t: Option<&Token>, k: Keyword| t.is_some_and(|t| t.kind == TokenKind::Keyword(k));
    is(last, Keyword::Exists) && is(keyword, Keyword::If)
}

/// How a token is named in a label: its keyword, or its text quoted.
fn describe_found(token: &Token, text: &str) -> String {
    match token.kind {
        TokenKind::Keyword(k) => k.as_str().to_string(),
        TokenKind::Semicolon => "';'".to_string(),
        _ => format!("'{}'", token.text(text)),
    }
}

/// Cassandra's `line L:C` for a byte offset: line from 1, column from 0.
fn cassandra_position(text: &str, offset: usize) -> String {
    let (line, column) = super::span::line_col(text, offset);
    format!("line {line}:{}", column - 1)
}

/// An invalid character or an unterminated token stops the lexer in
/// Cassandra before the parser sees anything; report those first.
fn lexical_error(text: &str, tokens: &[Token]) -> Option<Error> {
    let token = tokens
        .iter()
        .find(|t| t.kind == TokenKind::Invalid || t.kind.is_unterminated())?;
    let token_text = token.text(text);
    if token.kind == TokenKind::Invalid {
        let c = token_text.chars().next().unwrap_or('?');
        if let Some(error) = half_token(text, token.span.start, c) {
            return Some(error);
        }
        return Some(
            Error::syntax(format!(
                "{} no viable alternative at character '{c}'",
                cassandra_position(text, token.span.start)
            ))
            .with_span(token.span)
            .with_label(format!("no CQL token starts with '{c}'")),
        );
    }
    let (closer, what) = match token.kind {
        TokenKind::UnterminatedString => ("'", "string"),
        TokenKind::UnterminatedDollarString => ("$", "$$ string"),
        TokenKind::UnterminatedQuotedIdent => ("\"", "quoted name"),
        _ => ("*", "comment"),
    };
    let (at, found) = match token.kind {
        TokenKind::UnterminatedDollarString => dollar_string_stop(text, token.span.start),
        _ => (text.len(), None),
    };
    let found = found.map_or_else(|| "<EOF>".to_string(), String::from);
    Some(
        Error::syntax(format!(
            "{} mismatched character '{found}' expecting '{closer}'",
            cassandra_position(text, at)
        ))
        .with_span(Span::new(token.span.start, token.span.start + 1))
        .with_label(format!("this {what} is never closed")),
    )
}

/// `!` or `$` without the character that completes its token (`!=`,
/// `$$`): Cassandra's lexer, having started that token, refuses the next
/// character (or the end) as not the one it expects.
fn half_token(text: &str, at: usize, c: char) -> Option<Error> {
    let expected = match c {
        '!' => '=',
        '$' => '$',
        _ => return None,
    };
    let next_at = at + c.len_utf8();
    let next = text[next_at..].chars().next();
    let found = next.map_or_else(|| "<EOF>".to_string(), String::from);
    Some(
        Error::syntax(format!(
            "{} mismatched character '{found}' expecting '{expected}'",
            cassandra_position(text, next_at)
        ))
        .with_span(Span::new(at, next_at))
        .with_label(format!("'{c}' starts '{c}{expected}' only")),
    )
}

/// Where Cassandra's lexer gives up on the `$$` string opened at byte
/// `open`, and the character it finds there (`None` at the end of the
/// text). Its loop takes a character only while two or more remain, so it
/// leaves the last one for the closing `$$` to refuse.
fn dollar_string_stop(text: &str, open: usize) -> (usize, Option<char>) {
    let body = open + 2;
    let rest: Vec<(usize, char)> = text
        .get(body..)
        .unwrap_or_default()
        .char_indices()
        .map(|(at, c)| (body + at, c))
        .collect();
    match rest.last() {
        // The last character is taken as the first `$` of `$$`, and the
        // second is missing.
        Some(&(_, '$')) | None => (text.len(), None),
        Some(&(at, c)) => (at, Some(c)),
    }
}

/// A message a production gave itself. Cassandra raises these through
/// `addRecognitionError`, which adds no `line L:C` header, so neither does
/// this; the span still points the diagnostic at the text.
fn custom_error(custom: CustomError) -> Error {
    Error::syntax(custom.message.clone())
        .with_span(custom.span)
        .with_label(custom.message)
}

/// ANTLR's name for an expected token, as Cassandra's messages print it.
fn antlr_name(expected: Expected) -> Option<String> {
    Some(match expected {
        Expected::Keyword(k) => format!("K_{}", k.as_str()),
        Expected::Kind(TokenKind::String) => "STRING_LITERAL".into(),
        Expected::Kind(TokenKind::Integer) => "INTEGER".into(),
        Expected::Kind(TokenKind::Boolean) => "BOOLEAN".into(),
        Expected::Kind(kind) => kind.describe().to_string(),
        // A name is never one token to Cassandra's grammar (IDENT, a quoted
        // name or an unreserved keyword), so missing one is always "no
        // viable alternative", never "expecting IDENT".
        Expected::Class(_) => return None,
    })
}

fn expectation_error(text: &str, tokens: &[Token], tracker: &Tracker) -> Error {
    let (position, expected) = tracker.furthest();
    let found = tokens.get(position);
    // ANTLR's end-of-input token has no place in the text: line 0:-1.
    let at = found.map_or_else(
        || "line 0:-1".to_string(),
        |t| cassandra_position(text, t.span.start),
    );
    let span = found.map_or(Span::new(text.len(), text.len()), |t| t.span);
    let found_text = found.map_or_else(|| "<EOF>".to_string(), |t| antlr_text(t, text));
    let items = expected.items();

    // One token the grammar could not do without is ANTLR's failed match;
    // anything else, its failed decision.
    let required = tracker.required().items();
    let single = match (required.as_slice(), items.as_slice()) {
        ([only], _) | ([], [only]) => antlr_name(*only),
        _ => None,
    };
    // After a value, ANTLR's loops (`+ term`, `, assignment`) decide to
    // stop by the tokens that may follow a value anywhere in the grammar:
    // any other token leaves it no viable alternative.
    // `CAST(1 AS …)` reads its value as a selector, where one token decides.
    let single = single.filter(|_| {
        let after_value = position > 0 && ends_value(&tokens[position - 1]);
        let in_cast = position >= 3
            && tokens[position - 2].kind == TokenKind::LParen
            && tokens[position - 3].kind == TokenKind::Keyword(Keyword::Cast);
        !after_value || in_cast || may_follow_a_value(found.map(|t| t.kind))
    });
    let mut message = match &single {
        Some(name) => format!("{} mismatched input '{found_text}' expecting {name}", at),
        None => format!("{} no viable alternative at input '{found_text}'", at),
    };
    // Undecided between `ks.table` and `table`, ANTLR's stream still
    // stands at the name, which its snippet brackets.
    let deciding_qualifier = single.is_none()
        && found.is_some()
        && required.contains(&Expected::Kind(TokenKind::Dot))
        && position > 0
        && common::is_name_token(Some(tokens[position - 1].kind));
    let highlight = if deciding_qualifier {
        position - 1
    } else {
        position
    };
    message.push_str(&snippet_to(text, tokens, highlight, position));

    let mut error = Error::syntax(message)
        .with_span(span)
        .with_label(expectation_label(&items, found, text));
    let help = found.and_then(|t| {
        let quoting_helps = is_reserved(t) && reads_further_as_name(text, tokens, position);
        help_for(t, text, &items, quoting_helps)
    });
    if let Some(help) = help {
        error = error.with_help(help);
    }
    error
}

fn is_reserved(token: &Token) -> bool {
    matches!(token.kind, TokenKind::Keyword(k) if k.is_reserved())
}

/// Whether reading the reserved keyword at `position` as a plain name takes
/// the parse past the token after it. Only then is quoting the keyword the
/// fix: `CREATE TABLE select (…)` gets the hint, the misplaced NOT of
/// `UPDATE … IF NOT EXISTS` does not.
fn reads_further_as_name(text: &str, tokens: &[Token], position: usize) -> bool {
    let mut renamed = tokens.to_vec();
    renamed[position].kind = TokenKind::Ident;
    let tracker = Tracker::default();
    let shared = Shared {
        all: &renamed,
        source: text,
        tracker: &tracker,
    };
    let reached = match statement(Tokens::new(&shared)) {
        Ok((rest, _)) => rest.start.max(tracker.furthest().0),
        Err(_) => tracker.furthest().0,
    };
    reached > position + 1
}

/// `expected one of FROM, ',' — found WHERE`
fn expectation_label(items: &[Expected], found: Option<&Token>, text: &str) -> String {
    let found = found.map_or_else(|| "end of input".to_string(), |t| describe_found(t, text));
    const SHOWN: usize = 10;
    let names: Vec<String> = items.iter().take(SHOWN).map(|e| e.describe()).collect();
    let more = if items.len() > SHOWN { ", …" } else { "" };
    match names.len() {
        0 => format!("unexpected {found}"),
        1 => format!("expected {} — found {found}", names[0]),
        _ => format!("expected one of {}{more} — found {found}", names.join(", ")),
    }
}

/// Cassandra's snippet (its `ErrorCollector`): the query text from ten
/// tokens of ANTLR's stream before the token at `highlight` up to the token
/// at `last` (the furthest the stream had read, mostly the offending token
/// itself), the highlighted token in brackets, `...` where text was cut,
/// and the lines run together. Whitespace and comments count among the ten
/// (they are tokens on ANTLR's hidden channel).
fn snippet_to(text: &str, tokens: &[Token], highlight: usize, last: usize) -> String {
    const BEFORE: usize = 10;
    let (Some(found), Some(end)) = (tokens.get(highlight), tokens.get(last)) else {
        return String::new();
    };
    let first = stream_start(text, tokens, highlight, BEFORE);
    let mut out = String::from(" (");
    if first > 0 {
        out.push_str("...");
    }
    // ANTLR measures a token by its text, which for a string is what is
    // inside the quotes: `'x'` is bracketed as `[']` and the rest cut.
    let found_end = antlr_end(found, text);
    let end = if last == highlight {
        found_end
    } else {
        antlr_end(end, text).max(found_end)
    };
    out.push_str(&text[first..found.span.start]);
    out.push('[');
    out.push_str(&text[found.span.start..found_end]);
    out.push(']');
    out.push_str(&text[found_end..end]);
    if end < text.trim_end_matches('\n').len() {
        out.push_str("...");
    }
    out.push(')');
    out.retain(|c| c != '\n');
    out
}

/// A token's text as ANTLR's lexer leaves it: a string's is what its
/// quotes hold (`''` read as `'`), as Cassandra's messages show it.
fn antlr_text(token: &Token, text: &str) -> String {
    let raw = token.text(text);
    match token.kind {
        TokenKind::String => raw[1..raw.len() - 1].replace("''", "'"),
        TokenKind::DollarString => raw[2..raw.len() - 2].to_string(),
        _ => raw.to_string(),
    }
}

/// Where a token ends by ANTLR's measure: its start plus the length of
/// its [`antlr_text`], in characters.
fn antlr_end(token: &Token, text: &str) -> usize {
    let chars = antlr_text(token, text).chars().count();
    text[token.span.start..]
        .char_indices()
        .nth(chars)
        .map_or(text.len(), |(at, _)| token.span.start + at)
        .min(token.span.end)
}

/// Where the stream token `count` tokens before `tokens[position]` starts,
/// hidden tokens (whitespace runs, comments) counted; 0 when there are
/// fewer.
fn stream_start(text: &str, tokens: &[Token], position: usize, count: usize) -> usize {
    let mut left = count;
    let mut at = tokens[position].span.start;
    let mut index = position;
    loop {
        let gap_start = if index == 0 {
            0
        } else {
            tokens[index - 1].span.end
        };
        for hidden in hidden_tokens(&text[gap_start..at]).into_iter().rev() {
            at = gap_start + hidden;
            left -= 1;
            if left == 0 {
                return at;
            }
        }
        if index == 0 {
            return 0;
        }
        index -= 1;
        at = tokens[index].span.start;
        left -= 1;
        if left == 0 {
            return at;
        }
    }
}

/// Where each of Cassandra's hidden tokens in `gap` (text between two
/// tokens) starts: a run of whitespace, a `--` or `//` comment with the
/// line end closing it, a `/* … */` comment.
fn hidden_tokens(gap: &str) -> Vec<usize> {
    let bytes = gap.as_bytes();
    let mut starts = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        starts.push(i);
        let rest = &gap[i..];
        i += if rest.starts_with("--") || rest.starts_with("//") {
            rest.find(['\n', '\r']).map_or(rest.len(), |end| end + 1)
        } else if let Some(body) = rest.strip_prefix("/*") {
            body.find("*/").map_or(rest.len(), |end| end + 4)
        } else {
            let run = rest.len() - rest.trim_start().len();
            run.max(rest.chars().next().map_or(1, char::len_utf8))
        };
    }
    starts
}

/// "Did you mean" for a misspelt keyword, a hint for reserved words used
/// as names (when `quoting_helps`), and one for double-quoted strings.
fn help_for(found: &Token, text: &str, items: &[Expected], quoting_helps: bool) -> Option<String> {
    let word = found.text(text);
    if let TokenKind::Keyword(k) = found.kind {
        if quoting_helps && items.contains(&Expected::Class("identifier")) {
            return Some(format!(
                "{} is a reserved keyword; write \"{}\" to use it as a name",
                k.as_str(),
                word.to_ascii_lowercase()
            ));
        }
    }
    if found.kind == TokenKind::QuotedIdent && items.contains(&Expected::Class("term")) {
        return Some(format!(
            "double quotes make a name; a string takes single quotes: '{}'",
            word[1..word.len() - 1]
                .replace("\"\"", "\"")
                .replace('\'', "''")
        ));
    }
    if !matches!(found.kind, TokenKind::Ident | TokenKind::Keyword(_)) {
        return None;
    }
    let upper = word.to_ascii_uppercase();
    let limit = if upper.len() <= 4 { 1 } else { 2 };
    items
        .iter()
        .filter_map(|e| match e {
            Expected::Keyword(k) => Some(k.as_str()),
            _ => None,
        })
        .map(|k| (edit_distance(&upper, k), k))
        .filter(|(d, _)| *d > 0 && *d <= limit)
        .min()
        .map(|(_, k)| format!("did you mean {k}?"))
}

/// Optimal string alignment distance (Levenshtein plus transpositions).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests;
