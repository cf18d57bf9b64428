//! What each bind marker of a prepared statement receives: the column (or
//! the pseudo-column Cassandra names, `[limit]`, `in(k)`, `idx(l)`, …) and
//! its type. A driver encodes each bind value by that type, and routes a
//! request by the markers that carry the partition key, so both come from
//! here, as Cassandra's `PREPARED` result gives them.

use crate::error::Error;
use crate::schema::Table;
use crate::syntax::ast::{
    AssignmentKind, BatchStatement, BindMarker, ColumnRef, ConditionKind, Delete, IfClause,
    InValues, Insert, InsertSource, NativeType, Relation, RelationKind, Statement, Term, TermKind,
    Update, UsingItem,
};
use crate::types::DataType;

use super::PlanContext;

/// The receiver of one bind marker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkerSpec {
    /// The keyspace of the table the statement is about.
    pub keyspace: String,
    /// The table.
    pub table: String,
    /// The receiver's name as Cassandra gives it (a named marker's own name).
    pub name: String,
    /// The receiver itself (`c`, `in(k)`, `[ttl]`) even for a named marker:
    /// what Cassandra's messages about the bound value name.
    pub receiver: String,
    /// The type a bound value must have.
    pub data_type: DataType,
    /// Where the marker is in the statement's text (its span's start).
    pub offset: usize,
}

/// The markers of a statement, in the order they are bound, and which of
/// them carry the partition key.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Markers {
    /// One receiver per marker, in text order.
    pub specs: Vec<MarkerSpec>,
    /// For each partition key column, in key order, the index of the marker
    /// that binds it; empty unless every key column is bound by a marker
    /// (as Cassandra's `getPartitionKeyBindVariableIndexes`).
    pub partition_key_indexes: Vec<u16>,
}

/// The receivers of `statement`'s markers under `ctx`'s schema and keyspace.
pub fn marker_specs(ctx: &PlanContext, statement: &Statement) -> Result<Markers, Error> {
    let mut found = Found::default();
    match statement {
        Statement::Select(s) => {
            let table = table_of(ctx, &s.from)?;
            let mut at = At::new(table, &mut found);
            at.relations(&s.where_clause);
            if let Some(t) = &s.per_partition_limit {
                at.term(t, "[per_partition_limit]", &int());
            }
            if let Some(t) = &s.limit {
                at.term(t, "[limit]", &int());
            }
            found.key_indexes_from(table);
        }
        Statement::Insert(i) => found.insert(ctx, i)?,
        Statement::Update(u) => found.update(ctx, u)?,
        Statement::Delete(d) => found.delete(ctx, d)?,
        Statement::Batch(b) => {
            for s in &b.statements {
                match s {
                    BatchStatement::Insert(i) => found.insert(ctx, i)?,
                    BatchStatement::Update(u) => found.update(ctx, u)?,
                    BatchStatement::Delete(d) => found.delete(ctx, d)?,
                }
            }
            found.key_columns.clear();
        }
        _ => {}
    }
    Ok(found.finish())
}

fn table_of<'c>(
    ctx: &'c PlanContext,
    name: &crate::syntax::ast::QualifiedName,
) -> Result<&'c Table, Error> {
    ctx.catalog.resolve_table(ctx.keyspace.as_deref(), name)
}

fn int() -> DataType {
    DataType::Native(NativeType::Int)
}

/// Markers found so far, by their offset in the text.
#[derive(Debug, Default)]
struct Found {
    specs: Vec<(usize, MarkerSpec)>,
    /// Partition key column name → offset of the marker bound to it.
    key_columns: Vec<(String, usize)>,
    /// The partition key of the statement's table, in order.
    key_order: Vec<String>,
}

impl Found {
    fn insert(&mut self, ctx: &PlanContext, insert: &Insert) -> Result<(), Error> {
        let table = table_of(ctx, &insert.table)?;
        let mut at = At::new(table, self);
        match &insert.source {
            InsertSource::Values { columns, values } => {
                for (column, value) in columns.iter().zip(values) {
                    if let Some(c) = table.column(&column.name) {
                        at.term(value, &c.name, &c.data_type);
                        if c.is_partition_key() {
                            at.key_marker(&c.name, value);
                        }
                    }
                }
            }
            InsertSource::Json { value, .. } => {
                at.term(value, "[json]", &DataType::Native(NativeType::Text))
            }
        }
        at.using(&insert.using);
        self.key_indexes_from(table);
        Ok(())
    }

