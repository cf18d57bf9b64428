//! Completion walks of the schema statements (CREATE, DROP, ALTER) and of
//! DESCRIBE.

use super::grammar::{State, R};
use super::names;
use super::{words, Cand};
use crate::syntax::lexer::TokenKind;

/// What a keyspace's `WITH` starts with: cqlsh inserts the whole snippet.
const REPLICATION_SNIPPET: &str = "replication = {'class': '";

pub(crate) fn create(p: &mut State<'_>) -> R<()> {
    let kinds = [
        "TABLE",
        "KEYSPACE",
        "INDEX",
        "CUSTOM",
        "TYPE",
        "FUNCTION",
        "AGGREGATE",
        "MATERIALIZED",
        "TRIGGER",
        "ROLE",
        "USER",
        "OR",
    ];
    p.stop(words(&kinds))?;
    let word = p.expect(&[
        "TABLE",
        "COLUMNFAMILY",
        "KEYSPACE",
        "SCHEMA",
        "INDEX",
        "CUSTOM",
        "TYPE",
        "MATERIALIZED",
        "OR",
        "FUNCTION",
        "AGGREGATE",
        "TRIGGER",
        "ROLE",
        "USER",
    ])?;
    match word.as_str() {
        "table" | "columnfamily" => create_table(p),
        "keyspace" | "schema" => create_keyspace(p),
        "custom" => {
            p.expect(&["INDEX"])?;
            create_index(p)
        }
        "index" => create_index(p),
        "type" => new_name(p, "<new_type_name>").map(|_| ()),
        "materialized" => {
            p.expect(&["VIEW"])?;
            new_name(p, "<new_view_name>").map(|_| ())
        }
        "or" => {
            p.expect(&["REPLACE"])?;
            p.expect(&["FUNCTION", "AGGREGATE"]).map(|_| ())
        }
        _ => Ok(()),
    }
}

/// `[IF NOT EXISTS] name` of a new object, `hint` offered for the name.
fn new_name(p: &mut State<'_>, hint: &str) -> R<String> {
    p.stop(vec![Cand::word("IF"), Cand::hint(hint)])?;
    if p.word("if") {
        p.expect(&["NOT"])?;
        p.expect(&["EXISTS"])?;
    }
    p.require_name(vec![Cand::hint(hint)])
}

fn create_keyspace(p: &mut State<'_>) -> R<()> {
    new_name(p, "<new_keyspace_name>")?;
    p.expect(&["WITH"])?;
    keyspace_properties(p)
}

/// `replication = {…} AND durable_writes = …`.
fn keyspace_properties(p: &mut State<'_>) -> R<()> {
    let mut seen_replication = false;
    loop {
        let first = if seen_replication {
            words(&["durable_writes"])
        } else {
            vec![Cand::word(REPLICATION_SNIPPET)]
        };
        let name = p.require_name(first)?;
        p.expect(&["="])?;
        if name == "replication" {
            seen_replication = true;
            p.expect(&["{"])?;
            replication_map(p)?;
        } else {
            p.term(words(&["true", "false"]))?;
        }
        p.expect(&["AND", ";"])?;
    }
}

/// The entries of a replication map, after its `{`.
fn replication_map(p: &mut State<'_>) -> R<()> {
    let mut class: Option<String> = None;
    loop {
        let key = string_entry(p, replication_keys(p, class.as_deref()))?;
        p.expect(&[":"])?;
        let values = if key == "class" {
            words(&["'SimpleStrategy'", "'NetworkTopologyStrategy'"])
        } else {
            vec![Cand::hint("<value>")]
        };
        let value = string_entry(p, values)?;
        if key == "class" {
            class = Some(value);
        }
        if p.expect(&[",", "}"])? == "}" {
            return Ok(());
        }
    }
}

/// The keys a replication map may hold next.
fn replication_keys(p: &State<'_>, class: Option<&str>) -> Vec<Cand> {
    match class {
        None => words(&["'class'"]),
        Some(c) if c.ends_with("SimpleStrategy") => words(&["'replication_factor'"]),
        Some(_) => {
            let mut out = vec![Cand::hint("<dc_name>")];
            for dc in p.ctx.ring.datacenters() {
                out.push(Cand::word(format!("'{dc}'")));
            }
            out
        }
    }
}

/// A string or number in a map, `cands` offered (inside an open `'…'` too).
fn string_entry(p: &mut State<'_>, cands: Vec<Cand>) -> R<String> {
    p.stop(cands)?;
    let token = p.bump().ok_or_else(Vec::new)?;
    let text = token.text(p.src);
    Ok(text.trim_matches('\'').replace("''", "'"))
}

