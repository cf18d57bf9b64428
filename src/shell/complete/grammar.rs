//! The grammar completion walks: each statement is read token by token as
//! cqlsh's grammar (`cql3handling.py`, `cqlshhandling.py`) reads it, and
//! where the tokens run out, what may come next is the answer. A walk
//! returns `Err(candidates)` at the cursor (so `?` carries the answer out of
//! nested clauses) and `Err(vec![])` on text it does not follow.

use super::ddl;
use super::names::{self, quoted};
pub(crate) use super::state::{State, R};
use super::{words, Cand};
use crate::schema::Table;
use crate::syntax::lexer::TokenKind;

/// The candidates for the statement in `p`.
pub(crate) fn statement(mut p: State<'_>) -> Vec<Cand> {
    match walk(&mut p) {
        Ok(()) => Vec::new(),
        Err(cands) => cands,
    }
}

fn walk(p: &mut State<'_>) -> R<()> {
    p.stop(words(names::STARTS))?;
    let first = p.bump().map(|t| p.text(t).to_ascii_lowercase());
    match first.as_deref().unwrap_or("") {
        "select" => select(p),
        "insert" => insert(p),
        "update" => update(p),
        "delete" => delete(p),
        "begin" => batch(p),
        "create" => ddl::create(p),
        "drop" => ddl::drop(p),
        "alter" => ddl::alter(p),
        "use" => {
            p.require_name(names::keyspaces(p.ctx))?;
            p.stop(words(&[";"]))
        }
        "truncate" => {
            let mut cands = words(&["TABLE", "COLUMNFAMILY"]);
            cands.extend(names::table_position(p.ctx));
            p.stop(cands)?;
            let _ = p.word("table") || p.word("columnfamily");
            p.table()?;
            p.stop(words(&[";"]))
        }
        "explain" => walk(p),
        word => shell_command(p, word),
    }
}

/// The shell commands' arguments (cqlsh.md §4).
fn shell_command(p: &mut State<'_>, word: &str) -> R<()> {
    let enter = || Cand::hint("<enter>");
    match word {
        "describe" | "desc" => ddl::describe(p),
        "consistency" => {
            let mut cands = words(names::LEVELS);
            cands.extend([Cand::word(";"), enter()]);
            p.stop(cands)
        }
        "serial" => {
            p.expect(&["CONSISTENCY"])?;
            p.stop(vec![
                Cand::word("SERIAL"),
                Cand::word("LOCAL_SERIAL"),
                Cand::word(";"),
                enter(),
            ])
        }
        "tracing" | "expand" | "paging" => {
            let mut cands = words(&["ON", "OFF", ";"]);
            cands.push(enter());
            if word == "paging" {
                cands.push(Cand::hint("<wholenumber>"));
            }
            p.stop(cands)
        }
        "show" => p.stop(words(&["VERSION", "HOST", "SESSION", "REPLICAS"])),
        "source" | "capture" | "save" => file_argument(p, word == "capture"),
        "help" | "?" => p.stop(words(names::HELP_TOPICS)),
        _ => Ok(()),
    }
}

fn file_argument(p: &mut State<'_>, capture: bool) -> R<()> {
    if p.at_end() && p.in_string() {
        return Err(names::files(p.partial));
    }
    let mut cands = vec![Cand::hint("<filename>")];
    if capture {
        cands.push(Cand::word("OFF"));
    }
    p.stop(cands)
}

/// What a selector list may start with (cqlsh.md §4, `SELECT `).
fn selector_start(p: &State<'_>, first: bool) -> Vec<Cand> {
    let mut cands = words(&[
        "COUNT",
        "WRITETIME",
        "MAXWRITETIME",
        "TTL",
        "CAST",
        "TOKEN",
        "NULL",
        "true",
        "false",
        "[",
        "{",
        "-",
    ]);
    if first {
        cands.extend(words(&["*", "DISTINCT", "JSON"]));
    }
    cands.extend(names::keyspace_prefixes(p.ctx));
    cands.push(Cand::hint("<colname>"));
    cands.push(Cand::hint("<identifier>"));
    cands
}

fn select(p: &mut State<'_>) -> R<()> {
    p.stop(selector_start(p, true))?;
    let _ = p.word("json");
    let _ = p.word("distinct");
    selectors(p)?;
    let table = p.table()?;
    select_clauses(p, table)
}

/// The selector list, through `FROM`.
fn selectors(p: &mut State<'_>) -> R<()> {
    let mut last: Option<TokenKind> = None;
    let mut depth = 0usize;
    loop {
        if p.at_end() {
            return Err(after_selector(p, last, depth));
        }
        let token = p.bump().ok_or_else(Vec::new)?;
        match token.kind {
            TokenKind::Keyword(_) if depth == 0 && p.text(token).eq_ignore_ascii_case("from") => {
                return Ok(())
            }
            TokenKind::LParen | TokenKind::LBracket | TokenKind::LBrace => depth += 1,
            TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace => {
                depth = depth.saturating_sub(1)
            }
            _ => {}
        }
        last = Some(if p.text(token).eq_ignore_ascii_case("as") {
            TokenKind::Colon
        } else {
            token.kind
        });
    }
}

