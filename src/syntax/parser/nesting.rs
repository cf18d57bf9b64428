//! Refusing statements too deep to handle, before the parser sees them.
//!
//! Two things recurse once per level of a statement's structure: the parser,
//! through brackets and through type hints (`(int) (int) ?` reads each hint
//! by calling itself), and everything that walks the finished tree —
//! printing, comparing, cloning, dropping, later stages. The tree grows
//! deeper than the brackets alone suggest: `a + b + c` is two `Binary` nodes
//! deep, `m[1][2]` two `Sub` nodes, `x.f.g` two field accesses. A long
//! enough chain would exhaust the stack without a single bracket, so the
//! check bounds both depths from the tokens alone:
//!
//! * brackets and type hints to [`super::MAX_NESTING`], as the parser recurses
//!   through them;
//! * brackets and chain links (operators, `.`, `[`, type hints) to
//!   [`MAX_EXPRESSION_DEPTH`], as the tree deepens through them.
//!
//! Counting tokens mostly over-estimates both depths (a `.` in `ks.t`
//! counts, a right operand is not below every operator of its chain), which
//! only matters for statements no one writes. The few nodes no token marks,
//! such as a term wrapped as a selector, add a level or two at most.

use super::super::keyword::Keyword;
use super::super::lexer::{Token, TokenKind};
use super::cassandra_position;
use crate::error::Error;

/// How deep a statement's tree may grow through brackets and chains of
/// operators, field accesses, subscripts and type hints. Far beyond any
/// statement written by hand, yet shallow enough that walking the tree by
/// recursion fits in a 2 MiB thread stack even in a debug build.
const MAX_EXPRESSION_DEPTH: usize = 128;

/// The statement itself, or one open bracket, while the check reads it.
/// Its counts cover the element being read: since the bracket opened or since
/// the last separator (`,`, `=`, `AND`, …), whichever came last.
#[derive(Default)]
struct Level {
    /// Whether `<` opened it, so that `>` closes it rather than compares.
    angle: bool,
    /// Chain links in the element: each may put one node above the last.
    links: usize,
    /// Type hints in the element: the parser reads each by recursion.
    hints: usize,
    /// The depth of the deepest bracket closed within the element.
    inner: usize,
    /// The depth of the deepest earlier element of this level.
    deepest: usize,
}

impl Level {
    fn depth(&self) -> usize {
        self.links + self.inner
    }
}

/// The open levels, with their counts summed as they change: the check runs
/// before every parse, so it must not walk the levels at every token.
struct Levels {
    open: Vec<Level>,
    /// Brackets and type hints on the way down to the current token.
    nesting: usize,
    /// Brackets and chain links on the way down: how deep the tree may be.
    depth: usize,
}

impl Levels {
    fn new() -> Levels {
        let mut open = Vec::with_capacity(8);
        open.push(Level::default());
        Levels {
            open,
            nesting: 0,
            depth: 0,
        }
    }

    fn top(&mut self) -> &mut Level {
        // The statement's own level is never closed; should a stray close
        // get past the parser, a fresh level stands in rather than a panic.
        if self.open.is_empty() {
            self.open.push(Level::default());
        }
        let last = self.open.len() - 1;
        &mut self.open[last]
    }

    fn is_nested(&self) -> bool {
        self.open.len() > 1
    }

    fn in_angle(&self) -> bool {
        self.is_nested() && self.open.last().is_some_and(|l| l.angle)
    }

    fn link(&mut self) {
        self.top().links += 1;
        self.depth += 1;
    }

    fn hint(&mut self) {
        self.top().hints += 1;
        self.nesting += 1;
        self.link();
    }

    fn open(&mut self, angle: bool) {
        self.open.push(Level {
            angle,
            ..Level::default()
        });
        self.nesting += 1;
        self.depth += 1;
    }

    /// Closes the innermost bracket: it is one node below the element it
    /// sits in.
    fn close(&mut self) {
        let Some(closed) = self.open.pop() else {
            return;
        };
        self.nesting -= 1 + closed.hints;
        self.depth -= 1 + closed.depth();
        let below = 1 + closed.deepest.max(closed.depth());
        let level = self.top();
        if below > level.inner {
            let grown = below - level.inner;
            level.inner = below;
            self.depth += grown;
        }
    }

    /// Ends the current element: what follows is a sibling, not a descendant.
    fn separate(&mut self) {
        let level = self.top();
        let (hints, depth) = (level.hints, level.depth());
        level.deepest = level.deepest.max(depth);
        level.links = 0;
        level.hints = 0;
        level.inner = 0;
        self.nesting -= hints;
        self.depth -= depth;
    }
}

/// Refuses `tokens` when brackets and type hints nest deeper than
/// [`super::MAX_NESTING`] or the statement's tree would be deeper than
/// [`MAX_EXPRESSION_DEPTH`]. See the module documentation.
pub(super) fn check(text: &str, tokens: &[Token], max_nesting: usize) -> Result<(), Error> {
    if depth_bound(text, tokens) <= max_nesting.min(MAX_EXPRESSION_DEPTH) {
        return Ok(());
    }
    measure(text, tokens, max_nesting, MAX_EXPRESSION_DEPTH)
}