    fn update(&mut self, ctx: &PlanContext, update: &Update) -> Result<(), Error> {
        let table = table_of(ctx, &update.table)?;
        let mut at = At::new(table, self);
        at.using(&update.using);
        for a in &update.assignments {
            match &a.kind {
                AssignmentKind::Set { target, value } => at.assignment(target, value),
                AssignmentKind::Apply { column, value, .. }
                | AssignmentKind::Prepend { column, value, .. } => {
                    if let Some(c) = table.column(&column.name) {
                        at.term(value, &c.name, &c.data_type);
                    }
                }
            }
        }
        at.relations(&update.where_clause);
        at.conditions(&update.if_clause);
        self.key_indexes_from(table);
        Ok(())
    }

    fn delete(&mut self, ctx: &PlanContext, delete: &Delete) -> Result<(), Error> {
        let table = table_of(ctx, &delete.table)?;
        let mut at = At::new(table, self);
        for target in &delete.targets {
            if let ColumnRef::Element(column, key) = target {
                if let Some(c) = table.column(&column.name) {
                    let (name, ty) = element_key(&c.name, &c.data_type);
                    at.term(key, &name, &ty);
                }
            }
        }
        at.using(&delete.using);
        at.relations(&delete.where_clause);
        at.conditions(&delete.if_clause);
        self.key_indexes_from(table);
        Ok(())
    }

    fn key_indexes_from(&mut self, table: &Table) {
        self.key_order = table.partition_key.clone();
    }

    fn finish(mut self) -> Markers {
        self.specs.sort_by_key(|(at, _)| *at);
        self.specs.dedup_by_key(|(at, _)| *at);
        let index_of = |offset: usize| {
            self.specs
                .iter()
                .position(|(at, _)| *at == offset)
                .and_then(|i| u16::try_from(i).ok())
        };
        let partition_key_indexes = self
            .key_order
            .iter()
            .map(|k| {
                let offset = self.key_columns.iter().find(|(c, _)| c == k)?.1;
                index_of(offset)
            })
            .collect::<Option<Vec<u16>>>()
            .unwrap_or_default();
        Markers {
            specs: self.specs.into_iter().map(|(_, s)| s).collect(),
            partition_key_indexes,
        }
    }
}

/// The walk of one statement about `table`.
struct At<'a> {
    table: &'a Table,
    found: &'a mut Found,
}

