//! The one tokenizer of the project.
//!
//! Parsing, statement splitting, REPL highlighting and completion all read the
//! same tokens, so what the shell colours as a string is exactly what the
//! parser treats as a string. Rules follow Cassandra 5.0's `Lexer.g`:
//! keywords are case-insensitive, unquoted names fold to lower case, a minus
//! sign directly before digits belongs to the number, and an unquoted word
//! such as `P1D` is a duration rather than a name.
//!
//! The lexer never fails: text it cannot read becomes an [`TokenKind::Invalid`]
//! token, and a string, `$$` body, quoted name or block comment that runs off
//! the end of the input becomes an `Unterminated…` token, so a caller can tell
//! "this statement is still open" from "this statement is wrong".

use logos::Logos;

use super::keyword::Keyword;
use super::span::Span;

/// What a token is. Keywords carry which keyword; everything else is told
/// apart by kind alone and read from the source text through the span.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// A keyword, reserved or not (`SELECT`, `key`, `TTL`).
    Keyword(Keyword),
    /// An unquoted name that is not a keyword.
    Ident,
    /// A double-quoted name, `"MyTable"`.
    QuotedIdent,
    /// A single-quoted string, `'it''s'`.
    String,
    /// A `$$…$$` string.
    DollarString,
    /// An integer, minus sign included when attached (`-5`).
    Integer,
    /// A float, `NaN`, `Infinity`, `-NaN` or `-Infinity` (the last two as one token).
    Float,
    /// A duration literal: `1h30m`, `P1DT2H`, `P0001-02-03T04:05:06`.
    Duration,
    /// An unquoted UUID constant.
    Uuid,
    /// A blob constant, `0xcafe`.
    Hex,
    /// `true` or `false`.
    Boolean,
    LParen,
    RParen,
    Comma,
    Semicolon,
    Dot,
    DotDot,
    Star,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Colon,
    Question,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Plus,
    Minus,
    Slash,
    Percent,
    PlusEq,
    MinusEq,
    /// `-- …` or `// …`, to the end of the line.
    LineComment,
    /// `/* … */`.
    BlockComment,
    /// A `'` string with no closing quote before the end of input.
    UnterminatedString,
    /// A `$$` body with no closing `$$` before the end of input.
    UnterminatedDollarString,
    /// A `"` name with no closing quote before the end of input.
    UnterminatedQuotedIdent,
    /// A `/*` comment with no `*/` before the end of input.
    UnterminatedBlockComment,
    /// A character no CQL token starts with (`@`, `#`, a backtick, …).
    Invalid,
}

impl TokenKind {
    /// `=`, `!=`, `<`, `<=`, `>`, `>=`: the operators of a relation or a
    /// condition.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            TokenKind::Eq
                | TokenKind::Ne
                | TokenKind::Lt
                | TokenKind::Le
                | TokenKind::Gt
                | TokenKind::Ge
        )
    }

    /// Comments are kept for highlighting but skipped by the parser.
    pub fn is_comment(self) -> bool {
        matches!(
            self,
            TokenKind::LineComment | TokenKind::BlockComment | TokenKind::UnterminatedBlockComment
        )
    }

    /// Whether this token runs to the end of the input without its closing
    /// delimiter: more lines may complete it.
    pub fn is_unterminated(self) -> bool {
        matches!(
            self,
            TokenKind::UnterminatedString
                | TokenKind::UnterminatedDollarString
                | TokenKind::UnterminatedQuotedIdent
                | TokenKind::UnterminatedBlockComment
        )
    }

    /// How the kind is named in messages: the punctuation itself, or a word
    /// for a class of tokens.
    pub fn describe(self) -> &'static str {
        match self {
            TokenKind::Keyword(k) => k.as_str(),
            TokenKind::Ident => "identifier",
            TokenKind::QuotedIdent => "quoted identifier",
            TokenKind::String | TokenKind::DollarString => "string",
            TokenKind::Integer => "integer",
            TokenKind::Float => "float",
            TokenKind::Duration => "duration",
            TokenKind::Uuid => "uuid",
            TokenKind::Hex => "blob",
            TokenKind::Boolean => "boolean",
            TokenKind::LParen => "'('",
            TokenKind::RParen => "')'",
            TokenKind::Comma => "','",
            TokenKind::Semicolon => "';'",
            TokenKind::Dot => "'.'",
            TokenKind::DotDot => "'..'",
            TokenKind::Star => "'*'",
            TokenKind::LBracket => "'['",
            TokenKind::RBracket => "']'",
            TokenKind::LBrace => "'{'",
            TokenKind::RBrace => "'}'",
            TokenKind::Colon => "':'",
            TokenKind::Question => "'?'",
            TokenKind::Eq => "'='",
            TokenKind::Ne => "'!='",
            TokenKind::Lt => "'<'",
            TokenKind::Le => "'<='",
            TokenKind::Gt => "'>'",
            TokenKind::Ge => "'>='",
            TokenKind::Plus => "'+'",
            TokenKind::Minus => "'-'",
            TokenKind::Slash => "'/'",
            TokenKind::Percent => "'%'",
            TokenKind::PlusEq => "'+='",
            TokenKind::MinusEq => "'-='",
            TokenKind::LineComment | TokenKind::BlockComment => "comment",
            TokenKind::UnterminatedString => "unterminated string",
            TokenKind::UnterminatedDollarString => "unterminated $$ string",
            TokenKind::UnterminatedQuotedIdent => "unterminated quoted identifier",
            TokenKind::UnterminatedBlockComment => "unterminated comment",
            TokenKind::Invalid => "invalid character",
        }
    }
}

