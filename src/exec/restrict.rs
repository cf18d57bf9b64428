//! WHERE clauses as the executor uses them: every relation evaluated to
//! values of its column's type, then used two ways — to find the
//! partitions and rows a statement addresses (keys from `=` and `IN`, a
//! clustering slice), and as predicates each row is tested against.
//!
//! The planner has already refused what Cassandra refuses, so this module
//! trusts the shape of the clause and only computes.

use std::cmp::Ordering;
use std::collections::HashSet;
use std::ops::Bound as StdBound;

use crate::error::Error;
use crate::limits::Limits;
use crate::schema::{Column, ColumnKind, Table};
use crate::storage::{Bound as KeyBound, ClusteringKey, KeyValues};
use crate::syntax::ast::{InValues, Operator, Relation, RelationKind, Term, TermKind};
use crate::types::{DataType, Value};

use super::bind::{eval_term, Binds};
use super::functions::FunctionContext;
use super::view::RowView;

/// One evaluated relation.
#[derive(Debug, Clone)]
pub(crate) enum Predicate<'t> {
    /// `col op value`
    Compare {
        column: &'t Column,
        op: Operator,
        value: Value,
    },
    /// `col IN (…)`, duplicates removed.
    In {
        column: &'t Column,
        values: Vec<Value>,
    },
    /// `col CONTAINS value` / `col CONTAINS KEY value`
    Contains {
        column: &'t Column,
        key: bool,
        value: Value,
    },
    /// `col[key] op value`
    MapEntry {
        column: &'t Column,
        key: Value,
        op: Operator,
        value: Value,
    },
    /// `(c1, c2) op (v1, v2)`, compared as tuples of values.
    MultiCompare {
        columns: Vec<&'t Column>,
        op: Operator,
        values: Vec<Value>,
    },
    /// `(c1, c2) IN ((…), …)`
    MultiIn {
        columns: Vec<&'t Column>,
        tuples: Vec<Vec<Value>>,
    },
    /// `token(k…) op t`
    Token { op: Operator, token: i64 },
    /// `col LIKE 'pattern'`
    Like {
        column: &'t Column,
        like: super::like::Like,
    },
    /// What a legacy secondary index's lookup finds: the whole value, an
    /// element or a map key whose serialized bytes are `bytes` (see
    /// `index_lookup`).
    SameBytes {
        column: &'t Column,
        part: super::index_lookup::IndexedPart,
        bytes: Vec<u8>,
    },
}

/// Evaluates every relation of a WHERE clause.
pub(crate) fn compile<'t>(
    table: &'t Table,
    relations: &[Relation],
    binds: &Binds,
    fcx: &mut FunctionContext<'_>,
    limits: &Limits,
) -> Result<Vec<Predicate<'t>>, Error> {
    let max_in = limits.in_list_length;
    let mut out = Vec::with_capacity(relations.len());
    for relation in relations {
        if let Some(p) = compile_one(table, relation, binds, fcx)? {
            let count = match &p {
                Predicate::In { values, .. } => values.len(),
                Predicate::MultiIn { tuples, .. } => tuples.len(),
                _ => 0,
            };
            if count > max_in {
                return Err(crate::limits::in_list_too_long(
                    count,
                    max_in,
                    relation.span,
                ));
            }
            out.push(p);
        }
    }
    check_cartesian_products(&out, limits.in_select_cartesian_product)?;
    Ok(out)
}

/// The keys the IN lists of a statement name together, once bind values
/// are known (the planner counts an `IN ?` as one): refused past
/// `[limits] in_select_cartesian_product`, before any key is built.
fn check_cartesian_products(predicates: &[Predicate<'_>], max: usize) -> Result<(), Error> {
    type Group = (&'static str, fn(&Column) -> bool);
    let groups: [Group; 2] = [
        ("partition key", Column::is_partition_key),
        ("clustering key", Column::is_clustering),
    ];
    for (what, belongs) in groups {
        let product = predicates.iter().fold(1usize, |product, p| match p {
            Predicate::In { column, values } if belongs(column) => {
                product.saturating_mul(values.len())
            }
            Predicate::MultiIn { columns, tuples }
                if columns.first().is_some_and(|c| belongs(c)) =>
            {
                product.saturating_mul(tuples.len())
            }
            _ => product,
        });
        if product > max {
            return Err(crate::limits::cartesian_product_exceeded(
                what, product, max,
            ));
        }
    }
    Ok(())
}

fn column<'t>(table: &'t Table, name: &str) -> Result<&'t Column, Error> {
    table
        .column(name)
        .ok_or_else(|| Error::invalid(format!("Undefined column name {name}")))
}

