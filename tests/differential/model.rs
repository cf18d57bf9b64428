//! The SQL side: CQL's semantics modelled on SQLite.
//!
//! A CQL table `PRIMARY KEY ((p…), c…)` becomes two SQLite tables:
//!
//! * `rows`, `WITHOUT ROWID` keyed on `(p…, c…)`, holding the regular
//!   columns and `live_by_insert`: whether the row carries a liveness marker
//!   (results.md "Row liveness": a row made by INSERT exists with every
//!   regular column null; one made only by UPDATE exists only while some
//!   regular cell is non-null);
//! * `statics`, keyed on `(p…)`, one row per partition with static values
//!   (the static row has no liveness marker: it exists while a static cell
//!   is non-null).
//!
//! Writes use distinct, increasing timestamps (the session's default), so
//! last-write-wins is simply "apply the statements in order"; a null or a
//! deletion is a tombstone, i.e. the cell becomes NULL. After each write,
//! rows and static rows that no longer exist are removed.
//!
//! Reads run as SQL over a view of the CQL rows, written by
//! [`super::sql`].

use rusqlite::Connection;
use widerow::types::Value;

use super::case::{KeyWhere, Read, Write};
use super::schema::{Kind, Lit, Table, Ty};
use super::sql::{self, in_list, q};

pub struct Model {
    conn: Connection,
    table: Table,
}

/// What the model says a read returns: each row's partition key (to check
/// partition grouping in scans) and its selected values.
pub struct Expected {
    pub rows: Vec<(Vec<Value>, Vec<Value>)>,
}

fn cartesian(lists: &[Vec<Lit>]) -> Vec<Vec<Lit>> {
    let mut out = vec![Vec::new()];
    for list in lists {
        let mut next = Vec::new();
        for prefix in &out {
            for v in list {
                let mut p = prefix.clone();
                p.push(v.clone());
                next.push(p);
            }
        }
        out = next;
    }
    out
}

impl Model {
    pub fn new(table: &Table) -> Model {
        let conn = Connection::open_in_memory().expect("sqlite");
        let col = |i: usize| format!("{} {}", q(table.name(i)), table.ty(i).sql());
        let names =
            |v: Vec<usize>| -> Vec<String> { v.into_iter().map(|i| q(table.name(i))).collect() };
        let mut keys = table.pk();
        keys.extend(table.ck());
        let mut defs: Vec<String> = keys
            .iter()
            .map(|&i| format!("{} NOT NULL", col(i)))
            .collect();
        defs.extend(table.regulars().into_iter().map(col));
        defs.push("live_by_insert INTEGER NOT NULL".into());
        defs.push(format!("PRIMARY KEY ({})", names(keys).join(", ")));
        let mut ddl = format!(
            "CREATE TABLE rows ({}) STRICT, WITHOUT ROWID;",
            defs.join(", ")
        );
        // Created even without static columns, so the read view is uniform.
        let mut sdefs: Vec<String> = table
            .pk()
            .into_iter()
            .map(|i| format!("{} NOT NULL", col(i)))
            .collect();
        sdefs.extend(table.statics().into_iter().map(col));
        sdefs.push(format!("PRIMARY KEY ({})", names(table.pk()).join(", ")));
        ddl.push_str(&format!(
            "CREATE TABLE statics ({}) STRICT, WITHOUT ROWID;",
            sdefs.join(", ")
        ));
        conn.execute_batch(&ddl).expect("model DDL");
        Model {
            conn,
            table: table.clone(),
        }
    }

    fn exec(&self, sql: &str) {
        if let Err(e) = self.conn.execute_batch(sql) {
            panic!("harness: model SQL failed: {e}\n{sql}");
        }
    }

    /// `p1 = v AND p2 = w` for one partition key.
    fn pk_match(&self, pk: &[Lit], prefix: &str) -> Vec<String> {
        self.table
            .pk()
            .into_iter()
            .zip(pk)
            .map(|(c, v)| format!("{prefix}{} = {}", q(self.table.name(c)), v.sql()))
            .collect()
    }

    /// Upserts `cells` into the row at `key` (partition then clustering
    /// values); `insert` also gives the row its liveness marker.
    fn upsert_row(&self, key: &[Lit], cells: &[(usize, Option<Lit>)], insert: bool) {
        let mut cols: Vec<String> = self
            .table
            .pk()
            .into_iter()
            .chain(self.table.ck())
            .map(|i| q(self.table.name(i)))
            .collect();
        let mut vals: Vec<String> = key.iter().map(Lit::sql).collect();
        let mut sets: Vec<String> = Vec::new();
        for (c, v) in cells {
            let name = q(self.table.name(*c));
            cols.push(name.clone());
            vals.push(v.as_ref().map_or("NULL".into(), Lit::sql));
            sets.push(format!("{name} = excluded.{name}"));
        }
        cols.push("live_by_insert".into());
        vals.push(if insert { "1" } else { "0" }.into());
        if insert {
            sets.push("live_by_insert = 1".into());
        }
        let keys: Vec<String> = cols[..key.len()].to_vec();
        let action = if sets.is_empty() {
            "NOTHING".to_string()
        } else {
            format!("UPDATE SET {}", sets.join(", "))
        };
        self.exec(&format!(
            "INSERT INTO rows ({}) VALUES ({}) ON CONFLICT ({}) DO {action};",
            cols.join(", "),
            vals.join(", "),
            keys.join(", ")
        ));
    }