/// One token: its kind and where it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// What the token is.
    pub kind: TokenKind,
    /// Where it is in the lexed text.
    pub span: Span,
}

impl Token {
    /// The token's text.
    pub fn text<'a>(&self, source: &'a str) -> &'a str {
        &source[self.span.range()]
    }
}

/// The raw scanner generated by logos. It recognises shapes; [`Lexer`]
/// turns words into keywords, booleans and ISO durations afterwards, which
/// keeps the state machine small and the keyword table in one place.
#[derive(Logos, Debug, Clone, Copy, PartialEq)]
#[logos(skip r"[ \t\r\n]+")]
enum Raw {
    #[regex(r"[A-Za-z][A-Za-z0-9_]*")]
    Word,
    #[regex(r"-[A-Za-z][A-Za-z0-9_]*")]
    NegWord,
    #[regex(r"-?[0-9]+", integer_or_trailing_dot_float)]
    Number(bool),
    #[regex(r"-?[0-9]+\.[0-9]+([eE][+-]?[0-9]+)?")]
    #[regex(r"-?[0-9]+[eE][+-]?[0-9]+")]
    Float,
    #[regex(r"-?([0-9]+([yYwWdDhHmMsS]|[mM][oOsS]|[uU][sS]|µs|µS|[nN][sS]))+")]
    Duration,
    #[regex(r"-?P[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]")]
    IsoAltDuration,
    #[regex(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")]
    Uuid,
    #[regex(r"0[xX][0-9a-fA-F]*")]
    Hex,
    #[token("'", quoted_string)]
    String(bool),
    #[token("$$", dollar_string)]
    Dollar(bool),
    #[token("\"", quoted_name)]
    Quoted(bool),
    #[regex(r"--[^\r\n]*", allow_greedy = true)]
    #[regex(r"//[^\r\n]*", allow_greedy = true)]
    LineComment,
    #[token("/*", block_comment)]
    BlockComment(bool),
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token(",")]
    Comma,
    #[token(";")]
    Semicolon,
    #[token(".")]
    Dot,
    #[token("..")]
    DotDot,
    #[token("*")]
    Star,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token(":")]
    Colon,
    #[token("?")]
    Question,
    #[token("=")]
    Eq,
    #[token("!=")]
    Ne,
    #[token("<")]
    Lt,
    #[token("<=")]
    Le,
    #[token(">")]
    Gt,
    #[token(">=")]
    Ge,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("+=")]
    PlusEq,
    #[token("-=")]
    MinusEq,
}

