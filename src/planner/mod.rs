//! The planner: given a schema and a statement, decide — without touching
//! any data — whether Cassandra would accept it, how a coordinator would
//! serve it, and which replicas it reaches.
//!
//! It is pure: [`plan`] reads a [`PlanContext`] (catalog, ring, consistency
//! level, current keyspace) and returns a [`Plan`] or the error Cassandra
//! would raise. The linter and `EXPLAIN` use it with no executor and no
//! rows.

mod batch;
mod clauses;
pub(crate) use clauses::is_aggregate;
pub mod markers;
mod modify;
mod operands;
mod partial;
mod plan;
mod relations;
mod restriction;
mod routing;
mod select;

pub(crate) use operands::{element_spec, map_operand_error, operand_type};
pub use partial::{partial_plan, plan_explained, PartialPlan, PlanError, Understood};
pub use plan::{
    Direction, PartitionTarget, Partitions, PaxosRound, Plan, QueryClass, StatementKind,
    TokenRange, TokenValue,
};
pub(crate) use routing::ComposedKey;
pub(crate) use select::selector_columns;
pub use select::ALLOW_FILTERING_MESSAGE;

use crate::cluster::{ConsistencyLevel, Coordinator, Ring};
use crate::error::Error;
use crate::schema::{Catalog, ColumnKind, Replication, SchemaChange, SchemaObject, Table};
use crate::syntax::ast::{Batch, BatchStatement, Insert, Select, Statement};
use crate::types::Value;

use restriction::Restriction;

/// Everything planning needs to know, and nothing about data.
#[derive(Debug, Clone)]
pub struct PlanContext {
    /// The schema.
    pub catalog: Catalog,
    /// The simulated cluster.
    pub ring: Ring,
    /// The consistency level statements run at.
    pub consistency: ConsistencyLevel,
    /// The level of a lightweight transaction's Paxos round (SERIAL or
    /// LOCAL_SERIAL, cqlsh's `SERIAL CONSISTENCY`).
    pub serial_consistency: ConsistencyLevel,
    /// Which node coordinates.
    pub coordinator: Coordinator,
    /// The keyspace of `USE`, if any.
    pub keyspace: Option<String>,
    /// The limits planning enforces (the IN cartesian product).
    pub limits: crate::limits::Limits,
}

impl Default for PlanContext {
    fn default() -> PlanContext {
        PlanContext {
            catalog: Catalog::new(),
            ring: Ring::default(),
            consistency: ConsistencyLevel::One,
            serial_consistency: ConsistencyLevel::Serial,
            coordinator: Coordinator::default(),
            keyspace: None,
            limits: crate::limits::Limits::default(),
        }
    }
}

impl PlanContext {
    /// A context on the default four-node ring at consistency ONE.
    pub fn new() -> PlanContext {
        PlanContext::default()
    }

    /// Applies a schema statement or `USE`: the catalog changes, nothing
    /// is planned. A keyspace naming a data centre the ring lacks grows the
    /// ring (four nodes) with a note, so a production schema pastes in as
    /// is — unless `strict_datacenters` is set, when it is refused as
    /// Cassandra refuses it; a failed statement leaves ring and catalog as
    /// they were.
    pub fn apply_schema(&mut self, statement: &Statement) -> Result<Applied, Error> {
        let ring_before = self.ring.clone();
        let notes = if self.catalog.settings().strict_datacenters {
            routing::check_datacenters(self, statement)?;
            Vec::new()
        } else {
            routing::grow_ring_for(self, statement)
        };
        self.catalog.settings_mut().datacenters = self.ring.datacenters().to_vec();
        let change = match self.catalog.apply(statement, self.keyspace.as_deref()) {
            Ok(change) => change,
            Err(error) => {
                self.ring = ring_before;
                self.catalog.settings_mut().datacenters = self.ring.datacenters().to_vec();
                return Err(error);
            }
        };
        if let SchemaChange::UseKeyspace(keyspace) = &change {
            self.keyspace = Some(keyspace.clone());
        }
        let warnings = self.replication_warnings(&change);
        Ok(Applied {
            change,
            warnings,
            notes,
        })
    }

    /// Cassandra's client warning when a created or altered keyspace asks
    /// for more replicas than a data centre has nodes
    /// (`AbstractReplicationStrategy.maybeWarnOnOptions`).
    fn replication_warnings(&self, change: &SchemaChange) -> Vec<String> {
        let (SchemaChange::Created(SchemaObject::Keyspace(name))
        | SchemaChange::Altered(SchemaObject::Keyspace(name))) = change
        else {
            return Vec::new();
        };
        let Some(keyspace) = self.catalog.keyspace(name) else {
            return Vec::new();
        };
        let mut warnings = Vec::new();
        match &keyspace.replication {
            Replication::Simple { factor } => {
                let nodes = self.ring.len();
                if *factor as usize > nodes && nodes != 0 {
                    warnings.push(format!(
                        "Your replication factor {factor} for keyspace {name} is higher than the number of nodes {nodes}"
                    ));
                }
            }
            Replication::NetworkTopology { factors } => {
                for (dc, factor) in factors {
                    let nodes = self.ring.datacenter_size(dc);
                    if *factor as usize > nodes && nodes != 0 {
                        warnings.push(format!(
                            "Your replication factor {factor} for keyspace {name} is higher than the number of nodes {nodes} for datacenter {dc}"
                        ));
                    }
                }
            }
            Replication::Local => {}
        }
        warnings
    }
}

