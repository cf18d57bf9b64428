//! The token stream as a nom input, and the parser's error machinery.
//!
//! nom parses slices of tokens here, not characters: the lexer has already
//! decided what every word is. Error reporting follows the PEG habit of
//! remembering the *furthest* position any alternative reached and every
//! token that would have been accepted there; combinators such as `opt` and
//! `alt` throw their errors away, so the record lives beside the input in a
//! [`Tracker`] rather than inside the error values.

use std::cell::Cell;

use nom::{IResult, Needed};

use super::super::keyword::Keyword;
use super::super::lexer::{Token, TokenKind};
use super::super::span::Span;

/// Non-token things a parser can expect, named in messages as classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Class {
    /// An identifier (unquoted, quoted, or an unreserved keyword).
    Name = 0,
    /// A term: constant, collection literal, marker, function call.
    Term,
    /// A CQL type.
    Type,
    /// A constant.
    Constant,
    /// The end of the statement.
    End,
}

const CLASS_NAMES: [&str; 5] = ["identifier", "term", "type", "constant", "end of statement"];

/// Token kinds (other than keywords) that a parser expects by kind.
const EXPECTABLE: [TokenKind; 35] = [
    TokenKind::String,
    TokenKind::Integer,
    TokenKind::Float,
    TokenKind::Duration,
    TokenKind::Uuid,
    TokenKind::Hex,
    TokenKind::Boolean,
    TokenKind::LParen,
    TokenKind::RParen,
    TokenKind::Comma,
    TokenKind::Semicolon,
    TokenKind::Dot,
    TokenKind::DotDot,
    TokenKind::Star,
    TokenKind::LBracket,
    TokenKind::RBracket,
    TokenKind::LBrace,
    TokenKind::RBrace,
    TokenKind::Colon,
    TokenKind::Question,
    TokenKind::Eq,
    TokenKind::Ne,
    TokenKind::Lt,
    TokenKind::Le,
    TokenKind::Gt,
    TokenKind::Ge,
    TokenKind::Plus,
    TokenKind::Minus,
    TokenKind::Slash,
    TokenKind::Percent,
    TokenKind::PlusEq,
    TokenKind::MinusEq,
    TokenKind::Ident,
    TokenKind::QuotedIdent,
    TokenKind::DollarString,
];

const KIND_BASE: usize = 192;
const CLASS_BASE: usize = KIND_BASE + EXPECTABLE.len();

/// A set of expectations as a bit set: keywords, token kinds and classes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct ExpectedSet([u64; 4]);

/// One expectation, for reading an [`ExpectedSet`] back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Expected {
    Keyword(Keyword),
    Kind(TokenKind),
    Class(&'static str),
}

impl Expected {
    /// How the expectation reads in a message.
    pub(crate) fn describe(self) -> String {
        match self {
            Expected::Keyword(k) => k.as_str().to_string(),
            Expected::Kind(k) => k.describe().to_string(),
            Expected::Class(c) => c.to_string(),
        }
    }
}

impl ExpectedSet {
    fn insert_bit(&mut self, bit: usize) {
        self.0[bit / 64] |= 1 << (bit % 64);
    }

    fn contains_bit(&self, bit: usize) -> bool {
        self.0[bit / 64] & (1 << (bit % 64)) != 0
    }

    pub(crate) fn keyword(&mut self, k: Keyword) {
        self.insert_bit(k as usize);
    }

    pub(crate) fn kind(&mut self, kind: TokenKind) {
        match kind {
            TokenKind::Keyword(k) => self.keyword(k),
            TokenKind::DollarString => self.kind(TokenKind::String),
            _ => {
                if let Some(i) = EXPECTABLE.iter().position(|k| *k == kind) {
                    self.insert_bit(KIND_BASE + i);
                }
            }
        }
    }

    pub(crate) fn class(&mut self, class: Class) {
        self.insert_bit(CLASS_BASE + class as usize);
    }

    fn union(&mut self, other: &ExpectedSet) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
    }

    fn remove(&mut self, other: &ExpectedSet) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= !b;
        }
    }

    /// The expectations in a stable order: classes, keywords (alphabetical,
    /// which reads better than declaration order), punctuation.
    pub(crate) fn items(&self) -> Vec<Expected> {
        let mut out = Vec::new();
        for (i, name) in CLASS_NAMES.iter().enumerate() {
            if self.contains_bit(CLASS_BASE + i) {
                out.push(Expected::Class(name));
            }
        }
        let mut keywords: Vec<Keyword> = Keyword::ALL
            .iter()
            .copied()
            .filter(|k| self.contains_bit(*k as usize))
            .collect();
        keywords.sort_by_key(|k| k.as_str());
        out.extend(keywords.into_iter().map(Expected::Keyword));
        for (i, kind) in EXPECTABLE.iter().enumerate() {
            if self.contains_bit(KIND_BASE + i) {
                out.push(Expected::Kind(*kind));
            }
        }
        out
    }
}

