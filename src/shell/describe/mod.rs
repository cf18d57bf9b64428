//! DESCRIBE / DESC (cqlsh.md §2.1): what Cassandra 5.0's `DescribeStatement`
//! returns, printed the way cqlsh prints it.
//!
//! The CREATE statements are byte for byte the server's (see [`cql`]), so
//! that a schema dumped from a real cluster and one dumped from widerow
//! compare equal, and so that the output is CQL widerow reads back to the
//! same schema. The system keyspaces (`system`, `system_schema`, …) are
//! listed and described as a node lists them; `DESCRIBE SCHEMA` (and SAVE)
//! leaves them out and `DESCRIBE FULL SCHEMA` includes them, as the node
//! does. There are no user-defined functions or aggregates, so FUNCTIONS
//! and AGGREGATES list nothing.

mod cluster;
pub mod cql;
use crate::schema::table_options as options;

pub use cluster::CLUSTER_NAME;

use crate::error::Error;
use crate::planner::PlanContext;
use crate::schema::{Catalog, Keyspace, Table};
use crate::session::Session;
use crate::syntax::lexer::{tokenize, TokenKind};

/// The output of `DESCRIBE <rest>` (`rest` is what follows DESCRIBE or
/// DESC), or the server's error. cqlsh prints only the message of a
/// DESCRIBE error, without the usual `InvalidRequest: …` wrapping.
pub fn describe(session: &Session, rest: &str) -> Result<String, Error> {
    let request = parse(rest)?;
    run(session.context(), &request)
}

/// Every statement `DESCRIBE SCHEMA` prints for `catalog`, keyspaces by
/// name, the system keyspaces left out: what SAVE writes before the data.
pub fn schema_statements(catalog: &Catalog) -> Vec<String> {
    keyspace_statements(catalog, false)
}

/// `DESCRIBE SCHEMA`'s statements, or `DESCRIBE FULL SCHEMA`'s with the
/// system keyspaces.
fn keyspace_statements(catalog: &Catalog, full: bool) -> Vec<String> {
    sorted_keyspaces(catalog)
        .into_iter()
        .filter(|ks| full || !crate::schema::system::is_system_keyspace(&ks.name))
        .flat_map(|ks| cql::keyspace_elements(ks, false))
        .collect()
}

/// A possibly qualified name, as the user wrote it (quotes removed,
/// unquoted names in lower case).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Name {
    keyspace: Option<String>,
    name: String,
}

/// The DESCRIBE forms.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Request {
    Keyspaces,
    Keyspace {
        name: Option<String>,
        only: bool,
    },
    Listing(Listing),
    Table(Name),
    Index(Name),
    View(Name),
    Type(Name),
    Function(Name),
    Aggregate(Name),
    /// `SCHEMA`, or `FULL SCHEMA` with the system keyspaces.
    Schema {
        full: bool,
    },
    Cluster,
    Generic(Name),
}

/// What the name-listing forms list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Listing {
    Tables,
    Types,
    Functions,
    Aggregates,
}

/// One word of the command: its value as a name, and its lower-case text
/// when it was not quoted (so it can be a keyword).
#[derive(Debug, Clone)]
struct Word {
    value: String,
    bare: Option<String>,
    dot: bool,
}

fn words(rest: &str) -> Result<Vec<Word>, Error> {
    let mut out = Vec::new();
    for token in tokenize(rest).into_iter().filter(|t| !t.kind.is_comment()) {
        let text = token.text(rest);
        let word = match token.kind {
            TokenKind::Ident | TokenKind::Keyword(_) => Word {
                value: text.to_lowercase(),
                bare: Some(text.to_lowercase()),
                dot: false,
            },
            TokenKind::QuotedIdent => Word {
                value: text[1..text.len() - 1].replace("\"\"", "\""),
                bare: None,
                dot: false,
            },
            TokenKind::Dot => Word {
                value: ".".into(),
                bare: None,
                dot: true,
            },
            _ => return Err(no_viable(text)),
        };
        out.push(word);
    }
    Ok(out)
}

fn no_viable(text: &str) -> Error {
    Error::syntax(format!("no viable alternative at input '{text}'"))
}