/// `1.` and `1.e5` are floats in CQL, but `1..3` is `1`, `..`, `3`. A regular
/// expression cannot look ahead past the dot, so the integer rule extends
/// itself here. Returns whether the token became a float.
fn integer_or_trailing_dot_float(lex: &mut logos::Lexer<Raw>) -> bool {
    let rest = lex.remainder().as_bytes();
    if rest.first() != Some(&b'.') || rest.get(1) == Some(&b'.') {
        return false;
    }
    let mut len = 1;
    if matches!(rest.get(1), Some(b'e' | b'E')) {
        let mut i = 2;
        if matches!(rest.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let digits = rest[i.min(rest.len())..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits > 0 {
            len = i + digits;
        }
    }
    lex.bump(len);
    true
}

/// Scans a `'…'` body where `''` stands for one quote. Returns whether the
/// closing quote was found; if not, the token runs to the end of input.
fn quoted_string(lex: &mut logos::Lexer<Raw>) -> bool {
    close_doubled_quote(lex, b'\'')
}

fn quoted_name(lex: &mut logos::Lexer<Raw>) -> bool {
    close_doubled_quote(lex, b'"')
}

fn close_doubled_quote(lex: &mut logos::Lexer<Raw>, quote: u8) -> bool {
    let rest = lex.remainder().as_bytes();
    match find_closing_quote(rest, quote) {
        Some(end) => {
            lex.bump(end + 1);
            true
        }
        None => {
            lex.bump(rest.len());
            false
        }
    }
}

/// Offset of the quote that closes a quoted token whose body starts at
/// `body[0]`, skipping doubled quotes.
pub(crate) fn find_closing_quote(body: &[u8], quote: u8) -> Option<usize> {
    let mut i = 0;
    while let Some(pos) = memchr::memchr(quote, &body[i..]) {
        let at = i + pos;
        if body.get(at + 1) == Some(&quote) {
            i = at + 2;
        } else {
            return Some(at);
        }
    }
    None
}

fn dollar_string(lex: &mut logos::Lexer<Raw>) -> bool {
    close_with(lex, "$$")
}

fn block_comment(lex: &mut logos::Lexer<Raw>) -> bool {
    close_with(lex, "*/")
}

fn close_with(lex: &mut logos::Lexer<Raw>, closer: &str) -> bool {
    let rest = lex.remainder();
    match rest.find(closer) {
        Some(at) => {
            lex.bump(at + closer.len());
            true
        }
        None => {
            lex.bump(rest.len());
            false
        }
    }
}

/// Whether an unquoted word is an ISO 8601 duration in the form Cassandra's
/// lexer accepts: `P[nY][nM][nD][T[nH][nM][nS]]` with at least one element,
/// or `PnW`. The letters are upper case only.
pub(crate) fn is_iso_duration(word: &str) -> bool {
    let Some(body) = word.strip_prefix('P') else {
        return false;
    };
    let (date, time) = match body.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (body, None),
    };
    if time.is_none() && is_number_then(date, "W") {
        return true;
    }
    let date_ok = date.is_empty() || units_in_order(date, &["Y", "M", "D"]);
    let time_ok = match time {
        None => true,
        Some(t) => !t.is_empty() && units_in_order(t, &["H", "M", "S"]),
    };
    date_ok && time_ok && (!date.is_empty() || time.is_some())
}

fn is_number_then(text: &str, unit: &str) -> bool {
    text.strip_suffix(unit)
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

fn units_in_order(mut text: &str, units: &[&str]) -> bool {
    let mut next_unit = 0;
    while !text.is_empty() {
        let digits = text.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return false;
        }
        let unit = &text[digits..digits + 1.min(text.len() - digits)];
        match units[next_unit..].iter().position(|u| *u == unit) {
            Some(found) => next_unit += found + 1,
            None => return false,
        }
        text = &text[digits + unit.len()..];
    }
    true
}

fn classify_word(word: &str) -> TokenKind {
    if let Some(keyword) = Keyword::lookup(word) {
        return TokenKind::Keyword(keyword);
    }
    if is_boolean(word) {
        return TokenKind::Boolean;
    }
    // Only an upper-case `P` can start an ISO duration; testing it here
    // keeps ordinary names out of the duration parser.
    if word.starts_with('P') && is_iso_duration(word) {
        return TokenKind::Duration;
    }
    TokenKind::Ident
}

/// `true` or `false` in any case. The length picks the one word to compare
/// with, so most names cost a single length test.
fn is_boolean(word: &str) -> bool {
    match word.len() {
        4 => word.eq_ignore_ascii_case("true"),
        5 => word.eq_ignore_ascii_case("false"),
        _ => false,
    }
}

/// The bytes that continue a word, `[A-Za-z0-9_]`, as a table: the quick
/// path tests one per byte of every name and keyword.
const WORD_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < table.len() {
        table[b] = (b as u8).is_ascii_alphanumeric() || b as u8 == b'_';
        b += 1;
    }
    table
};