/// The furthest point any parse attempt reached, and what was expected there
/// — and which of those expectations only an optional part of the grammar
/// had (a loop's next `,`, a clause that may be left out), which ANTLR's
/// LL(1) decisions pass over without naming them.
#[derive(Debug, Default)]
pub(crate) struct Tracker {
    furthest: Cell<usize>,
    expected: Cell<ExpectedSet>,
    optional: Cell<ExpectedSet>,
}

/// The tracker's state before an optional part was tried.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    furthest: usize,
    expected: ExpectedSet,
}

impl Tracker {
    /// Records that `set` was expected at token `pos`.
    fn record(&self, pos: usize, set: ExpectedSet) {
        let furthest = self.furthest.get();
        if pos > furthest {
            self.furthest.set(pos);
            self.expected.set(set);
            self.optional.set(ExpectedSet::default());
        } else if pos == furthest {
            let mut merged = self.expected.get();
            merged.union(&set);
            self.expected.set(merged);
            let mut optional = self.optional.get();
            optional.remove(&set);
            self.optional.set(optional);
        }
    }

    /// The furthest token index reached and what was expected there.
    pub(crate) fn furthest(&self) -> (usize, ExpectedSet) {
        (self.furthest.get(), self.expected.get())
    }

    /// What was expected at the furthest point by a part of the grammar
    /// that could not be left out.
    pub(crate) fn required(&self) -> ExpectedSet {
        let mut required = self.expected.get();
        required.remove(&self.optional.get());
        required
    }

    pub(crate) fn mark(&self) -> Mark {
        Mark {
            furthest: self.furthest.get(),
            expected: self.expected.get(),
        }
    }

    /// An optional part tried at token `pos` since `mark` failed there
    /// without consuming anything: what it expected at `pos` (and nothing
    /// else had) was optional.
    pub(crate) fn declined(&self, mark: Mark, pos: usize) {
        if self.furthest.get() != pos {
            return;
        }
        let mut added = self.expected.get();
        if mark.furthest == pos {
            added.remove(&mark.expected);
        }
        let mut optional = self.optional.get();
        optional.union(&added);
        self.optional.set(optional);
    }
}

/// What every position in one parse shares: the statement's tokens
/// (comments removed), the text they came from and the record of the
/// furthest failure.
pub(crate) struct Shared<'a> {
    pub(crate) all: &'a [Token],
    pub(crate) source: &'a str,
    pub(crate) tracker: &'a Tracker,
}

/// A window onto the statement's tokens. The shared parts sit behind one
/// reference, so that this value, which every production takes and hands
/// back, is three words long rather than seven.
#[derive(Clone, Copy)]
pub(crate) struct Tokens<'a> {
    shared: &'a Shared<'a>,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

