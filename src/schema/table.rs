//! Tables (and materialized views, which are planned like tables): columns
//! in definition order, the primary key, indexes and options.

use indexmap::IndexMap;

use crate::syntax::ast::{IndexTargetKind, Order, PropertyValue, Relation};
use crate::types::DataType;

/// What role a column plays in its table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ColumnKind {
    /// The n-th partition key column (from 0).
    PartitionKey(usize),
    /// The n-th clustering column (from 0) and its declared order.
    Clustering(usize, Order),
    /// A static column: one value per partition.
    Static,
    /// A regular column.
    Regular,
}

/// A column of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    /// The column's name (as stored: case kept for quoted names).
    pub name: String,
    /// Its type.
    pub data_type: DataType,
    /// Its role.
    pub kind: ColumnKind,
}

impl Column {
    /// Whether the column is part of the primary key.
    pub fn is_primary_key(&self) -> bool {
        matches!(
            self.kind,
            ColumnKind::PartitionKey(_) | ColumnKind::Clustering(..)
        )
    }

    /// Whether the column is a partition key column.
    pub fn is_partition_key(&self) -> bool {
        matches!(self.kind, ColumnKind::PartitionKey(_))
    }

    /// Whether the column is a clustering column.
    pub fn is_clustering(&self) -> bool {
        matches!(self.kind, ColumnKind::Clustering(..))
    }

    /// Whether the column is static.
    pub fn is_static(&self) -> bool {
        self.kind == ColumnKind::Static
    }

    /// The name as CQL writes it (quoted where needed), for messages and
    /// DESCRIBE.
    pub fn cql_name(&self) -> String {
        let mut out = String::new();
        let _ = crate::syntax::ast::write_name(&mut out, &self.name);
        out
    }
}

/// Which implementation backs an index; it decides which operators the
/// index serves and how indexes group (all SAI indexes of a table form one
/// group in 5.0).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum IndexKind {
    /// `CREATE INDEX` without `USING`: Cassandra's legacy secondary index.
    Legacy,
    /// Storage-attached index (`USING 'sai'` or `'StorageAttachedIndex'`).
    Sai,
    /// SASI (`org.apache.cassandra.index.sasi.SASIIndex`).
    Sasi,
    /// Any other custom class.
    Custom(String),
}

/// A secondary index on one column of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Index {
    /// The index name (unique in its keyspace).
    pub name: String,
    /// The indexed column.
    pub column: String,
    /// Which part of the column is indexed.
    pub target: IndexTargetKind,
    /// The implementation.
    pub kind: IndexKind,
    /// `WITH OPTIONS = {…}`
    pub options: IndexMap<String, String>,
    /// The class named by `USING`, as written (`'sai'`, `'StorageAttachedIndex'`,
    /// …), so DESCRIBE prints it back the way Cassandra does; `None` for a
    /// legacy index.
    pub class_name: Option<String>,
}

/// A column removed by `ALTER TABLE … DROP`: Cassandra remembers it so that
/// re-adding the name with an incompatible type or kind can be refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DroppedColumn {
    /// The type the column had.
    pub data_type: DataType,
    /// Whether it was static.
    pub is_static: bool,
    /// `USING TIMESTAMP` of the drop, when given (microseconds, as written).
    pub timestamp: Option<String>,
}

/// What a materialized view was defined with, beyond its columns: kept for
/// DESCRIBE and for following base-table changes (`SELECT *` views gain the
/// columns later added to their base table).
#[derive(Debug, Clone, PartialEq)]
pub struct ViewDefinition {
    /// The view was defined with `SELECT *`.
    pub include_all_columns: bool,
    /// The view's WHERE clause, as written.
    pub where_clause: Vec<Relation>,
}

/// A table or materialized view.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// The keyspace.
    pub keyspace: String,
    /// The table's name.
    pub name: String,
    /// Columns in definition order.
    pub columns: super::NameMap<Column>,
    /// Partition key column names, in key order.
    pub partition_key: Vec<String>,
    /// Clustering column names, in key order.
    pub clustering: Vec<String>,
    /// Indexes on this table.
    pub indexes: Vec<Index>,
    /// Table options as written (every option Cassandra 5.0 knows), kept so
    /// DESCRIBE can show them back.
    pub options: IndexMap<String, PropertyValue>,
    /// For a materialized view: its base table.
    pub view_of: Option<String>,
    /// For a materialized view: how it was defined.
    pub view: Option<ViewDefinition>,
    /// Columns dropped by ALTER TABLE, by name.
    pub dropped_columns: IndexMap<String, DroppedColumn>,
}

impl Table {
    /// A column by name.
    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns.get(name)
    }

    /// A column by name, tried first at definition position `hint`: an
    /// INSERT usually lists its columns in the table's order, and a name
    /// compared in place costs less than one hashed and looked up.
    pub fn column_hinted(&self, name: &str, hint: usize) -> Option<&Column> {
        match self.columns.get_index(hint) {
            Some((n, column)) if n == name => Some(column),
            _ => self.column(name),
        }
    }

    /// The partition key columns, in key order.
    pub fn partition_key_columns(&self) -> impl Iterator<Item = &Column> + '_ {
        self.partition_key
            .iter()
            .filter_map(|n| self.columns.get(n))
    }

    /// The clustering columns, in key order.
    pub fn clustering_columns(&self) -> impl Iterator<Item = &Column> + '_ {
        self.clustering.iter().filter_map(|n| self.columns.get(n))
    }

    /// `ks.table`, as messages name it.
    pub fn qualified_name(&self) -> String {
        [self.keyspace.as_str(), ".", self.name.as_str()].concat()
    }

    /// Whether the table holds counters.
    pub fn is_counter_table(&self) -> bool {
        self.columns.values().any(|c| c.data_type.is_counter())
    }

    /// The columns `SELECT *` returns, in Cassandra's order: partition key,
    /// clustering, then static columns and regular columns each sorted by
    /// name.
    pub fn star_columns(&self) -> Vec<&Column> {
        let mut statics: Vec<&Column> = self.columns.values().filter(|c| c.is_static()).collect();
        let mut regular: Vec<&Column> = self
            .columns
            .values()
            .filter(|c| c.kind == ColumnKind::Regular)
            .collect();
        statics.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
        regular.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
        self.partition_key_columns()
            .chain(self.clustering_columns())
            .chain(statics)
            .chain(regular)
            .collect()
    }

    /// Whether this is a materialized view.
    pub fn is_view(&self) -> bool {
        self.view_of.is_some()
    }

    /// An option's value: the one written, else Cassandra 5.0's default
    /// (`None` for a name that is not a table option).
    pub fn option_or_default(&self, name: &str) -> Option<PropertyValue> {
        self.options
            .get(name)
            .cloned()
            .or_else(|| super::ddl::table_option_default(name))
    }

    /// `default_time_to_live` in seconds (0: none). The value may have been
    /// written as a number or a string (`'60'`), as Cassandra accepts both.
    pub fn default_ttl(&self) -> i64 {
        self.options
            .get("default_time_to_live")
            .and_then(super::ddl::option_str)
            .and_then(|text| text.parse().ok())
            .unwrap_or(0)
    }
}
