//! From restrictions to routing: partition keys and their tokens, token
//! ranges, replicas, the replicas a consistency level contacts, and the
//! finished [`Plan`].

use std::borrow::{Borrow, Cow};
use std::ops::Bound as RangeBound;

use smallvec::SmallVec;

use crate::cluster::consistency::{plan_paxos, plan_read, plan_write};
use crate::cluster::murmur3::{check_key_len, murmur3_token};
use crate::cluster::range::{nodes_contacted, plan_range_read};
use crate::cluster::ring::DEFAULT_NODES;
use crate::cluster::ring::{NodeIndex, TokenRange as RingRange};
use crate::error::Error;
use crate::schema::{Keyspace, Table};
use crate::syntax::ast::{InValues, Literal, PropertyValue, Select, Statement, Term, TermKind};
use crate::types::{coerce_term, term_text, TermError, Value};

use super::clauses::is_reversed;
use super::plan::{
    Direction, PartitionTarget, Partitions, PaxosRound, Plan, QueryClass, StatementKind,
    TokenRange, TokenValue,
};
use super::restriction::{Restriction, Shape};
use super::select::{KeyState, SelectAnalysis};
use super::PlanContext;

/// Past this many partitions, an IN read gets a warning: each is a separate
/// replica set for the coordinator to wait on.
const MANY_PARTITIONS: usize = 10;

/// The data centres a CREATE or ALTER KEYSPACE with
/// `NetworkTopologyStrategy` names that the ring lacks, with the keyspace's
/// name; none for any other statement or strategy.
fn unknown_datacenters(ctx: &PlanContext, statement: &Statement) -> (String, Vec<String>) {
    let (name, properties) = match statement {
        Statement::CreateKeyspace(k) => (&k.name.name, &k.properties),
        Statement::AlterKeyspace(k) => (&k.name.name, &k.properties),
        _ => return (String::new(), Vec::new()),
    };
    let Some(PropertyValue::Map(entries)) = properties
        .iter()
        .find(|p| p.name.name == "replication")
        .map(|p| &p.value)
    else {
        return (name.clone(), Vec::new());
    };
    let text = |l: &Literal| match l {
        Literal::String(s) => s.clone(),
        other => other.to_string(),
    };
    let is_nts = entries
        .iter()
        .any(|(k, v)| text(k) == "class" && text(v).ends_with("NetworkTopologyStrategy"));
    if !is_nts {
        return (name.clone(), Vec::new());
    }
    let unknown = entries
        .iter()
        .map(|(key, _)| text(key))
        .filter(|dc| dc != "class" && dc != "replication_factor" && !ctx.ring.has_datacenter(dc))
        .collect();
    (name.clone(), unknown)
}

/// Adds to the ring every data centre a CREATE or ALTER KEYSPACE names with
/// `NetworkTopologyStrategy` but the ring lacks (four nodes each, as the
/// default cluster has), and returns a note for each.
pub(crate) fn grow_ring_for(ctx: &mut PlanContext, statement: &Statement) -> Vec<String> {
    let (_, unknown) = unknown_datacenters(ctx, statement);
    let mut notes = Vec::new();
    for dc in unknown {
        if ctx.ring.add_datacenter(&dc, DEFAULT_NODES).is_ok() {
            notes.push(format!(
                "data centre {dc} was not in the simulated ring: added with {DEFAULT_NODES} nodes"
            ));
        }
    }
    notes
}

/// Refuses a keyspace naming a data centre the ring lacks, as Cassandra
/// 4.0+ does (`NetworkTopologyStrategy.validateExpectedOptions`).
pub(crate) fn check_datacenters(ctx: &PlanContext, statement: &Statement) -> Result<(), Error> {
    let (keyspace, unknown) = unknown_datacenters(ctx, statement);
    match unknown.first() {
        Some(dc) => Err(Error::new(
            crate::error::ErrorKind::ConfigurationException,
            format!(
                "Unrecognized strategy option {{{dc}}} passed to NetworkTopologyStrategy for keyspace {keyspace}"
            ),
        )),
        None => Ok(()),
    }
}

fn keyspace<'a>(ctx: &'a PlanContext, table: &Table) -> Result<&'a Keyspace, Error> {
    ctx.catalog
        .keyspace(&table.keyspace)
        .ok_or_else(|| Error::invalid(format!("keyspace {} does not exist", table.keyspace)))
}

