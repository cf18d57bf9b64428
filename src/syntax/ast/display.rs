//! Canonical CQL printing. The output is one line, keywords in upper case,
//! names quoted only where the lexer would otherwise read them differently,
//! and it parses back to an equal tree.

use std::fmt::{self, Display, Formatter, Write};

use super::super::keyword::Keyword;
use super::super::lexer::{Lexer, TokenKind};
use super::*;

mod schema;

/// Writes `items` separated by `", "`.
fn comma<T: Display>(f: &mut Formatter<'_>, items: &[T]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        item.fmt(f)?;
    }
    Ok(())
}

/// Writes `items` separated by `sep`, each through `write`.
fn joined<T>(
    f: &mut Formatter<'_>,
    items: &[T],
    sep: &str,
    mut write: impl FnMut(&mut Formatter<'_>, &T) -> fmt::Result,
) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(sep)?;
        }
        write(f, item)?;
    }
    Ok(())
}

/// Whether `name` can be written without quotes and still lex as a name
/// with exactly this spelling.
pub fn is_bare_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    let starts_with_letter = bytes.next().is_some_and(|b| b.is_ascii_lowercase());
    starts_with_letter
        && bytes.all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        && match Lexer::new(name).next().map(|t| t.kind) {
            Some(TokenKind::Ident) => true,
            Some(TokenKind::Keyword(k)) => !k.is_reserved(),
            _ => false,
        }
}

/// Writes a name, double-quoting it (with `""` escapes) when needed.
pub fn write_name(f: &mut impl Write, name: &str) -> fmt::Result {
    if is_bare_name(name) {
        f.write_str(name)
    } else {
        write_quoted(f, name, '"')
    }
}

pub(super) fn write_quoted(f: &mut impl Write, text: &str, quote: char) -> fmt::Result {
    f.write_char(quote)?;
    for c in text.chars() {
        if c == quote {
            f.write_char(quote)?;
        }
        f.write_char(c)?;
    }
    f.write_char(quote)
}

impl Display for Ident {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_name(f, &self.name)
    }
}

impl Display for QualifiedName {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(ks) = &self.keyspace {
            write!(f, "{ks}.")?;
        }
        self.name.fmt(f)
    }
}

impl Display for Literal {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Literal::String(s) => write_quoted(f, s, '\''),
            Literal::Integer(t) | Literal::Float(t) | Literal::Duration(t) | Literal::Uuid(t) => {
                f.write_str(t)
            }
            Literal::Boolean(b) => write!(f, "{b}"),
            Literal::Hex(h) => write!(f, "0x{h}"),
            Literal::Null => f.write_str("NULL"),
        }
    }
}

impl Display for BindMarker {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            BindMarker::Anonymous => f.write_str("?"),
            BindMarker::Named(name) => write!(f, ":{name}"),
        }
    }
}

/// Unreserved words that start a construct of their own when `(` follows:
/// `CAST(x AS t)`, `WRITETIME(c)`, `MAXWRITETIME(c)`, `TTL(c)`, and `KEY`
/// right after CONTAINS (`CONTAINS key(1)` is `CONTAINS KEY (1)`). A
/// function of one of these names is written quoted.
const SPECIAL_BEFORE_PAREN: [&str; 5] = ["cast", "writetime", "maxwritetime", "ttl", "key"];

impl Display for FunctionName {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some(ks) = &self.keyspace {
            write!(f, "{ks}.")?;
        }
        let name = self.name.name.as_str();
        if name == "token" {
            // Reserved, but the grammar takes it as a function name.
            f.write_str("token")
        } else if self.keyspace.is_none() && SPECIAL_BEFORE_PAREN.contains(&name) {
            write_quoted(f, name, '"')
        } else {
            self.name.fmt(f)
        }
    }
}