impl<'a> Tokens<'a> {
    /// All the tokens of `shared`.
    pub(crate) fn new(shared: &'a Shared<'a>) -> Tokens<'a> {
        Tokens {
            shared,
            start: 0,
            end: shared.all.len(),
        }
    }

    /// The next token, if any.
    pub(crate) fn peek(&self) -> Option<&'a Token> {
        self.shared.all[..self.end].get(self.start)
    }

    /// The kind of the token `n` places ahead.
    pub(crate) fn peek_kind_at(&self, n: usize) -> Option<TokenKind> {
        self.shared.all[..self.end]
            .get(self.start + n)
            .map(|t| t.kind)
    }

    /// The kind of the next token.
    pub(crate) fn peek_kind(&self) -> Option<TokenKind> {
        self.peek_kind_at(0)
    }

    /// The input after the next `n` tokens.
    pub(crate) fn advance(&self, n: usize) -> Tokens<'a> {
        Tokens {
            start: (self.start + n).min(self.end),
            ..*self
        }
    }

    /// The text of a token.
    pub(crate) fn text(&self, token: &Token) -> &'a str {
        &self.shared.source[token.span.range()]
    }

    /// The span from the first token of `from` to the last token consumed
    /// before `self`.
    pub(crate) fn span_since(&self, from: Tokens<'_>) -> Span {
        let start = self
            .shared
            .all
            .get(from.start)
            .map_or(self.shared.source.len(), |t| t.span.start);
        let end = if self.start > from.start {
            self.shared.all[self.start - 1].span.end
        } else {
            start
        };
        Span::new(start, end.max(start))
    }

    /// The parse's record of its furthest failure.
    pub(crate) fn tracker(&self) -> &'a Tracker {
        self.shared.tracker
    }

    /// Records that `set` was expected here and returns the failure.
    pub(crate) fn expected<T>(&self, set: ExpectedSet) -> PResult<'a, T> {
        self.shared.tracker.record(self.start, set);
        Err(nom::Err::Error(PError::default()))
    }

    /// Records an expected keyword and fails.
    pub(crate) fn expected_keyword<T>(&self, k: Keyword) -> PResult<'a, T> {
        let mut set = ExpectedSet::default();
        set.keyword(k);
        self.expected(set)
    }

    /// Records an expected token kind and fails.
    pub(crate) fn expected_kind<T>(&self, kind: TokenKind) -> PResult<'a, T> {
        let mut set = ExpectedSet::default();
        set.kind(kind);
        self.expected(set)
    }

    /// Records an expected class and fails.
    pub(crate) fn expected_class<T>(&self, class: Class) -> PResult<'a, T> {
        let mut set = ExpectedSet::default();
        set.class(class);
        self.expected(set)
    }

    /// Fails for good with a message of its own, pointing at `span`: no
    /// other alternative is tried (nom's `Failure`).
    pub(crate) fn fail<T>(&self, message: impl Into<String>, span: Span) -> PResult<'a, T> {
        Err(nom::Err::Failure(PError {
            custom: Some(Box::new(CustomError {
                message: message.into(),
                span,
            })),
        }))
    }

    /// The SyntaxException Cassandra answers when a Java exception escapes
    /// its parser's actions (`QueryProcessor.parseStatement`): the whole
    /// statement, the exception's class and its message.
    pub(crate) fn fail_runtime<T>(
        &self,
        exception: &str,
        message: &str,
        span: Span,
    ) -> PResult<'a, T> {
        let source = self.shared.source;
        self.fail(
            format!("Failed parsing statement: [{source}] reason: {exception} {message}"),
            span,
        )
    }
}

/// A message a production gives instead of "expected …".
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CustomError {
    pub(crate) message: String,
    pub(crate) span: Span,
}

/// The nom error type: empty for ordinary failures (the [`Tracker`] has the
/// details), or a custom message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct PError {
    pub(crate) custom: Option<Box<CustomError>>,
}

impl<'a> nom::error::ParseError<Tokens<'a>> for PError {
    fn from_error_kind(_: Tokens<'a>, _: nom::error::ErrorKind) -> PError {
        PError::default()
    }

    fn append(_: Tokens<'a>, _: nom::error::ErrorKind, other: PError) -> PError {
        other
    }

    fn or(self, other: PError) -> PError {
        if self.custom.is_some() {
            self
        } else {
            other
        }
    }
}

/// What every production returns.
pub(crate) type PResult<'a, O> = IResult<Tokens<'a>, O, PError>;

/// A result for a production tried speculatively (an operand after an
/// operator that may belong to something else): an ordinary failure is
/// `None`, to try another reading, but a `Failure` still ends the parse, as
/// it rules out every reading.
pub(crate) fn attempt<'a, O>(
    result: PResult<'a, O>,
) -> Result<Option<(Tokens<'a>, O)>, nom::Err<PError>> {
    match result {
        Ok(found) => Ok(Some(found)),
        Err(nom::Err::Failure(e)) => Err(nom::Err::Failure(e)),
        Err(_) => Ok(None),
    }
}

impl<'a> nom::Input for Tokens<'a> {
    type Item = &'a Token;
    type Iter = std::slice::Iter<'a, Token>;
    type IterIndices = std::iter::Enumerate<std::slice::Iter<'a, Token>>;

    fn input_len(&self) -> usize {
        self.end - self.start
    }

    fn take(&self, index: usize) -> Self {
        Tokens {
            end: self.start + index,
            ..*self
        }
    }

    fn take_from(&self, index: usize) -> Self {
        Tokens {
            start: self.start + index,
            ..*self
        }
    }

    fn take_split(&self, index: usize) -> (Self, Self) {
        (self.take_from(index), self.take(index))
    }

    fn position<P>(&self, predicate: P) -> Option<usize>
    where
        P: Fn(Self::Item) -> bool,
    {
        self.shared.all[self.start..self.end]
            .iter()
            .position(predicate)
    }

    fn iter_elements(&self) -> Self::Iter {
        self.shared.all[self.start..self.end].iter()
    }

    fn iter_indices(&self) -> Self::IterIndices {
        self.shared.all[self.start..self.end].iter().enumerate()
    }

    fn slice_index(&self, count: usize) -> Result<usize, Needed> {
        if self.input_len() >= count {
            Ok(count)
        } else {
            Err(Needed::new(count - self.input_len()))
        }
    }
}