/// One partition key: its values (or `None` where bound at execution),
/// borrowed where the restriction already holds them, and inline for the
/// usual key of a few columns.
struct Key<'a> {
    text: Vec<String>,
    values: Option<SmallVec<[Cow<'a, Value>; 4]>>,
}

/// The values one restriction gives its column: one for EQ, several for IN,
/// `None` for `IN ?`.
fn restriction_terms<'a>(restriction: &Restriction<'a>) -> Option<&'a [Term]> {
    match &restriction.shape {
        Shape::Eq(term) => Some(std::slice::from_ref(*term)),
        Shape::In(InValues::List(terms)) => Some(terms),
        _ => None,
    }
}

/// Refuses IN lists that name more keys together than
/// `[limits] in_select_cartesian_product` allows, with the message of
/// Cassandra's guardrail of that name (`what` is "partition key" or
/// "clustering key"): the keys are materialised, and a few short lists can
/// name billions. A bind marker list (`IN ?`) counts once here; its values
/// are counted when the statement runs.
pub(crate) fn check_cartesian_product(
    ctx: &PlanContext,
    what: &str,
    restrictions: &[Restriction<'_>],
) -> Result<(), Error> {
    let lists: Vec<&Restriction<'_>> = restrictions
        .iter()
        .filter(|r| matches!(r.shape, Shape::In(InValues::List(_))))
        .collect();
    let size = |r: &Restriction<'_>| match r.shape {
        Shape::In(InValues::List(items)) => items.len(),
        _ => 1,
    };
    let product = lists
        .iter()
        .fold(1usize, |product, r| product.saturating_mul(size(r)));
    let max = ctx.limits.in_select_cartesian_product;
    if product <= max {
        return Ok(());
    }
    let mut error = crate::limits::cartesian_product_exceeded(what, product, max);
    let spans = lists
        .iter()
        .flat_map(|r| r.relations.iter().map(|rel| rel.span));
    if let Some(span) = spans.reduce(|a, b| a.to(b)) {
        error = error.with_span(span);
    }
    Err(error)
}

/// The cartesian product of the partition key restrictions, coerced to the
/// key columns' types: literals are checked as Cassandra checks them.
fn partition_keys<'r>(table: &Table, pk: &'r [Restriction<'_>]) -> Result<Vec<Key<'r>>, Error> {
    let columns = table.partition_key.len();
    let mut keys = vec![Key {
        text: Vec::with_capacity(columns),
        values: Some(SmallVec::with_capacity(columns)),
    }];
    for column in table.partition_key_columns() {
        let Some(restriction) = pk.iter().find(|r| r.first().name == column.name) else {
            continue;
        };
        let terms = match restriction_terms(restriction) {
            Some(terms) => terms,
            None => {
                for key in &mut keys {
                    key.text.push("?".into());
                    key.values = None;
                }
                continue;
            }
        };
        if let [term] = terms {
            let value = match &restriction.value {
                Some(value) => known_key_value(column, term, value)?,
                None => key_value(column, term)?,
            };
            extend_keys(&mut keys, term_text(term), value);
            continue;
        }
        let mut next = Vec::with_capacity(keys.len() * terms.len());
        for term in terms {
            let value = key_value(column, term)?;
            for key in &keys {
                let mut text = key.text.clone();
                text.push(term_text(term));
                let values = match (&key.values, &value) {
                    (Some(values), Some(v)) => {
                        let mut values = values.clone();
                        values.push(v.clone());
                        Some(values)
                    }
                    _ => None,
                };
                next.push(Key { text, values });
            }
        }
        keys = next;
    }
    if table.partition_key.len() == 1 && keys.iter().any(is_empty_key) {
        return Err(Error::invalid("Key may not be empty"));
    }
    keys.sort_by(|a, b| match (&a.values, &b.values) {
        (Some(x), Some(y)) => x.cmp(y),
        _ => std::cmp::Ordering::Equal,
    });
    keys.dedup_by(|a, b| a.values.is_some() && a.values == b.values);
    Ok(keys)
}

/// A key column's value from its term: `None` when bound at execution.
fn key_value<'a>(
    column: &crate::schema::Column,
    term: &Term,
) -> Result<Option<Cow<'a, Value>>, Error> {
    match coerce_term(term, &column.data_type, &column.name) {
        Ok(Value::Null) => Err(null_key(column, term)),
        Ok(value) => Ok(Some(Cow::Owned(value))),
        Err(TermError::Invalid(e)) => Err(e.with_span(term.span)),
        Err(TermError::NotConstant(_)) => Ok(None),
    }
}