/// Reads the DESCRIBE form (a trailing `WITH INTERNALS` is accepted and
/// changes nothing: widerow has no internal details to add).
fn parse(rest: &str) -> Result<Request, Error> {
    let mut words = words(rest)?;
    let bare = |w: &Word| w.bare.clone().unwrap_or_default();
    if words.len() >= 2 {
        let tail: Vec<String> = words[words.len() - 2..].iter().map(bare).collect();
        if tail == ["with", "internals"] {
            words.truncate(words.len() - 2);
        }
    }
    let first: Vec<String> = words.iter().take(2).map(bare).collect();
    let first: Vec<&str> = first.iter().map(String::as_str).collect();
    let request = match first.as_slice() {
        ["keyspaces"] if words.len() == 1 => Request::Keyspaces,
        ["only", "keyspace"] => keyspace_request(&words[2..], true)?,
        ["keyspace", ..] => keyspace_request(&words[1..], false)?,
        ["tables" | "columnfamilies"] if words.len() == 1 => Request::Listing(Listing::Tables),
        ["types"] if words.len() == 1 => Request::Listing(Listing::Types),
        ["functions"] if words.len() == 1 => Request::Listing(Listing::Functions),
        ["aggregates"] if words.len() == 1 => Request::Listing(Listing::Aggregates),
        ["table" | "columnfamily", ..] => Request::Table(name(&words[1..])?),
        ["index", ..] => Request::Index(name(&words[1..])?),
        ["materialized", "view"] => Request::View(name(&words[2..])?),
        ["type", ..] => Request::Type(name(&words[1..])?),
        ["function", ..] => Request::Function(name(&words[1..])?),
        ["aggregate", ..] => Request::Aggregate(name(&words[1..])?),
        ["full", "schema"] if words.len() == 2 => Request::Schema { full: true },
        ["schema"] if words.len() == 1 => Request::Schema { full: false },
        ["cluster"] if words.len() == 1 => Request::Cluster,
        _ => Request::Generic(name(&words)?),
    };
    Ok(request)
}

fn keyspace_request(words: &[Word], only: bool) -> Result<Request, Error> {
    let name = match words {
        [] => None,
        [w] if !w.dot => Some(w.value.clone()),
        [_, extra, ..] | [extra] => return Err(no_viable(&extra.value)),
    };
    Ok(Request::Keyspace { name, only })
}

/// `name` or `keyspace.name`.
fn name(words: &[Word]) -> Result<Name, Error> {
    match words {
        [n] if !n.dot => Ok(Name {
            keyspace: None,
            name: n.value.clone(),
        }),
        [ks, dot, n] if !ks.dot && dot.dot && !n.dot => Ok(Name {
            keyspace: Some(ks.value.clone()),
            name: n.value.clone(),
        }),
        [] => Err(no_viable("<EOF>")),
        [first, ..] if first.dot => Err(no_viable(".")),
        _ => Err(no_viable(words.get(1).map_or(".", |w| w.value.as_str()))),
    }
}

/// Keyspaces in the order the server sorts them: by name.
fn sorted_keyspaces(catalog: &Catalog) -> Vec<&Keyspace> {
    let mut all: Vec<&Keyspace> = catalog.keyspaces().collect();
    all.sort_by(|a, b| a.name.cmp(&b.name));
    all
}

fn run(ctx: &PlanContext, request: &Request) -> Result<String, Error> {
    let catalog = &ctx.catalog;
    let current = ctx.keyspace.as_deref();
    Ok(match request {
        Request::Keyspaces => {
            let names: Vec<String> = sorted_keyspaces(catalog)
                .iter()
                .map(|ks| cql::name(&ks.name))
                .collect();
            format!("\n{}\n", crate::shell::help::columnize(&names, 80))
        }
        Request::Listing(what) => listing(catalog, current, *what)?,
        Request::Keyspace { name, only } => {
            let ks = keyspace(
                catalog,
                name.as_deref().or(current).ok_or_else(no_keyspace)?,
            )?;
            elements(cql::keyspace_elements(ks, *only))
        }
        Request::Schema { full } => elements(keyspace_statements(catalog, *full)),
        Request::Cluster => cluster::describe_cluster(ctx),
        Request::Generic(n) => elements(generic(catalog, current, n)?),
        other => elements(element(catalog, current, other)?),
    })
}

/// One named object (TABLE, INDEX, MATERIALIZED VIEW, TYPE, FUNCTION,
/// AGGREGATE) with the server's message when it is missing.
fn element(
    catalog: &Catalog,
    current: Option<&str>,
    request: &Request,
) -> Result<Vec<String>, Error> {
    let (Request::Table(n)
    | Request::Index(n)
    | Request::View(n)
    | Request::Type(n)
    | Request::Function(n)
    | Request::Aggregate(n)) = request
    else {
        return Ok(Vec::new());
    };
    let ks_name = n.keyspace.as_deref().or(current).ok_or_else(no_keyspace)?;
    let ks = keyspace(catalog, ks_name)?;
    let missing =
        |what: &str| Error::invalid(format!("{what} '{}' not found in '{ks_name}'", n.name));
    match request {
        Request::Table(_) => table(ks, &n.name),
        Request::Index(_) => index(ks, &n.name).ok_or_else(|| {
            Error::invalid(format!(
                "Table for existing index '{}' not found in '{ks_name}'",
                n.name
            ))
        }),
        Request::View(_) => view(ks, &n.name).ok_or_else(|| missing("Materialized view")),
        Request::Type(_) => ks
            .types
            .get(&n.name)
            .map(|t| vec![cql::type_cql(&ks.name, t)])
            .ok_or_else(|| missing("User defined type")),
        Request::Function(_) => Err(missing("User defined function")),
        _ => Err(missing("User defined aggregate")),
    }
}