fn compile_one<'t>(
    table: &'t Table,
    relation: &Relation,
    binds: &Binds,
    fcx: &mut FunctionContext<'_>,
) -> Result<Option<Predicate<'t>>, Error> {
    let predicate = match &relation.kind {
        RelationKind::Compare {
            column: c,
            op,
            value,
        } => {
            let column = column(table, &c.name)?;
            let value = eval_term(value, &column.data_type, &column.name, binds, fcx)?;
            key_not_null(column, &value)?;
            filter_not_null(column, &value, "value")?;
            Predicate::Compare {
                column,
                op: *op,
                value,
            }
        }
        RelationKind::In { column: c, values } => {
            let column = column(table, &c.name)?;
            let mut values = in_values(values, &column.data_type, &column.name, binds, fcx)?;
            for v in &values {
                key_not_null(column, v)?;
            }
            dedup(&mut values);
            Predicate::In { column, values }
        }
        RelationKind::Contains {
            column: c,
            key,
            value,
        } => {
            let column = column(table, &c.name)?;
            let ty = contained_type(&column.data_type, *key);
            let value = eval_term(value, &ty, &column.name, binds, fcx)?;
            filter_not_null(column, &value, "value")?;
            Predicate::Contains {
                column,
                key: *key,
                value,
            }
        }
        RelationKind::MapEntry {
            column: c,
            key,
            op,
            value,
        } => {
            let column = column(table, &c.name)?;
            let (kt, vt) = match &column.data_type {
                DataType::Map { key, value, .. } => ((**key).clone(), (**value).clone()),
                other => (other.clone(), other.clone()),
            };
            let key = eval_term(key, &kt, &column.name, binds, fcx)?;
            let value = eval_term(value, &vt, &column.name, binds, fcx)?;
            filter_not_null(column, &key, "map key")?;
            filter_not_null(column, &value, "map value")?;
            Predicate::MapEntry {
                column,
                key,
                op: *op,
                value,
            }
        }
        RelationKind::MultiCompare { columns, op, value } => {
            let columns = columns
                .iter()
                .map(|c| column(table, &c.name))
                .collect::<Result<Vec<_>, _>>()?;
            let values = tuple_values(value, &columns, binds, fcx)?;
            Predicate::MultiCompare {
                columns,
                op: *op,
                values,
            }
        }
        RelationKind::MultiIn { columns, values } => {
            let columns = columns
                .iter()
                .map(|c| column(table, &c.name))
                .collect::<Result<Vec<_>, _>>()?;
            let mut tuples = match values {
                InValues::List(terms) => terms
                    .iter()
                    .map(|t| tuple_values(t, &columns, binds, fcx))
                    .collect::<Result<Vec<_>, _>>()?,
                InValues::Marker(marker) => {
                    let ty = DataType::List {
                        element: Box::new(tuple_type(&columns)),
                        frozen: true,
                    };
                    match eval_term(marker, &ty, "in", binds, fcx)? {
                        Value::List(items) => items.into_iter().map(tuple_parts).collect(),
                        _ => Vec::new(),
                    }
                }
            };
            tuples.sort_by(|a, b| compare_tuples(a, b));
            tuples.dedup_by(|a, b| compare_tuples(a, b) == Ordering::Equal);
            Predicate::MultiIn { columns, tuples }
        }
        RelationKind::Token { op, value, .. } => Predicate::Token {
            op: *op,
            token: token_value(table, value, binds, fcx)?,
        },
        RelationKind::Like { column: c, value } => {
            let column = column(table, &c.name)?;
            let pattern = eval_term(value, &column.data_type, &column.name, binds, fcx)?;
            let like = super::like::Like::new(table, column, &pattern)?;
            Predicate::Like { column, like }
        }
        RelationKind::IsNotNull { .. } => return Ok(None),
    };
    Ok(Some(predicate))
}