/// [`key_value`] for a term whose value the restriction already holds.
fn known_key_value<'a>(
    column: &crate::schema::Column,
    term: &Term,
    value: &'a Value,
) -> Result<Option<Cow<'a, Value>>, Error> {
    if value.is_null() {
        return Err(null_key(column, term));
    }
    Ok(Some(Cow::Borrowed(value)))
}

fn null_key(column: &crate::schema::Column, term: &Term) -> Error {
    Error::invalid(format!(
        "Invalid null value in condition for column {}",
        column.name
    ))
    .with_span(term.span)
}

/// Adds one column's text and value to every key, moving them into the
/// last (usually the only) key rather than cloning.
fn extend_keys<'a>(keys: &mut [Key<'a>], text: String, value: Option<Cow<'a, Value>>) {
    let Some((last, rest)) = keys.split_last_mut() else {
        return;
    };
    for key in rest {
        key.push(text.clone(), value.clone());
    }
    last.push(text, value);
}

impl<'a> Key<'a> {
    fn push(&mut self, text: String, value: Option<Cow<'a, Value>>) {
        self.text.push(text);
        match (&mut self.values, value) {
            (Some(values), Some(v)) => values.push(v),
            (values, _) => *values = None,
        }
    }
}

fn is_empty_key(key: &Key<'_>) -> bool {
    let Some([value]) = key.values.as_deref() else {
        return false;
    };
    match value.as_ref() {
        Value::Empty => true,
        Value::Text(s) | Value::Ascii(s) => s.is_empty(),
        Value::Blob(b) => b.is_empty(),
        _ => false,
    }
}

fn token_of_values(values: &[Value]) -> Result<i64, Error> {
    ComposedKey::of(values).map(|key| key.token)
}

/// A partition key composed from its values, and its token.
#[derive(Debug)]
pub(crate) struct ComposedKey {
    /// The Murmur3 token.
    pub(crate) token: i64,
    /// The serialized key.
    pub(crate) bytes: Vec<u8>,
}

impl ComposedKey {
    fn of<V: Borrow<Value>>(values: &[V]) -> Result<ComposedKey, Error> {
        let bytes = Value::compose_key(values)?;
        check_key_len(bytes.len())?;
        Ok(ComposedKey {
            token: murmur3_token(&bytes),
            bytes,
        })
    }
}

fn names<C: FromIterator<String>>(ctx: &PlanContext, nodes: &[NodeIndex]) -> C {
    nodes.iter().map(|n| ctx.ring.node(*n).id.clone()).collect()
}

/// Where the partitions of a statement go.
struct Routed {
    partitions: Vec<PartitionTarget>,
    /// Every node contacted, in first-contact order.
    nodes: Vec<NodeIndex>,
    /// The coordinator of the first partition with a known token.
    coordinator: Option<NodeIndex>,
    /// The composed key of the only partition, when it is known.
    only: Option<ComposedKey>,
}

/// How a statement reaches its partitions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    Read,
    Write,
    /// A lightweight transaction: a Paxos round, then the commit.
    Cas,
}

/// A lightweight transaction's Paxos round on one partition, which
/// `StorageProxy.cas` runs before the commit: Unavailable at the serial
/// level (`Cannot achieve consistency level SERIAL`) when too few
/// participants are live.
fn paxos_round(
    ctx: &PlanContext,
    replication: &crate::schema::Replication,
    token: i64,
    coordinator: NodeIndex,
) -> Result<PaxosRound, Error> {
    let plan = plan_paxos(
        &ctx.ring,
        replication,
        token,
        ctx.serial_consistency,
        coordinator,
    )?;
    Ok(PaxosRound {
        consistency: ctx.serial_consistency.name().to_owned(),
        contacted: names(ctx, &plan.contacts),
        required: plan.block_for,
    })
}