/// Whether `left` written directly before `right` still lexes as the tokens
/// of each on its own. The lexer glues a minus onto a number or duration
/// (`-` `3w` is the duration `-3w`), two minuses into a comment, and a dot
/// onto an integer (`5` `.f` is the float `5.` then `f`), so some pairs need
/// a space between them.
fn lexes_apart(left: &str, right: &str) -> bool {
    let shape = |t: super::super::lexer::Token, shift: usize| {
        (t.kind, t.span.start + shift, t.span.end + shift)
    };
    let apart = Lexer::new(left)
        .map(|t| shape(t, 0))
        .chain(Lexer::new(right).map(|t| shape(t, left.len())));
    Lexer::new(&format!("{left}{right}"))
        .map(|t| shape(t, 0))
        .eq(apart)
}

/// Writes `left` then `right`, with a space only where the lexer would
/// otherwise read them together.
fn write_adjacent(f: &mut Formatter<'_>, left: &str, right: &str) -> fmt::Result {
    if lexes_apart(left, right) {
        write!(f, "{left}{right}")
    } else {
        write!(f, "{left} {right}")
    }
}

/// Writes `-` before an operand: `-x`, but `- -5` and `- 3w`.
fn write_negated(f: &mut Formatter<'_>, operand: &dyn Display) -> fmt::Result {
    write_adjacent(f, "-", &operand.to_string())
}

impl Display for Term {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.kind {
            TermKind::Literal(l) => l.fmt(f),
            TermKind::Marker(m) => m.fmt(f),
            TermKind::List(items) => {
                f.write_str("[")?;
                comma(f, items)?;
                f.write_str("]")
            }
            TermKind::Set(items) => {
                f.write_str("{")?;
                comma(f, items)?;
                f.write_str("}")
            }
            TermKind::Map(entries) => {
                f.write_str("{")?;
                joined(f, entries, ", ", |f, (k, v)| write!(f, "{k}: {v}"))?;
                f.write_str("}")
            }
            TermKind::Tuple(items) => {
                f.write_str("(")?;
                comma(f, items)?;
                f.write_str(")")
            }
            TermKind::Udt(fields) => {
                f.write_str("{")?;
                joined(f, fields, ", ", |f, (k, v)| write!(f, "{k}: {v}"))?;
                f.write_str("}")
            }
            TermKind::FunctionCall { name, args } => {
                write!(f, "{name}(")?;
                comma(f, args)?;
                f.write_str(")")
            }
            TermKind::TypeHint { ty, term } => write!(f, "({ty}) {term}"),
            TermKind::Cast { term, ty } => write!(f, "CAST({term} AS {ty})"),
            TermKind::Negate(term) => write_negated(f, term),
            TermKind::Binary { op, left, right } => {
                write!(f, "{left} {} {right}", op.symbol())
            }
        }
    }
}

/// Type names that the type parser reads as something other than a
/// user-defined type when written bare.
fn udt_name_needs_quotes(name: &str) -> bool {
    NativeType::from_name(name).is_some()
        || matches!(
            Keyword::lookup(name),
            Some(
                Keyword::Frozen
                    | Keyword::List
                    | Keyword::Set
                    | Keyword::Map
                    | Keyword::Tuple
                    | Keyword::Vector
            )
        )
}

impl Display for CqlType {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            CqlType::Native(t) => f.write_str(t.name()),
            CqlType::List(t) => write!(f, "list<{t}>"),
            CqlType::Set(t) => write!(f, "set<{t}>"),
            CqlType::Map(k, v) => write!(f, "map<{k}, {v}>"),
            CqlType::Tuple(items) => {
                f.write_str("tuple<")?;
                comma(f, items)?;
                f.write_str(">")
            }
            CqlType::Frozen(t) => write!(f, "frozen<{t}>"),
            CqlType::Vector(t, n) => write!(f, "vector<{t}, {n}>"),
            CqlType::Udt(name) => {
                if let Some(ks) = &name.keyspace {
                    write!(f, "{ks}.")?;
                }
                if udt_name_needs_quotes(&name.name.name) {
                    write_quoted(f, &name.name.name, '"')
                } else {
                    name.name.fmt(f)
                }
            }
            CqlType::Custom(class) => write_quoted(f, class, '\''),
        }
    }
}