/// An iterator over the tokens of a text, comments included.
///
/// The commonest tokens — names and keywords, strings, plain numbers, most
/// punctuation — are read by hand, which is several times quicker than the generated
/// scanner; anything else, and any word that a longer token might swallow,
/// goes to the logos scanner, whose rules stay the definition of every
/// token.
pub struct Lexer<'a> {
    source: &'a str,
    /// Where the next token (or the white space before it) starts.
    pos: usize,
    pending: Option<Token>,
}

impl<'a> Lexer<'a> {
    /// Starts lexing `source` from its beginning.
    pub fn new(source: &'a str) -> Lexer<'a> {
        Lexer {
            source,
            pos: 0,
            pending: None,
        }
    }

    /// Skips what the scanner's `skip` rule skips: spaces, tabs and line
    /// breaks, nothing else.
    fn skip_white_space(&mut self) {
        let bytes = self.source.as_bytes();
        while matches!(bytes.get(self.pos), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.pos += 1;
        }
    }

    /// The token at `self.pos` if it is one of the common, unambiguous
    /// shapes, as its kind and length; `None` sends it to the scanner.
    ///
    /// In line, with [`Iterator::next`]: a token is then built and stored
    /// where its consumer keeps it, where returned through memory from
    /// each call its parts were stored one by one and copied whole just
    /// after, a copy the processor cannot forward from those stores (a
    /// sampling profile put half of collecting a statement's tokens on
    /// it; parsing W5's statements, about 5% faster).
    #[inline(always)]
    fn quick(&self) -> Option<(TokenKind, usize)> {
        let rest = &self.source.as_bytes()[self.pos..];
        let single = |kind| Some((kind, 1));
        let maybe_eq = |plain, with_eq| match rest.get(1) {
            Some(b'=') => Some((with_eq, 2)),
            _ => Some((plain, 1)),
        };
        match rest.first()? {
            b'A'..=b'Z' | b'a'..=b'z' => self.quick_word(rest),
            b'0'..=b'9' => quick_number(rest),
            b'-' if rest.get(1).is_some_and(u8::is_ascii_digit) => quick_number(rest),
            b'\'' => Some(quick_string(rest)),
            b'(' => single(TokenKind::LParen),
            b')' => single(TokenKind::RParen),
            b',' => single(TokenKind::Comma),
            b';' => single(TokenKind::Semicolon),
            b'*' => single(TokenKind::Star),
            b'[' => single(TokenKind::LBracket),
            b']' => single(TokenKind::RBracket),
            b'{' => single(TokenKind::LBrace),
            b'}' => single(TokenKind::RBrace),
            b':' => single(TokenKind::Colon),
            b'?' => single(TokenKind::Question),
            b'=' => single(TokenKind::Eq),
            b'%' => single(TokenKind::Percent),
            b'<' => maybe_eq(TokenKind::Lt, TokenKind::Le),
            b'>' => maybe_eq(TokenKind::Gt, TokenKind::Ge),
            b'+' => maybe_eq(TokenKind::Plus, TokenKind::PlusEq),
            b'.' => match rest.get(1) {
                Some(b'.') => Some((TokenKind::DotDot, 2)),
                _ => single(TokenKind::Dot),
            },
            _ => None,
        }
    }

    /// A word, unless a `-` follows it: only then can a longer token start
    /// with it (a UUID such as `deadbeef-…`, a duration such as
    /// `P0001-02-03T…`), and the scanner decides.
    fn quick_word(&self, rest: &[u8]) -> Option<(TokenKind, usize)> {
        let len = rest
            .iter()
            .position(|b| !WORD_BYTES[usize::from(*b)])
            .unwrap_or(rest.len());
        if rest.get(len) == Some(&b'-') {
            return None;
        }
        let word = &self.source[self.pos..self.pos + len];
        Some((classify_word(word), len))
    }

    /// The next token by the logos scanner, which knows every rule. Kept
    /// out of line: the scanner is large, and inlined it would crowd the
    /// registers of the quick path.
    #[inline(never)]
    fn scanned(&mut self) -> Option<Token> {
        let mut raw = Raw::lexer(&self.source[self.pos..]);
        let result = raw.next()?;
        let found = raw.span();
        let span = Span::new(self.pos + found.start, self.pos + found.end);
        self.pos = span.end;
        Some(self.token(result, span))
    }

    fn token(&mut self, raw: Result<Raw, ()>, span: Span) -> Token {
        let text = &self.source[span.range()];
        let kind = match raw {
            Err(()) => TokenKind::Invalid,
            Ok(Raw::Word) => classify_word(text),
            Ok(Raw::NegWord) => return self.negative_word(text, span),
            Ok(Raw::Number(true)) | Ok(Raw::Float) => TokenKind::Float,
            Ok(Raw::Number(false)) => TokenKind::Integer,
            Ok(Raw::Duration) | Ok(Raw::IsoAltDuration) => TokenKind::Duration,
            Ok(Raw::Uuid) => TokenKind::Uuid,
            Ok(Raw::Hex) => TokenKind::Hex,
            Ok(Raw::String(true)) => TokenKind::String,
            Ok(Raw::String(false)) => TokenKind::UnterminatedString,
            Ok(Raw::Dollar(true)) => TokenKind::DollarString,
            Ok(Raw::Dollar(false)) => TokenKind::UnterminatedDollarString,
            Ok(Raw::Quoted(true)) => TokenKind::QuotedIdent,
            Ok(Raw::Quoted(false)) => TokenKind::UnterminatedQuotedIdent,
            Ok(Raw::LineComment) => TokenKind::LineComment,
            Ok(Raw::BlockComment(true)) => TokenKind::BlockComment,
            Ok(Raw::BlockComment(false)) => TokenKind::UnterminatedBlockComment,
            Ok(Raw::LParen) => TokenKind::LParen,
            Ok(Raw::RParen) => TokenKind::RParen,
            Ok(Raw::Comma) => TokenKind::Comma,
            Ok(Raw::Semicolon) => TokenKind::Semicolon,
            Ok(Raw::Dot) => TokenKind::Dot,
            Ok(Raw::DotDot) => TokenKind::DotDot,
            Ok(Raw::Star) => TokenKind::Star,
            Ok(Raw::LBracket) => TokenKind::LBracket,
            Ok(Raw::RBracket) => TokenKind::RBracket,
            Ok(Raw::LBrace) => TokenKind::LBrace,
            Ok(Raw::RBrace) => TokenKind::RBrace,
            Ok(Raw::Colon) => TokenKind::Colon,
            Ok(Raw::Question) => TokenKind::Question,
            Ok(Raw::Eq) => TokenKind::Eq,
            Ok(Raw::Ne) => TokenKind::Ne,
            Ok(Raw::Lt) => TokenKind::Lt,
            Ok(Raw::Le) => TokenKind::Le,
            Ok(Raw::Gt) => TokenKind::Gt,
            Ok(Raw::Ge) => TokenKind::Ge,
            Ok(Raw::Plus) => TokenKind::Plus,
            Ok(Raw::Minus) => TokenKind::Minus,
            Ok(Raw::Slash) => TokenKind::Slash,
            Ok(Raw::Percent) => TokenKind::Percent,
            Ok(Raw::PlusEq) => TokenKind::PlusEq,
            Ok(Raw::MinusEq) => TokenKind::MinusEq,
        };
        Token { kind, span }
    }

    /// `-NaN`, `-Infinity` and `-P1D` are single tokens; any other `-word`
    /// is a minus sign followed by the word.
    fn negative_word(&mut self, text: &str, span: Span) -> Token {
        let word = &text[1..];
        let kind = if word.eq_ignore_ascii_case("nan") || word.eq_ignore_ascii_case("infinity") {
            Some(TokenKind::Float)
        } else if is_iso_duration(word) {
            Some(TokenKind::Duration)
        } else {
            None
        };
        match kind {
            Some(kind) => Token { kind, span },
            None => {
                self.pending = Some(Token {
                    kind: classify_word(word),
                    span: Span::new(span.start + 1, span.end),
                });
                Token {
                    kind: TokenKind::Minus,
                    span: Span::new(span.start, span.start + 1),
                }
            }
        }
    }
}

impl Iterator for Lexer<'_> {
    type Item = Token;