/// The check itself, token by token, against both limits.
fn measure(
    text: &str,
    tokens: &[Token],
    max_nesting: usize,
    max_depth: usize,
) -> Result<(), Error> {
    let mut levels = Levels::new();
    let mut previous: Option<TokenKind> = None;
    for token in tokens {
        let kind = token.kind;
        if previous == Some(TokenKind::RParen) && starts_operand(kind) {
            // `(type)` directly before an operand is a type hint.
            levels.hint();
        }
        match kind {
            TokenKind::LParen | TokenKind::LBrace => levels.open(false),
            TokenKind::LBracket => {
                levels.link();
                levels.open(false);
            }
            TokenKind::Lt if previous.is_some_and(takes_type_parameters) => levels.open(true),
            TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace if levels.is_nested() => {
                levels.close();
            }
            TokenKind::Gt if levels.in_angle() => levels.close(),
            TokenKind::Plus
            | TokenKind::Minus
            | TokenKind::Star
            | TokenKind::Slash
            | TokenKind::Percent
            | TokenKind::Dot => levels.link(),
            // `a -1` is `a - 1`: the sign is an operator.
            TokenKind::Integer | TokenKind::Float
                if text.as_bytes().get(token.span.start) == Some(&b'-') =>
            {
                levels.link();
            }
            _ if separates(kind) => levels.separate(),
            _ => {}
        }
        if levels.nesting > max_nesting {
            return Err(too_deep(
                text,
                token,
                format!("nesting deeper than {max_nesting} levels is not supported"),
                format!("nesting level {} starts here", levels.nesting),
            ));
        }
        if levels.depth > max_depth {
            return Err(too_deep(
                text,
                token,
                format!("expression deeper than {max_depth} levels is not supported"),
                format!("the expression is {} levels deep here", levels.depth),
            ));
        }
        previous = Some(kind);
    }
    Ok(())
}

/// A bound on both depths [`check`] measures: each token that can add a
/// level to either (a bracket, a chain link, the `)` of a type hint) counts
/// once, `[` twice (a link and a bracket), whatever closes later. Nearly
/// every statement is under the limits by this count alone, which spares
/// it the check's bookkeeping: the check runs before every parse.
fn depth_bound(text: &str, tokens: &[Token]) -> usize {
    tokens
        .iter()
        .map(|token| match token.kind {
            TokenKind::LBracket => 2,
            TokenKind::LParen
            | TokenKind::LBrace
            | TokenKind::RParen
            | TokenKind::Lt
            | TokenKind::Plus
            | TokenKind::Minus
            | TokenKind::Star
            | TokenKind::Slash
            | TokenKind::Percent
            | TokenKind::Dot => 1,
            TokenKind::Integer | TokenKind::Float
                if text.as_bytes().get(token.span.start) == Some(&b'-') =>
            {
                1
            }
            _ => 0,
        })
        .sum()
}

/// Type keywords whose `<` opens type parameters.
fn takes_type_parameters(kind: TokenKind) -> bool {
    matches!(
        kind,
        TokenKind::Keyword(
            Keyword::List
                | Keyword::Set
                | Keyword::Map
                | Keyword::Frozen
                | Keyword::Tuple
                | Keyword::Vector
        )
    )
}

/// Tokens that end an element: what follows them is a sibling in the tree.
/// A reserved keyword cannot be an operand, except the literals and `TOKEN`.
fn separates(kind: TokenKind) -> bool {
    match kind {
        kind if kind.is_comparison() => true,
        TokenKind::Comma
        | TokenKind::Semicolon
        | TokenKind::Colon
        | TokenKind::PlusEq
        | TokenKind::MinusEq => true,
        TokenKind::Keyword(k) => k.is_reserved() && !keyword_operand(k),
        _ => false,
    }
}

/// Reserved keywords that may still start an operand.
fn keyword_operand(k: Keyword) -> bool {
    matches!(
        k,
        Keyword::Null | Keyword::Nan | Keyword::Infinity | Keyword::Token
    )
}

/// Tokens that may start the operand of a type hint.
fn starts_operand(kind: TokenKind) -> bool {
    match kind {
        TokenKind::Ident
        | TokenKind::QuotedIdent
        | TokenKind::String
        | TokenKind::DollarString
        | TokenKind::Integer
        | TokenKind::Float
        | TokenKind::Duration
        | TokenKind::Uuid
        | TokenKind::Hex
        | TokenKind::Boolean
        | TokenKind::Question
        | TokenKind::Colon
        | TokenKind::LParen
        | TokenKind::LBracket
        | TokenKind::LBrace
        | TokenKind::Minus => true,
        TokenKind::Keyword(k) => !k.is_reserved() || keyword_operand(k),
        _ => false,
    }
}

fn too_deep(text: &str, token: &Token, message: String, label: String) -> Error {
    Error::syntax(format!(
        "{} {message}",
        cassandra_position(text, token.span.start)
    ))
    .with_span(token.span)
    .with_label(label)
    .with_help("flatten the expression or split the statement")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::lexer::tokenize;
    use proptest::prelude::*;

    /// Pieces that open, close, chain and separate, in any order.
    fn piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "(", ")", "[", "]", "{", "}", "<", ">", "+", "-", "*", "/", "%", ".", ",", ";", "=",
            "a", "1", "-1", "?", "int", "list", "map", "(int)", "AND", "'s'",
        ])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The shortcut is sound: whenever the bound is within the limits,
        /// the full measure accepts the statement too.
        #[test]
        fn the_bound_is_never_below_what_the_check_measures(
            pieces in prop::collection::vec(piece(), 0..80),
        ) {
            let text = pieces.join(" ");
            let tokens = tokenize(&text);
            let bound = depth_bound(&text, &tokens);
            prop_assert!(measure(&text, &tokens, bound, bound).is_ok(), "{text}");
        }
    }
}