impl Display for SubSelection {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            SubSelection::Element(t) => write!(f, "[{t}]"),
            SubSelection::Slice(from, to) => {
                f.write_str("[")?;
                match from {
                    Some(from) => write_adjacent(f, &from.to_string(), "..")?,
                    None => f.write_str("..")?,
                }
                if let Some(to) = to {
                    write!(f, "{to}")?;
                }
                f.write_str("]")
            }
            SubSelection::Field(name) => write!(f, ".{name}"),
        }
    }
}

impl Display for MetadataFunction {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MetadataFunction::WriteTime => "WRITETIME",
            MetadataFunction::MaxWriteTime => "MAXWRITETIME",
            MetadataFunction::Ttl => "TTL",
        })
    }
}

impl Display for Selector {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.kind {
            SelectorKind::Column(c) => c.fmt(f),
            SelectorKind::Term(t) => t.fmt(f),
            SelectorKind::CountStar => f.write_str("COUNT(*)"),
            SelectorKind::Metadata {
                function,
                column,
                sub,
            } => {
                write!(f, "{function}({column}")?;
                if let Some(sub) = sub {
                    write!(f, "{sub}")?;
                }
                f.write_str(")")
            }
            SelectorKind::Cast { selector, ty } => write!(f, "CAST({selector} AS {ty})"),
            SelectorKind::Function { name, args } => {
                write!(f, "{name}(")?;
                comma(f, args)?;
                f.write_str(")")
            }
            SelectorKind::Binary { op, left, right } => {
                write!(f, "{left} {} {right}", op.symbol())
            }
            SelectorKind::Negate(s) => write_negated(f, s),
            SelectorKind::Sub { selector, sub } => {
                write_adjacent(f, &selector.to_string(), &sub.to_string())
            }
            SelectorKind::TypeHint { ty, selector } => write!(f, "({ty}) {selector}"),
            SelectorKind::Tuple(items) => {
                f.write_str("(")?;
                comma(f, items)?;
                f.write_str(")")
            }
            SelectorKind::List(items) => {
                f.write_str("[")?;
                comma(f, items)?;
                f.write_str("]")
            }
            SelectorKind::Set(items) => {
                f.write_str("{")?;
                comma(f, items)?;
                f.write_str("}")
            }
            SelectorKind::Map(entries) => {
                f.write_str("{")?;
                joined(f, entries, ", ", |f, (k, v)| write!(f, "{k}: {v}"))?;
                f.write_str("}")
            }
        }
    }
}

fn write_where(f: &mut Formatter<'_>, relations: &[Relation]) -> fmt::Result {
    if relations.is_empty() {
        return Ok(());
    }
    f.write_str(" WHERE ")?;
    joined(f, relations, " AND ", |f, r| r.fmt(f))
}

impl Display for InValues {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            InValues::List(items) => {
                f.write_str("(")?;
                comma(f, items)?;
                f.write_str(")")
            }
            InValues::Marker(m) => m.fmt(f),
        }
    }
}

impl Display for Relation {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.kind {
            RelationKind::Compare { column, op, value } => {
                write!(f, "{column} {} {value}", op.symbol())
            }
            RelationKind::In { column, values } => write!(f, "{column} IN {values}"),
            RelationKind::Contains { column, key, value } => {
                let key = if *key { " KEY" } else { "" };
                write!(f, "{column} CONTAINS{key} {value}")
            }
            RelationKind::MapEntry {
                column,
                key,
                op,
                value,
            } => write!(f, "{column}[{key}] {} {value}", op.symbol()),
            RelationKind::MultiCompare { columns, op, value } => {
                f.write_str("(")?;
                comma(f, columns)?;
                write!(f, ") {} {value}", op.symbol())
            }
            RelationKind::MultiIn { columns, values } => {
                f.write_str("(")?;
                comma(f, columns)?;
                write!(f, ") IN {values}")
            }
            RelationKind::Token { columns, op, value } => {
                f.write_str("token(")?;
                comma(f, columns)?;
                write!(f, ") {} {value}", op.symbol())
            }
            RelationKind::Like { column, value } => write!(f, "{column} LIKE {value}"),
            RelationKind::IsNotNull { column } => write!(f, "{column} IS NOT NULL"),
        }
    }
}

