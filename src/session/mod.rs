//! [`Session`]: an in-memory Cassandra to run CQL against — the schema and
//! the simulated ring of [`PlanContext`], the data of [`Store`], and the
//! clock and id sources that make writes and `now()` reproducible.
//!
//! ```
//! use widerow::{Session, types::Value};
//!
//! let mut session = Session::new();
//! session.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}")?;
//! session.execute("CREATE TABLE ks.t (k int PRIMARY KEY, v text)")?;
//! let insert = session.prepare("INSERT INTO ks.t (k, v) VALUES (?, ?)")?;
//! session.execute_prepared(&insert, &[Value::Int(1), Value::Text("one".into())])?;
//! let rows = session.execute("SELECT v FROM ks.t WHERE k = 1")?;
//! assert_eq!(rows.rows, vec![vec![Value::Text("one".into())]]);
//! # Ok::<(), widerow::Error>(())
//! ```

mod client;
mod ring;

pub use client::Client;
pub use ring::{PlannedRing, RingRebuilt};

use std::fmt;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::cluster::ConsistencyLevel;
use crate::error::Error;
use crate::exec::{self, ResultSet};
use crate::limits::Limits;
use crate::planner::{self, Plan, PlanContext};
use crate::storage::Store;
use crate::syntax::ast::Statement;
use crate::types::timeuuid::Generator;
use crate::types::Value;

/// Where a session's time comes from: write timestamps, TTL expiry,
/// `now()` and `currentTimestamp()`.
pub trait Clock: Send + Sync + fmt::Debug {
    /// Microseconds since the Unix epoch.
    fn now_micros(&self) -> i64;
}

/// The machine's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_micros(&self) -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_micros()).unwrap_or(i64::MAX))
    }
}

/// A clock that moves only when told: for tests that need TTLs to expire
/// on cue and outputs that never change. Clones share the same time.
#[derive(Debug, Clone, Default)]
pub struct ManualClock(Arc<AtomicI64>);

impl ManualClock {
    /// A clock reading `micros` since the epoch.
    pub fn at_micros(micros: i64) -> ManualClock {
        ManualClock(Arc::new(AtomicI64::new(micros)))
    }

    /// Sets the time.
    pub fn set_micros(&self, micros: i64) {
        self.0.store(micros, Ordering::SeqCst);
    }

