//! What the planner decides: the [`Plan`] of a statement.
//!
//! A plan is data — serde-serialisable for JSON output and tests, and
//! `Display` for people — so the linter, `EXPLAIN` and the executor all read
//! the same decision.

use std::fmt;

use serde::Serialize;

/// How a coordinator serves a statement: the cost shape in one word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum QueryClass {
    /// The whole primary key is fixed: one partition, at most one row.
    PointLookup,
    /// The partition key is fixed: rows of one partition.
    PartitionScan,
    /// The partition key is fixed by IN: k partitions.
    MultiPartition,
    /// No fixed partition key: token ranges, an index, or a filtered scan.
    ScatterGather,
}

impl QueryClass {
    /// The class's name as output and tests spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            QueryClass::PointLookup => "point-lookup",
            QueryClass::PartitionScan => "partition-scan",
            QueryClass::MultiPartition => "multi-partition",
            QueryClass::ScatterGather => "scatter-gather",
        }
    }
}

impl fmt::Display for QueryClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What kind of statement was planned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StatementKind {
    /// SELECT
    Select,
    /// INSERT
    Insert,
    /// UPDATE
    Update,
    /// DELETE
    Delete,
    /// BATCH
    Batch,
}

/// A token as plans show it: a number, or unknown until bind values arrive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenValue {
    /// The Murmur3 token.
    Known(i64),
    /// The key holds bind markers.
    BoundAtExecution,
}

/// Tokens are written as JSON strings: they exceed what a double holds.
impl Serialize for TokenValue {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            TokenValue::Known(t) => s.serialize_str(&t.to_string()),
            TokenValue::BoundAtExecution => s.serialize_str("bound at execution"),
        }
    }
}

impl fmt::Display for StatementKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StatementKind::Select => "SELECT",
            StatementKind::Insert => "INSERT",
            StatementKind::Update => "UPDATE",
            StatementKind::Delete => "DELETE",
            StatementKind::Batch => "BATCH",
        })
    }
}

impl fmt::Display for TokenValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenValue::Known(t) => write!(f, "{t}"),
            TokenValue::BoundAtExecution => f.write_str("bound at execution"),
        }
    }
}

/// One partition a statement addresses.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PartitionTarget {
    /// The partition key values as CQL text, in key order.
    pub key: Vec<String>,
    /// Its token.
    pub token: TokenValue,
    /// The nodes holding it, primary first.
    pub replicas: Vec<String>,
    /// The replicas the consistency level contacts.
    pub contacted: Vec<String>,
    /// Replicas marked down (the consistency level could still be met).
    pub down: Vec<String>,
    /// Acknowledgements the consistency level waits for.
    pub required: u32,
    /// A lightweight transaction's Paxos round, before the commit that
    /// `contacted` and `required` describe.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paxos: Option<PaxosRound>,
}

/// The Paxos round of a lightweight transaction (`ReplicaPlans.forPaxos`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PaxosRound {
    /// SERIAL or LOCAL_SERIAL.
    pub consistency: String,
    /// The live participants asked to prepare and propose.
    pub contacted: Vec<String>,
    /// The promises it waits for: a majority of the participants.
    pub required: u32,
}

/// A token range a scan covers, `(start, end]` as Cassandra writes ranges.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TokenRange {
    /// Exclusive lower bound, or `None` for the ring's minimum.
    pub start: Option<String>,
    /// Whether the lower bound is inclusive (`token(k) >= t`).
    pub start_inclusive: bool,
    /// Upper bound, or `None` for the ring's maximum.
    pub end: Option<String>,
    /// Whether the upper bound is inclusive.
    pub end_inclusive: bool,
}

/// Which partitions a statement reads or writes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Partitions {
    /// Named partitions (one, or several through IN).
    Keys {
        /// The partitions, in the order Cassandra reads them.
        partitions: Vec<PartitionTarget>,
    },
    /// A token range (from `token(…)` relations), on every node owning part of it.
    TokenRange {
        /// The range.
        range: TokenRange,
    },
    /// The whole ring.
    All,
}

/// Forward or reversed clustering order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// The table's clustering order.
    Forward,
    /// Its reverse (ORDER BY opposite to the clustering order).
    Reversed,
}

/// The decision for one statement.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plan {
    /// The class.
    pub class: QueryClass,
    /// What kind of statement.
    pub statement: StatementKind,
    /// The table, `ks.table`.
    pub table: String,
    /// Partitions addressed.
    pub partitions: Partitions,
    /// Clustering restrictions served by seeking within a partition, as CQL.
    pub clustering: Vec<String>,
    /// Restrictions applied to rows after reading (ALLOW FILTERING or an
    /// index that does not serve everything), as CQL.
    pub filters: Vec<String>,
    /// The secondary index the read goes through.
    pub index: Option<String>,
    /// Clustering order of the read.
    pub order: Direction,
    /// `LIMIT`, as written.
    pub limit: Option<String>,
    /// `PER PARTITION LIMIT`, as written.
    pub per_partition_limit: Option<String>,
    /// `ALLOW FILTERING` was given.
    pub allow_filtering: bool,
    /// The consistency level.
    pub consistency: String,
    /// The coordinator node.
    pub coordinator: String,
    /// Every node the statement reaches.
    /// Shared: every result of the plan names them.
    pub nodes: std::sync::Arc<[String]>,
    /// What a user should know about the cost.
    pub warnings: Vec<String>,
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}: {} on {}", self.class, self.statement, self.table)?;
        match &self.partitions {
            Partitions::Keys { partitions } => {
                for p in partitions {
                    writeln!(
                        f,
                        "  partition ({}) token {} replicas [{}] contacted [{}], waits for {}",
                        p.key.join(", "),
                        p.token,
                        p.replicas.join(", "),
                        p.contacted.join(", "),
                        p.required
                    )?;
                    if let Some(paxos) = &p.paxos {
                        writeln!(
                            f,
                            "    paxos at {}: contacted [{}], waits for {}; then commit at {}",
                            paxos.consistency,
                            paxos.contacted.join(", "),
                            paxos.required,
                            self.consistency
                        )?;
                    }
                    if !p.down.is_empty() {
                        writeln!(f, "    down: {}", p.down.join(", "))?;
                    }
                }
            }
            Partitions::TokenRange { range } => {
                let open = if range.start_inclusive { '[' } else { '(' };
                let close = if range.end_inclusive { ']' } else { ')' };
                writeln!(
                    f,
                    "  token range {open}{}, {}{close}",
                    range.start.as_deref().unwrap_or("min"),
                    range.end.as_deref().unwrap_or("max")
                )?;
            }
            Partitions::All => writeln!(f, "  all token ranges")?,
        }
        if !self.clustering.is_empty() {
            writeln!(f, "  clustering: {}", self.clustering.join(" AND "))?;
        }
        if !self.filters.is_empty() {
            writeln!(f, "  filter: {}", self.filters.join(" AND "))?;
        }
        if let Some(index) = &self.index {
            writeln!(f, "  index: {index}")?;
        }
        if self.order == Direction::Reversed {
            writeln!(f, "  order: reversed")?;
        }
        if let Some(n) = &self.per_partition_limit {
            writeln!(f, "  per partition limit: {n}")?;
        }
        if let Some(n) = &self.limit {
            writeln!(f, "  limit: {n}")?;
        }
        writeln!(
            f,
            "  consistency {} via coordinator {}; nodes: {}",
            self.consistency,
            self.coordinator,
            self.nodes.join(", ")
        )?;
        for w in &self.warnings {
            writeln!(f, "  warning: {w}")?;
        }
        Ok(())
    }
}