fn after_selector(p: &State<'_>, last: Option<TokenKind>, depth: usize) -> Vec<Cand> {
    match last {
        None => selector_start(p, true),
        Some(TokenKind::Comma | TokenKind::LParen) => selector_start(p, false),
        Some(TokenKind::Colon) => vec![Cand::hint("<alias>")],
        Some(TokenKind::Star) if depth == 0 => words(&["FROM"]),
        Some(_) if depth > 0 => words(&[",", ")"]),
        Some(_) => words(&[",", "AS", "FROM"]),
    }
}

/// The clauses after `SELECT … FROM t`, in the order they may come.
const SELECT_CLAUSES: [&str; 6] = ["WHERE", "GROUP", "ORDER", "PER", "LIMIT", "ALLOW"];

/// The clauses from `from` on, and `;`.
fn following(from: usize) -> Vec<Cand> {
    let mut cands = words(&SELECT_CLAUSES[from.min(SELECT_CLAUSES.len())..]);
    cands.push(Cand::word(";"));
    cands
}

fn select_clauses(p: &mut State<'_>, table: Option<&Table>) -> R<()> {
    let mut restricted = Vec::new();
    let mut next = 0;
    loop {
        p.stop(following(next))?;
        let clause = p.expect(&SELECT_CLAUSES[next..])?;
        next = SELECT_CLAUSES
            .iter()
            .position(|c| c.eq_ignore_ascii_case(&clause))
            .map_or(SELECT_CLAUSES.len(), |i| i + 1);
        match clause.as_str() {
            "where" => where_clause(p, table, &mut restricted, following(next))?,
            "group" => key_list(p, table, "BY", &restricted, following(next), false)?,
            "order" => key_list(p, table, "BY", &restricted, following(next), true)?,
            "per" => {
                p.expect(&["PARTITION"])?;
                p.expect(&["LIMIT"])?;
                p.term(vec![Cand::hint("<wholenumber>")])?;
            }
            "limit" => p.term(vec![Cand::hint("<wholenumber>")])?,
            _ => {
                p.expect(&["FILTERING"])?;
                return p.stop(words(&[";"]));
            }
        }
    }
}

/// `WHERE relation AND relation …`; `follow` is offered after a relation
/// besides `AND`.
pub(crate) fn where_clause(
    p: &mut State<'_>,
    table: Option<&Table>,
    restricted: &mut Vec<String>,
    follow: Vec<Cand>,
) -> R<()> {
    loop {
        let mut columns = words(&["TOKEN("]);
        if let Some(table) = table {
            columns.extend(names::restrictable(table, restricted));
        }
        p.stop(columns)?;
        relation(p, table, restricted)?;
        let mut after = words(&["AND"]);
        after.extend(follow.iter().cloned());
        p.stop(after)?;
        if !p.word("and") {
            return Ok(());
        }
    }
}

const OPERATORS: &[&str] = &["=", "<", ">", "<=", ">=", "IN", "CONTAINS", "["];

fn relation(p: &mut State<'_>, table: Option<&Table>, restricted: &mut Vec<String>) -> R<()> {
    let column = if p.word("token") {
        p.stop(words(&["("]))?;
        p.balanced(key_columns(table))?;
        None
    } else if p.peek_kind() == Some(TokenKind::LParen) {
        p.balanced(vec![Cand::hint("<colname>")])?;
        None
    } else {
        let name = p.name().ok_or_else(Vec::new)?;
        restricted.push(name.clone());
        Some(name)
    };
    p.stop(words(OPERATORS))?;
    let op = p.bump().map(|t| p.text(t).to_ascii_lowercase());
    if op.as_deref() == Some("contains") {
        let _ = p.word("key");
    }
    let hint = value_hint(table, column.as_deref(), "term");
    p.term(hint)
}

/// The key columns, for `TOKEN(`.
fn key_columns(table: Option<&Table>) -> Vec<Cand> {
    table.map_or_else(Vec::new, |t| {
        names::column_names(t.partition_key.iter().map(String::as_str))
    })
}

/// `<term (int)>`-style hints for a column's value.
pub(crate) fn value_hint(table: Option<&Table>, column: Option<&str>, what: &str) -> Vec<Cand> {
    let typed = column.and_then(|c| table?.column(c));
    match typed {
        Some(c) => vec![Cand::hint(format!("<{what} ({})>", c.data_type))],
        None => vec![Cand::hint(format!("<{what}>"))],
    }
}