    /// Moves the time forward by `seconds`.
    pub fn advance_secs(&self, seconds: i64) {
        self.0
            .fetch_add(seconds.saturating_mul(1_000_000), Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_micros(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// Another clock moved by an offset a test suite sets: the time a server
/// shows its clients, set or advanced so TTLs expire without sleeping.
#[derive(Debug)]
pub struct OffsetClock {
    base: Arc<dyn Clock>,
    offset_micros: AtomicI64,
}

impl OffsetClock {
    /// `base`'s time, unmoved.
    pub fn new(base: Arc<dyn Clock>) -> OffsetClock {
        OffsetClock {
            base,
            offset_micros: AtomicI64::new(0),
        }
    }

    /// Makes the clock read `micros` now (and run on from there).
    pub fn set_micros(&self, micros: i64) {
        let offset = micros.saturating_sub(self.base.now_micros());
        self.offset_micros.store(offset, Ordering::SeqCst);
    }

    /// Moves the clock by `micros` (negative moves it back).
    pub fn advance_micros(&self, micros: i64) {
        let _ = self
            .offset_micros
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |o| {
                Some(o.saturating_add(micros))
            });
    }
}

impl Clock for OffsetClock {
    fn now_micros(&self) -> i64 {
        self.base
            .now_micros()
            .saturating_add(self.offset_micros.load(Ordering::SeqCst))
    }
}

/// Where `uuid()` and `now()` get their bits. Cloned with the session, so
/// two clones produce the same sequence from the point they split.
pub trait IdSource: Send + Sync + fmt::Debug {
    /// 16 random bytes for a version-4 UUID.
    fn random_bytes(&mut self) -> [u8; 16];
    /// A copy of this source in its current state.
    fn clone_box(&self) -> Box<dyn IdSource>;
}

impl Clone for Box<dyn IdSource> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A reproducible pseudo-random source (SplitMix64) from a seed.
#[derive(Debug, Clone)]
pub struct SeededIds {
    state: u64,
}

impl SeededIds {
    /// A source that always yields the same sequence for `seed`.
    pub fn new(seed: u64) -> SeededIds {
        SeededIds { state: seed }
    }

    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl IdSource for SeededIds {
    fn random_bytes(&mut self) -> [u8; 16] {
        let mut out = [0; 16];
        out[..8].copy_from_slice(&self.next_u64().to_be_bytes());
        out[8..].copy_from_slice(&self.next_u64().to_be_bytes());
        out
    }

    fn clone_box(&self) -> Box<dyn IdSource> {
        Box::new(self.clone())
    }
}

/// The [`InsertWriter`] of session `$session`, its fields borrowed one by
/// one (a method would borrow the whole session).
macro_rules! insert_writer {
    ($session:expr) => {
        InsertWriter {
            store: &mut $session.store,
            key_bytes: &mut $session.key_bytes,
            last_timestamp: &mut $session.last_timestamp,
            default_timestamp: $session.default_timestamp,
            clock: &*$session.clock,
            collection_size: $session.limits.collection_size,
        }
    };
}

/// A statement prepared once and executed with bind values.
///
/// It remembers what does not depend on the bind values — where its markers
/// are and the plan — so executing it again does not walk or re-plan the
/// statement. The plan is reused only while the session's schema, ring and
/// settings are the ones it was made under (see [`Session`]'s context stamp).
#[derive(Debug)]
pub struct Prepared {
    /// Which statement this is, for the session's own cache of plans
    /// (kept by its clones, which are the same statement).
    id: u64,
    statement: Statement,
    markers: usize,
    text: String,
    offsets: Vec<usize>,
    cache: Mutex<Option<Cached>>,
}

/// What a prepared statement keeps between executions for one context
/// stamp: its plan, and its compiled form when it has one.
#[derive(Debug, Clone)]
struct Cached {
    stamp: u64,
    plan: Arc<Plan>,
    compiled: Option<Arc<exec::Compiled>>,
}

impl Clone for Prepared {
    fn clone(&self) -> Prepared {
        Prepared {
            id: self.id,
            statement: self.statement.clone(),
            markers: self.markers,
            text: self.text.clone(),
            offsets: self.offsets.clone(),
            cache: Mutex::new(self.cached(None)),
        }
    }
}

impl Prepared {
    /// How many bind markers the statement has.
    pub fn marker_count(&self) -> usize {
        self.markers
    }

    /// The statement's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The parsed statement.
    pub fn statement(&self) -> &Statement {
        &self.statement
    }

    /// The cached plan, if it was made under context stamp `stamp` (any
    /// stamp when `None`).
    fn cached(&self, stamp: Option<u64>) -> Option<Cached> {
        let guard = self.cache.lock().ok()?;
        match guard.as_ref() {
            Some(cached) if stamp.is_none_or(|want| want == cached.stamp) => Some(cached.clone()),
            _ => None,
        }
    }
}

/// Stamps for planning contexts: a context gets a new one whenever it may
/// have changed, so a prepared statement's plan is reused only under the
/// very context it was made for — in this session or a clone of it.
static NEXT_CONTEXT_STAMP: AtomicU64 = AtomicU64::new(1);

fn fresh_stamp() -> u64 {
    NEXT_CONTEXT_STAMP.fetch_add(1, Ordering::Relaxed)
}

/// Ids for prepared statements, unique in the process.
static NEXT_PREPARED_ID: AtomicU64 = AtomicU64::new(1);

/// How many prepared statements' plans a session keeps by itself.
const KEPT_PREPARED_PLANS: usize = 64;

/// Coordinators whose stamps a session remembers (a server's nodes).
const KEPT_COORDINATOR_STAMPS: usize = 64;

/// An in-memory Cassandra: schema, ring, data and clock.
///
/// Cloning is cheap (tables are shared until one side writes) and gives an
/// independent session: load a schema once, clone it per test.
#[derive(Debug, Clone)]
pub struct Session {
    ctx: PlanContext,
    /// Changes whenever `ctx` may have changed (schema statements, `USE`,
    /// [`Session::context_mut`]): the key of prepared statements' plans.
    ctx_stamp: u64,
    store: Store,
    clock: Arc<dyn Clock>,
    ids: Box<dyn IdSource>,
    timeuuids: Generator,
    last_timestamp: i64,
    /// The write timestamp writes take instead of the clock's, when a
    /// client gave one (a driver's default timestamp).
    default_timestamp: Option<i64>,
    list_sequence: i64,
    limits: Limits,
    /// The page size reads are fetched with, as a driver's fetch size;
    /// `None` (the default, as Cassandra's internal execution) is unpaged.
    page_size: Option<usize>,
    /// How long reads may run (`None`, the library's default: as long as
    /// they take).
    timeouts: Option<crate::deadline::Timeouts>,
    /// Text INSERTs' shapes, compiled (see [`exec::text_insert`]).
    text_inserts: exec::text_insert::TextInserts,
    /// Where a compiled statement serializes its partition key, and the
    /// last key's token, kept from one statement to the next.
    key_bytes: exec::restrict::KeyBuffer,
    /// The plans of the prepared statements run last, by id: a statement's
    /// own cache sits behind a lock and hands out shared copies, some six
    /// atomic operations per execution, about a tenth of a prepared
    /// insert's time; here the session lends the plan to the execution.
    prepared_plans: Vec<(u64, Cached)>,
    /// The stamps other coordinators had under the current context (see
    /// [`Session::set_coordinator`]).
    coordinator_stamps: Vec<(crate::cluster::Coordinator, u64)>,
    /// `system.local` and `system.peers` describe another coordinator than
    /// the current one.
    nodes_stale: bool,
    /// What the system tables' rows were last made from.
    system: exec::system_tables::SystemTables,
    /// [`Session::context_mut`] lent the context out: the system tables
    /// are brought in line before the next statement.
    system_stale: bool,
    /// The roles of `system_auth.roles`, which role statements change and
    /// logins are checked against.
    roles: crate::auth::Roles,
    /// The role role statements run as (a server connection's login);
    /// `None` without logins, with a superuser's rights.
    user: Option<String>,
}

impl Default for Session {
    fn default() -> Session {
        Session::new()
    }
}

impl Session {
    /// A session on the default four-node ring, consistency ONE, with the
    /// machine's clock.
    pub fn new() -> Session {
        let seed = SystemClock.now_micros() as u64 ^ 0x5DEE_CE66_D1CE_5EED;
        Session::with_sources(Arc::new(SystemClock), Box::new(SeededIds::new(seed)))
    }

    /// A session whose time and ids come from the given sources: with a
    /// [`ManualClock`] and [`SeededIds`] every output is reproducible.
    pub fn with_sources(clock: Arc<dyn Clock>, mut ids: Box<dyn IdSource>) -> Session {
        let lsb = ids.random_bytes();
        let mut half = [0; 8];
        half.copy_from_slice(&lsb[..8]);
        let mut ctx = PlanContext::new();
        ctx.catalog.install_system_keyspaces();
        let (store, system) = exec::system_tables::SystemTables::base().clone();
        Session {
            ctx,
            ctx_stamp: fresh_stamp(),
            store,
            clock,
            ids,
            timeuuids: Generator::from_random(half),
            last_timestamp: i64::MIN,
            default_timestamp: None,
            list_sequence: 0,
            limits: Limits::default(),
            page_size: None,
            timeouts: None,
            text_inserts: Default::default(),
            key_bytes: Default::default(),
            prepared_plans: Vec::new(),
            coordinator_stamps: Vec::new(),
            nodes_stale: false,
            system,
            system_stale: false,
            roles: crate::auth::Roles::new(),
            user: None,
        }
    }

    /// A session on a given planning context (ring, consistency level,
    /// coordinator, schema).
    pub fn with_context(mut self, ctx: PlanContext) -> Session {
        self.ctx = ctx;
        self.ctx.catalog.install_system_keyspaces();
        self.restamp();
        exec::sync_storage(&self.ctx, &mut self.store);
        self.sync_system_tables();
        self
    }

    /// The clock the session reads: the one to wrap when it must be
    /// moved (see [`OffsetClock`]).
    pub fn clock(&self) -> Arc<dyn Clock> {
        self.clock.clone()
    }

    /// Reads time from `clock` from now on; data already written keeps
    /// its timestamps and TTLs.
    pub fn set_clock(&mut self, clock: Arc<dyn Clock>) {
        self.clock = clock;
    }

    /// Goes back to `snapshot` (a clone of this session taken earlier):
    /// its schema, data and ring, read with this session's clock. Write
    /// timestamps keep rising past those already given, and prepared
    /// statements plan again.
    pub fn restore(&mut self, snapshot: &Session) {
        let clock = self.clock.clone();
        let last_timestamp = self.last_timestamp;
        *self = snapshot.clone();
        self.clock = clock;
        self.last_timestamp = self.last_timestamp.max(last_timestamp);
        self.restamp();
        self.prepared_plans.clear();
        self.sync_system_tables();
    }

    /// Brings the system tables in line with a context changed outside
    /// CQL: every user keyspace described again, and `system.local` and
    /// `system.peers` rewritten if the coordinator or the ring moved.
    fn sync_system_tables(&mut self) {
        self.system_stale = false;
        self.nodes_stale = false;
        let now = self.clock.now_micros();
        self.system.resync(&self.ctx, &mut self.store, now);
    }

    /// Makes `coordinator` the node requests arrive on: `system.local`
    /// then describes that node and `system.peers` the others, as a driver
    /// connected to it reads them. Setting the coordinator it already has
    /// changes nothing; another one is a new planning context (prepared
    /// statements plan again, as after [`Session::context_mut`]).
    pub fn set_coordinator(&mut self, coordinator: crate::cluster::Coordinator) {
        if self.ctx.coordinator == coordinator {
            return;
        }
        // A server's requests arrive on every node in turn: each
        // coordinator keeps the stamp it had under this context, so plans
        // made for it are found again, and `system.local` and `peers` are
        // rewritten only when a statement reads them.
        let old = std::mem::replace(&mut self.ctx.coordinator, coordinator);
        if self.coordinator_stamps.len() >= KEPT_COORDINATOR_STAMPS {
            self.coordinator_stamps.clear();
        }
        self.coordinator_stamps.retain(|(c, _)| *c != old);
        self.coordinator_stamps.push((old, self.ctx_stamp));
        self.ctx_stamp = match self
            .coordinator_stamps
            .iter()
            .position(|(c, _)| *c == coordinator)
        {
            Some(at) => self.coordinator_stamps.swap_remove(at).1,
            None => fresh_stamp(),
        };
        self.nodes_stale = true;
    }

    /// A new planning context: plans made before are not used again.
    fn restamp(&mut self) {
        self.ctx_stamp = fresh_stamp();
        self.coordinator_stamps.clear();
    }

    /// Rewrites `system.local` and `system.peers` for the coordinator
    /// before a statement reads them (`plan` reads table `ks.table`).
    fn sync_nodes_for(&mut self, plan: &Plan) {
        if self.nodes_stale && plan.table.starts_with("system.") {
            self.nodes_stale = false;
            let now = self.clock.now_micros();
            self.system
                .sync_nodes(&self.ctx, &mut self.store, now, false);
        }
    }

    /// The port every simulated node advertises to drivers in
    /// `system.local` and `system.peers_v2` (9042 unless a server listens
    /// elsewhere).
    pub fn set_native_port(&mut self, port: u16) {
        let now = self.clock.now_micros();
        self.system
            .set_native_port(&self.ctx, &mut self.store, now, port);
    }

    /// The schema version every simulated node reports in `system.local`
    /// and `system.peers`: the same for the same schema, changed by every
    /// schema change, as drivers expect when they wait for agreement.
    pub fn schema_version(&self) -> [u8; 16] {
        self.system.schema_version()
    }

    /// This session with other cassandra.yaml switches, e.g.
    /// [`SchemaSettings::permissive`](crate::schema::SchemaSettings::permissive)
    /// for a schema with materialized views.
    pub fn with_settings(mut self, settings: crate::schema::SchemaSettings) -> Session {
        *self.schema_settings_mut() = settings;
        self
    }

    /// A session with the schema (and any data) of a CQL script run first.
    pub fn from_schema_file(path: impl AsRef<std::path::Path>) -> Result<Session, Error> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::invalid(format!("cannot read {}: {e}", path.display())))?;
        let mut session = Session::new();
        session.execute_script(&text)?;
        Ok(session)
    }

    /// Runs every statement of a script in order, stopping at the first
    /// error, and returns their results.
    pub fn execute_script(&mut self, cql: &str) -> Result<Vec<ResultSet>, Error> {
        let mut results = Vec::new();
        for s in crate::split_statements(cql) {
            let r = self
                .execute(&s.text)
                .map_err(|e| e.with_statement_source("script", s.text.clone(), s.line, s.column))?;
            results.push(r);
        }
        Ok(results)
    }

    /// Parses and runs one statement.
    pub fn execute(&mut self, cql: &str) -> Result<ResultSet, Error> {
        if self.system_stale {
            self.sync_system_tables();
        }
        let untimed = !crate::deadline::Timeouts::leave_no_time_to_write(self.timeouts);
        if untimed && cql.len() <= self.limits.statement_size {
            let ready = self
                .text_inserts
                .prepare(cql, &self.ctx, &self.store, self.ctx_stamp);
            if let Some(ready) = ready {
                let writer = insert_writer!(self);
                if let Some(result) = writer.run(ready.insert, ready.values, ready.plan) {
                    return Ok(result);
                }
            }
        }
        let statement = self.parse(cql)?;
        self.execute_statement(&statement)
    }

    /// The limits statements are held to (`[limits]` in `widerow.toml`).
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Sets the limits statements are held to.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
        // Planning reads the limits: prepared statements must plan again.
        self.restamp();
        self.ctx.limits = limits;
    }

    /// Parses within the statement size and nesting limits.
    fn parse(&self, cql: &str) -> Result<Statement, Error> {
        self.limits.check_size(cql)?;
        crate::syntax::parse_statement_with_nesting(cql, self.limits.nesting_depth)
    }

    /// Runs one parsed statement. A statement that fails changes nothing.
    pub fn execute_statement(&mut self, statement: &Statement) -> Result<ResultSet, Error> {
        if self.system_stale {
            self.sync_system_tables();
        }
        self.run(statement, &exec::Binds::none())
    }

    /// Parses a statement for repeated execution with bind values.
    pub fn prepare(&self, cql: &str) -> Result<Prepared, Error> {
        let statement = self.parse(cql)?;
        if !planner::is_schema_statement(&statement) {
            self.limits.check_in_lists(&statement)?;
            planner::plan_statement(&self.ctx, &statement).map_err(Error::as_refusal)?;
        }
        let offsets = exec::marker_offsets(&statement);
        Ok(Prepared {
            id: NEXT_PREPARED_ID.fetch_add(1, Ordering::Relaxed),
            markers: offsets.len(),
            offsets,
            statement,
            text: cql.to_string(),
            cache: Mutex::new(None),
        })
    }

    /// Runs a prepared statement with `values` for its markers, in order.
    pub fn execute_prepared(
        &mut self,
        prepared: &Prepared,
        values: &[Value],
    ) -> Result<ResultSet, Error> {
        if self.system_stale {
            self.sync_system_tables();
        }
        let binds = exec::Binds::with_offsets(&prepared.offsets, values)?;
        if planner::is_schema_statement(&prepared.statement) {
            return self.run(&prepared.statement, &binds);
        }
        let at = match self.kept_prepared_plan(prepared.id) {
            Some(at) => at,
            None => {
                let cached = match prepared.cached(Some(self.ctx_stamp)) {
                    Some(cached) => cached,
                    None => self.cache_plan(prepared)?,
                };
                if self.prepared_plans.len() >= KEPT_PREPARED_PLANS {
                    self.prepared_plans.remove(0);
                }
                self.prepared_plans.push((prepared.id, cached));
                self.prepared_plans.len() - 1
            }
        };
        // The plans step aside while the statement runs with one of them:
        // three words moved each way, where taking the plan out and
        // pushing it back moved it whole, a copy the processor cannot
        // forward from the stores that had just written it.
        let plans = std::mem::take(&mut self.prepared_plans);
        let result = self.run_cached(prepared, &plans[at].1, values, &binds);
        self.prepared_plans = plans;
        result
    }

    /// Where this session keeps the plan for prepared statement `id`, if
    /// it was made under the current context. Plans made under another
    /// context are forgotten when one is not found.
    fn kept_prepared_plan(&mut self, id: u64) -> Option<usize> {
        let stamp = self.ctx_stamp;
        let found = self
            .prepared_plans
            .iter()
            .position(|(kept, cached)| *kept == id && cached.stamp == stamp);
        if found.is_none() {
            let others = &self.coordinator_stamps;
            self.prepared_plans.retain(|(_, cached)| {
                cached.stamp == stamp || others.iter().any(|(_, s)| *s == cached.stamp)
            });
        }
        found
    }

    /// Runs `prepared` with its plan and compiled form `cached`.
    fn run_cached(
        &mut self,
        prepared: &Prepared,
        cached: &Cached,
        values: &[Value],
        binds: &exec::Binds,
    ) -> Result<ResultSet, Error> {
        self.sync_nodes_for(&cached.plan);
        let compiled = cached.compiled.as_deref().filter(|_| {
            !crate::deadline::Timeouts::leave_no_time(self.timeouts, &prepared.statement)
        });
        match compiled {
            Some(exec::Compiled::Select(select)) => {
                let now_micros = self.clock.now_micros();
                let (ctx, store) = (&self.ctx, &self.store);
                let plan = &cached.plan;
                if let Some(result) =
                    select.run(ctx, store, values, now_micros, plan, &mut self.key_bytes)
                {
                    return Ok(result);
                }
            }
            Some(exec::Compiled::Insert(insert)) => {
                if let Some(result) = insert_writer!(self).run(insert, values, &cached.plan) {
                    return Ok(result);
                }
            }
            None => {}
        }
        self.run_planned(
            &prepared.statement,
            binds,
            cached.plan.clone(),
            planner::KeyLiterals::new(),
        )
    }

    /// Plans `prepared` under the current context, compiles it when it has
    /// a shape [`exec::compiled`] serves, and keeps both with it.
    fn cache_plan(&self, prepared: &Prepared) -> Result<Cached, Error> {
        let plan =
            planner::plan_statement(&self.ctx, &prepared.statement).map_err(Error::as_refusal)?;
        let compiled = match &prepared.statement {
            Statement::Select(select) => {
                let offsets = &prepared.offsets;
                exec::compiled::compile_select(&self.ctx, &self.store, select, &plan, offsets)
                    .map(exec::Compiled::Select)
            }
            Statement::Insert(insert) => exec::compiled_insert::compile_insert(
                &self.ctx,
                &self.store,
                insert,
                &prepared.offsets,
            )
            .map(exec::Compiled::Insert),
            _ => None,
        };
        let cached = Cached {
            stamp: self.ctx_stamp,
            plan: Arc::new(plan),
            compiled: compiled.map(Arc::new),
        };
        if let Ok(mut cache) = prepared.cache.lock() {
            *cache = Some(cached.clone());
        }
        Ok(cached)
    }

    /// How a coordinator would serve a statement, without running it.
    pub fn plan(&self, cql: &str) -> Result<Plan, Error> {
        planner::plan(&self.ctx, cql)
    }

    /// [`Session::plan`] for `EXPLAIN`: a refused or Unavailable statement
    /// comes with the plan as far as the planner got (none when it does
    /// not parse). The limits apply as when running it.
    pub fn explain(&self, cql: &str) -> Result<Plan, Box<planner::PlanError>> {
        let bare = |error| {
            Box::new(planner::PlanError {
                error,
                partial: None,
            })
        };
        let statement = self.parse(cql).map_err(bare)?;
        if !planner::is_schema_statement(&statement) {
            self.limits.check_in_lists(&statement).map_err(bare)?;
        }
        planner::plan_explained(&self.ctx, &statement)
    }

    /// The schema, ring and settings statements are planned against.
    pub fn context(&self) -> &PlanContext {
        &self.ctx
    }

    /// Changes the ring, consistency level or coordinator. Schema changes
    /// belong in CQL statements; this is for the cluster simulation. The
    /// system tables follow before the next statement runs;
    /// [`Session::set_coordinator`] is the cheap way to move the
    /// coordinator alone.
    pub fn context_mut(&mut self) -> &mut PlanContext {
        self.restamp();
        self.system_stale = true;
        &mut self.ctx
    }

    /// The write timestamp (microseconds) the following writes take
    /// without `USING TIMESTAMP`, instead of the session clock's: a
    /// driver's default timestamp, which Cassandra honours. `None` goes back
    /// to the clock.
    pub fn set_default_timestamp(&mut self, timestamp: Option<i64>) {
        self.default_timestamp = timestamp;
    }

    /// Stops reads that run past `timeouts` with Cassandra's ReadTimeout
    /// (`None`: reads run to the end). A server sets Cassandra's defaults
    /// so one runaway scan cannot hold every client.
    pub fn set_timeouts(&mut self, timeouts: Option<crate::deadline::Timeouts>) {
        self.timeouts = timeouts;
    }

    /// The page size reads are fetched with (`None`: unpaged). Paging
    /// changes what Cassandra accepts: a read that must merge partitions
    /// for its ORDER BY (an IN on the partition key) is refused when paged,
    /// as cqlsh's default page of 100 rows makes it.
    pub fn set_page_size(&mut self, page_size: Option<usize>) {
        self.page_size = page_size;
    }

    /// The page size reads are fetched with, if paged.
    pub fn page_size(&self) -> Option<usize> {
        self.page_size
    }

    /// The cassandra.yaml switches schema statements are checked against
    /// (stock 5.0's by default: no materialized views, no SASI), to turn on
    /// what a test suite's schema needs.
    pub fn schema_settings_mut(&mut self) -> &mut crate::schema::SchemaSettings {
        self.restamp();
        self.ctx.catalog.settings_mut()
    }

    /// The consistency level statements run at.
    pub fn set_consistency(&mut self, level: ConsistencyLevel) {
        self.restamp();
        self.ctx.consistency = level;
    }

    /// The level lightweight transactions run their Paxos round at
    /// (SERIAL or LOCAL_SERIAL), which decides how many replicas they need.
    pub fn set_serial_consistency(&mut self, level: ConsistencyLevel) {
        self.restamp();
        self.ctx.serial_consistency = level;
    }

    /// The keyspace of `USE`, if any.
    pub fn keyspace(&self) -> Option<&str> {
        self.ctx.keyspace.as_deref()
    }

    /// The stored data (for renderers and tools that dump a session).
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The clock's current time, microseconds since the epoch.
    pub fn now_micros(&self) -> i64 {
        self.clock.now_micros()
    }

    /// The roles, as `system_auth.roles` holds them.
    pub fn roles(&self) -> &crate::auth::Roles {
        &self.roles
    }

    /// Makes role statements run as `user`, a logged-in role (a server
    /// sets its connection's login before each request); `None` runs them
    /// with a superuser's rights, as a session without logins.
    pub fn set_user(&mut self, user: Option<&str>) {
        if self.user.as_deref() != user {
            self.user = user.map(str::to_string);
        }
    }

    /// Checks a login as `PasswordAuthenticator` would: the role exists,
    /// has this password and may log in. The error is Cassandra's
    /// (an [`ErrorKind::AuthenticationError`](crate::ErrorKind)).
    pub fn authenticate(&self, username: &str, password: &str) -> Result<(), Error> {
        let credentials = crate::auth::sasl::Credentials {
            username: username.to_string(),
            password: password.to_string(),
        };
        crate::auth::sasl::authenticate(&self.roles, &credentials)
    }

    /// Runs a role statement and writes the role's row again.
    fn run_role(
        &mut self,
        statement: &crate::syntax::ast::RoleStatement,
    ) -> Result<ResultSet, Error> {
        use crate::auth::statements::{self, Outcome, Runner};
        let runner = Runner {
            user: self.user.as_deref(),
        };
        let ids = &mut self.ids;
        let mut salt = || ids.random_bytes();
        let outcome = statements::run(&mut self.roles, statement, runner, &mut salt)?;
        match outcome {
            Outcome::Unchanged => Ok(ResultSet::ok()),
            Outcome::Listed(result) => Ok(result),
            Outcome::Changed(name) => {
                let now = next_timestamp(&mut self.last_timestamp, self.clock.now_micros());
                let role = self.roles.get(&name);
                exec::system_tables::rewrite_role(
                    &self.ctx.catalog,
                    &mut self.store,
                    &name,
                    role,
                    now,
                );
                Ok(ResultSet::ok())
            }
        }
    }

    fn run(&mut self, statement: &Statement, binds: &exec::Binds) -> Result<ResultSet, Error> {
        if let Statement::Role(role) = statement {
            return self.run_role(role);
        }
        if planner::is_schema_statement(statement) {
            // Even a failed schema statement may have touched the context.
            self.restamp();
            return exec::run_schema(
                &mut self.ctx,
                &mut self.store,
                &mut self.system,
                statement,
                self.clock.now_micros(),
            );
        }
        self.limits.check_in_lists(statement)?;
        let (plan, key_literals) =
            planner::plan_statement_keyed(&self.ctx, statement).map_err(Error::as_refusal)?;
        self.sync_nodes_for(&plan);
        self.run_planned(statement, binds, Arc::new(plan), key_literals)
    }

    /// Runs a data statement already planned against the current context.
    fn run_planned(
        &mut self,
        statement: &Statement,
        binds: &exec::Binds,
        plan: Arc<Plan>,
        key_literals: planner::KeyLiterals,
    ) -> Result<ResultSet, Error> {
        let now_micros = self.clock.now_micros();
        let timestamp = if matches!(statement, Statement::Select(_)) {
            now_micros
        } else if let Some(given) = self.default_timestamp {
            given
        } else {
            next_timestamp(&mut self.last_timestamp, now_micros)
        };
        let ids = &mut self.ids;
        let timeuuids = &mut self.timeuuids;
        let mut next_uuid = || crate::types::timeuuid::random_v4(ids.random_bytes());
        let mut next_timeuuid = || timeuuids.next(now_micros);
        let mut fcx = exec::FunctionContext {
            now_micros,
            next_timeuuid: &mut next_timeuuid,
            next_uuid: &mut next_uuid,
        };
        let mut run = exec::Run {
            ctx: &self.ctx,
            store: &mut self.store,
            binds,
            fcx: &mut fcx,
            timestamp,
            now_micros,
            list_sequence: &mut self.list_sequence,
            limits: self.limits,
            key_literals,
            paged: self.page_size.is_some(),
        };
        let deadline = crate::deadline::deadline(self.timeouts, statement, &plan);
        let ran = crate::deadline::within(deadline, || exec::run_data(&mut run, statement, &plan));
        let mut result =
            ran.map_err(|e| crate::deadline::with_timeout_info(e, &self.ctx, &plan, statement))?;
        result.plan = Some(plan);
        Ok(result)
    }
}

/// The parts of a session a compiled INSERT writes with, borrowed apart
/// from the caches that hold the INSERT (a text INSERT's shape lends its
/// compiled form and values rather than copying them out). Built by
/// [`insert_writer!`], field by field, so that those caches may stay
/// borrowed beside it.
struct InsertWriter<'s> {
    store: &'s mut Store,
    key_bytes: &'s mut exec::restrict::KeyBuffer,
    last_timestamp: &'s mut i64,
    default_timestamp: Option<i64>,
    clock: &'s dyn Clock,
    collection_size: usize,
}