impl<'a> At<'a> {
    fn new(table: &'a Table, found: &'a mut Found) -> At<'a> {
        At { table, found }
    }

    fn column(&self, name: &str) -> Option<(String, DataType)> {
        self.table
            .column(name)
            .map(|c| (c.name.clone(), c.data_type.clone()))
    }

    fn key_marker(&mut self, column: &str, value: &Term) {
        if matches!(value.kind, TermKind::Marker(_)) {
            self.found
                .key_columns
                .push((column.to_string(), value.span.start));
        }
    }

    /// Records the markers in `term`, which a receiver `name` of type `ty`
    /// takes: a marker itself, or the markers inside a literal.
    fn term(&mut self, term: &Term, name: &str, ty: &DataType) {
        match &term.kind {
            TermKind::Marker(marker) => {
                let receiver = name.to_string();
                let name = match marker {
                    BindMarker::Named(n) => n.name.clone(),
                    BindMarker::Anonymous => name.to_string(),
                };
                self.found.specs.push((
                    term.span.start,
                    MarkerSpec {
                        keyspace: self.table.keyspace.clone(),
                        table: self.table.name.clone(),
                        name,
                        receiver,
                        data_type: ty.clone(),
                        offset: term.span.start,
                    },
                ));
            }
            TermKind::List(items) | TermKind::Set(items) => {
                let element = match ty {
                    DataType::List { element, .. } | DataType::Set { element, .. } => {
                        (**element).clone()
                    }
                    DataType::Vector { element, .. } => (**element).clone(),
                    other => other.clone(),
                };
                items.iter().for_each(|t| self.term(t, name, &element));
            }
            TermKind::Map(entries) => {
                if let DataType::Map { key, value, .. } = ty {
                    for (k, v) in entries {
                        self.term(k, name, key);
                        self.term(v, name, value);
                    }
                }
            }
            TermKind::Tuple(items) => {
                if let DataType::Tuple(types) = ty {
                    for (t, item_ty) in items.iter().zip(types) {
                        self.term(t, name, item_ty);
                    }
                }
            }
            TermKind::Udt(fields) => {
                if let DataType::Udt { fields: types, .. } = ty {
                    for (field, t) in fields {
                        if let Some((_, field_ty)) = types.iter().find(|(n, _)| *n == field.name) {
                            self.term(t, &field.name, field_ty);
                        }
                    }
                }
            }
            TermKind::TypeHint { term, .. } | TermKind::Negate(term) => self.term(term, name, ty),
            // A marker inside a function call or an expression takes the
            // argument's type, which widerow does not resolve here: it is
            // offered as a blob (documented in docs/divergences.md).
            TermKind::FunctionCall { args, .. } => args
                .iter()
                .for_each(|t| self.term(t, name, &DataType::Native(NativeType::Blob))),
            TermKind::Cast { term, .. } => {
                self.term(term, name, &DataType::Native(NativeType::Blob))
            }
            TermKind::Binary { left, right, .. } => {
                self.term(left, name, ty);
                self.term(right, name, ty);
            }
            TermKind::Literal(_) => {}
        }
    }

    fn in_values(&mut self, values: &InValues, name: &str, ty: &DataType) {
        match values {
            InValues::List(terms) => terms.iter().for_each(|t| self.term(t, name, ty)),
            InValues::Marker(marker) => {
                let list = DataType::List {
                    element: Box::new(ty.clone()),
                    frozen: false,
                };
                self.term(marker, &format!("in({name})"), &list)
            }
        }
    }

    fn relations(&mut self, relations: &[Relation]) {
        for r in relations {
            self.relation(r);
        }
    }

    fn relation(&mut self, relation: &Relation) {
        match &relation.kind {
            RelationKind::Compare { column, value, op } => {
                if let Some((name, ty)) = self.column(&column.name) {
                    self.term(value, &name, &ty);
                    if matches!(op, crate::syntax::ast::Operator::Eq)
                        && self.table.partition_key.contains(&name)
                    {
                        self.key_marker(&name, value);
                    }
                }
            }
            RelationKind::In { column, values } => {
                if let Some((name, ty)) = self.column(&column.name) {
                    self.in_values(values, &name, &ty);
                }
            }
            RelationKind::Contains { column, key, value } => {
                if let Some((name, ty)) = self.column(&column.name) {
                    let element = match (&ty, key) {
                        (DataType::Map { key: k, .. }, true) => (**k).clone(),
                        (DataType::Map { value: v, .. }, false) => (**v).clone(),
                        (DataType::List { element, .. } | DataType::Set { element, .. }, _) => {
                            (**element).clone()
                        }
                        _ => ty.clone(),
                    };
                    self.term(value, &name, &element);
                }
            }
            RelationKind::Like { column, value } => {
                if let Some((name, ty)) = self.column(&column.name) {
                    self.term(value, &name, &ty);
                }
            }
            RelationKind::MapEntry {
                column, key, value, ..
            } => {
                if let Some((
                    name,
                    DataType::Map {
                        key: k, value: v, ..
                    },
                )) = self.column(&column.name)
                {
                    self.term(key, &name, &k);
                    self.term(value, &name, &v);
                }
            }
            RelationKind::MultiCompare { columns, value, .. } => {
                let (name, tuple) = self.tuple_of(columns);
                self.term(value, &name, &tuple);
            }
            RelationKind::MultiIn { columns, values } => {
                let (name, tuple) = self.tuple_of(columns);
                self.in_values(values, &name, &tuple);
            }
            RelationKind::Token { value, .. } => self.term(
                value,
                "partition key token",
                &DataType::Native(NativeType::Bigint),
            ),
            RelationKind::IsNotNull { .. } => {}
        }
    }

    /// `(a, b)` as Cassandra names a multi-column receiver, with its type.
    fn tuple_of(&self, columns: &[crate::syntax::ast::Ident]) -> (String, DataType) {
        let mut names = Vec::new();
        let mut types = Vec::new();
        for c in columns {
            if let Some((name, ty)) = self.column(&c.name) {
                names.push(name);
                types.push(ty);
            }
        }
        (format!("({})", names.join(",")), DataType::Tuple(types))
    }

    fn using(&mut self, using: &[UsingItem]) {
        for item in using {
            match item {
                UsingItem::Ttl(t) => self.term(t, "[ttl]", &int()),
                UsingItem::Timestamp(t) => {
                    self.term(t, "[timestamp]", &DataType::Native(NativeType::Bigint))
                }
            }
        }
    }

    fn assignment(&mut self, target: &ColumnRef, value: &Term) {
        match target {
            ColumnRef::Column(column) => {
                if let Some((name, ty)) = self.column(&column.name) {
                    self.term(value, &name, &ty);
                }
            }
            ColumnRef::Element(column, key) => {
                if let Some((name, ty)) = self.column(&column.name) {
                    let (key_name, key_ty) = element_key(&name, &ty);
                    self.term(key, &key_name, &key_ty);
                    self.term(value, &format!("value({name})"), &element_value(&ty));
                }
            }
            ColumnRef::Field(column, field) => {
                if let Some((name, DataType::Udt { fields, .. })) = self.column(&column.name) {
                    if let Some((_, ty)) = fields.iter().find(|(n, _)| *n == field.name) {
                        self.term(value, &format!("{name}.{}", field.name), ty);
                    }
                }
            }
        }
    }

    fn conditions(&mut self, clause: &Option<IfClause>) {
        let Some(IfClause::Conditions(conditions)) = clause else {
            return;
        };
        for c in conditions {
            match &c.kind {
                ConditionKind::Compare { target, value, .. } => self.condition(target, value),
                ConditionKind::In { target, values } => {
                    if let Some((name, ty)) = self.target_type(target) {
                        self.in_values(values, &name, &ty);
                    }
                }
                ConditionKind::Contains { column, key, value } => {
                    self.relation(&Relation {
                        kind: RelationKind::Contains {
                            column: column.clone(),
                            key: *key,
                            value: value.clone(),
                        },
                        span: value.span,
                    });
                }
            }
        }
    }

    fn condition(&mut self, target: &ColumnRef, value: &Term) {
        if let ColumnRef::Element(column, key) = target {
            if let Some((name, ty)) = self.column(&column.name) {
                let (key_name, key_ty) = element_key(&name, &ty);
                self.term(key, &key_name, &key_ty);
            }
        }
        if let Some((name, ty)) = self.target_type(target) {
            self.term(value, &name, &ty);
        }
    }

    /// The name and type of what a condition compares: the column, one
    /// element of it, or one field.
    fn target_type(&self, target: &ColumnRef) -> Option<(String, DataType)> {
        let (name, ty) = self.column(&target.column().name)?;
        Some(match target {
            ColumnRef::Column(_) => (name, ty),
            ColumnRef::Element(..) => (format!("value({name})"), element_value(&ty)),
            ColumnRef::Field(_, field) => match &ty {
                DataType::Udt { fields, .. } => {
                    let (_, f) = fields.iter().find(|(n, _)| *n == field.name)?;
                    (format!("{name}.{}", field.name), f.clone())
                }
                _ => return None,
            },
        })
    }
}