    /// In line, with the quick path (`Lexer::quick`, which says why).
    #[inline(always)]
    fn next(&mut self) -> Option<Token> {
        if let Some(token) = self.pending.take() {
            return Some(token);
        }
        self.skip_white_space();
        if self.pos == self.source.len() {
            // Nothing left: not worth starting the scanner to say so.
            return None;
        }
        match self.quick() {
            Some((kind, len)) => {
                let span = Span::new(self.pos, self.pos + len);
                self.pos = span.end;
                Some(Token { kind, span })
            }
            None => self.scanned(),
        }
    }
}

/// The first token of `source`, as [`Lexer`] reads it: a quicker start
/// for reading one token where one is expected, such as a constant in a
/// statement of a known shape. A string or a plain number at the very
/// start is read at once; anything else by a lexer. These are the quick
/// path's arms for constants, picked out: going through `Lexer::quick`,
/// whose dispatch covers every kind of token, cost about 500 instructions
/// more per statement of a load. Inlined, as a call of its own per
/// constant cost a load's statement some 200 instructions more.
#[inline]
pub(crate) fn first_token(source: &str) -> Option<Token> {
    let rest = source.as_bytes();
    let quick = match rest.first()? {
        b'\'' => Some(quick_string(rest)),
        b'0'..=b'9' => quick_number(rest),
        b'-' if rest.get(1).is_some_and(u8::is_ascii_digit) => quick_number(rest),
        _ => None,
    };
    match quick {
        Some((kind, len)) => Some(Token {
            kind,
            span: Span::new(0, len),
        }),
        None => Lexer::new(source).next(),
    }
}