impl Display for SelectItem {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.selector.fmt(f)?;
        if let Some(alias) = &self.alias {
            write!(f, " AS {alias}")?;
        }
        Ok(())
    }
}

impl Display for SelectClause {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            SelectClause::Star => f.write_str("*"),
            SelectClause::Items(items) => comma(f, items),
        }
    }
}

impl Display for Ordering {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.column.fmt(f)?;
        if let Some(order) = self.order {
            write!(f, " {}", order.as_str())?;
        }
        Ok(())
    }
}

/// Writes a selection whose first word may be a modifier still open at its
/// position (`json`, `distinct`). The parser takes the word as the modifier
/// whenever the rest reads as a selection (`SELECT json - 1 FROM t` is JSON
/// output of `-1`, and in `SELECT json AS j` the `as` reads as a column),
/// so a column of that name is quoted unless `,` or nothing follows it.
fn write_selection(f: &mut Formatter<'_>, text: &str, open_modifiers: &[Keyword]) -> fmt::Result {
    let mut tokens = Lexer::new(text);
    let first = tokens.next();
    let next = tokens.next().map(|t| t.kind);
    let continues = !matches!(next, None | Some(TokenKind::Comma));
    match first {
        Some(word)
            if continues
                && matches!(word.kind, TokenKind::Keyword(k) if open_modifiers.contains(&k)) =>
        {
            write_quoted(f, word.text(text), '"')?;
            f.write_str(&text[word.span.end..])
        }
        _ => f.write_str(text),
    }
}

impl Display for Select {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("SELECT ")?;
        if self.json {
            f.write_str("JSON ")?;
        }
        if self.distinct {
            f.write_str("DISTINCT ")?;
        }
        let open_modifiers: &[Keyword] = match (self.json, self.distinct) {
            (_, true) => &[],
            (true, false) => &[Keyword::Distinct],
            (false, false) => &[Keyword::Json, Keyword::Distinct],
        };
        write_selection(f, &self.selection.to_string(), open_modifiers)?;
        write!(f, " FROM {}", self.from)?;
        write_where(f, &self.where_clause)?;
        if !self.group_by.is_empty() {
            f.write_str(" GROUP BY ")?;
            comma(f, &self.group_by)?;
        }
        if !self.order_by.is_empty() {
            f.write_str(" ORDER BY ")?;
            comma(f, &self.order_by)?;
        }
        if let Some(n) = &self.per_partition_limit {
            write!(f, " PER PARTITION LIMIT {n}")?;
        }
        if let Some(n) = &self.limit {
            write!(f, " LIMIT {n}")?;
        }
        if self.allow_filtering {
            f.write_str(" ALLOW FILTERING")?;
        }
        Ok(())
    }
}

impl Display for UsingItem {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            UsingItem::Ttl(t) => write!(f, "TTL {t}"),
            UsingItem::Timestamp(t) => write!(f, "TIMESTAMP {t}"),
        }
    }
}

fn write_using(f: &mut Formatter<'_>, using: &[UsingItem]) -> fmt::Result {
    if using.is_empty() {
        return Ok(());
    }
    f.write_str(" USING ")?;
    joined(f, using, " AND ", |f, u| u.fmt(f))
}

impl Display for Insert {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "INSERT INTO {} ", self.table)?;
        match &self.source {
            InsertSource::Values { columns, values } => {
                f.write_str("(")?;
                comma(f, columns)?;
                f.write_str(") VALUES (")?;
                comma(f, values)?;
                f.write_str(")")?;
            }
            InsertSource::Json { value, default } => {
                write!(f, "JSON {value}")?;
                match default {
                    Some(JsonDefault::Null) => f.write_str(" DEFAULT NULL")?,
                    Some(JsonDefault::Unset) => f.write_str(" DEFAULT UNSET")?,
                    None => {}
                }
            }
        }
        if self.if_not_exists {
            f.write_str(" IF NOT EXISTS")?;
        }
        write_using(f, &self.using)
    }
}