impl InsertWriter<'_> {
    /// Runs a compiled INSERT, or declines (`None`) before taking a write
    /// timestamp, so the general path then takes the same clock readings
    /// and timestamp it would have taken anyway.
    fn run(
        self,
        insert: &exec::compiled_insert::CompiledInsert,
        values: &[Value],
        plan: &Arc<Plan>,
    ) -> Option<ResultSet> {
        let conformed;
        let values = if insert.fits(values, self.collection_size) {
            values
        } else {
            conformed = insert.conformed(values, self.collection_size)?;
            &conformed
        };
        let row = insert.bind(values, self.key_bytes)?;
        // The clock is read once, as `run_planned` reads it.
        let now_micros = self.clock.now_micros();
        let timestamp = self
            .default_timestamp
            .unwrap_or_else(|| next_timestamp(self.last_timestamp, now_micros));
        Some(insert.write(self.store, row, timestamp, now_micros, plan))
    }
}

/// The write timestamp of a write at clock time `now` (microseconds), after
/// the session's `last`: strictly increasing like the drivers' monotonic
/// timestamp generator.
fn next_timestamp(last: &mut i64, now: i64) -> i64 {
    *last = now.max(last.saturating_add(1));
    *last
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_forgets_plans_made_under_another_context() {
        let mut session = Session::new();
        session
            .execute_script(
                "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
                 USE ks;
                 CREATE TABLE t (k int PRIMARY KEY, v int);",
            )
            .unwrap();
        let insert = session
            .prepare("INSERT INTO t (k, v) VALUES (?, ?)")
            .unwrap();
        let read = session.prepare("SELECT v FROM t WHERE k = ?").unwrap();
        for k in 0..3 {
            session
                .execute_prepared(&insert, &[Value::Int(k), Value::Int(k)])
                .unwrap();
            session.execute_prepared(&read, &[Value::Int(k)]).unwrap();
        }
        assert_eq!(session.prepared_plans.len(), 2);
        session.execute("ALTER TABLE t ADD w int").unwrap();
        let row = session.execute_prepared(&read, &[Value::Int(2)]).unwrap();
        assert_eq!(row.rows.len(), 1);
        // The insert's plan, made before the change, is gone with it.
        assert_eq!(session.prepared_plans.len(), 1);
    }

    #[test]
    fn coordinators_taking_turns_keep_their_plans_and_see_their_own_local_row() {
        use crate::cluster::{Coordinator, NodeIndex};
        let mut session = Session::new();
        session
            .execute_script(
                "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
                 CREATE TABLE ks.t (k int PRIMARY KEY, v int);",
            )
            .unwrap();
        let read = session.prepare("SELECT v FROM ks.t WHERE k = ?").unwrap();
        let local = session
            .prepare("SELECT broadcast_address FROM system.local")
            .unwrap();
        let on = |session: &mut Session, node| {
            session.set_coordinator(Coordinator::Node(NodeIndex(node)));
            session.execute_prepared(&read, &[Value::Int(1)]).unwrap();
            session.ctx_stamp
        };
        let stamps: Vec<u64> = [0, 1, 2, 0, 1, 2]
            .iter()
            .map(|&n| on(&mut session, n))
            .collect();
        assert_eq!(
            stamps[..3],
            stamps[3..],
            "each coordinator's stamp comes back"
        );
        assert_eq!(session.prepared_plans.len(), 3, "one plan per coordinator");
        for node in [2, 0, 3] {
            session.set_coordinator(Coordinator::Node(NodeIndex(node)));
            let row = session.execute_prepared(&local, &[]).unwrap();
            let address = format!("127.0.0.{}", node + 1).parse().unwrap();
            assert_eq!(row.rows, vec![vec![Value::Inet(address)]]);
        }
        // Any other change to the context forgets the stamps.
        session.execute("ALTER TABLE ks.t ADD w int").unwrap();
        assert_ne!(on(&mut session, 0), stamps[0]);
    }
}