/// A `'…'` string at the start of `rest`, closed or running to the end of
/// the input, as the scanner's `quoted_string` callback reads it.
fn quick_string(rest: &[u8]) -> (TokenKind, usize) {
    match find_closing_quote(&rest[1..], b'\'') {
        Some(end) => (TokenKind::String, end + 2),
        None => (TokenKind::UnterminatedString, rest.len()),
    }
}

/// A plain decimal number at the start of `rest` — `-`? digits, then
/// optionally `.` digits, then optionally `[eE][+-]?` digits — as the
/// scanner kinds it: an integer unless it has a fraction or an exponent.
/// Only taken when the byte after it ends every token that could start
/// here; a letter, dot, dash or anything unusual after it (`1h`, `1.`,
/// `1e`, `123e4567-…`, `0x1f`) leaves the number to the scanner.
fn quick_number(rest: &[u8]) -> Option<(TokenKind, usize)> {
    let sign = usize::from(rest.first() == Some(&b'-'));
    let mut len = sign + leading_digits(&rest[sign..]);
    let mut kind = TokenKind::Integer;
    if rest.get(len) == Some(&b'.') {
        let fraction = leading_digits(&rest[len + 1..]);
        if fraction > 0 {
            len += 1 + fraction;
            kind = TokenKind::Float;
        }
    }
    if matches!(rest.get(len), Some(b'e' | b'E')) {
        let mut at = len + 1;
        if matches!(rest.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        let exponent = leading_digits(&rest[at..]);
        if exponent > 0 {
            len = at + exponent;
            kind = TokenKind::Float;
        }
    }
    ends_number(rest.get(len).copied()).then_some((kind, len))
}

/// How many ASCII digits `bytes` starts with.
fn leading_digits(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|b| b.is_ascii_digit()).count()
}