/// `GROUP BY` / `ORDER BY`: key columns in order, each listed once.
fn key_list(
    p: &mut State<'_>,
    table: Option<&Table>,
    by: &str,
    restricted: &[String],
    follow: Vec<Cand>,
    order: bool,
) -> R<()> {
    p.expect(&[by])?;
    let mut listed: Vec<String> = Vec::new();
    loop {
        p.stop(next_key_column(table, restricted, &listed, order))?;
        listed.push(p.name().ok_or_else(Vec::new)?);
        let mut after = words(&[","]);
        if order {
            after.extend(words(&["ASC", "DESC"]));
        }
        after.extend(follow.iter().cloned());
        p.stop(after.clone())?;
        if order && (p.word("asc") || p.word("desc")) {
            after.retain(|c| !matches!(c, Cand::Word(w) if w == "ASC" || w == "DESC"));
            p.stop(after)?;
        }
        if !p.kind(TokenKind::Comma) {
            return Ok(());
        }
    }
}

/// The next column ORDER BY (clustering columns, once the partition key is
/// restricted) or GROUP BY (the primary key in order) may name.
fn next_key_column(
    table: Option<&Table>,
    restricted: &[String],
    listed: &[String],
    order: bool,
) -> Vec<Cand> {
    let Some(table) = table else {
        return vec![Cand::hint("<colname>")];
    };
    if order && !table.partition_key.iter().all(|k| restricted.contains(k)) {
        return vec![Cand::hint(
            "Can't ORDER BY here: need to specify partition key in WHERE clause",
        )];
    }
    let mut key = table.partition_key.iter().chain(&table.clustering);
    let next = if order {
        table.clustering.iter().find(|c| !listed.contains(c))
    } else {
        key.find(|c| !listed.contains(c))
    };
    next.map(|c| vec![Cand::word(quoted(c))])
        .unwrap_or_default()
}

fn insert(p: &mut State<'_>) -> R<()> {
    p.expect(&["INTO"])?;
    let table = p.table()?;
    if p.expect(&["(", "JSON"])? == "json" {
        p.term(vec![Cand::hint("<quotedStringLiteral>")])?;
    } else {
        let columns = insert_columns(p, table)?;
        p.expect(&["VALUES"])?;
        p.expect(&["("])?;
        insert_values(p, table, &columns)?;
    }
    write_options(p, table, &["IF", "USING", ";"], true)
}

fn insert_columns(p: &mut State<'_>, table: Option<&Table>) -> R<Vec<String>> {
    let mut listed = Vec::new();
    loop {
        let next = table.map_or_else(Vec::new, |t| names::insert_columns(t, &listed));
        listed.push(p.require_name(next)?);
        if p.expect(&[",", ")"])? == ")" {
            return Ok(listed);
        }
    }
}

fn insert_values(p: &mut State<'_>, table: Option<&Table>, columns: &[String]) -> R<()> {
    for i in 0.. {
        p.term(column_value(table, columns.get(i).map(String::as_str)))?;
        if p.expect(&[",", ")"])? == ")" {
            break;
        }
    }
    Ok(())
}

/// What a column's value may start with: its hint, `[`/`{` for
/// collections, `true`/`false` for booleans.
fn column_value(table: Option<&Table>, column: Option<&str>) -> Vec<Cand> {
    use crate::syntax::ast::NativeType;
    use crate::types::DataType;
    let mut cands = value_hint(table, column, "value for");
    if let (Some(Cand::Hint(h)), Some(c)) = (cands.first_mut(), column) {
        *h = h.replacen("<value for", &format!("<value for {c}"), 1);
    }
    let ty = column.and_then(|c| table?.column(c)).map(|c| &c.data_type);
    match ty {
        Some(DataType::List { .. } | DataType::Vector { .. }) => cands.push(Cand::word("[")),
        Some(DataType::Set { .. } | DataType::Map { .. } | DataType::Udt { .. }) => {
            cands.push(Cand::word("{"))
        }
        Some(DataType::Native(NativeType::Boolean)) => cands.extend(words(&["true", "false"])),
        _ => {}
    }
    cands
}

/// `IF NOT EXISTS`, `IF EXISTS`, `IF cond`, `USING TTL n AND TIMESTAMP n`,
/// in any order the statement allows, then `;`.
fn write_options(
    p: &mut State<'_>,
    table: Option<&Table>,
    offered: &[&str],
    insert: bool,
) -> R<()> {
    let mut offered: Vec<&str> = offered.to_vec();
    loop {
        let word = p.expect(&offered)?;
        offered.retain(|w| !w.eq_ignore_ascii_case(&word));
        match word.as_str() {
            "if" if insert => {
                p.expect(&["NOT"])?;
                p.expect(&["EXISTS"])?;
            }
            "if" => {
                let mut cands = words(&["EXISTS"]);
                cands.extend(table.map_or_else(Vec::new, names::regular_columns));
                p.stop(cands)?;
                if !p.word("exists") {
                    return conditions(p, table);
                }
            }
            "using" => using(p)?,
            _ => return Ok(()),
        }
    }
}