fn key_not_null(column: &Column, value: &Value) -> Result<(), Error> {
    if column.is_primary_key() && value.is_null() {
        return Err(Error::invalid(format!(
            "Invalid null value in condition for column {}",
            column.name
        )));
    }
    Ok(())
}

/// A null in a row filter's expression on a regular or static column
/// (`part`: "value", "map key" or "map value"), refused as Cassandra's
/// `RowFilter` expressions refuse it when they are validated.
fn filter_not_null(column: &Column, value: &Value, part: &str) -> Result<(), Error> {
    if !column.is_primary_key() && value.is_null() {
        return Err(Error::invalid(format!(
            "Unsupported null {part} for column {}",
            column.name
        )));
    }
    Ok(())
}

/// Drops repeated values, keeping the first of each, in time linear in
/// the list (a list may hold `in_list_length` values).
fn dedup(values: &mut Vec<Value>) {
    let mut seen: HashSet<&Value> = HashSet::with_capacity(values.len());
    let first: Vec<bool> = values.iter().map(|v| seen.insert(v)).collect();
    let mut keep = first.into_iter();
    values.retain(|_| keep.next().unwrap_or(true));
}

fn in_values(
    values: &InValues,
    ty: &DataType,
    column: &str,
    binds: &Binds,
    fcx: &mut FunctionContext<'_>,
) -> Result<Vec<Value>, Error> {
    match values {
        InValues::List(terms) => terms
            .iter()
            .map(|t| eval_term(t, ty, column, binds, fcx))
            .collect(),
        InValues::Marker(marker) => {
            let list = DataType::List {
                element: Box::new(ty.clone()),
                frozen: true,
            };
            match eval_term(marker, &list, column, binds, fcx)? {
                // Cassandra reads the bound list through its element type's
                // deserializer, which makes an empty number, date or UUID
                // a null: a key's is then refused as null.
                Value::List(items) => Ok(items
                    .into_iter()
                    .map(|v| match v {
                        Value::Empty => Value::Null,
                        v => v,
                    })
                    .collect()),
                Value::Null => Err(Error::invalid(format!(
                    "Invalid null value for column {column}"
                ))),
                other => Ok(vec![other]),
            }
        }
    }
}

fn contained_type(ty: &DataType, key: bool) -> DataType {
    match ty {
        DataType::List { element, .. } | DataType::Set { element, .. } => (**element).clone(),
        DataType::Map { key: k, .. } if key => (**k).clone(),
        DataType::Map { value, .. } => (**value).clone(),
        other => other.clone(),
    }
}

fn tuple_type(columns: &[&Column]) -> DataType {
    DataType::Tuple(columns.iter().map(|c| c.data_type.clone()).collect())
}

fn tuple_parts(value: Value) -> Vec<Value> {
    match value {
        Value::Tuple(parts) => parts
            .into_iter()
            .map(|p| p.unwrap_or(Value::Null))
            .collect(),
        other => vec![other],
    }
}

fn tuple_values(
    term: &Term,
    columns: &[&Column],
    binds: &Binds,
    fcx: &mut FunctionContext<'_>,
) -> Result<Vec<Value>, Error> {
    if let TermKind::Tuple(items) = &term.kind {
        let mut out = Vec::with_capacity(items.len());
        for (item, column) in items.iter().zip(columns) {
            let value = eval_term(item, &column.data_type, &column.name, binds, fcx)?;
            key_not_null(column, &value)?;
            out.push(value);
        }
        return Ok(out);
    }
    let value = eval_term(term, &tuple_type(columns), "tuple", binds, fcx)?;
    Ok(tuple_parts(value))
}