/// Whether a number may end before `next`: white space the scanner skips,
/// closing punctuation, a comma, a semicolon or the end of input. No token
/// that starts with a digit or `-digit` continues with any of these.
fn ends_number(next: Option<u8>) -> bool {
    matches!(
        next,
        None | Some(b' ' | b'\t' | b'\r' | b'\n' | b',' | b')' | b';' | b']' | b'}')
    )
}

/// All tokens of `source`, comments included.
pub fn tokenize(source: &str) -> Vec<Token> {
    Lexer::new(source).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(source: &str) -> Vec<TokenKind> {
        tokenize(source).into_iter().map(|t| t.kind).collect()
    }

    fn texts(source: &str) -> Vec<&str> {
        tokenize(source)
            .into_iter()
            .map(|t| &source[t.span.range()])
            .collect()
    }

    use TokenKind as K;

    #[test]
    fn keywords_are_case_insensitive_and_aliases_fold() {
        assert_eq!(
            kinds("SeLeCt columnfamily SCHEMA"),
            vec![
                K::Keyword(Keyword::Select),
                K::Keyword(Keyword::Table),
                K::Keyword(Keyword::Keyspace)
            ]
        );
    }

    #[test]
    fn numbers_follow_cassandra_longest_match() {
        assert_eq!(kinds("12h30m"), vec![K::Duration]);
        assert_eq!(kinds("1e5"), vec![K::Float]);
        assert_eq!(kinds("1mo"), vec![K::Duration]);
        assert_eq!(kinds("1e"), vec![K::Integer, K::Ident]);
        assert_eq!(kinds("0x1f"), vec![K::Hex]);
        assert_eq!(kinds("0x"), vec![K::Hex]);
        assert_eq!(kinds("123e4567-e89b-12d3-a456-426614174000"), vec![K::Uuid]);
        assert_eq!(kinds("1..3"), vec![K::Integer, K::DotDot, K::Integer]);
        assert_eq!(kinds("1."), vec![K::Float]);
        assert_eq!(kinds("1.e5"), vec![K::Float]);
        assert_eq!(kinds("-2.5E-3"), vec![K::Float]);
        assert_eq!(kinds("1µs"), vec![K::Duration]);
        assert_eq!(texts("x = x -1"), vec!["x", "=", "x", "-1"]);
    }

    #[test]
    fn iso_durations_are_words_in_upper_case_only() {
        assert_eq!(kinds("P1D PT5M P2W P1Y2M3DT4H5M6S"), vec![K::Duration; 4]);
        assert_eq!(kinds("p1d P PT"), vec![K::Ident; 3]);
        assert_eq!(kinds("P0001-02-03T04:05:06"), vec![K::Duration]);
        assert_eq!(kinds("-P1D"), vec![K::Duration]);
    }

    #[test]
    fn float_specials_and_negative_words() {
        assert_eq!(
            kinds("NaN -NaN Infinity -infinity"),
            vec![
                K::Keyword(Keyword::Nan),
                K::Float,
                K::Keyword(Keyword::Infinity),
                K::Float
            ]
        );
        assert_eq!(kinds("a-b"), vec![K::Ident, K::Minus, K::Ident]);
    }

    #[test]
    fn strings_and_names_with_doubled_quotes() {
        assert_eq!(texts("'it''s' \"a\"\"b\""), vec!["'it''s'", "\"a\"\"b\""]);
        assert_eq!(kinds("$$ a;b $$"), vec![K::DollarString]);
    }

    #[test]
    fn unterminated_tokens_are_their_own_kinds() {
        assert_eq!(kinds("'abc"), vec![K::UnterminatedString]);
        assert_eq!(kinds("$$abc"), vec![K::UnterminatedDollarString]);
        assert_eq!(kinds("\"abc"), vec![K::UnterminatedQuotedIdent]);
        assert_eq!(kinds("/* abc"), vec![K::UnterminatedBlockComment]);
    }

    #[test]
    fn comments_and_invalid_characters() {
        assert_eq!(
            kinds("a -- x\n/* y */ // z\n@"),
            vec![
                K::Ident,
                K::LineComment,
                K::BlockComment,
                K::LineComment,
                K::Invalid
            ]
        );
    }

    #[test]
    fn punctuation() {
        assert_eq!(
            kinds("<= >= != += -= .. ."),
            vec![
                K::Le,
                K::Ge,
                K::Ne,
                K::PlusEq,
                K::MinusEq,
                K::DotDot,
                K::Dot
            ]
        );
    }

    #[test]
    fn booleans_are_not_names() {
        assert_eq!(kinds("TRUE false"), vec![K::Boolean, K::Boolean]);
    }

    /// Every token as the logos scanner alone reads it: the definition the
    /// hand-read shortcuts must agree with.
    fn scanned_only(source: &str) -> Vec<Token> {
        let mut lexer = Lexer::new(source);
        let mut out = Vec::new();
        while let Some(token) = lexer.pending.take().or_else(|| lexer.scanned()) {
            out.push(token);
        }
        out
    }

    /// A UUID whose first group reads as a number with an exponent up to
    /// the first dash.
    const UUID_LIKE: &str = "123e4567-e89b-12d3-a456-426614174000";

    /// Pieces whose neighbours change how they lex: word characters that
    /// start UUIDs and durations, numbers of every shape (so that each is
    /// also glued to letters, dots, dashes and punctuation), quotes, doubled
    /// punctuation, comments.
    fn piece() -> impl proptest::strategy::Strategy<Value = &'static str> {
        proptest::sample::select(vec![
            "a", "P", "e", "x", "Z", "_", "0", "1", "9", "-", "+", "=", "<", ">", "!", ".", ",",
            ";", ":", "?", "*", "/", "%", "(", ")", "[", "]", "{", "}", "'", "\"", "$", "$$", " ",
            "\t", "\n", "\r", "\u{c}", "µ", "é", "@", "select", "NaN", "true", "P1D", "deadbeef",
            "-12", "1.5", "0x1f", "'it''s'", "--", "/*", "*/", "E", "h", "m", "o", "s", "d", "42",
            "007", "-7", "-0", "3.14", "-0.5", "1e5", "1E+5", "2.5e-3", "-1e10", "1.", "1.e5",
            "1..2", "1e", "1e+", "1.5.", "9e9e9", "12345678", "123e4567", UUID_LIKE, "1h30m",
            "5mo", "-3d", "1µs", "0X1F", "1a", "1_", "1-2", "1,2", "(1)", "-1;", "[1]", "{2}",
            "-.",
        ])
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(4000))]

        #[test]
        fn shortcuts_read_every_token_as_the_scanner_does(
            pieces in proptest::collection::vec(piece(), 0..24),
        ) {
            let text = pieces.concat();
            proptest::prop_assert_eq!(tokenize(&text), scanned_only(&text), "{:?}", text);
        }

        #[test]
        fn first_token_is_the_lexers_first(
            pieces in proptest::collection::vec(piece(), 0..6),
        ) {
            let text = pieces.concat();
            proptest::prop_assert_eq!(first_token(&text), Lexer::new(&text).next(), "{:?}", text);
        }
    }

    /// What the quick number path takes, as kind and length, or `None`
    /// for what it leaves to the scanner.
    fn quick_at_start(source: &str) -> Option<(TokenKind, usize)> {
        Lexer::new(source).quick()
    }

    #[test]
    fn quick_path_takes_only_numbers_that_end_cleanly() {
        assert_eq!(quick_at_start("-5,"), Some((K::Integer, 2)));
        assert_eq!(quick_at_start("1.5)"), Some((K::Float, 3)));
        assert_eq!(quick_at_start("1e5"), Some((K::Float, 3)));
        assert_eq!(quick_at_start("-2.5E-3;"), Some((K::Float, 7)));
        for left in "1. 1..2 1e 1h 5mo 0x1f 1_ 1-2 123e4567-e89b".split_whitespace() {
            assert_eq!(quick_at_start(left), None, "{left}");
        }
    }

    #[test]
    fn shortcuts_leave_uuids_and_iso_durations_to_the_scanner() {
        let uuid = "deadbeef-e89b-12d3-a456-426614174000";
        assert_eq!(kinds(uuid), vec![K::Uuid]);
        assert_eq!(kinds("P0001-02-03T04:05:06"), vec![K::Duration]);
        assert_eq!(tokenize("a-b"), scanned_only("a-b"));
    }
}