    fn upsert_statics(&self, pk: &[Lit], cells: &[(usize, Option<Lit>)]) {
        if cells.is_empty() {
            return;
        }
        let mut cols: Vec<String> = self
            .table
            .pk()
            .into_iter()
            .map(|i| q(self.table.name(i)))
            .collect();
        let keys = cols.clone();
        let mut vals: Vec<String> = pk.iter().map(Lit::sql).collect();
        let mut sets = Vec::new();
        for (c, v) in cells {
            let name = q(self.table.name(*c));
            cols.push(name.clone());
            vals.push(v.as_ref().map_or("NULL".into(), Lit::sql));
            sets.push(format!("{name} = excluded.{name}"));
        }
        self.exec(&format!(
            "INSERT INTO statics ({}) VALUES ({}) ON CONFLICT ({}) DO UPDATE SET {};",
            cols.join(", "),
            vals.join(", "),
            keys.join(", "),
            sets.join(", ")
        ));
    }

    /// The WHERE conditions on `rows` for one partition key and the
    /// clustering part of `at` (prefix `=`/`IN`, then the slice).
    fn row_conditions(&self, pk: &[Lit], at: &KeyWhere) -> String {
        let mut cond = self.pk_match(pk, "");
        for (c, vals) in self.table.ck().into_iter().zip(&at.ck) {
            cond.push(format!("{} {}", q(self.table.name(c)), in_list(vals)));
        }
        if let Some(s) = &at.slice {
            sql::slice_conditions(&self.table, s, &mut cond);
        }
        if let Some((cols, m)) = &at.multi {
            sql::multi_conditions(&self.table, cols, m, &mut cond);
        }
        cond.join(" AND ")
    }

    /// Applies a write that widerow accepted.
    pub fn apply(&mut self, write: &Write) {
        let t = &self.table;
        let is = |c: usize, k: fn(Kind) -> bool| k(t.columns[c].kind);
        let split = |cells: &[(usize, Option<Lit>)]| {
            let statics: Vec<(usize, Option<Lit>)> = cells
                .iter()
                .filter(|(c, _)| is(*c, |k| k == Kind::Static))
                .cloned()
                .collect();
            let regulars: Vec<(usize, Option<Lit>)> = cells
                .iter()
                .filter(|(c, _)| is(*c, |k| k == Kind::Regular))
                .cloned()
                .collect();
            (statics, regulars)
        };
        match write {
            Write::Insert { values, .. } => {
                let key_of = |cols: Vec<usize>| -> Option<Vec<Lit>> {
                    cols.iter()
                        .map(|c| {
                            values
                                .iter()
                                .find(|(i, _)| i == c)
                                .and_then(|(_, v)| v.clone())
                        })
                        .collect()
                };
                let pk = key_of(t.pk()).expect("insert names the partition key");
                let (statics, regulars) = split(values);
                // Without clustering values, an INSERT writes statics only.
                if let Some(ck) = key_of(t.ck()).filter(|ck| !ck.is_empty() || t.ck().is_empty()) {
                    let mut key = pk.clone();
                    key.extend(ck);
                    self.upsert_row(&key, &regulars, true);
                }
                self.upsert_statics(&pk, &statics);
            }
            // An empty IN on a clustering column makes the whole statement
            // a no-op, static cells included (ModificationStatement.addUpdates
            // returns before any partition is touched).
            Write::Update { at, .. } | Write::DeleteColumns { at, .. }
                if at.ck.iter().any(Vec::is_empty) => {}
            Write::Update { set, at, .. } => {
                let (statics, regulars) = split(set);
                for pk in cartesian(&at.pk) {
                    if !regulars.is_empty() {
                        for ck in cartesian(&at.ck) {
                            let mut key = pk.clone();
                            key.extend(ck);
                            self.upsert_row(&key, &regulars, false);
                        }
                    }
                    self.upsert_statics(&pk, &statics);
                }
            }
            Write::Delete { at, .. } => {
                for pk in cartesian(&at.pk) {
                    self.exec(&format!(
                        "DELETE FROM rows WHERE {};",
                        self.row_conditions(&pk, at)
                    ));
                    if at.ck.is_empty() && at.slice.is_none() && at.multi.is_none() {
                        self.exec(&format!(
                            "DELETE FROM statics WHERE {};",
                            self.pk_match(&pk, "").join(" AND ")
                        ));
                    }
                }
            }
            Write::DeleteColumns { cols, at, .. } => {
                let nulls = |kind: Kind| -> Vec<String> {
                    cols.iter()
                        .filter(|c| t.columns[**c].kind == kind)
                        .map(|c| format!("{} = NULL", q(t.name(*c))))
                        .collect()
                };
                let (statics, regulars) = (nulls(Kind::Static), nulls(Kind::Regular));
                for pk in cartesian(&at.pk) {
                    if !regulars.is_empty() {
                        let sql = format!(
                            "UPDATE rows SET {} WHERE {};",
                            regulars.join(", "),
                            self.row_conditions(&pk, at)
                        );
                        self.exec(&sql);
                    }
                    if !statics.is_empty() {
                        let sql = format!(
                            "UPDATE statics SET {} WHERE {};",
                            statics.join(", "),
                            self.pk_match(&pk, "").join(" AND ")
                        );
                        self.exec(&sql);
                    }
                }
            }
        }
        // Only UPDATEs and column deletions can leave a row without cells
        // and liveness; any write with static cells can empty a static row.
        let rows = matches!(write, Write::Update { .. } | Write::DeleteColumns { .. });
        self.collect_dead(rows);
    }