fn create_table(p: &mut State<'_>) -> R<()> {
    let mut first = vec![Cand::word("IF"), Cand::hint("<new_table_name>")];
    first.extend(names::keyspace_prefixes(p.ctx));
    p.stop(first)?;
    if p.word("if") {
        p.expect(&["NOT"])?;
        p.expect(&["EXISTS"])?;
    }
    p.require_name(vec![Cand::hint("<new_table_name>")])?;
    if p.kind(TokenKind::Dot) {
        p.require_name(vec![Cand::hint("<new_table_name>")])?;
    }
    p.expect(&["("])?;
    let defined = column_definitions(p)?;
    p.expect(&["WITH", ";"])?;
    table_properties(p, &defined)
}

/// The column definitions and PRIMARY KEY clause, after `(`; returns the
/// names defined.
fn column_definitions(p: &mut State<'_>) -> R<Vec<String>> {
    let mut defined: Vec<String> = Vec::new();
    loop {
        let mut start = vec![Cand::hint("<new_column_name>")];
        if !defined.is_empty() {
            start.push(Cand::word("PRIMARY"));
        }
        p.stop(start)?;
        if p.word("primary") {
            p.expect(&["KEY"])?;
            p.stop(words(&["("]))?;
            p.balanced(names::column_names(defined.iter().map(String::as_str)))?;
        } else {
            defined.push(p.name().ok_or_else(Vec::new)?);
            column_type(p)?;
            p.stop(words(&["PRIMARY", "STATIC", ",", ")"]))?;
            if p.word("primary") {
                p.expect(&["KEY"])?;
            } else {
                let _ = p.word("static");
            }
        }
        if p.expect(&[",", ")"])? == ")" {
            return Ok(defined);
        }
    }
}

/// A column type, with `<…>` parameters.
fn column_type(p: &mut State<'_>) -> R<()> {
    p.stop(names::type_names(p.ctx, true))?;
    p.bump();
    if p.kind(TokenKind::Lt) {
        let mut depth = 1;
        while depth > 0 {
            p.stop(names::type_names(p.ctx, false))?;
            match p.bump().map(|t| t.kind) {
                Some(TokenKind::Lt) => depth += 1,
                Some(TokenKind::Gt) => depth -= 1,
                _ => {}
            }
        }
    }
    Ok(())
}

/// `WITH option = value AND …`, `CLUSTERING ORDER BY (…)`, `COMPACT STORAGE`.
fn table_properties(p: &mut State<'_>, defined: &[String]) -> R<()> {
    loop {
        p.stop(words(names::TABLE_OPTIONS))?;
        if p.word("clustering") {
            p.expect(&["ORDER"])?;
            p.expect(&["BY"])?;
            p.stop(words(&["("]))?;
            p.balanced(names::column_names(defined.iter().map(String::as_str)))?;
        } else if p.word("compact") {
            p.expect(&["STORAGE"])?;
        } else {
            p.name().ok_or_else(Vec::new)?;
            p.expect(&["="])?;
            p.term(vec![Cand::hint("<value>")])?;
        }
        p.expect(&["AND", ";"])?;
    }
}

fn create_index(p: &mut State<'_>) -> R<()> {
    p.stop(vec![
        Cand::word("IF"),
        Cand::word("ON"),
        Cand::hint("<new_index_name>"),
    ])?;
    if p.word("if") {
        p.expect(&["NOT"])?;
        p.expect(&["EXISTS"])?;
    }
    if !p.word("on") {
        p.require_name(vec![Cand::hint("<new_index_name>")])?;
        p.expect(&["ON"])?;
    }
    let table = p.table()?;
    p.expect(&["("])?;
    let mut columns = words(&["keys(", "values(", "entries(", "full("]);
    if let Some(table) = table {
        columns.extend(names::column_names(
            table.columns.keys().map(String::as_str),
        ));
    }
    p.stop(columns)?;
    p.balanced(vec![Cand::word(")")])?;
    p.expect(&["USING", ";"]).map(|_| ())
}