/// `IF column = term AND …`, then `;`.
fn conditions(p: &mut State<'_>, table: Option<&Table>) -> R<()> {
    loop {
        let column = p.name().ok_or_else(Vec::new)?;
        p.expect(&["=", "!=", "<", ">", "<=", ">=", "IN"])?;
        p.term(value_hint(table, Some(&column), "term"))?;
        let word = p.expect(&["AND", ";"])?;
        if word == ";" {
            return Ok(());
        }
        p.stop(table.map_or_else(Vec::new, names::regular_columns))?;
    }
}

/// `TTL n [AND TIMESTAMP n]`.
fn using(p: &mut State<'_>) -> R<()> {
    loop {
        p.expect(&["TTL", "TIMESTAMP"])?;
        p.term(vec![Cand::hint("<wholenumber>")])?;
        if !p.word("and") {
            return Ok(());
        }
    }
}

fn update(p: &mut State<'_>) -> R<()> {
    let table = p.table()?;
    if p.expect(&["USING", "SET"])? == "using" {
        using_then(p, &["SET"])?;
        p.expect(&["SET"])?;
    }
    loop {
        let columns = table.map_or_else(Vec::new, names::regular_columns);
        let column = p.require_name(columns)?;
        p.stop(words(&["="]))?;
        if p.peek_kind() == Some(TokenKind::LBracket) {
            p.balanced(vec![Cand::hint("<term>")])?;
        }
        p.expect(&["=", "+=", "-="])?;
        p.term(value_hint(table, Some(&column), "term"))?;
        while p.kind(TokenKind::Plus) || p.kind(TokenKind::Minus) {
            p.term(vec![Cand::hint("<term>")])?;
        }
        if p.expect(&[",", "WHERE"])? == "where" {
            break;
        }
    }
    where_clause(p, table, &mut Vec::new(), words(&["IF", ";"]))?;
    write_options(p, table, &["IF", ";"], false)
}

/// `USING …` followed by one of `then`.
fn using_then(p: &mut State<'_>, then: &[&str]) -> R<()> {
    loop {
        p.expect(&["TTL", "TIMESTAMP"])?;
        p.term(vec![Cand::hint("<wholenumber>")])?;
        let mut after = words(&["AND"]);
        after.extend(words(then));
        p.stop(after)?;
        if !p.word("and") {
            return Ok(());
        }
    }
}

fn delete(p: &mut State<'_>) -> R<()> {
    p.stop(vec![Cand::word("FROM"), Cand::hint("<colname>")])?;
    if !p.word("from") {
        loop {
            p.name().ok_or_else(Vec::new)?;
            if p.peek_kind() == Some(TokenKind::LBracket) {
                p.balanced(vec![Cand::hint("<term>")])?;
            }
            if p.expect(&[",", "FROM"])? == "from" {
                break;
            }
            p.stop(vec![Cand::hint("<colname>")])?;
        }
    }
    let table = p.table()?;
    if p.expect(&["USING", "WHERE"])? == "using" {
        using_then(p, &["WHERE"])?;
        p.expect(&["WHERE"])?;
    }
    where_clause(p, table, &mut Vec::new(), words(&["IF", ";"]))?;
    write_options(p, table, &["IF", ";"], false)
}

/// `BEGIN [UNLOGGED | COUNTER] BATCH [USING TIMESTAMP n] stmt; … APPLY BATCH`.
fn batch(p: &mut State<'_>) -> R<()> {
    if p.expect(&["BATCH", "UNLOGGED", "COUNTER"])? != "batch" {
        p.expect(&["BATCH"])?;
    }
    let inner = ["INSERT", "UPDATE", "DELETE"];
    p.stop(words(&["INSERT", "UPDATE", "DELETE", "USING"]))?;
    if p.word("using") {
        p.expect(&["TIMESTAMP"])?;
        p.term(vec![Cand::hint("<wholenumber>")])?;
        p.stop(words(&inner))?;
    }
    loop {
        let word = p.expect(&["INSERT", "UPDATE", "DELETE", "APPLY"])?;
        if word == "apply" {
            p.expect(&["BATCH"])?;
            return p.stop(words(&[";"]));
        }
        let end = p.tokens[p.pos..]
            .iter()
            .position(|t| t.kind == TokenKind::Semicolon)
            .map(|i| p.pos + i);
        let Some(end) = end else {
            return match word.as_str() {
                "insert" => insert(p),
                "update" => update(p),
                _ => delete(p),
            };
        };
        p.pos = end + 1;
    }
}