/// The token a `token(…) op t` relation compares with: a bigint, or
/// `token(v…)` of literals computed with the partitioner.
fn token_value(
    table: &Table,
    value: &Term,
    binds: &Binds,
    fcx: &mut FunctionContext<'_>,
) -> Result<i64, Error> {
    if let TermKind::FunctionCall { name, args } = &value.kind {
        if name.keyspace.is_none() && name.name.name == "token" {
            let mut key = Vec::with_capacity(args.len());
            for (arg, column) in args.iter().zip(table.partition_key_columns()) {
                key.push(eval_term(arg, &column.data_type, &column.name, binds, fcx)?);
            }
            return partition_token(&key);
        }
    }
    let ty = DataType::Native(crate::syntax::ast::NativeType::Bigint);
    match eval_term(value, &ty, "partition key token", binds, fcx)? {
        Value::Bigint(t) => Ok(t),
        _ => Err(Error::invalid("Invalid null token value")),
    }
}

/// The Murmur3 token and serialized key of a partition key.
pub(crate) fn partition_position<V: std::borrow::Borrow<Value>>(
    key: &[V],
) -> Result<crate::storage::PartitionPosition, Error> {
    let mut bytes = Vec::new();
    let token = partition_token_into(key, &mut bytes)?;
    Ok(crate::storage::PartitionPosition {
        token,
        key: bytes.into_boxed_slice(),
    })
}

/// The Murmur3 token of a partition key, its serialized bytes left in
/// `bytes` (cleared first).
fn partition_token_into<V: std::borrow::Borrow<Value>>(
    key: &[V],
    bytes: &mut Vec<u8>,
) -> Result<i64, Error> {
    compose_partition_key(key, bytes)?;
    Ok(crate::cluster::murmur3::murmur3_token(bytes))
}

/// Serializes partition key `key` into `bytes` (cleared first), refusing
/// an empty or oversized key as Cassandra does.
fn compose_partition_key<V: std::borrow::Borrow<Value>>(
    key: &[V],
    bytes: &mut Vec<u8>,
) -> Result<(), Error> {
    bytes.clear();
    Value::compose_key_into(key, bytes)?;
    if key.len() == 1 && bytes.is_empty() {
        // Cassandra validates every key a statement names.
        return Err(Error::invalid("Key may not be empty"));
    }
    crate::cluster::murmur3::check_key_len(bytes.len())
}

/// A partition key's bytes and token, in buffers a session keeps from one
/// compiled statement to the next so that finding a partition allocates
/// nothing; and a load writes row after row of one partition, whose token
/// is then the last one, not hashed again.
#[derive(Debug, Clone, Default)]
pub(crate) struct KeyBuffer {
    /// The last key's bytes, and its token (`None` before the first key).
    bytes: Vec<u8>,
    token: Option<i64>,
    /// Where the next key is serialized, to be compared with the last.
    next: Vec<u8>,
}

impl KeyBuffer {
    /// The Murmur3 token of partition key `key`, whose serialized bytes
    /// are then [`KeyBuffer::bytes`]: [`partition_position`] without
    /// allocating, for the point reads and writes that only look the
    /// partition up.
    pub(crate) fn token_of<V: std::borrow::Borrow<Value>>(
        &mut self,
        key: &[V],
    ) -> Result<i64, Error> {
        let token = partition_token_into(key, &mut self.bytes);
        self.token = token.as_ref().ok().copied();
        token
    }

    /// [`KeyBuffer::token_of`] for a key that is likely the last one again
    /// (a write in a load): compared with the last key's bytes first,
    /// which costs a random read more than it saves.
    pub(crate) fn token_of_likely_repeated<V: std::borrow::Borrow<Value>>(
        &mut self,
        key: &[V],
    ) -> Result<i64, Error> {
        compose_partition_key(key, &mut self.next)?;
        match self.token {
            Some(token) if self.next == self.bytes => Ok(token),
            _ => {
                std::mem::swap(&mut self.next, &mut self.bytes);
                let token = crate::cluster::murmur3::murmur3_token(&self.bytes);
                self.token = Some(token);
                Ok(token)
            }
        }
    }

