//! The same rows placed as HBase or Bigtable would place them, beside
//! Cassandra's hashed ring (the seed's section 05): rows sorted by one
//! row key, cut into regions of contiguous keys, regions served by region
//! servers. A region is split at its middle key once it holds more than
//! the split size, as HBase splits a region that outgrows its size, so
//! the regions come from replaying the table's writes in time order.
//!
//! Three row-key designs show the lesson: Cassandra's own key (partition
//! key, then clustering) keeps a partition's rows together; a key that
//! starts with the write time piles every new write onto the last region;
//! a salted key (a hash prefix) spreads them.
//!
//! The rows come from the tab's session; the rows a statement touched come
//! from the TRACING facts. Nothing here is Cassandra's behaviour: it is
//! the comparison the seed draws, computed on the same data.

use serde_json::{json, Value as Json};

use crate::cluster::murmur3::murmur3_token;
use crate::schema::{ColumnKind, Table};
use crate::session::Session;
use crate::syntax::ast::NativeType;
use crate::types::{DataType, Value};

/// Smallest split size the control accepts, in rows.
pub const MIN_SPLIT_ROWS: u64 = 2;

/// Largest split size the control accepts, in rows.
pub const MAX_SPLIT_ROWS: u64 = 1_000_000;

/// Region servers the regions are spread over (as many as the seed's
/// nodes).
const SERVERS: usize = 4;

/// Salt buckets of the salted design.
const SALT_BUCKETS: u64 = 16;

/// Share of the writes, newest last, whose regions are reported, in percent.
const NEWEST_PERCENT: usize = 10;

/// A row-key design.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Design {
    /// Partition key, then clustering key.
    PrimaryKey,
    /// The write time first.
    TimeFirst,
    /// A hash bucket first.
    Salted,
}

impl Design {
    fn name(self) -> &'static str {
        match self {
            Design::PrimaryKey => "primary-key",
            Design::TimeFirst => "time-first",
            Design::Salted => "salted",
        }
    }
}

/// One live row, with its keys as text and its time.
struct Row {
    primary_key: String,
    micros: Option<i64>,
    order: usize,
    touched: bool,
}

/// The HBase view of table `table` (`ks.t`): for each design, the regions
/// and which of them the statement `cql` (just run) touched and where the
/// newest writes landed.
pub fn view(
    session: &Session,
    table: &str,
    cql: Option<&str>,
    split: usize,
) -> Result<Json, String> {
    let (keyspace, name) = table
        .split_once('.')
        .ok_or_else(|| format!("{table:?} is not a keyspace-qualified table name"))?;
    let schema = session
        .context()
        .catalog
        .table(keyspace, name)
        .ok_or_else(|| format!("there is no table {table}"))?;
    let touched = cql.and_then(|cql| crate::shell::trace::facts::touched_rows(session, cql, table));
    let rows = rows(session, schema, table, touched.as_ref());
    let designs: Vec<Json> = [Design::PrimaryKey, Design::TimeFirst, Design::Salted]
        .into_iter()
        .map(|design| regions(&rows, design, split))
        .collect();
    Ok(json!({
        "table": table,
        "rows": rows.len(),
        "split_rows": split,
        "servers": SERVERS,
        "time_column": time_column(schema).map(|(_, c)| c),
        "designs": designs,
    }))
}

/// The first clustering column holding a time, with its place among the
/// clustering columns.
fn time_column(table: &Table) -> Option<(usize, String)> {
    table
        .clustering_columns()
        .find_map(|c| match (c.kind, &c.data_type) {
            (
                ColumnKind::Clustering(i, _),
                DataType::Native(NativeType::Timeuuid | NativeType::Timestamp),
            ) => Some((i, c.name.clone())),
            _ => None,
        })
}

fn rows(
    session: &Session,
    table: &Table,
    name: &str,
    touched: Option<&std::collections::BTreeSet<(Vec<Value>, Vec<Value>)>>,
) -> Vec<Row> {
    let Some(data) = session.store().table(name) else {
        return Vec::new();
    };
    let now = session.now_micros().div_euclid(1_000_000);
    let time = time_column(table);
    let text = |values: &[Value], types: &mut dyn Iterator<Item = &DataType>| -> Vec<String> {
        values
            .iter()
            .zip(types)
            .map(|(v, t)| v.cqlsh_display(t))
            .collect()
    };
    let mut out = Vec::new();
    for (_, partition) in data.partitions.iter().filter(|(_, p)| p.is_live(now)) {
        let key = text(
            &partition.key,
            &mut table.partition_key_columns().map(|c| &c.data_type),
        );
        for (clustering, row) in &partition.rows {
            if !row.is_live(now) {
                continue;
            }
            let values = clustering.values().to_vec();
            let parts = text(
                &values,
                &mut table.clustering_columns().map(|c| &c.data_type),
            );
            let micros = time.as_ref().and_then(|(i, _)| match values.get(*i) {
                Some(Value::Timeuuid(u)) => Some(crate::types::timeuuid::unix_micros(u)),
                Some(Value::Timestamp(ms)) => Some(ms.saturating_mul(1_000)),
                _ => None,
            });
            let is_touched = touched.is_some_and(|t| t.contains(&(partition.key.to_vec(), values)));
            out.push(Row {
                primary_key: key
                    .iter()
                    .chain(&parts)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("#"),
                micros,
                order: out.len(),
                touched: is_touched,
            });
        }
    }
    out
}