    /// Removes rows without a liveness marker whose regular cells are all
    /// null, and static rows whose static cells are all null.
    fn collect_dead(&self, rows: bool) {
        let all_null = |cols: Vec<usize>| -> String {
            let c: Vec<String> = cols
                .into_iter()
                .map(|i| format!("{} IS NULL", q(self.table.name(i))))
                .collect();
            if c.is_empty() {
                "1".into()
            } else {
                c.join(" AND ")
            }
        };
        if rows {
            self.exec(&format!(
                "DELETE FROM rows WHERE live_by_insert = 0 AND {};",
                all_null(self.table.regulars())
            ));
        }
        if !self.table.statics().is_empty() {
            self.exec(&format!(
                "DELETE FROM statics WHERE {};",
                all_null(self.table.statics())
            ));
        }
    }

    /// The rows `read` returns, in the order Cassandra returns them when it
    /// defines one (see [`super::compare`] for when it does not). LIMIT is
    /// left to the comparison.
    /// The rows `read` returns, in the order Cassandra returns them when it
    /// defines one (see [`super::compare`] for when it does not). LIMIT is
    /// left to the comparison.
    pub fn query(&self, read: &Read) -> Expected {
        let t = &self.table;
        let cond = sql::conditions(t, read);
        let where_ = if cond.is_empty() {
            String::new()
        } else {
            format!(" WHERE {}", cond.join(" AND "))
        };
        let (select, types): (Vec<String>, Vec<Ty>) = sql::selection(t, read).into_iter().unzip();
        let pk = t.pk();
        let keys: Vec<String> = pk.iter().map(|&i| q(t.name(i))).collect();
        // Each row's partition key comes first, for the comparison's
        // grouping by partition.
        let (hidden, order) = if read.selection.is_aggregate() {
            (Vec::new(), String::new())
        } else {
            (keys.clone(), sql::order_by(t, read))
        };
        // PER PARTITION LIMIT keeps the first rows of each partition in read
        // order, after filtering.
        let from = match read.per_partition_limit {
            Some(n) => format!(
                "(SELECT *, ROW_NUMBER() OVER (PARTITION BY {}{}) AS rn__ FROM base{where_}) WHERE rn__ <= {n}",
                keys.join(", "),
                sql::clustering_order(t, read).map(|o| format!(" ORDER BY {o}")).unwrap_or_default(),
            ),
            None => format!("base{where_}"),
        };
        // GROUP BY: a static-only row is a group of its own (its null
        // clustering values group apart from any row's).
        let group_columns: Vec<String> = read
            .selection
            .group_columns(t)
            .into_iter()
            .map(|i| q(t.name(i)))
            .collect();
        let group = if group_columns.is_empty() {
            String::new()
        } else {
            format!(" GROUP BY {}", group_columns.join(", "))
        };
        let sql = format!(
            "WITH base AS ({}) SELECT {} FROM {from}{group}{order}",
            sql::base_view(t, read),
            hidden
                .iter()
                .chain(&select)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        );
        let mut stmt = self
            .conn
            .prepare(&sql)
            .unwrap_or_else(|e| panic!("harness: model SQL failed: {e}\n{sql}"));
        let n = hidden.len();
        let rows = stmt
            .query_map([], |row| {
                let key: Vec<Value> = (0..n)
                    .map(|i| Table::value_of(t.ty(pk[i]), row.get(i).unwrap()))
                    .collect();
                let vals: Vec<Value> = types
                    .iter()
                    .enumerate()
                    .map(|(j, ty)| Table::value_of(*ty, row.get(n + j).unwrap()))
                    .collect();
                Ok((key, vals))
            })
            .expect("model query")
            .map(Result::unwrap)
            .collect();
        Expected { rows }
    }
}
