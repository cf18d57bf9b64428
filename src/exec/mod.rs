//! The executor: runs planned statements against [`crate::storage`].
//!
//! A statement is planned first (so it is refused exactly as Cassandra
//! would refuse it), then executed here: reads walk storage in the plan's
//! order and project the selectors; writes are decided in full as
//! [`mutation::Mutation`]s, then applied, then materialized views follow.
//!
//! Prepared statements of the commonest shapes — a SELECT of one partition,
//! an INSERT of bind values — are also compiled once with their plan
//! (`exec::compiled`, `exec::compiled_insert`) and run without most of that work;
//! an execution they do not handle exactly as this path would takes this
//! path. Text INSERTs of constants are run through the compiled INSERT of
//! their shape (`exec::text_insert`).

pub(crate) mod aggregate;
mod batch_size;
mod bind;
mod call;
mod cas_read;
mod cell_filter;
mod cell_meta;
pub(crate) mod compiled;
pub(crate) mod compiled_insert;
mod conditions;
pub(crate) mod functions;
mod index_lookup;
pub(crate) mod json_insert;
mod like;
mod mutation;
mod read;
pub(crate) mod restrict;
mod result;
mod rows;
mod schema;
mod select;
mod selector;
pub(crate) mod system_tables;
pub(crate) mod text_insert;
mod to_json;
mod view;
mod views;
mod write;

pub use result::{ColumnSpec, Columns, Metrics, ResultKind, ResultSet};
pub use rows::Rows;
pub use select::result_columns;

pub(crate) use bind::{marker_offsets, Binds};
#[cfg(feature = "server")]
pub(crate) use functions::decode_native;
pub(crate) use functions::FunctionContext;
pub(crate) use schema::{run_schema, sync_storage};

use crate::error::Error;
use crate::planner::{KeyLiterals, Plan, PlanContext};
use crate::storage::Store;
use crate::syntax::ast::{Batch, BatchKind, BatchStatement, Statement};

use write::WriteEnv;

/// `f` of each of `items`, or `None` as soon as `f` declines one. Pushed
/// one by one: on the paths every prepared execution takes, collecting an
/// iterator of options into a `SmallVec` cost more than the work itself.
#[inline]
pub(crate) fn each_or_none<T, A: smallvec::Array>(
    items: &[T],
    mut f: impl FnMut(&T) -> Option<A::Item>,
) -> Option<smallvec::SmallVec<A>> {
    let mut out = smallvec::SmallVec::new();
    for item in items {
        out.push(f(item)?);
    }
    Some(out)
}

/// A prepared statement compiled for its common executions: what
/// [`compiled`] and [`compiled_insert`] make of the statements they serve.
#[derive(Debug)]
pub(crate) enum Compiled {
    Select(compiled::CompiledSelect),
    Insert(compiled_insert::CompiledInsert),
}