/// A row's key under `design`.
fn row_key(row: &Row, design: Design) -> String {
    match design {
        Design::PrimaryKey => row.primary_key.clone(),
        Design::TimeFirst => format!(
            "{:020}#{}",
            row.micros.unwrap_or(row.order as i64),
            row.primary_key
        ),
        Design::Salted => {
            let bucket = (murmur3_token(row.primary_key.as_bytes()) as u64) % SALT_BUCKETS;
            format!("{bucket:02x}#{}", row.primary_key)
        }
    }
}

/// The regions of `design` after replaying every write in time order.
fn regions(rows: &[Row], design: Design, split: usize) -> Json {
    let mut arrivals: Vec<(&Row, String)> = rows.iter().map(|r| (r, row_key(r, design))).collect();
    arrivals.sort_by_key(|(r, _)| (r.micros.unwrap_or(i64::MIN), r.order));
    // Each region is a sorted list of keys; regions are in key order.
    let mut regions: Vec<Vec<String>> = vec![Vec::new()];
    let newest_from = arrivals.len() - arrivals.len() * NEWEST_PERCENT / 100;
    let mut newest_keys = Vec::new();
    let mut to_last = 0usize;
    for (i, (_, key)) in arrivals.iter().enumerate() {
        let at = regions
            .iter()
            .rposition(|r| r.first().is_some_and(|first| first <= key))
            .unwrap_or(0);
        if at + 1 == regions.len() {
            to_last += 1;
        }
        let region = &mut regions[at];
        let place = region.binary_search(key).unwrap_or_else(|p| p);
        region.insert(place, key.clone());
        if region.len() > split {
            let upper = region.split_off(region.len() / 2);
            regions.insert(at + 1, upper);
        }
        if i >= newest_from {
            newest_keys.push(key.clone());
        }
    }
    let touched: std::collections::BTreeSet<String> = arrivals
        .iter()
        .filter(|(r, _)| r.touched)
        .map(|(_, k)| k.clone())
        .collect();
    let newest: std::collections::BTreeSet<String> = newest_keys.into_iter().collect();
    let listed: Vec<Json> = regions
        .iter()
        .enumerate()
        .map(|(i, keys)| {
            json!({
                "start": if i == 0 { None } else { keys.first().cloned() },
                "end": regions.get(i + 1).and_then(|next| next.first().cloned()),
                "rows": keys.len(),
                "server": format!("regionserver{}", i % SERVERS + 1),
                "touched": keys.iter().filter(|k| touched.contains(*k)).count(),
                "newest_writes": keys.iter().filter(|k| newest.contains(*k)).count(),
            })
        })
        .collect();
    json!({
        "design": design.name(),
        "regions": listed,
        "newest_writes": newest.len(),
        "last_region_share": (to_last * 100).checked_div(arrivals.len()).unwrap_or(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(n: usize) -> Row {
        Row {
            primary_key: format!("k#{n:05}"),
            micros: Some(n as i64),
            order: n,
            touched: false,
        }
    }

    #[test]
    fn time_ordered_keys_pile_onto_the_last_region_and_salted_ones_spread() {
        let rows: Vec<Row> = (0..400).map(row).collect();
        let count = |design| {
            let view = regions(&rows, design, 50);
            let regions = view["regions"].as_array().unwrap().clone();
            let hit = regions
                .iter()
                .filter(|r| r["newest_writes"].as_u64().unwrap() > 0)
                .count();
            (regions.len(), hit)
        };
        let (time_regions, time_hit) = count(Design::TimeFirst);
        assert!(time_regions > 4);
        assert!(
            time_hit <= 2,
            "the newest writes land at the end of the key space"
        );
        let (_, salted_hit) = count(Design::Salted);
        assert!(salted_hit > 4, "a salted key spreads the newest writes");
        let share = |design| {
            regions(&rows, design, 50)["last_region_share"]
                .as_u64()
                .unwrap()
        };
        assert_eq!(share(Design::TimeFirst), 100);
        assert!(share(Design::Salted) < 50);
    }

    #[test]
    fn regions_stay_within_the_split_size() {
        let rows: Vec<Row> = (0..300).map(row).collect();
        let view = regions(&rows, Design::Salted, 40);
        for region in view["regions"].as_array().unwrap() {
            assert!(region["rows"].as_u64().unwrap() <= 40);
        }
    }
}