    /// The bytes of the key last given to [`KeyBuffer::token_of`] or
    /// [`KeyBuffer::token_of_likely_repeated`].
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

fn serialize_parts(key: &[Value]) -> Result<Vec<Vec<u8>>, Error> {
    key.iter().map(Value::serialize).collect()
}

/// [`partition_position`] of a key already serialized part by part.
pub(crate) fn position_of_key_parts(
    parts: &[Vec<u8>],
) -> Result<crate::storage::PartitionPosition, Error> {
    if matches!(parts, [only] if only.is_empty()) {
        // Cassandra validates every key a statement names.
        return Err(Error::invalid("Key may not be empty"));
    }
    position_of_parts(parts)
}

/// Where a partition key lives, without the check on keys a statement
/// names: a materialized view keeps rows whose partition key is an empty
/// value, as Cassandra does (its view updates never validate the key).
pub(crate) fn unchecked_partition_position(
    key: &[Value],
) -> Result<crate::storage::PartitionPosition, Error> {
    position_of_parts(&serialize_parts(key)?)
}

fn position_of_parts(parts: &[Vec<u8>]) -> Result<crate::storage::PartitionPosition, Error> {
    let slices: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    let bytes = crate::cluster::murmur3::compose_partition_key(&slices)?;
    Ok(crate::storage::PartitionPosition {
        token: crate::cluster::murmur3::murmur3_token(&bytes),
        key: bytes.into_boxed_slice(),
    })
}

/// The token of a partition key.
pub(crate) fn partition_token(key: &[Value]) -> Result<i64, Error> {
    // `token('')` is the minimum token in Cassandra, not an error.
    Ok(unchecked_partition_position(key)?.token)
}

/// Compares two tuples of values component by component.
pub(crate) fn compare_tuples(a: &[Value], b: &[Value]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        match x.cmp(y) {
            Ordering::Equal => {}
            other => return other,
        }
    }
    a.len().cmp(&b.len())
}

/// Whether `order`, the order of a value against a bound, satisfies `op`.
pub(crate) fn holds(op: Operator, order: Ordering) -> bool {
    match op {
        Operator::Eq => order == Ordering::Equal,
        Operator::Ne => order != Ordering::Equal,
        Operator::Lt => order == Ordering::Less,
        Operator::Le => order != Ordering::Greater,
        Operator::Gt => order == Ordering::Greater,
        Operator::Ge => order != Ordering::Less,
    }
}

/// Whether a column whose value is `found` (`None`: no value) satisfies
/// `column op bound`. A null never satisfies a relation.
pub(crate) fn compare_holds(op: Operator, found: Option<&Value>, bound: &Value) -> bool {
    found.is_some_and(|v| !v.is_null() && !bound.is_null() && holds(op, v.cmp(bound)))
}

/// Whether `row` satisfies `predicate`. A null never satisfies a relation.
pub(crate) fn matches(predicate: &Predicate<'_>, row: &RowView<'_>) -> bool {
    match predicate {
        Predicate::Compare { column, op, value } => {
            compare_holds(*op, Some(row.value(column).as_ref()), value)
        }
        Predicate::In { column, values } => {
            let v = row.value(column);
            !v.is_null() && values.contains(&v)
        }
        Predicate::Like { column, like } => like.holds(row.value(column).as_ref()),
        Predicate::SameBytes {
            column,
            part,
            bytes,
        } => part.holds(row.value(column).as_ref(), bytes),
        Predicate::Contains { column, key, value } => match (row.value(column).as_ref(), key) {
            (Value::List(items) | Value::Set(items), _) => items.contains(value),
            (Value::Map(entries), true) => entries.iter().any(|(k, _)| k == value),
            (Value::Map(entries), false) => entries.iter().any(|(_, v)| v == value),
            _ => false,
        },
        Predicate::MapEntry {
            column,
            key,
            op,
            value,
        } => match row.value(column).as_ref() {
            Value::Map(entries) => entries
                .iter()
                .find(|(k, _)| k == key)
                .is_some_and(|(_, v)| holds(*op, v.cmp(value))),
            _ => false,
        },
        Predicate::MultiCompare {
            columns,
            op,
            values,
        } => {
            let actual: Vec<Value> = columns.iter().map(|c| row.value(c).into_owned()).collect();
            holds(*op, compare_tuples(&actual, values))
        }
        Predicate::MultiIn { columns, tuples } => {
            let actual: Vec<Value> = columns.iter().map(|c| row.value(c).into_owned()).collect();
            tuples
                .iter()
                .any(|t| compare_tuples(&actual, t) == Ordering::Equal)
        }
        // Token relations select partitions, not rows: see `token_admits`.
        Predicate::Token { .. } => true,
    }
}

