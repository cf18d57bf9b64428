//! CREATE / DROP INDEX, following Cassandra 5.0's `CreateIndexStatement`,
//! `IndexAttributes`, `IndexTarget` and `IndexMetadata`.

use indexmap::IndexMap;

use crate::error::Error;
use crate::syntax::ast::{CreateIndex, Drop, IndexTargetKind};
use crate::types::DataType;

use super::super::catalog::Catalog;
use super::super::keyspace::Keyspace;
use super::super::table::{Column, Index, IndexKind, Table};
use super::options::Props;
use super::{
    check_modifiable, config, ire, is_valid_name, is_word, keyspace_for, quote, table_display,
    SchemaChange, SchemaObject, NAME_LENGTH,
};

/// `CassandraIndex.NAME`: the default implementation, which `USING` may
/// also name.
const LEGACY: &str = "legacy_local_table";
const SAI_CLASS: &str = "org.apache.cassandra.index.sai.StorageAttachedIndex";
const SASI_CLASS: &str = "org.apache.cassandra.index.sasi.SASIIndex";

impl Keyspace {
    /// An index by name, with the table it indexes (index names are unique
    /// per keyspace).
    pub fn find_index(&self, name: &str) -> Option<(&Table, &Index)> {
        self.tables
            .values()
            .find_map(|t| t.indexes.iter().find(|i| i.name == name).map(|i| (t, i)))
    }
}

/// How `IndexTarget.Type.toString()` names a target kind in messages.
fn kind_name(kind: IndexTargetKind) -> &'static str {
    match kind {
        IndexTargetKind::Simple => "",
        IndexTargetKind::Values => "values",
        IndexTargetKind::Keys => "keys",
        IndexTargetKind::Entries => "entries",
        IndexTargetKind::Full => "full",
    }
}

/// The target as Cassandra stores it in the index's `target` option.
fn target_text(column: &str, kind: IndexTargetKind) -> String {
    match kind {
        IndexTargetKind::Simple => quote(column),
        other => format!("{}({})", kind_name(other), quote(column)),
    }
}

/// `IndexMetadata.getIndexClassName` and the class lookup of
/// `IndexMetadata.validate`: the aliases `sai` and `StorageAttachedIndex`
/// (any case) or a full class name Cassandra ships.
fn index_kind(class: &str) -> Result<IndexKind, Error> {
    let lower = class.to_lowercase();
    let full = if lower == "sai" || lower == "storageattachedindex" {
        SAI_CLASS
    } else {
        class
    };
    match full {
        SAI_CLASS => Ok(IndexKind::Sai),
        SASI_CLASS => Ok(IndexKind::Sasi),
        _ => Err(config(format!(
            "Unable to find custom indexer class '{full}'"
        ))),
    }
}

/// `CreateIndexStatement.validateIndexTarget`.
fn validate_target(
    table: &Table,
    column: &Column,
    kind: IndexTargetKind,
    custom: bool,
) -> Result<(), Error> {
    let name = column.name.as_str();
    let ty = &column.data_type;
    if custom && !is_valid_name(name) {
        return Err(ire(format!(
            "Column '{name}' is longer than the permissible name length of {NAME_LENGTH} characters or contains non-alphanumeric-underscore characters"
        )));
    }
    if ty.contains_duration() {
        let message = if ty.is_collection() {
            "Secondary indexes are not supported on collections containing durations"
        } else if matches!(ty, DataType::Tuple(_)) {
            "Secondary indexes are not supported on tuples containing durations"
        } else if matches!(ty, DataType::Udt { .. }) {
            "Secondary indexes are not supported on UDTs containing durations"
        } else {
            "Secondary indexes are not supported on duration columns"
        };
        return Err(ire(message));
    }
    if column.is_partition_key() && table.partition_key.len() == 1 {
        return Err(ire(format!(
            "Cannot create secondary index on the only partition key column {name}"
        )));
    }
    let frozen_collection = ty.is_collection() && !ty.is_multi_cell();
    if frozen_collection && kind != IndexTargetKind::Full {
        return Err(ire(format!(
            "Cannot create {}() index on frozen column {name}. Frozen collections are immutable and must be fully indexed by using the 'full({name})' modifier",
            kind_name(kind)
        )));
    }
    if !frozen_collection && kind == IndexTargetKind::Full {
        return Err(ire(
            "full() indexes can only be created on frozen collections",
        ));
    }
    if !ty.is_collection() && kind != IndexTargetKind::Simple {
        return Err(ire(format!(
            "Cannot create {}() index on {name}. Non-collection columns only support simple indexes",
            kind_name(kind)
        )));
    }
    let multi_cell_map = matches!(ty, DataType::Map { frozen: false, .. });
    if !multi_cell_map && matches!(kind, IndexTargetKind::Keys | IndexTargetKind::Entries) {
        return Err(ire(format!(
            "Cannot create index on {} of column {name} with non-map type",
            kind_name(kind)
        )));
    }
    if matches!(ty, DataType::Udt { frozen: false, .. }) {
        return Err(ire(format!(
            "Cannot create index on non-frozen UDT column {name}"
        )));
    }
    Ok(())
}

