//! The grammar's optional parts — a clause that may be left out, a list's
//! next item — as nom's `opt` and `separated_list*`, but telling the
//! [`Tracker`](super::input::Tracker) when one is passed over without
//! consuming anything. What such a part expected is then not what the
//! statement needed: ANTLR's LL(1) decisions skip it silently, and the
//! error names the token a required part wanted ("mismatched input
//! '<EOF>' expecting K_WHERE" after `UPDATE t SET a = 1`, not a list that
//! also holds `,` and `+`).

use nom::Parser;

use super::input::{ExpectedSet, PError, PResult, Tokens};

/// `p`, or nothing.
pub(crate) fn opt<'a, O>(
    mut p: impl Parser<Tokens<'a>, Output = O, Error = PError>,
) -> impl Parser<Tokens<'a>, Output = Option<O>, Error = PError> {
    move |i: Tokens<'a>| -> PResult<'a, Option<O>> {
        let mark = i.tracker().mark();
        match p.parse(i) {
            Ok((rest, o)) => Ok((rest, Some(o))),
            Err(nom::Err::Error(_)) => {
                i.tracker().declined(mark, i.start);
                Ok((i, None))
            }
            Err(e) => Err(e),
        }
    }
}

/// One or more `item`s with `sep` between them.
pub(crate) fn separated_list1<'a, O, S>(
    mut sep: impl Parser<Tokens<'a>, Output = S, Error = PError>,
    mut item: impl Parser<Tokens<'a>, Output = O, Error = PError>,
) -> impl Parser<Tokens<'a>, Output = Vec<O>, Error = PError> {
    move |i: Tokens<'a>| -> PResult<'a, Vec<O>> {
        let (mut i, first) = item.parse(i)?;
        let mut items = vec![first];
        loop {
            let mark = i.tracker().mark();
            let after_sep = match sep.parse(i) {
                Ok((rest, _)) => rest,
                Err(nom::Err::Error(_)) => {
                    i.tracker().declined(mark, i.start);
                    return Ok((i, items));
                }
                Err(e) => return Err(e),
            };
            match item.parse(after_sep) {
                Ok((rest, next)) => {
                    items.push(next);
                    i = rest;
                }
                // As nom's: the list ends before a separator that no item
                // follows; what the item expected stays on record.
                Err(nom::Err::Error(_)) => return Ok((i, items)),
                Err(e) => return Err(e),
            }
        }
    }
}

/// Zero or more `item`s with `sep` between them.
pub(crate) fn separated_list0<'a, O, S>(
    sep: impl Parser<Tokens<'a>, Output = S, Error = PError>,
    item: impl Parser<Tokens<'a>, Output = O, Error = PError>,
) -> impl Parser<Tokens<'a>, Output = Vec<O>, Error = PError> {
    let mut list = opt(separated_list1(sep, item));
    move |i: Tokens<'a>| -> PResult<'a, Vec<O>> {
        let (rest, items) = list.parse(i)?;
        Ok((rest, items.unwrap_or_default()))
    }
}

/// Zero or more `item`s, one after another.
pub(crate) fn many0<'a, O>(
    item: impl Parser<Tokens<'a>, Output = O, Error = PError>,
) -> impl Parser<Tokens<'a>, Output = Vec<O>, Error = PError> {
    let mut next = opt(item);
    move |mut i: Tokens<'a>| -> PResult<'a, Vec<O>> {
        let mut items = Vec::new();
        loop {
            match next.parse(i)? {
                (rest, Some(found)) if rest.start > i.start => {
                    items.push(found);
                    i = rest;
                }
                _ => return Ok((i, items)),
            }
        }
    }
}

/// Records `set` as what an optional part expected at `i`, which did not
/// follow: for the productions that look ahead by hand.
pub(crate) fn passed_over(i: Tokens<'_>, set: ExpectedSet) {
    let mark = i.tracker().mark();
    i.expected::<()>(set).ok();
    i.tracker().declined(mark, i.start);
}