pub(crate) fn drop(p: &mut State<'_>) -> R<()> {
    let word = p.expect(&[
        "KEYSPACE",
        "TABLE",
        "COLUMNFAMILY",
        "INDEX",
        "TYPE",
        "FUNCTION",
        "AGGREGATE",
        "MATERIALIZED",
        "TRIGGER",
        "ROLE",
        "USER",
    ])?;
    let names = match word.as_str() {
        "keyspace" => names::keyspaces(p.ctx),
        "table" | "columnfamily" => names::table_position(p.ctx),
        "index" => names::indexes(p.ctx),
        "type" => names::types(p.ctx),
        "materialized" => {
            p.expect(&["VIEW"])?;
            names::tables(p.ctx, None, true)
        }
        _ => return Ok(()),
    };
    let mut first = names.clone();
    first.push(Cand::word("IF"));
    p.stop(first)?;
    if p.word("if") {
        p.expect(&["EXISTS"])?;
    }
    p.require_name(names)?;
    if p.kind(TokenKind::Dot) {
        let keyspace = p.tokens[p.pos - 2].text(p.src).to_ascii_lowercase();
        p.require_name(names::tables(p.ctx, Some(&keyspace), false))?;
    }
    p.stop(words(&[";"]))
}

pub(crate) fn alter(p: &mut State<'_>) -> R<()> {
    let word = p.expect(&[
        "TYPE",
        "ROLE",
        "TABLE",
        "COLUMNFAMILY",
        "KEYSPACE",
        "SCHEMA",
        "USER",
        "MATERIALIZED",
    ])?;
    match word.as_str() {
        "table" | "columnfamily" => alter_table(p),
        "keyspace" | "schema" => {
            let mut first = names::keyspaces(p.ctx);
            first.push(Cand::word("IF"));
            p.stop(first)?;
            if p.word("if") {
                p.expect(&["EXISTS"])?;
            }
            p.require_name(names::keyspaces(p.ctx))?;
            p.expect(&["WITH"])?;
            keyspace_properties(p)
        }
        "type" => p.require_name(names::types(p.ctx)).map(|_| ()),
        _ => Ok(()),
    }
}

fn alter_table(p: &mut State<'_>) -> R<()> {
    let mut first = names::table_position(p.ctx);
    first.push(Cand::word("IF"));
    p.stop(first)?;
    if p.word("if") {
        p.expect(&["EXISTS"])?;
    }
    let table = p.table()?;
    let all = |pk_only: bool| {
        table.map_or_else(Vec::new, |t| {
            names::column_names(
                t.columns
                    .values()
                    .filter(|c| !pk_only || c.is_primary_key())
                    .map(|c| c.name.as_str()),
            )
        })
    };
    match p
        .expect(&["ADD", "ALTER", "DROP", "RENAME", "WITH"])?
        .as_str()
    {
        "add" => {
            new_name(p, "<new_column_name>")?;
            column_type(p)
        }
        "drop" => {
            let mut cands = all(false);
            cands.push(Cand::word("IF"));
            p.require_name(cands).map(|_| ())
        }
        "alter" => {
            p.require_name(all(false))?;
            p.expect(&["TYPE"])?;
            column_type(p)
        }
        "rename" => {
            p.require_name(all(true))?;
            p.expect(&["TO"])?;
            p.require_name(vec![Cand::hint("<new_column_name>")])
                .map(|_| ())
        }
        _ => table_properties(p, &[]),
    }
}

pub(crate) fn describe(p: &mut State<'_>) -> R<()> {
    let mut first = words(&[
        "KEYSPACES",
        "KEYSPACE",
        "ONLY",
        "TABLES",
        "TABLE",
        "COLUMNFAMILY",
        "COLUMNFAMILIES",
        "INDEX",
        "TYPES",
        "TYPE",
        "FUNCTIONS",
        "FUNCTION",
        "AGGREGATES",
        "AGGREGATE",
        "MATERIALIZED",
        "SCHEMA",
        "FULL",
        "CLUSTER",
    ]);
    first.extend(names::keyspaces(p.ctx));
    first.extend(names::table_position(p.ctx));
    p.stop(first)?;
    let word = p.bump().map(|t| t.text(p.src).to_ascii_lowercase());
    match word.as_deref().unwrap_or("") {
        "only" => {
            p.expect(&["KEYSPACE"])?;
            p.stop(names::keyspaces(p.ctx))
        }
        "full" => p.expect(&["SCHEMA"]).map(|_| ()),
        "keyspace" => p.stop(names::keyspaces(p.ctx)),
        "table" | "columnfamily" => p.table().map(|_| ()),
        "index" => p.stop(names::indexes(p.ctx)),
        "type" => p.stop(names::types(p.ctx)),
        "materialized" => {
            p.expect(&["VIEW"])?;
            p.stop(names::tables(p.ctx, None, true))
        }
        _ if p.kind(TokenKind::Dot) => {
            let keyspace = p.tokens[p.pos - 2].text(p.src).to_ascii_lowercase();
            p.stop(names::tables(p.ctx, Some(&keyspace), false))
        }
        _ => Ok(()),
    }
}