impl Display for ColumnRef {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            ColumnRef::Column(c) => c.fmt(f),
            ColumnRef::Element(c, t) => write!(f, "{c}[{t}]"),
            ColumnRef::Field(c, field) => write!(f, "{c}.{field}"),
        }
    }
}

impl Display for Assignment {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.kind {
            AssignmentKind::Set { target, value } => write!(f, "{target} = {value}"),
            AssignmentKind::Apply {
                column,
                op,
                value,
                shorthand,
            } => {
                let sign = match op {
                    ArithmeticSign::Plus => "+",
                    ArithmeticSign::Minus => "-",
                };
                if *shorthand {
                    write!(f, "{column} {sign}= {value}")
                } else {
                    write!(f, "{column} = {column} {sign} {value}")
                }
            }
            AssignmentKind::Prepend { column, value } => {
                write!(f, "{column} = {value} + {column}")
            }
        }
    }
}

impl Display for Condition {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ConditionKind::Compare { target, op, value } => {
                write!(f, "{target} {} {value}", op.symbol())
            }
            ConditionKind::In { target, values } => write!(f, "{target} IN {values}"),
            ConditionKind::Contains { column, key, value } => {
                let key = if *key { " KEY" } else { "" };
                write!(f, "{column} CONTAINS{key} {value}")
            }
        }
    }
}

fn write_if(f: &mut Formatter<'_>, clause: &Option<IfClause>) -> fmt::Result {
    match clause {
        None => Ok(()),
        Some(IfClause::Exists) => f.write_str(" IF EXISTS"),
        Some(IfClause::Conditions(conditions)) => {
            f.write_str(" IF ")?;
            joined(f, conditions, " AND ", |f, c| c.fmt(f))
        }
    }
}

impl Display for Update {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "UPDATE {}", self.table)?;
        write_using(f, &self.using)?;
        f.write_str(" SET ")?;
        comma(f, &self.assignments)?;
        write_where(f, &self.where_clause)?;
        write_if(f, &self.if_clause)
    }
}

impl Display for Delete {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("DELETE ")?;
        if !self.targets.is_empty() {
            comma(f, &self.targets)?;
            f.write_str(" ")?;
        }
        write!(f, "FROM {}", self.table)?;
        write_using(f, &self.using)?;
        write_where(f, &self.where_clause)?;
        write_if(f, &self.if_clause)
    }
}

impl Display for BatchStatement {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            BatchStatement::Insert(s) => s.fmt(f),
            BatchStatement::Update(s) => s.fmt(f),
            BatchStatement::Delete(s) => s.fmt(f),
        }
    }
}

impl Display for Batch {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("BEGIN ")?;
        match self.kind {
            BatchKind::Logged => {}
            BatchKind::Unlogged => f.write_str("UNLOGGED ")?,
            BatchKind::Counter => f.write_str("COUNTER ")?,
        }
        f.write_str("BATCH")?;
        write_using(f, &self.using)?;
        for statement in &self.statements {
            write!(f, " {statement};")?;
        }
        f.write_str(" APPLY BATCH")
    }
}

impl Display for Statement {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Statement::CreateKeyspace(s) => s.fmt(f),
            Statement::AlterKeyspace(s) => s.fmt(f),
            Statement::Drop(s) => s.fmt(f),
            Statement::Use(s) => s.fmt(f),
            Statement::CreateTable(s) => s.fmt(f),
            Statement::AlterTable(s) => s.fmt(f),
            Statement::Truncate(s) => s.fmt(f),
            Statement::CreateIndex(s) => s.fmt(f),
            Statement::CreateType(s) => s.fmt(f),
            Statement::AlterType(s) => s.fmt(f),
            Statement::CreateMaterializedView(s) => s.fmt(f),
            Statement::AlterMaterializedView(s) => s.fmt(f),
            Statement::Select(s) => s.fmt(f),
            Statement::Insert(s) => s.fmt(f),
            Statement::Update(s) => s.fmt(f),
            Statement::Delete(s) => s.fmt(f),
            Statement::Batch(s) => s.fmt(f),
            Statement::Role(s) => s.fmt(f),
        }
    }
}