/// What a schema statement did, and what a user should know about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// The change to the catalog.
    pub change: SchemaChange,
    /// Cassandra's client warnings (a replication factor above a data
    /// centre's node count).
    pub warnings: Vec<String>,
    /// widerow's own notes, e.g. data centres added to the simulated ring.
    pub notes: Vec<String>,
}

impl PlanContext {}

/// Whether a statement changes the schema (or the session's keyspace)
/// rather than reading or writing rows.
pub fn is_schema_statement(statement: &Statement) -> bool {
    !matches!(
        statement,
        Statement::Select(_)
            | Statement::Insert(_)
            | Statement::Update(_)
            | Statement::Delete(_)
            | Statement::Batch(_)
    )
}

/// Parses and plans one statement.
pub fn plan(ctx: &PlanContext, cql: &str) -> Result<Plan, Error> {
    let statement = crate::parse_statement(cql)?;
    plan_statement(ctx, &statement)
}

/// Plans a parsed SELECT, INSERT, UPDATE, DELETE or BATCH. A schema
/// statement is an error here: apply it with [`PlanContext::apply_schema`].
pub fn plan_statement(ctx: &PlanContext, statement: &Statement) -> Result<Plan, Error> {
    match statement {
        Statement::Select(select) => plan_select(ctx, select),
        Statement::Insert(insert) => plan_insert(ctx, insert, None, false),
        Statement::Update(_) | Statement::Delete(_) => plan_change(ctx, statement, None),
        Statement::Batch(batch) => plan_batch(ctx, batch),
        other => Err(Error::invalid(format!(
            "{} changes the schema and has no plan",
            statement_word(other)
        ))
        .with_span(other.span())),
    }
}

/// Plans an UPDATE or DELETE, alone or inside a batch (`batch`: whether
/// the batch is conditional, so that every statement joins its Paxos round).
fn plan_change(
    ctx: &PlanContext,
    statement: &Statement,
    batch: Option<bool>,
) -> Result<Plan, Error> {
    let in_batch = batch.is_some();
    let (name, kind, conditional) = match statement {
        Statement::Update(u) => (&u.table, StatementKind::Update, u.if_clause.is_some()),
        Statement::Delete(d) => (&d.table, StatementKind::Delete, d.if_clause.is_some()),
        Statement::Insert(i) => return plan_insert(ctx, i, None, batch.unwrap_or(false)),
        _ => return plan_statement(ctx, statement),
    };
    let access = cas_access(conditional || batch.unwrap_or(false));
    let table = ctx.catalog.resolve_table(ctx.keyspace.as_deref(), name)?;
    not_a_view(table)?;
    let target = match statement {
        Statement::Update(update) => {
            let target = modify::update(table, update)?;
            if update.if_clause.is_some() {
                modify::check_conditional_in(&target, "updates", in_batch)?;
            }
            target
        }
        Statement::Delete(delete) => {
            let target = modify::delete(table, delete)?;
            if delete.if_clause.is_some() {
                modify::check_conditional_in(&target, "deletions", in_batch)?;
            }
            target
        }
        _ => unreachable!("matched above"),
    };
    let class = write_class(table, &target);
    routing::check_cartesian_product(ctx, "clustering key", &target.ck)?;
    routing::write_plan(ctx, table, kind, class, &target.pk, access).map(|(plan, _)| plan)
}

fn cas_access(conditional: bool) -> routing::Access {
    if conditional {
        routing::Access::Cas
    } else {
        routing::Access::Write
    }
}

/// What planning a lone INSERT worked out from its key literals: the
/// executor takes it rather than parsing the same literals, and composing
/// and hashing the same partition key, again.
#[derive(Debug, Default)]
pub(crate) struct KeyLiterals {
    /// Constant key values, by key column.
    pub(crate) values: Vec<(ColumnKind, Value)>,
    /// The partition key composed from those values, when they name
    /// exactly one partition.
    pub(crate) partition: Option<ComposedKey>,
}

impl KeyLiterals {
    /// Nothing handed over: for every statement but a lone text INSERT.
    pub(crate) fn new() -> KeyLiterals {
        KeyLiterals::default()
    }
}

/// [`plan_statement`], handing back too the [`KeyLiterals`] of an INSERT
/// (none for other statements).
pub(crate) fn plan_statement_keyed(
    ctx: &PlanContext,
    statement: &Statement,
) -> Result<(Plan, KeyLiterals), Error> {
    let mut keys = KeyLiterals::new();
    let plan = match statement {
        Statement::Insert(insert) => plan_insert(ctx, insert, Some(&mut keys), false)?,
        other => plan_statement(ctx, other)?,
    };
    Ok((plan, keys))
}