/// `KeyspaceMetadata.findAvailableIndexName`: the base name, else the first
/// free `base_1`, `base_2`, ….
fn available_index_name(keyspace: &Keyspace, base: &str) -> String {
    if keyspace.find_index(base).is_none() {
        return base.to_string();
    }
    (1..)
        .map(|i| format!("{base}_{i}"))
        .find(|name| keyspace.find_index(name).is_none())
        .unwrap_or_else(|| base.to_string())
}

impl Catalog {
    /// `CREATE [CUSTOM] INDEX`.
    pub(super) fn create_index(
        &mut self,
        s: &CreateIndex,
        current: Option<&str>,
    ) -> Result<SchemaChange, Error> {
        // Prepare: without USING the configured default (the legacy index)
        // is used; USING a class makes the index custom.
        let keyspace = keyspace_for(&s.table, current)?.to_string();
        let (custom, class) = match (&s.using, s.custom) {
            (None, false) => (false, None),
            (None, true) => (true, Some(LEGACY.to_string())),
            (Some(c), false) if c.eq_ignore_ascii_case(LEGACY) => (false, None),
            (Some(c), _) => (true, Some(c.clone())),
        };
        check_modifiable(&keyspace, s.table.span)?;

        // Apply: `IndexAttributes.validate` first.
        let props = Props::new(&s.properties);
        props.check_known(&["options"])?;
        if !custom && !s.properties.is_empty() {
            return Err(ire("Cannot specify options for a non-CUSTOM index").with_span(s.span));
        }
        let options = props.map("options")?.unwrap_or_default();
        for reserved in ["class_name", "target"] {
            if options.contains_key(reserved) {
                return Err(props.located(
                    "options",
                    ire(format!("Cannot specify {reserved} as a CUSTOM option")),
                ));
            }
        }
        if class.as_deref() == Some(SASI_CLASS) && !self.settings.sasi_indexes_enabled {
            return Err(
                ire("SASI indexes are disabled. Enable in cassandra.yaml to use.")
                    .with_span(s.span),
            );
        }
        let ks = self.existing_keyspace(&keyspace, s.table.span)?;
        let table_name = s.table.name.name.as_str();
        let Some(table) = ks.tables.get(table_name) else {
            return Err(ire(format!("Table '{table_name}' doesn't exist")).with_span(s.table.span));
        };
        if let Some(name) = &s.name {
            if ks.find_index(&name.name).is_some() {
                if s.if_not_exists {
                    return Ok(SchemaChange::NoOp);
                }
                return Err(
                    ire(format!("Index '{}' already exists", name.name)).with_span(name.span)
                );
            }
        }
        if table.is_counter_table() {
            return Err(
                ire("Secondary indexes on counter tables aren't supported").with_span(s.span)
            );
        }
        if table.is_view() {
            return Err(
                ire("Secondary indexes on materialized views aren't supported").with_span(s.span),
            );
        }

        let mut targets: Vec<(&Column, IndexTargetKind)> = Vec::new();
        for target in &s.targets {
            let Some(column) = table.column(&target.column.name) else {
                return Err(ire(format!(
                    "Undefined column name {} in table {}",
                    quote(&target.column.name),
                    table_display(&keyspace, table_name)
                ))
                .with_span(target.column.span));
            };
            let kind = if target.kind == IndexTargetKind::Simple && column.data_type.is_collection()
            {
                IndexTargetKind::Values
            } else {
                target.kind
            };
            targets.push((column, kind));
        }
        if targets.is_empty() && !custom {
            return Err(ire(
                "Only CUSTOM indexes can be created without specifying a target column",
            )
            .with_span(s.span));
        }
        if targets.len() > 1 {
            if !custom {
                return Err(ire("Only CUSTOM indexes support multiple columns").with_span(s.span));
            }
            for (i, (column, _)) in targets.iter().enumerate() {
                if targets[..i].iter().any(|(c, _)| c.name == column.name) {
                    return Err(ire(format!(
                        "Duplicate column '{}' in index target list",
                        column.name
                    ))
                    .with_span(s.span));
                }
            }
        }
        for (target, (column, kind)) in s.targets.iter().zip(&targets) {
            validate_target(table, column, *kind, custom)
                .map_err(|e| e.with_span(target.column.span))?;
        }

        let name = match &s.name {
            Some(name) => name.name.clone(),
            None => {
                let base = match targets.as_slice() {
                    [(column, _)] => format!("{table_name}_{}_idx", column.name),
                    _ => format!("{table_name}_idx"),
                };
                let base: String = base
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                available_index_name(ks, &base)
            }
        };
        let target = targets
            .iter()
            .map(|(c, k)| target_text(&c.name, *k))
            .collect::<Vec<_>>()
            .join(", ");
        let same_options = |other: &IndexMap<String, String>| {
            other.len() == options.len() && options.iter().all(|(k, v)| other.get(k) == Some(v))
        };
        if let Some(equal) = table.indexes.iter().find(|i| {
            i.class_name == class
                && target_text(&i.column, i.target) == target
                && same_options(&i.options)
        }) {
            if s.if_not_exists {
                return Ok(SchemaChange::NoOp);
            }
            return Err(ire(format!(
                "Index {name} is a duplicate of existing index {}",
                equal.name
            ))
            .with_span(s.span));
        }

        // `IndexMetadata.validate`, run when the altered table is checked.
        if !is_word(&name) {
            return Err(config(format!("Illegal index name {name}")));
        }
        let kind = match &class {
            None => IndexKind::Legacy,
            Some(class) => index_kind(class)?,
        };
        let [(column, target_kind)] = targets.as_slice() else {
            return Err(config(format!(
                "Unable to parse targets for index {name} ({target})"
            )));
        };
        let index = Index {
            name: name.clone(),
            column: column.name.clone(),
            target: *target_kind,
            kind,
            options,
            class_name: class,
        };
        let table_name = table_name.to_string();
        if let Some(table) = self
            .keyspaces
            .get_mut(&keyspace)
            .and_then(|ks| ks.tables.get_mut(&table_name))
        {
            table.indexes.push(index);
        }
        Ok(SchemaChange::Created(SchemaObject::Index {
            keyspace,
            table: table_name,
            name,
        }))
    }