/// Whether a partition at `token` satisfies every token relation. A bound
/// at the minimum token bounds nothing, whatever the operator: Cassandra
/// reads it as the ring's start or end (`token(k) <= MIN` and even
/// `token(k) = MIN` select every partition; checked against 5.0.8).
pub(crate) fn token_admits(predicates: &[Predicate<'_>], token: i64) -> bool {
    predicates.iter().all(|p| match p {
        Predicate::Token { token: bound, .. } if *bound == crate::cluster::murmur3::MIN_TOKEN => {
            true
        }
        Predicate::Token { op, token: bound } => holds(*op, token.cmp(bound)),
        _ => true,
    })
}

/// The values a predicate pins `column` to (`=` or `IN`), if it does,
/// borrowed from the predicate.
pub(crate) fn pinned<'p>(predicates: &'p [Predicate<'_>], column: &Column) -> Option<&'p [Value]> {
    for p in predicates {
        match p {
            Predicate::Compare {
                column: c,
                op: Operator::Eq,
                value,
            } if c.name == column.name => {
                return Some(std::slice::from_ref(value));
            }
            Predicate::In { column: c, values } if c.name == column.name => {
                return Some(values);
            }
            _ => {}
        }
    }
    None
}

/// Every combination of the values pinning `columns` (a cartesian product,
/// each component in the column type's order, duplicates dropped), or
/// `None` when some column is not pinned. Multi-column `=` and `IN` on
/// clustering columns pin their columns together.
pub(crate) fn key_combinations(
    predicates: &[Predicate<'_>],
    columns: &[&Column],
) -> Option<Vec<Vec<Value>>> {
    // Each position's choices, borrowed from the predicates (a tuple for a
    // multi-column relation, one value for a column), so that values are
    // cloned once, into the keys.
    let mut choices: Vec<Vec<&[Value]>> = Vec::with_capacity(columns.len());
    let mut i = 0;
    while i < columns.len() {
        if let Some((width, tuples)) = multi_pinned(predicates, columns[i]) {
            choices.push(tuples);
            i += width;
            continue;
        }
        let mut values: Vec<&Value> = pinned(predicates, columns[i])?.iter().collect();
        values.sort();
        values.dedup();
        choices.push(values.into_iter().map(std::slice::from_ref).collect());
        i += 1;
    }
    let total = choices
        .iter()
        .fold(1usize, |n, c| n.saturating_mul(c.len()));
    let mut out = Vec::with_capacity(total);
    if total == 0 {
        return Some(out);
    }
    // An odometer over the choices, the last position turning fastest: the
    // order of the nested loops of a cartesian product.
    let mut at = vec![0usize; choices.len()];
    loop {
        let mut key = Vec::with_capacity(columns.len());
        for (choice, &k) in choices.iter().zip(&at) {
            key.extend_from_slice(choice[k]);
        }
        out.push(key);
        let mut p = choices.len();
        loop {
            if p == 0 {
                return Some(out);
            }
            p -= 1;
            at[p] += 1;
            if at[p] < choices[p].len() {
                break;
            }
            at[p] = 0;
        }
    }
}

fn multi_pinned<'p>(
    predicates: &'p [Predicate<'_>],
    first: &Column,
) -> Option<(usize, Vec<&'p [Value]>)> {
    predicates.iter().find_map(|p| match p {
        Predicate::MultiCompare {
            columns,
            op: Operator::Eq,
            values,
        } if columns.first().is_some_and(|c| c.name == first.name) => {
            Some((columns.len(), vec![values.as_slice()]))
        }
        Predicate::MultiIn { columns, tuples }
            if columns.first().is_some_and(|c| c.name == first.name) =>
        {
            Some((columns.len(), tuples.iter().map(Vec::as_slice).collect()))
        }
        _ => None,
    })
}

/// The clustering columns of `table`, in order.
pub(crate) fn clustering_columns(table: &Table) -> Vec<&Column> {
    table.clustering_columns().collect()
}

/// The partition key columns of `table`, in order.
pub(crate) fn partition_columns(table: &Table) -> Vec<&Column> {
    table.partition_key_columns().collect()
}

/// Bit `i` set when clustering column `i` is DESC: the storage key's order.
pub(crate) fn descending_mask(table: &Table) -> u32 {
    table
        .clustering_columns()
        .enumerate()
        .filter(|(_, c)| {
            matches!(
                c.kind,
                ColumnKind::Clustering(_, crate::syntax::ast::Order::Desc)
            )
        })
        .fold(
            0,
            |mask, (i, _)| if i < 32 { mask | (1 << i) } else { mask },
        )
}

/// The storage range of the rows starting with clustering `prefix` and,
/// when the next clustering column has a slice (`c > 3 AND c <= 9`, or a
/// multi-column slice starting there), within it. Bounds are in storage
/// order, so a slice on a DESC column turns around.
pub(crate) fn slice_bounds(
    table: &Table,
    predicates: &[Predicate<'_>],
    prefix: &[Value],
) -> (StdBound<ClusteringKey>, StdBound<ClusteringKey>) {
    let mask = descending_mask(table);
    let prefixed =
        |values: &[Value]| -> KeyValues { prefix.iter().chain(values).cloned().collect() };
    let whole = |b| {
        if prefix.is_empty() {
            StdBound::Unbounded
        } else {
            StdBound::Included(ClusteringKey::bound(prefixed(&[]), mask, b))
        }
    };
    let (mut start, mut end) = (whole(KeyBound::Before), whole(KeyBound::After));
    let Some(next) = table.clustering_columns().nth(prefix.len()) else {
        return (start, end);
    };
    let descending = mask & (1 << prefix.len().min(31)) != 0;
    for p in predicates {
        let (op, values) = match p {
            Predicate::Compare { column, op, value } if column.name == next.name => {
                (*op, std::slice::from_ref(value))
            }
            // A tuple slice over columns of mixed directions is not one
            // range in storage order: the rows are filtered instead.
            Predicate::MultiCompare {
                columns,
                op,
                values,
            } if columns.first().is_some_and(|c| c.name == next.name)
                && uniform_direction(mask, prefix.len(), columns.len()) =>
            {
                (*op, values.as_slice())
            }
            _ => continue,
        };
        // Whether the relation bounds values from below, and whether inclusively.
        let (lower, inclusive) = match op {
            Operator::Gt => (true, false),
            Operator::Ge => (true, true),
            Operator::Lt => (false, false),
            Operator::Le => (false, true),
            Operator::Eq | Operator::Ne => continue,
        };
        let at = |b| StdBound::Included(ClusteringKey::bound(prefixed(values), mask, b));
        // In storage order a lower value bound is a start, unless the column is DESC.
        if lower != descending {
            start = at(if inclusive {
                KeyBound::Before
            } else {
                KeyBound::After
            });
        } else {
            end = at(if inclusive {
                KeyBound::After
            } else {
                KeyBound::Before
            });
        }
    }
    (start, end)
}

/// A range of rows in storage order.
pub(crate) type KeyRange = (StdBound<ClusteringKey>, StdBound<ClusteringKey>);

/// The storage ranges that hold exactly the rows starting with `prefix`
/// that satisfy every clustering slice: what a range DELETE removes.
///
/// [`slice_bounds`] leaves a tuple slice over columns of mixed directions
/// to a row filter, which a deletion cannot have. Such a slice is the union
/// of one-column slices, `(a, b) < (x, y)` being `a < x` or `a = x AND
/// b < y`, each one range whatever its column's direction; the union is
/// intersected with the other slices.
pub(crate) fn slice_ranges(
    table: &Table,
    predicates: &[Predicate<'_>],
    prefix: &[Value],
) -> Vec<KeyRange> {
    let mut ranges = vec![slice_bounds(table, predicates, prefix)];
    let mask = descending_mask(table);
    let Some(next) = clustering_columns(table).get(prefix.len()).copied() else {
        return ranges;
    };
    for p in predicates {
        let Predicate::MultiCompare {
            columns,
            op,
            values,
        } = p
        else {
            continue;
        };
        if columns.first().is_some_and(|c| c.name == next.name)
            && !uniform_direction(mask, prefix.len(), columns.len())
            && op.is_slice()
        {
            let pieces = tuple_slice_pieces(mask, prefix, *op, values);
            ranges = intersect_ranges(&ranges, &pieces);
        }
    }
    ranges
}

/// The disjoint ranges of `(c…) op (values…)` after `prefix`, one per
/// column of the tuple.
fn tuple_slice_pieces(
    mask: u32,
    prefix: &[Value],
    op: Operator,
    values: &[Value],
) -> Vec<KeyRange> {
    let mut pieces = Vec::with_capacity(values.len());
    for i in 0..values.len() {
        let last = i + 1 == values.len();
        let op = match op {
            Operator::Ge | Operator::Le if !last => strict(op),
            other => other,
        };
        let mut pinned = prefix.to_vec();
        pinned.extend_from_slice(&values[..i]);
        pieces.push(one_column_range(mask, &pinned, op, &values[i]));
    }
    pieces
}

fn strict(op: Operator) -> Operator {
    match op {
        Operator::Ge => Operator::Gt,
        Operator::Le => Operator::Lt,
        other => other,
    }
}

/// The range of rows starting with `pinned` whose next clustering value
/// stands in `op` to `value`.
fn one_column_range(mask: u32, pinned: &[Value], op: Operator, value: &Value) -> KeyRange {
    let whole = |b| {
        if pinned.is_empty() {
            StdBound::Unbounded
        } else {
            StdBound::Included(ClusteringKey::bound(pinned.to_vec(), mask, b))
        }
    };
    let mut key = pinned.to_vec();
    key.push(value.clone());
    let at = |b| StdBound::Included(ClusteringKey::bound(key.clone(), mask, b));
    let descending = mask & (1 << pinned.len().min(31)) != 0;
    let (lower, inclusive) = match op {
        Operator::Gt => (true, false),
        Operator::Ge => (true, true),
        Operator::Lt => (false, false),
        _ => (false, true),
    };
    if lower != descending {
        let start = at(if inclusive {
            KeyBound::Before
        } else {
            KeyBound::After
        });
        (start, whole(KeyBound::After))
    } else {
        let end = at(if inclusive {
            KeyBound::After
        } else {
            KeyBound::Before
        });
        (whole(KeyBound::Before), end)
    }
}

/// The non-empty pairwise intersections of two sets of ranges.
fn intersect_ranges(a: &[KeyRange], b: &[KeyRange]) -> Vec<KeyRange> {
    let mut out = Vec::new();
    for (s1, e1) in a {
        for (s2, e2) in b {
            let start = later_start(s1, s2).clone();
            let end = earlier_end(e1, e2).clone();
            if crate::storage::bounds_ordered(&start, &end) {
                out.push((start, end));
            }
        }
    }
    out
}

fn later_start<'a>(
    a: &'a StdBound<ClusteringKey>,
    b: &'a StdBound<ClusteringKey>,
) -> &'a StdBound<ClusteringKey> {
    match (bound_key(a), bound_key(b)) {
        (None, _) => b,
        (_, None) => a,
        (Some(x), Some(y)) if y > x => b,
        _ => a,
    }
}

fn earlier_end<'a>(
    a: &'a StdBound<ClusteringKey>,
    b: &'a StdBound<ClusteringKey>,
) -> &'a StdBound<ClusteringKey> {
    match (bound_key(a), bound_key(b)) {
        (None, _) => b,
        (_, None) => a,
        (Some(x), Some(y)) if y < x => b,
        _ => a,
    }
}

/// The key of a bound; the bounds built here are never `Excluded`.
fn bound_key(b: &StdBound<ClusteringKey>) -> Option<&ClusteringKey> {
    match b {
        StdBound::Included(k) | StdBound::Excluded(k) => Some(k),
        StdBound::Unbounded => None,
    }
}

/// Whether clustering columns `first..first + count` all sort the same way.
fn uniform_direction(mask: u32, first: usize, count: usize) -> bool {
    let bit = |i: usize| i < 32 && mask & (1 << i) != 0;
    (first..first + count).all(|i| bit(i) == bit(first))
}

#[cfg(test)]
mod tests;