/// Routes each partition: token, replicas, and the replicas contacted.
fn targets(
    ctx: &PlanContext,
    table: &Table,
    pk: &[Restriction<'_>],
    access: Access,
) -> Result<Routed, Error> {
    let write = access != Access::Read;
    let replication = &keyspace(ctx, table)?.replication;
    let mut out = Vec::new();
    let mut reached: Vec<NodeIndex> = Vec::new();
    let mut coordinator = None;
    check_cartesian_product(ctx, "partition key", pk)?;
    let keys = partition_keys(table, pk)?;
    let mut only = None;
    let one = keys.len() == 1;
    for key in keys {
        let Some(values) = &key.values else {
            out.push(PartitionTarget {
                key: key.text,
                token: TokenValue::BoundAtExecution,
                replicas: Vec::new(),
                contacted: Vec::new(),
                down: Vec::new(),
                required: 0,
                paxos: None,
            });
            continue;
        };
        let composed = ComposedKey::of(values)?;
        let token = composed.token;
        if one {
            only = Some(composed);
        }
        let coord = ctx.coordinator.for_token(&ctx.ring, replication, token);
        coordinator.get_or_insert(coord);
        let paxos = match access {
            Access::Cas => Some(paxos_round(ctx, replication, token, coord)?),
            _ => None,
        };
        let plan = if write {
            plan_write(&ctx.ring, replication, token, ctx.consistency, coord)?
        } else {
            plan_read(&ctx.ring, replication, token, ctx.consistency, coord)?
        };
        for node in &plan.contacts {
            if !reached.contains(node) {
                reached.push(*node);
            }
        }
        let down: Vec<NodeIndex> = plan
            .replicas
            .iter()
            .copied()
            .filter(|n| !ctx.ring.is_up(*n))
            .collect();
        out.push(PartitionTarget {
            key: key.text,
            token: TokenValue::Known(token),
            replicas: names(ctx, &plan.replicas),
            contacted: names(ctx, &plan.contacts),
            down: names(ctx, &down),
            required: plan.block_for,
            paxos,
        });
    }
    Ok(Routed {
        partitions: out,
        nodes: reached,
        coordinator,
        only,
    })
}

/// A token bound's value: a bigint literal or `token(…)` of literals.
fn token_bound(table: &Table, term: &Term) -> Result<Option<i64>, Error> {
    match &term.kind {
        TermKind::Literal(Literal::Integer(text)) => Ok(text.parse().ok()),
        TermKind::FunctionCall { name, args } if name.name.name == "token" => {
            let mut values = Vec::new();
            for (column, arg) in table.partition_key_columns().zip(args) {
                match coerce_term(arg, &column.data_type, &column.name) {
                    Ok(v) => values.push(v),
                    Err(TermError::Invalid(e)) => return Err(e),
                    Err(TermError::NotConstant(_)) => return Ok(None),
                }
            }
            if values.len() != table.partition_key.len() {
                return Ok(None);
            }
            token_of_values(&values).map(Some)
        }
        _ => Ok(None),
    }
}

/// The token range of the token restriction, for display and routing.
fn token_range(table: &Table, shape: &Shape<'_>) -> Result<(TokenRange, Option<RingRange>), Error> {
    let (lower, upper) = match shape {
        Shape::Eq(term) => {
            let bound = crate::planner::restriction::Bound {
                value: term,
                inclusive: true,
            };
            (Some(bound), Some(bound))
        }
        Shape::Slice { lower, upper } => (*lower, *upper),
        _ => (None, None),
    };
    let resolve = |b: Option<crate::planner::restriction::Bound<'_>>| -> Result<(RangeBound<i64>, Option<String>, bool, bool), Error> {
        match b {
            None => Ok((RangeBound::Unbounded, None, false, true)),
            Some(b) => {
                let text = b.value.to_string();
                match token_bound(table, b.value)? {
                    // The minimum token bounds nothing: as a start it is the
                    // ring's start, as an end the ring's end
                    // (SelectStatement.getPartitionKeyBoundsForTokenRestrictions).
                    Some(t) if t == crate::cluster::murmur3::MIN_TOKEN => {
                        Ok((RangeBound::Unbounded, Some(t.to_string()), b.inclusive, true))
                    }
                    Some(t) if b.inclusive => Ok((RangeBound::Included(t), Some(t.to_string()), true, true)),
                    Some(t) => Ok((RangeBound::Excluded(t), Some(t.to_string()), false, true)),
                    None => Ok((RangeBound::Unbounded, Some(text), b.inclusive, false)),
                }
            }
        }
    };
    let (lo, start, start_inclusive, lo_known) = resolve(lower)?;
    let (hi, end, end_inclusive, hi_known) = resolve(upper)?;
    let range = TokenRange {
        start,
        start_inclusive,
        end,
        end_inclusive,
    };
    let ring_range = if lo_known && hi_known {
        RingRange::from_bounds(lo, hi)
    } else {
        Some(RingRange::full())
    };
    Ok((range, ring_range))
}