/// `DESCRIBE TABLE`: the table (or view) and its indexes.
fn table(ks: &Keyspace, name: &str) -> Result<Vec<String>, Error> {
    ks.tables
        .get(name)
        .map(|t| cql::table_elements(ks, t, false))
        .ok_or_else(|| {
            Error::invalid(format!(
                "Table '{name}' not found in keyspace '{}'",
                ks.name
            ))
        })
}

/// `DESCRIBE INDEX`: the index's statement, if the keyspace has it.
fn index(ks: &Keyspace, name: &str) -> Option<Vec<String>> {
    ks.tables.values().find_map(|t| {
        t.indexes
            .iter()
            .find(|i| i.name == name)
            .map(|i| vec![cql::index_cql(t, i)])
    })
}

/// `DESCRIBE MATERIALIZED VIEW`: the view's statement, if it is one.
fn view(ks: &Keyspace, name: &str) -> Option<Vec<String>> {
    ks.tables
        .get(name)
        .filter(|t| t.is_view())
        .map(|v| vec![cql::view_cql(v)])
}

/// `DESCRIBE <name>`: a keyspace, else a table, an index or a view of the
/// named (or current) keyspace, in that order.
fn generic(catalog: &Catalog, current: Option<&str>, n: &Name) -> Result<Vec<String>, Error> {
    if n.keyspace.is_none() {
        if let Some(ks) = catalog.keyspace(&n.name) {
            return Ok(cql::keyspace_elements(ks, false));
        }
    }
    let ks_name = n.keyspace.as_deref().or(current).unwrap_or(&n.name);
    let ks = keyspace(catalog, ks_name)?;
    if let Some(t) = ks.tables.get(&n.name).filter(|t| !t.is_view()) {
        return Ok(cql::table_elements(ks, t, false));
    }
    index(ks, &n.name)
        .or_else(|| view(ks, &n.name))
        .ok_or_else(|| Error::invalid(format!("'{}' not found in keyspace '{ks_name}'", n.name)))
}

/// DESCRIBE TABLES / TYPES / FUNCTIONS / AGGREGATES: per keyspace (only
/// the current one when a keyspace is in use) a `Keyspace ks` header when
/// none is in use, then the names column-packed; keyspaces with nothing to
/// list are left out.
fn listing(catalog: &Catalog, current: Option<&str>, what: Listing) -> Result<String, Error> {
    let keyspaces = match current {
        Some(ks) => vec![keyspace(catalog, ks)?],
        None => sorted_keyspaces(catalog),
    };
    let mut out = String::new();
    for ks in keyspaces {
        let mut names: Vec<&str> = match what {
            Listing::Tables => ks
                .tables
                .values()
                .filter(|t| !t.is_view())
                .map(|t: &Table| t.name.as_str())
                .collect(),
            Listing::Types => ks.types.keys().map(String::as_str).collect(),
            Listing::Functions | Listing::Aggregates => Vec::new(),
        };
        if names.is_empty() {
            continue;
        }
        names.sort();
        let quoted: Vec<String> = names.into_iter().map(cql::name).collect();
        out.push('\n');
        if current.is_none() {
            let header = cql::name(&ks.name);
            out.push_str(&format!(
                "Keyspace {header}\n---------{}\n",
                "-".repeat(header.chars().count())
            ));
        }
        out.push_str(&crate::shell::help::columnize(&quoted, 80));
    }
    if !out.is_empty() {
        out.push('\n');
    }
    Ok(out)
}

/// cqlsh's printing of statements: each after a blank line.
fn elements(statements: Vec<String>) -> String {
    statements.into_iter().map(|s| format!("\n{s}\n")).collect()
}

fn keyspace<'a>(catalog: &'a Catalog, name: &str) -> Result<&'a Keyspace, Error> {
    catalog
        .keyspace(name)
        .ok_or_else(|| Error::invalid(format!("'{name}' not found in keyspaces")))
}

fn no_keyspace() -> Error {
    Error::invalid("No keyspace specified and no current keyspace")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(keyspace: Option<&str>, name: &str) -> Name {
        Name {
            keyspace: keyspace.map(str::to_string),
            name: name.to_string(),
        }
    }

    #[test]
    fn forms_parse() {
        assert_eq!(parse("keyspaces").unwrap(), Request::Keyspaces);
        assert_eq!(
            parse("ONLY KEYSPACE \"Ks\"").unwrap(),
            Request::Keyspace {
                name: Some("Ks".into()),
                only: true
            }
        );
        assert_eq!(
            parse("columnfamily ks.T").unwrap(),
            Request::Table(n(Some("ks"), "t"))
        );
        assert_eq!(
            parse("materialized view v with internals").unwrap(),
            Request::View(n(None, "v"))
        );
        assert_eq!(
            parse("FULL SCHEMA").unwrap(),
            Request::Schema { full: true }
        );
        assert_eq!(
            parse("\"tables\"").unwrap(),
            Request::Generic(n(None, "tables"))
        );
        assert!(parse("table").is_err());
        assert!(parse("table a b").is_err());
    }
}