/// The receiver of `c[key]`'s key: a list's index or a map's key.
fn element_key(name: &str, ty: &DataType) -> (String, DataType) {
    match ty {
        DataType::Map { key, .. } => (format!("key({name})"), (**key).clone()),
        _ => (format!("idx({name})"), int()),
    }
}

/// The receiver of the value set at `c[key]`.
fn element_value(ty: &DataType) -> DataType {
    match ty {
        DataType::Map { value, .. } => (**value).clone(),
        DataType::List { element, .. } | DataType::Set { element, .. } => (**element).clone(),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse_statement;

    fn ctx() -> PlanContext {
        let mut ctx = PlanContext::new();
        for s in crate::split_statements(
            "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
             USE ks;
             CREATE TABLE t (k int, c int, v text, l list<int>, m map<text, int>, PRIMARY KEY (k, c));",
        ) {
            ctx.apply_schema(&parse_statement(&s.text).unwrap()).unwrap();
        }
        ctx
    }

    fn names(cql: &str) -> (Vec<String>, Vec<u16>) {
        let ctx = ctx();
        let m = marker_specs(&ctx, &parse_statement(cql).unwrap()).unwrap();
        (
            m.specs.iter().map(|s| s.name.clone()).collect(),
            m.partition_key_indexes,
        )
    }

    #[test]
    fn receivers_are_named_as_cassandra_names_them() {
        assert_eq!(
            names("SELECT * FROM t WHERE k = ? AND c IN ? LIMIT ?"),
            (vec!["k".into(), "in(c)".into(), "[limit]".into()], vec![0])
        );
        assert_eq!(
            names("UPDATE t USING TTL ? SET l[?] = ?, m = m + ? WHERE c = ? AND k = :key"),
            (
                vec![
                    "[ttl]".into(),
                    "idx(l)".into(),
                    "value(l)".into(),
                    "m".into(),
                    "c".into(),
                    "key".into()
                ],
                vec![5]
            )
        );
        assert_eq!(
            names("INSERT INTO t (c, k, v) VALUES (?, ?, ?) USING TIMESTAMP ?"),
            (
                vec!["c".into(), "k".into(), "v".into(), "[timestamp]".into()],
                vec![1]
            )
        );
        assert_eq!(
            names("SELECT * FROM t WHERE token(k) > ?"),
            (vec!["partition key token".into()], vec![])
        );
    }
}