fn texts(restrictions: &[&Restriction<'_>]) -> Vec<String> {
    restrictions.iter().map(|r| r.text()).collect()
}

/// The finished plan of a SELECT.
pub(crate) fn select_plan(
    ctx: &PlanContext,
    select: &Select,
    analysis: &SelectAnalysis<'_>,
    class: QueryClass,
) -> Result<Plan, Error> {
    let table = analysis.table;
    let replication = &keyspace(ctx, table)?.replication;
    ctx.consistency.validate_for_read()?;
    check_cartesian_product(ctx, "clustering key", &analysis.clause.ck)?;
    let mut warnings = Vec::new();
    let (partitions, nodes, coordinator) = match analysis.key {
        KeyState::Exact => {
            let routed = targets(ctx, table, &analysis.clause.pk, Access::Read)?;
            let count = routed.partitions.len();
            if count > MANY_PARTITIONS {
                warnings.push(format!(
                    "IN over {count} partitions: the coordinator waits on {count} replica sets"
                ));
            }
            let coordinator = routed
                .coordinator
                .unwrap_or_else(|| ctx.coordinator.for_scan(&ctx.ring));
            (
                Partitions::Keys {
                    partitions: routed.partitions,
                },
                routed.nodes,
                coordinator,
            )
        }
        state => {
            let coordinator = ctx.coordinator.for_scan(&ctx.ring);
            let (partitions, ring_range) = match (&analysis.clause.token, state) {
                (Some(token), KeyState::Token | KeyState::TokenFiltered) => {
                    let (range, ring_range) = token_range(table, &token.shape)?;
                    (Partitions::TokenRange { range }, ring_range)
                }
                _ => (Partitions::All, Some(RingRange::full())),
            };
            let nodes = match ring_range {
                Some(range) => {
                    let reads = plan_range_read(
                        &ctx.ring,
                        replication,
                        range,
                        ctx.consistency,
                        coordinator,
                    )?;
                    nodes_contacted(&reads)
                }
                None => Vec::new(),
            };
            (partitions, nodes, coordinator)
        }
    };
    let filtered: Vec<&Restriction<'_>> = analysis.row_filter.iter().collect();
    let index = analysis
        .uses_index
        .then(|| analysis.row_filter.iter().find_map(|r| r.index))
        .flatten();
    let seek: Vec<&Restriction<'_>> = if analysis.clustering_filtered {
        Vec::new()
    } else {
        analysis
            .clause
            .ck
            .iter()
            .filter(|_| !analysis.uses_index)
            .collect()
    };
    let filters: Vec<&Restriction<'_>> = filtered
        .into_iter()
        .filter(|r| index.is_none_or(|i| r.index.is_none_or(|ri| ri.name != i.name)))
        .collect();
    if select.allow_filtering && !filters.is_empty() {
        warnings.push(
            "ALLOW FILTERING: rows are read and then discarded; the cost grows with the data scanned, not with the rows returned".into(),
        );
    }
    if class == QueryClass::ScatterGather {
        warnings.push(format!(
            "no fixed partition key: every node owning a token range is asked ({} nodes)",
            nodes.len()
        ));
    }
    if super::clauses::is_aggregate(select) && analysis.key != KeyState::Exact {
        warnings.push("Aggregation query used without partition key".into());
    }
    Ok(Plan {
        class,
        statement: StatementKind::Select,
        table: table.qualified_name(),
        partitions,
        clustering: texts(&seek),
        filters: texts(&filters),
        index: index.map(|i| i.name.clone()),
        order: if is_reversed(table, select) {
            Direction::Reversed
        } else {
            Direction::Forward
        },
        limit: select.limit.as_ref().map(|t| t.to_string()),
        per_partition_limit: select.per_partition_limit.as_ref().map(|t| t.to_string()),
        allow_filtering: select.allow_filtering,
        consistency: ctx.consistency.name().to_owned(),
        coordinator: ctx.ring.node(coordinator).id.clone(),
        nodes: names(ctx, &nodes),
        warnings,
    })
}