/// A write statement, alone or inside a batch, borrowed from its AST.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Write<'a> {
    Insert(&'a crate::syntax::ast::Insert),
    Update(&'a crate::syntax::ast::Update),
    Delete(&'a crate::syntax::ast::Delete),
}

impl<'a> From<&'a BatchStatement> for Write<'a> {
    fn from(statement: &'a BatchStatement) -> Write<'a> {
        match statement {
            BatchStatement::Insert(s) => Write::Insert(s),
            BatchStatement::Update(s) => Write::Update(s),
            BatchStatement::Delete(s) => Write::Delete(s),
        }
    }
}

/// One statement's execution: the session's state it may use and change.
pub(crate) struct Run<'a, 'f> {
    pub(crate) ctx: &'a PlanContext,
    pub(crate) store: &'a mut Store,
    pub(crate) binds: &'a Binds<'a>,
    pub(crate) fcx: &'a mut FunctionContext<'f>,
    /// The write timestamp of this statement.
    pub(crate) timestamp: i64,
    pub(crate) now_micros: i64,
    pub(crate) list_sequence: &'a mut i64,
    pub(crate) limits: crate::limits::Limits,
    /// Key values planning already converted (a lone INSERT's).
    pub(crate) key_literals: KeyLiterals,
    /// Whether the read is paged (what the paging-only refusals depend on).
    pub(crate) paged: bool,
}

impl Run<'_, '_> {
    fn now_secs(&self) -> i64 {
        self.now_micros.div_euclid(1_000_000)
    }
}

/// Executes a planned SELECT, INSERT, UPDATE, DELETE or BATCH.
pub(crate) fn run_data(
    run: &mut Run<'_, '_>,
    statement: &Statement,
    plan: &Plan,
) -> Result<crate::exec::ResultSet, Error> {
    let mut result = match statement {
        Statement::Select(select) => select::run(run, select, plan)?,
        Statement::Insert(s) => write_statements(run, &[Write::Insert(s)], &[], None)?,
        Statement::Update(s) => write_statements(run, &[Write::Update(s)], &[], None)?,
        Statement::Delete(s) => write_statements(run, &[Write::Delete(s)], &[], None)?,
        Statement::Batch(batch) => run_batch(run, batch)?,
        _ => return Err(Error::invalid("not a data statement")),
    };
    result.class = Some(plan.class);
    Ok(result)
}

fn run_batch(run: &mut Run<'_, '_>, batch: &Batch) -> Result<ResultSet, Error> {
    let writes: Vec<Write<'_>> = batch.statements.iter().map(Write::from).collect();
    write_statements(run, &writes, &batch.using, Some(batch.kind))
}

/// Decides every write of `statements` (one statement, or a batch), checks
/// any conditions, then applies them all — or, on any error or a failed
/// condition, nothing.
fn write_statements(
    run: &mut Run<'_, '_>,
    statements: &[Write<'_>],
    batch_using: &[crate::syntax::ast::UsingItem],
    batch: Option<BatchKind>,
) -> Result<ResultSet, Error> {
    let is_batch = batch.is_some();
    let now_secs = run.now_secs();
    let mut mutations = Vec::new();
    let mut checks = Vec::new();
    let mut deferred: Option<Error> = None;
    let conditional_batch = is_batch && statements.iter().any(|s| parts(s).1);
    for statement in statements {
        let (name, conditional) = parts(statement);
        if crate::deadline::passed() {
            return Err(crate::deadline::write_timeout(
                conditional || conditional_batch,
            ));
        }
        let table = run
            .ctx
            .catalog
            .resolve_table(run.ctx.keyspace.as_deref(), name)
            .map_err(Error::as_refusal)?;
        let mut env = WriteEnv {
            store: run.store,
            data: run.store.table_in(&table.keyspace, &table.name),
            timestamp: run.timestamp,
            now_secs,
            binds: run.binds,
            fcx: run.fcx,
            list_sequence: run.list_sequence,
            limits: run.limits,
            key_literals: if is_batch {
                KeyLiterals::new()
            } else {
                std::mem::take(&mut run.key_literals)
            },
        };
        if !batch_using.is_empty() {
            env.timestamp = write::stamp(table, batch_using, &mut env)?.timestamp;
        }
        let first = mutations.len();
        let built = match statement {
            Write::Insert(i) => write::insert(table, i, &mut env).map(|m| vec![m]),
            Write::Update(u) => write::update(table, u, &mut env),
            Write::Delete(d) => write::delete(table, d, &mut env),
        };
        match built {
            Ok(mut built) => mutations.append(&mut built),
            // Cassandra reads what a list operation needs only once the
            // condition holds (CQL3CasRequest.makeUpdates after appliesTo):
            // the error waits for the condition.
            Err(error) if (conditional || conditional_batch) && deferred.is_none() => {
                let where_clause = match statement {
                    Write::Update(u) => &u.where_clause,
                    Write::Delete(d) => &d.where_clause,
                    Write::Insert(_) => return Err(error),
                };
                let bare = write::bare_mutations(table, where_clause, &mut env)
                    .map_err(|_| error.clone())?;
                mutations.extend(bare);
                deferred = Some(error);
            }
            Err(error) => return Err(error),
        }
        if conditional_batch {
            one_partition(table, statement, &mutations, first)?;
        }
        if conditional {
            checks.push(conditions::check(
                table,
                statement,
                &mutations[first..],
                &mut env,
            )?);
        }
    }
    let mut warnings = Vec::new();
    if let Some(kind) = batch {
        warnings.extend(batch_warnings(&mutations, kind, run)?);
    }
    let partitions = if mutations.len() < 2 {
        mutations.len()
    } else {
        mutations
            .iter()
            .map(|m| (&m.table.keyspace, &m.table.name, &m.position))
            .collect::<std::collections::HashSet<_>>()
            .len()
    };
    if !checks.is_empty() && partitions > 1 {
        return Err(Error::invalid(
            "Batch with conditions cannot span multiple partitions",
        ));
    }
    let outcome = conditions::outcome(&checks, is_batch, run.store, now_secs)?;
    // The last moment a write may still fail: nothing of it is applied yet.
    if crate::deadline::passed_now() {
        return Err(crate::deadline::write_timeout(!checks.is_empty()));
    }
    if let Some(error) = deferred.filter(|_| outcome.as_ref().is_none_or(|o| o.applied)) {
        return Err(error);
    }
    if outcome.as_ref().is_none_or(|o| o.applied) {
        let touched = views::before(run.ctx, run.store, &mutations, now_secs);
        mutation::apply(run.store, mutations, now_secs);
        views::after(run.ctx, run.store, touched, run.timestamp, now_secs);
    }
    let mut result = match outcome {
        Some(o) => o.result,
        None => ResultSet::ok(),
    };
    result.warnings.extend(warnings);
    result.metrics.partitions_touched = partitions as u64;
    result.metrics.rows_scanned = 0;
    result.metrics.rows_returned = result.rows.len() as u64;
    Ok(result)
}

fn parts<'w>(statement: &Write<'w>) -> (&'w crate::syntax::ast::QualifiedName, bool) {
    match *statement {
        Write::Insert(i) => (&i.table, i.if_not_exists),
        Write::Update(u) => (&u.table, u.if_clause.is_some()),
        Write::Delete(d) => (&d.table, d.if_clause.is_some()),
    }
}

/// `BatchStatement.makeCasRequest`, statement by statement: in a
/// conditional batch no statement may use IN on the partition key (the
/// `IllegalArgumentException` Cassandra throws, a server error; an IN of
/// one value is an `=` to Cassandra 5.0), and all name the same partition.
fn one_partition(
    table: &crate::schema::Table,
    statement: &Write<'_>,
    mutations: &[mutation::Mutation<'_>],
    first: usize,
) -> Result<(), Error> {
    if key_in_relation(table, statement) {
        return Err(Error::new(
            crate::error::ErrorKind::ServerError,
            "java.lang.IllegalArgumentException: Batch with conditions cannot span multiple partitions (you cannot use IN on the partition key)",
        ));
    }
    let same = |m: &mutation::Mutation<'_>| {
        m.table.qualified_name() == mutations[0].table.qualified_name()
            && m.position == mutations[0].position
    };
    if !mutations[first..].iter().all(same) {
        return Err(Error::invalid(
            "Batch with conditions cannot span multiple partitions",
        ));
    }
    Ok(())
}

fn key_in_relation(table: &crate::schema::Table, statement: &Write<'_>) -> bool {
    use crate::syntax::ast::{InValues, RelationKind};
    let relations = match *statement {
        Write::Insert(_) => return false,
        Write::Update(u) => &u.where_clause,
        Write::Delete(d) => &d.where_clause,
    };
    relations.iter().any(|r| match &r.kind {
        RelationKind::In { column, values } => {
            table
                .column(&column.name)
                .is_some_and(|c| c.is_partition_key())
                && !matches!(values, InValues::List(v) if v.len() == 1)
        }
        _ => false,
    })
}

/// Cassandra's `BatchStatement.verifyBatchSize`, then `verifyBatchType`:
/// a batch over more than one mutation weighed against
/// `batch_size_warn_threshold` (a warning) and `batch_size_fail_threshold`
/// (refused), then an unlogged or counter batch over more than
/// `unlogged_batch_across_partitions_warn_threshold` (10) partition keys.
fn batch_warnings(
    mutations: &[mutation::Mutation<'_>],
    kind: BatchKind,
    run: &Run<'_, '_>,
) -> Result<Vec<String>, Error> {
    const ACROSS_PARTITIONS_WARN_THRESHOLD: usize = 10;
    let limits = &run.limits;
    let weight = batch_size::weigh(mutations, run.store);
    // Named only for a warning: most batches earn none.
    let tables = || {
        let mut tables: Vec<String> = Vec::new();
        for m in mutations {
            let name = m.table.qualified_name();
            if !tables.contains(&name) {
                tables.push(name);
            }
        }
        crate::types::java_set_order(tables)
    };
    let mut warnings = Vec::new();
    if let Some(size) = weight.bytes {
        if size > limits.batch_size_fail_threshold {
            return Err(Error::invalid("Batch too large"));
        }
        if size > limits.batch_size_warn_threshold {
            // Plain byte counts, as a 5.0.8 node writes them.
            warnings.push(format!(
                "Batch for [{}] is of size {size}, exceeding specified threshold of {} by {}.",
                tables().join(", "),
                limits.batch_size_warn_threshold,
                size - limits.batch_size_warn_threshold
            ));
        }
    }
    if kind != BatchKind::Logged && weight.keys > ACROSS_PARTITIONS_WARN_THRESHOLD {
        let tables = tables();
        warnings.push(format!(
            "Unlogged batch covering {} partitions detected against table{} [{}]. You should use a logged batch for atomicity, or asynchronous writes for performance.",
            weight.keys,
            if tables.len() > 1 { "s" } else { "" },
            tables.join(", ")
        ));
    }
    Ok(warnings)
}