    /// `DROP INDEX`.
    pub(super) fn drop_index(
        &mut self,
        s: &Drop,
        current: Option<&str>,
    ) -> Result<SchemaChange, Error> {
        let keyspace = keyspace_for(&s.name, current)?.to_string();
        check_modifiable(&keyspace, s.name.span)?;
        let name = s.name.name.name.clone();
        let table = self
            .keyspaces
            .get(&keyspace)
            .and_then(|ks| ks.find_index(&name))
            .map(|(t, _)| t.name.clone());
        let Some(table) = table else {
            if s.if_exists {
                return Ok(SchemaChange::NoOp);
            }
            // Cassandra's format string ends in a stray quote.
            return Err(
                ire(format!("Index '{keyspace}.{name}' doesn't exist'")).with_span(s.name.span)
            );
        };
        if let Some(t) = self
            .keyspaces
            .get_mut(&keyspace)
            .and_then(|ks| ks.tables.get_mut(&table))
        {
            t.indexes.retain(|i| i.name != name);
        }
        Ok(SchemaChange::Dropped(SchemaObject::Index {
            keyspace,
            table,
            name,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;
    use crate::error::ErrorKind;

    fn schema() -> Catalog {
        let mut catalog = catalog_with_ks();
        setup(
            &mut catalog,
            &[
                "CREATE TYPE p (x int, l list<int>)",
                "CREATE TABLE t (k int, c int, v int, w text, m map<text, int>, l list<int>, fl frozen<list<int>>, d duration, fp frozen<p>, PRIMARY KEY (k, c))",
                "CREATE TABLE t2 (a int, b int, v int, PRIMARY KEY ((a, b)))",
                "CREATE TABLE n (k int PRIMARY KEY, n counter)",
            ],
        );
        catalog
    }

    fn index<'a>(catalog: &'a Catalog, table: &str, name: &str) -> &'a Index {
        catalog
            .table("ks", table)
            .and_then(|t| t.indexes.iter().find(|i| i.name == name))
            .unwrap_or_else(|| panic!("no index {name}"))
    }

    #[test]
    fn default_names_and_kinds() {
        let mut catalog = schema();
        let change = run(&mut catalog, "CREATE INDEX ON t (v)").expect("created");
        assert_eq!(
            change,
            SchemaChange::Created(SchemaObject::Index {
                keyspace: "ks".into(),
                table: "t".into(),
                name: "t_v_idx".into()
            })
        );
        assert_eq!(index(&catalog, "t", "t_v_idx").kind, IndexKind::Legacy);
        run(
            &mut catalog,
            "CREATE CUSTOM INDEX ON t (w) USING 'StorageAttachedIndex'",
        )
        .expect("sai");
        let sai = index(&catalog, "t", "t_w_idx");
        assert_eq!(sai.kind, IndexKind::Sai);
        assert_eq!(sai.class_name.as_deref(), Some("StorageAttachedIndex"));
        run(&mut catalog, "CREATE INDEX ON t (c) USING 'SAI'").expect("sai without CUSTOM");
        assert_eq!(index(&catalog, "t", "t_c_idx").kind, IndexKind::Sai);
        run(
            &mut catalog,
            "CREATE CUSTOM INDEX ON t (w) USING 'org.apache.cassandra.index.sasi.SASIIndex' WITH OPTIONS = {'mode': 'CONTAINS'}",
        )
        .expect("sasi");
        let sasi = index(&catalog, "t", "t_w_idx_1");
        assert_eq!(sasi.kind, IndexKind::Sasi);
        assert_eq!(
            sasi.options.get("mode").map(String::as_str),
            Some("CONTAINS")
        );
        run(
            &mut catalog,
            "CREATE INDEX lg ON t2 (b) USING 'legacy_local_table'",
        )
        .expect("legacy");
        assert_eq!(index(&catalog, "t2", "lg").kind, IndexKind::Legacy);
        assert_eq!(index(&catalog, "t2", "lg").class_name, None);
        run(&mut catalog, "CREATE INDEX named ON t (m)").expect("named");
        assert_eq!(
            index(&catalog, "t", "named").target,
            IndexTargetKind::Values
        );
        run(&mut catalog, "CREATE INDEX ON t (keys(m))").expect("keys");
        assert_eq!(
            index(&catalog, "t", "t_m_idx").target,
            IndexTargetKind::Keys
        );
        run(&mut catalog, "CREATE INDEX ON t (full(fl))").expect("full");
        run(&mut catalog, "CREATE INDEX ON t2 (a)").expect("part of a composite key");
        run(&mut catalog, "CREATE INDEX ON t (entries(m))").expect("entries");
        assert_eq!(
            index(&catalog, "t", "t_m_idx_1").target,
            IndexTargetKind::Entries
        );
    }

    #[test]
    fn names_are_unique_per_keyspace() {
        let mut catalog = schema();
        setup(&mut catalog, &["CREATE INDEX i ON t (v)"]);
        assert_invalid(
            &mut catalog,
            "CREATE INDEX i ON t2 (v)",
            "Index 'i' already exists",
        );
        assert_eq!(
            run(&mut catalog, "CREATE INDEX IF NOT EXISTS i ON t2 (v)"),
            Ok(SchemaChange::NoOp)
        );
        assert_invalid(
            &mut catalog,
            "CREATE INDEX j ON t (v)",
            "Index j is a duplicate of existing index i",
        );
        assert_eq!(
            run(&mut catalog, "CREATE INDEX IF NOT EXISTS j ON t (v)"),
            Ok(SchemaChange::NoOp)
        );
    }

    #[test]
    fn target_errors() {
        let mut catalog = schema();
        let cases = [
            ("CREATE INDEX ON t (z)", "Undefined column name z in table ks.t"),
            ("CREATE INDEX ON nope (v)", "Table 'nope' doesn't exist"),
            ("CREATE INDEX ON nope.t (v)", "Keyspace 'nope' doesn't exist"),
            ("CREATE INDEX ON n (n)", "Secondary indexes on counter tables aren't supported"),
            ("CREATE INDEX ON t (k)", "Cannot create secondary index on the only partition key column k"),
            ("CREATE INDEX ON t (d)", "Secondary indexes are not supported on duration columns"),
            (
                "CREATE INDEX ON t (fl)",
                "Cannot create values() index on frozen column fl. Frozen collections are immutable and must be fully indexed by using the 'full(fl)' modifier",
            ),
            ("CREATE INDEX ON t (full(l))", "full() indexes can only be created on frozen collections"),
            (
                "CREATE INDEX ON t (keys(v))",
                "Cannot create keys() index on v. Non-collection columns only support simple indexes",
            ),
            ("CREATE INDEX ON t (keys(l))", "Cannot create index on keys of column l with non-map type"),
            ("CREATE INDEX ON t (entries(l))", "Cannot create index on entries of column l with non-map type"),
            ("CREATE INDEX ON t ()", "Only CUSTOM indexes can be created without specifying a target column"),
            ("CREATE INDEX ON t (v, w)", "Only CUSTOM indexes support multiple columns"),
            ("CREATE CUSTOM INDEX ON t (v, v) USING 'sai'", "Duplicate column 'v' in index target list"),
            ("CREATE INDEX ON t (v) WITH OPTIONS = {'a': 'b'}", "Cannot specify options for a non-CUSTOM index"),
            (
                "CREATE CUSTOM INDEX ON t (v) USING 'sai' WITH OPTIONS = {'target': 'w'}",
                "Cannot specify target as a CUSTOM option",
            ),
            (
                "CREATE CUSTOM INDEX ON t (v) USING 'sai' WITH OPTIONS = {'class_name': 'x'}",
                "Cannot specify class_name as a CUSTOM option",
            ),
        ];
        for (cql, message) in cases {
            assert_invalid(&mut catalog, cql, message);
        }
        assert_error(
            &mut catalog,
            "CREATE INDEX ON t (v) WITH foo = 1",
            ErrorKind::SyntaxException,
            "Unknown property 'foo'",
        );
        assert_error(
            &mut catalog,
            "CREATE CUSTOM INDEX ON t (v) USING 'com.example.Fancy'",
            ErrorKind::ConfigurationException,
            "Unable to find custom indexer class 'com.example.Fancy'",
        );
        assert_error(
            &mut catalog,
            "CREATE CUSTOM INDEX ON t (v)",
            ErrorKind::ConfigurationException,
            "Unable to find custom indexer class 'legacy_local_table'",
        );
        assert_error(
            &mut catalog,
            "CREATE INDEX \"bad-name\" ON t (v)",
            ErrorKind::ConfigurationException,
            "Illegal index name bad-name",
        );
        setup(
            &mut catalog,
            &[
                "CREATE TYPE q (x int)",
                "CREATE TABLE u (k int PRIMARY KEY, up q)",
            ],
        );
        assert_invalid(
            &mut catalog,
            "CREATE INDEX ON u (up)",
            "Cannot create index on non-frozen UDT column up",
        );
    }

    #[test]
    fn sasi_can_be_disabled() {
        let mut catalog = schema();
        catalog.settings_mut().sasi_indexes_enabled = false;
        assert_invalid(
            &mut catalog,
            "CREATE CUSTOM INDEX ON t (w) USING 'org.apache.cassandra.index.sasi.SASIIndex'",
            "SASI indexes are disabled. Enable in cassandra.yaml to use.",
        );
    }

    #[test]
    fn drop_index() {
        let mut catalog = schema();
        setup(&mut catalog, &["CREATE INDEX i ON t (v)"]);
        assert_eq!(
            run(&mut catalog, "DROP INDEX ks.i"),
            Ok(SchemaChange::Dropped(SchemaObject::Index {
                keyspace: "ks".into(),
                table: "t".into(),
                name: "i".into()
            }))
        );
        assert_invalid(&mut catalog, "DROP INDEX i", "Index 'ks.i' doesn't exist'");
        assert_eq!(
            run(&mut catalog, "DROP INDEX IF EXISTS i"),
            Ok(SchemaChange::NoOp)
        );
        // The default name is free again.
        run(&mut catalog, "CREATE INDEX ON t (v)").expect("created");
        assert!(catalog
            .keyspace("ks")
            .and_then(|k| k.find_index("t_v_idx"))
            .is_some());
    }
}