/// The plan of an INSERT, UPDATE or DELETE: the partitions it writes and
/// the acknowledgements the consistency level waits for; and the composed
/// key of the partition, when it writes exactly one that is known.
pub(crate) fn write_plan(
    ctx: &PlanContext,
    table: &Table,
    statement: StatementKind,
    class: QueryClass,
    pk: &[Restriction<'_>],
    access: Access,
) -> Result<(Plan, Option<ComposedKey>), Error> {
    ctx.consistency.validate_for_write()?;
    let routed = targets(ctx, table, pk, access)?;
    let coordinator = routed
        .coordinator
        .unwrap_or_else(|| ctx.coordinator.for_scan(&ctx.ring));
    let (partitions, nodes) = (routed.partitions, routed.nodes);
    let plan = Plan {
        class,
        statement,
        table: table.qualified_name(),
        partitions: Partitions::Keys { partitions },
        clustering: Vec::new(),
        filters: Vec::new(),
        index: None,
        order: Direction::Forward,
        limit: None,
        per_partition_limit: None,
        allow_filtering: false,
        consistency: ctx.consistency.name().to_owned(),
        coordinator: ctx.ring.node(coordinator).id.clone(),
        nodes: names(ctx, &nodes),
        warnings: Vec::new(),
    };
    Ok((plan, routed.only))
}

/// An empty batch, which Cassandra accepts and runs as nothing
/// (`BatchStatement.executeWithoutConditions` returns on no mutations):
/// no partition, no node, like an IN on no keys.
fn empty_batch_plan(ctx: &PlanContext) -> Plan {
    Plan {
        class: QueryClass::MultiPartition,
        statement: StatementKind::Batch,
        table: String::new(),
        partitions: Partitions::Keys {
            partitions: Vec::new(),
        },
        clustering: Vec::new(),
        filters: Vec::new(),
        index: None,
        order: Direction::Forward,
        limit: None,
        per_partition_limit: None,
        allow_filtering: false,
        consistency: ctx.consistency.name().to_owned(),
        coordinator: ctx
            .ring
            .node(ctx.coordinator.for_scan(&ctx.ring))
            .id
            .clone(),
        nodes: Vec::new().into(),
        warnings: Vec::new(),
    }
}

/// A batch's plan: its statements' partitions together. One partition keeps
/// the class of a single statement; several make it multi-partition.
pub(crate) fn batch_plan(ctx: &PlanContext, plans: Vec<Plan>) -> Result<Plan, Error> {
    let mut iter = plans.into_iter();
    let Some(mut combined) = iter.next() else {
        return Ok(empty_batch_plan(ctx));
    };
    combined.statement = StatementKind::Batch;
    let mut tables = vec![combined.table.clone()];
    for plan in iter {
        if !tables.contains(&plan.table) {
            tables.push(plan.table.clone());
        }
        if let (Partitions::Keys { partitions }, Partitions::Keys { partitions: more }) =
            (&mut combined.partitions, plan.partitions)
        {
            for p in more {
                if !partitions
                    .iter()
                    .any(|q| q.key == p.key && q.token == p.token)
                {
                    partitions.push(p);
                }
            }
        }
        let new_nodes = plan.nodes.iter().filter(|n| !combined.nodes.contains(n));
        let new_nodes: Vec<&String> = new_nodes.collect();
        if !new_nodes.is_empty() {
            let nodes = combined.nodes.iter().chain(new_nodes);
            combined.nodes = nodes.cloned().collect();
        }
        if combined.class != plan.class {
            combined.class = QueryClass::PartitionScan;
        }
    }
    if let Partitions::Keys { partitions } = &combined.partitions {
        if partitions.len() > 1 {
            combined.class = QueryClass::MultiPartition;
            combined
                .warnings
                .push(format!("batch spans {} partitions", partitions.len()));
        } else if tables.len() > 1 {
            combined.class = QueryClass::PartitionScan;
        }
    }
    combined.table = tables.join(", ");
    Ok(combined)
}