fn plan_insert(
    ctx: &PlanContext,
    insert: &Insert,
    keys: Option<&mut KeyLiterals>,
    conditional_batch: bool,
) -> Result<Plan, Error> {
    let table = ctx
        .catalog
        .resolve_table(ctx.keyspace.as_deref(), &insert.table)?;
    not_a_view(table)?;
    let mut target = modify::insert(table, insert)?;
    let class = QueryClass::PointLookup;
    let (plan, partition) = routing::write_plan(
        ctx,
        table,
        StatementKind::Insert,
        class,
        &target.pk,
        cas_access(insert.if_not_exists || conditional_batch),
    )?;
    if let Some(keys) = keys {
        keys.partition = partition;
        keys.values.reserve_exact(target.pk.len() + target.ck.len());
        for r in target.pk.iter_mut().chain(target.ck.iter_mut()) {
            if let (false, Some(value)) = (r.multi, r.value.take()) {
                keys.values.push((r.first().kind, value));
            }
        }
    }
    Ok(plan)
}

fn statement_word(statement: &Statement) -> &'static str {
    match statement {
        Statement::CreateKeyspace(_) => "CREATE KEYSPACE",
        Statement::AlterKeyspace(_) => "ALTER KEYSPACE",
        Statement::Drop(_) => "DROP",
        Statement::Use(_) => "USE",
        Statement::CreateTable(_) => "CREATE TABLE",
        Statement::AlterTable(_) => "ALTER TABLE",
        Statement::Truncate(_) => "TRUNCATE",
        Statement::CreateIndex(_) => "CREATE INDEX",
        Statement::CreateType(_) => "CREATE TYPE",
        Statement::AlterType(_) => "ALTER TYPE",
        Statement::CreateMaterializedView(_) => "CREATE MATERIALIZED VIEW",
        Statement::AlterMaterializedView(_) => "ALTER MATERIALIZED VIEW",
        _ => "this statement",
    }
}

/// `ModificationStatement.validate`: a view is written only through its base.
fn not_a_view(table: &Table) -> Result<(), Error> {
    if table.is_view() {
        return Err(Error::invalid("Cannot directly modify a materialized view"));
    }
    crate::auth::not_the_roles_table(&table.keyspace, &table.name)
}

fn write_class(table: &Table, target: &modify::WriteTarget<'_>) -> QueryClass {
    if modify::several_partitions(target) {
        QueryClass::MultiPartition
    } else if modify::addresses_one_row(table, target) {
        QueryClass::PointLookup
    } else {
        QueryClass::PartitionScan
    }
}

fn plan_batch(ctx: &PlanContext, batch: &Batch) -> Result<Plan, Error> {
    let mut plans = Vec::new();
    batch::validate(ctx, batch)?;
    let conditional = batch::is_conditional(batch);
    for statement in &batch.statements {
        let statement = match statement {
            BatchStatement::Insert(s) => Statement::Insert(s.clone()),
            BatchStatement::Update(s) => Statement::Update(s.clone()),
            BatchStatement::Delete(s) => Statement::Delete(s.clone()),
        };
        plans.push(plan_change(ctx, &statement, Some(conditional))?);
    }
    routing::batch_plan(ctx, plans)
}

fn plan_select(ctx: &PlanContext, select: &Select) -> Result<Plan, Error> {
    let table = ctx
        .catalog
        .resolve_table(ctx.keyspace.as_deref(), &select.from)?;
    let analysis = select::analyse(table, select)?;
    let class = select_class(table, &analysis);
    routing::select_plan(ctx, select, &analysis, class)
}

/// The access class of restrictions.md §5.2, in widerow's five words.
fn select_class(table: &Table, analysis: &select::SelectAnalysis<'_>) -> QueryClass {
    let exact = analysis.key == select::KeyState::Exact;
    if analysis.uses_index {
        return if exact {
            QueryClass::PartitionScan
        } else {
            QueryClass::ScatterGather
        };
    }
    if analysis.key_range {
        return QueryClass::ScatterGather;
    }
    if analysis.clause.pk.iter().any(|r| r.shape.is_in()) {
        return QueryClass::MultiPartition;
    }
    if names_one_row(table, &analysis.clause.ck) {
        QueryClass::PointLookup
    } else {
        QueryClass::PartitionScan
    }
}

/// Whether clustering restrictions pin exactly one row: every clustering
/// column restricted by `=` (a one-value IN counts).
fn names_one_row(table: &Table, ck: &[Restriction<'_>]) -> bool {
    ck.iter().all(|r| r.shape.is_eq())
        && table
            .clustering
            .iter()
            .all(|name| ck.iter().any(|r| r.columns.iter().any(|c| &c.name == name)))
}
