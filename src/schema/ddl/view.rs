//! CREATE / ALTER / DROP MATERIALIZED VIEW, following Cassandra 5.0's
//! `CreateViewStatement`, `AlterViewStatement` and `DropViewStatement`. A
//! view is planned like a table: its own columns (the selected ones), its own
//! primary key, and `view_of` naming the base table.

use std::collections::HashSet;

use indexmap::IndexMap;

use crate::error::Error;
use crate::syntax::ast::{
    AlterMaterializedView, CreateMaterializedView, Drop, Ident, Order, Property, RelationKind,
    SelectClause, SelectorKind, TableOption,
};

use super::super::catalog::Catalog;
use super::super::table::{Column, ColumnKind, Table, ViewDefinition};
use super::options::{
    build_params, check_table_properties, default_options, merge_options, Props, TableParams,
};
use super::table::{check_table_name, sort_options, WithOptions};
use super::{
    check_modifiable, config, ire, keyspace_for, quote, table_display, table_exists, written_name,
    SchemaChange, SchemaObject,
};

/// The columns a WHERE relation restricts.
fn relation_columns(kind: &RelationKind) -> Vec<&Ident> {
    match kind {
        RelationKind::Compare { column, .. }
        | RelationKind::In { column, .. }
        | RelationKind::Contains { column, .. }
        | RelationKind::MapEntry { column, .. }
        | RelationKind::Like { column, .. }
        | RelationKind::IsNotNull { column } => vec![column],
        RelationKind::MultiCompare { columns, .. }
        | RelationKind::MultiIn { columns, .. }
        | RelationKind::Token { columns, .. } => columns.iter().collect(),
    }
}

/// The ALTER options of a view: only properties are possible there.
fn properties_of(options: &[TableOption]) -> Vec<&Property> {
    options
        .iter()
        .filter_map(|o| match o {
            TableOption::Property(p) => Some(p),
            _ => None,
        })
        .collect()
}

impl Catalog {
    /// `CREATE MATERIALIZED VIEW`.
    pub(super) fn create_view(
        &mut self,
        s: &CreateMaterializedView,
        current: Option<&str>,
    ) -> Result<SchemaChange, Error> {
        let written = written_name(&s.name);
        let refuse_compact = || {
            Error::syntax("COMPACT STORAGE tables are not allowed starting with version 4.0")
                .with_span(s.span)
        };
        let WithOptions {
            clustering_order,
            properties,
            ..
        } = sort_options(&s.options, "view", &written, Some(&refuse_compact))?;

        // Prepare.
        let keyspace = keyspace_for(&s.name, current)?.to_string();
        if s.base.keyspace.as_ref().is_some_and(|k| k.name != keyspace) {
            return Err(ire(
                "Cannot create a materialized view on a table in a different keyspace",
            )
            .with_span(s.base.span));
        }
        check_modifiable(&keyspace, s.name.span)?;

        // Apply.
        if !self.settings.materialized_views_enabled {
            return Err(
                ire("Materialized views are disabled. Enable in cassandra.yaml to use.")
                    .with_span(s.span),
            );
        }
        let ks = self.existing_keyspace(&keyspace, s.name.span)?;
        let base_name = s.base.name.name.as_str();
        let Some(base) = ks.tables.get(base_name).filter(|t| !t.is_view()) else {
            return Err(
                ire(format!("Base table '{base_name}' doesn't exist")).with_span(s.base.span)
            );
        };
        let name = s.name.name.name.as_str();
        match ks.tables.get(name) {
            Some(t) if !t.is_view() => {
                return Err(ire(format!(
                    "Cannot create materialized view '{name}' - a table with the same name already exists"
                ))
                .with_span(s.name.span));
            }
            Some(_) => {
                if s.if_not_exists {
                    return Ok(SchemaChange::NoOp);
                }
                return Err(table_exists(&keyspace, name).with_span(s.name.span));
            }
            None => {}
        }
        if base.is_counter_table() {
            return Err(
                ire("Materialized views are not supported on counter tables")
                    .with_span(s.base.span),
            );
        }
        if TableParams::of_options(&base.options).gc_grace_seconds == 0 {
            return Err(ire(format!(
                "Cannot create materialized view '{name}' for base table '{base_name}' with gc_grace_seconds of 0, since this value is used to TTL undelivered updates. Setting gc_grace_seconds too low might cause undelivered updates to expire before being replayed."
            ))
            .with_span(s.base.span));
        }

        // The SELECT clause.
        let undefined = |column: &Ident| {
            ire(format!(
                "Undefined column name {} in table {}",
                quote(&column.name),
                table_display(&keyspace, base_name)
            ))
            .with_span(column.span)
        };
        let mut selected: Vec<&Column> = Vec::new();
        let include_all_columns = matches!(s.select, SelectClause::Star);
        match &s.select {
            SelectClause::Star => selected.extend(base.columns.values()),
            SelectClause::Items(items) => {
                for item in items {
                    if item.alias.is_some() {
                        return Err(ire(format!(
                            "Cannot use aliases when defining a materialized view (got {item})"
                        ))
                        .with_span(item.selector.span));
                    }
                    let SelectorKind::Column(column) = &item.selector.kind else {
                        return Err(ire(format!(
                            "Can only select columns by name when defining a materialized view (got {})",
                            item.selector
                        ))
                        .with_span(item.selector.span));
                    };
                    let Some(c) = base.column(&column.name) else {
                        return Err(undefined(column));
                    };
                    if !selected.iter().any(|s| s.name == c.name) {
                        selected.push(c);
                    }
                }
            }
        }
        if let Some(c) = selected.iter().find(|c| c.is_static()) {
            return Err(ire(format!(
                "Cannot include static column '{}' in materialized view '{name}'",
                c.name
            ))
            .with_span(s.span));
        }

        // The primary key.
        let key = &s.primary_key;
        let mut key_columns: Vec<&Column> = Vec::new();
        for column in key.partition.iter().chain(&key.clustering) {
            let col = column.name.as_str();
            let Some(c) = base
                .column(col)
                .filter(|c| selected.iter().any(|s| s.name == c.name))
            else {
                return Err(ire(format!(
                    "Unknown column '{col}' referenced in PRIMARY KEY for materialized view '{name}'"
                ))
                .with_span(column.span));
            };
            if key_columns.iter().any(|k| k.name == col) {
                return Err(ire(format!(
                    "Duplicate column '{col}' in PRIMARY KEY clause for materialized view '{name}'"
                ))
                .with_span(column.span));
            }
            let ty = &c.data_type;
            if ty.is_multi_cell() {
                let what = if ty.is_collection() {
                    "collection"
                } else {
                    "user-defined"
                };
                return Err(ire(format!(
                    "Invalid non-frozen {what} type '{ty}' for PRIMARY KEY column '{col}'"
                ))
                .with_span(column.span));
            }
            if ty.is_counter() {
                return Err(ire(format!(
                    "counter type is not supported for PRIMARY KEY column '{col}'"
                ))
                .with_span(column.span));
            }
            if ty.contains_duration() {
                return Err(ire(format!(
                    "duration type is not supported for PRIMARY KEY column '{col}'"
                ))
                .with_span(column.span));
            }
            key_columns.push(c);
        }
        if !clustering_order.is_empty()
            && (clustering_order.len() != key.clustering.len()
                || clustering_order
                    .iter()
                    .zip(&key.clustering)
                    .any(|((c, _), k)| c.name != k.name))
        {
            return Err(ire(
                "Clustering key columns must exactly match columns in CLUSTERING ORDER BY directive",
            )
            .with_span(s.span));
        }
        let in_key = |col: &str| key_columns.iter().any(|k| k.name == col);
        let missing: Vec<&str> = base
            .partition_key
            .iter()
            .chain(&base.clustering)
            .map(String::as_str)
            .filter(|c| !in_key(c))
            .collect();
        if !missing.is_empty() {
            return Err(ire(format!(
                "Cannot create materialized view '{name}' without primary key columns {} from base table '{base_name}'",
                missing.join(", ")
            ))
            .with_span(key.span));
        }
        let regular_in_key: Vec<&str> = key_columns
            .iter()
            .filter(|c| !c.is_primary_key())
            .map(|c| c.name.as_str())
            .collect();
        if regular_in_key.len() > 1 {
            return Err(ire(format!(
                "Cannot include more than one non-primary key column in materialized view primary key (got {})",
                regular_in_key.join(", ")
            ))
            .with_span(key.span));
        }

        // The WHERE clause.
        if let Some(r) = s
            .where_clause
            .iter()
            .find(|r| matches!(r.kind, RelationKind::Token { .. }))
        {
            return Err(
                ire("Cannot use token relation when defining a materialized view")
                    .with_span(r.span),
            );
        }
        let mut restricted: HashSet<&str> = HashSet::new();
        let mut illegal: Vec<&str> = Vec::new();
        for relation in &s.where_clause {
            for column in relation_columns(&relation.kind) {
                let Some(c) = base.column(&column.name) else {
                    return Err(undefined(column));
                };
                restricted.insert(c.name.as_str());
                let not_null = matches!(relation.kind, RelationKind::IsNotNull { .. });
                if !not_null && !c.is_primary_key() && !illegal.contains(&c.name.as_str()) {
                    illegal.push(c.name.as_str());
                }
            }
        }
        let unrestricted: Vec<&str> = key_columns
            .iter()
            .map(|c| c.name.as_str())
            .filter(|c| !restricted.contains(c))
            .collect();
        if !unrestricted.is_empty() {
            return Err(ire(format!(
                "Primary key columns {} must be restricted with 'IS NOT NULL' or otherwise",
                unrestricted.join(", ")
            ))
            .with_span(s.span));
        }
        if !illegal.is_empty() {
            return Err(ire(format!(
                "Non-primary key columns can only be restricted with 'IS NOT NULL' (got: {} restricted illegally)",
                illegal.join(",")
            ))
            .with_span(s.span));
        }

        // The WITH options.
        let props = Props::new(properties.iter().copied());
        check_table_properties(&props)?;
        let params = build_params(&props, &TableParams::default())?;
        params.validate()?;
        if props.has("default_time_to_live") {
            return Err(props.located(
                "default_time_to_live",
                ire("Cannot set default_time_to_live for a materialized view. Data in a materialized view always expire at the same time than the corresponding data in the parent table."),
            ));
        }
        check_table_name(&keyspace, name).map_err(|e| e.with_span(s.name.span))?;

        let mut columns = crate::schema::NameMap::default();
        for (i, column) in key.partition.iter().enumerate() {
            if let Some(c) = base.column(&column.name) {
                let kind = ColumnKind::PartitionKey(i);
                columns.insert(c.name.clone(), Column { kind, ..c.clone() });
            }
        }
        for (i, column) in key.clustering.iter().enumerate() {
            if let Some(c) = base.column(&column.name) {
                let order = match clustering_order.iter().find(|(o, _)| o.name == c.name) {
                    Some((_, order)) => *order,
                    None => match c.kind {
                        ColumnKind::Clustering(_, order) => order,
                        _ => Order::Asc,
                    },
                };
                let kind = ColumnKind::Clustering(i, order);
                columns.insert(c.name.clone(), Column { kind, ..c.clone() });
            }
        }
        for c in base.columns.values() {
            if selected.iter().any(|s| s.name == c.name) && !columns.contains_key(&c.name) {
                let kind = ColumnKind::Regular;
                columns.insert(c.name.clone(), Column { kind, ..c.clone() });
            }
        }
        let view = Table {
            keyspace: keyspace.clone(),
            name: name.to_string(),
            columns,
            partition_key: key.partition.iter().map(|k| k.name.clone()).collect(),
            clustering: key.clustering.iter().map(|k| k.name.clone()).collect(),
            indexes: Vec::new(),
            options: merge_options(&default_options(&params), &props),
            view_of: Some(base_name.to_string()),
            view: Some(ViewDefinition {
                include_all_columns,
                where_clause: s.where_clause.clone(),
            }),
            dropped_columns: IndexMap::new(),
        };
        let (name, base) = (name.to_string(), base_name.to_string());
        if let Some(ks) = self.keyspaces.get_mut(&keyspace) {
            ks.tables.insert(name.clone(), view);
        }
        Ok(SchemaChange::Created(SchemaObject::MaterializedView {
            keyspace,
            name,
            base,
        }))
    }

    /// `ALTER MATERIALIZED VIEW … WITH`.
    pub(super) fn alter_view(
        &mut self,
        s: &AlterMaterializedView,
        current: Option<&str>,
    ) -> Result<SchemaChange, Error> {
        let keyspace = keyspace_for(&s.name, current)?.to_string();
        check_modifiable(&keyspace, s.name.span)?;
        let name = s.name.name.name.clone();
        let Some(view) = self.table(&keyspace, &name).filter(|t| t.is_view()) else {
            if s.if_exists {
                return Ok(SchemaChange::NoOp);
            }
            return Err(ire(format!(
                "Materialized view '{keyspace}.{name}' doesn't exist"
            ))
            .with_span(s.name.span));
        };
        let properties = properties_of(&s.options);
        let props = Props::new(properties.iter().copied());
        check_table_properties(&props)?;
        build_params(&props, &TableParams::default())?.validate()?;
        if props.has("id") {
            return Err(props.located("id", config("Cannot alter table id.")));
        }
        let params = build_params(&props, &TableParams::of_options(&view.options))?;
        if params.gc_grace_seconds == 0 {
            return Err(props.located(
                "gc_grace_seconds",
                ire("Cannot alter gc_grace_seconds of a materialized view to 0, since this value is used to TTL undelivered updates. Setting gc_grace_seconds too low might cause undelivered updates to expire before being replayed."),
            ));
        }
        if params.default_time_to_live > 0 {
            return Err(props.located(
                "default_time_to_live",
                ire("Forbidden default_time_to_live detected for a materialized view. Data in a materialized view always expire at the same time than the corresponding data in the parent table. default_time_to_live must be set to zero, see CASSANDRA-12868 for more information"),
            ));
        }
        let options = merge_options(&view.options, &props);
        if options == view.options {
            return Ok(SchemaChange::NoOp);
        }
        let base = view.view_of.clone().unwrap_or_default();
        if let Some(view) = self
            .keyspaces
            .get_mut(&keyspace)
            .and_then(|ks| ks.tables.get_mut(&name))
        {
            view.options = options;
        }
        Ok(SchemaChange::Altered(SchemaObject::MaterializedView {
            keyspace,
            name,
            base,
        }))
    }

    /// `DROP MATERIALIZED VIEW`.
    pub(super) fn drop_view(
        &mut self,
        s: &Drop,
        current: Option<&str>,
    ) -> Result<SchemaChange, Error> {
        let keyspace = keyspace_for(&s.name, current)?.to_string();
        check_modifiable(&keyspace, s.name.span)?;
        let name = s.name.name.name.clone();
        let Some(base) = self.table(&keyspace, &name).and_then(|t| t.view_of.clone()) else {
            if s.if_exists {
                return Ok(SchemaChange::NoOp);
            }
            return Err(ire(format!(
                "Materialized view '{keyspace}.{name}' doesn't exist"
            ))
            .with_span(s.name.span));
        };
        if let Some(ks) = self.keyspaces.get_mut(&keyspace) {
            ks.tables.shift_remove(&name);
        }
        Ok(SchemaChange::Dropped(SchemaObject::MaterializedView {
            keyspace,
            name,
            base,
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
                "CREATE TABLE t (k int, c int, v int, w text, s int STATIC, PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c DESC)",
                "CREATE TABLE n (k int PRIMARY KEY, n counter)",
                "CREATE TABLE g (k int PRIMARY KEY, v int) WITH gc_grace_seconds = 0",
            ],
        );
        catalog
    }

    const VIEW: &str = "CREATE MATERIALIZED VIEW mv AS SELECT k, c, v FROM t WHERE k IS NOT NULL AND c IS NOT NULL AND v IS NOT NULL PRIMARY KEY (v, k, c)";

    #[test]
    fn creates_a_view_planned_like_a_table() {
        let mut catalog = schema();
        let change = run(&mut catalog, VIEW).expect("created");
        assert_eq!(
            change,
            SchemaChange::Created(SchemaObject::MaterializedView {
                keyspace: "ks".into(),
                name: "mv".into(),
                base: "t".into()
            })
        );
        let mv = catalog.table("ks", "mv").expect("view");
        assert_eq!(mv.view_of.as_deref(), Some("t"));
        assert!(mv.is_view());
        let names: Vec<&str> = mv.columns.keys().map(String::as_str).collect();
        assert_eq!(names, ["v", "k", "c"]);
        assert_eq!(mv.partition_key, ["v"]);
        assert_eq!(mv.clustering, ["k", "c"]);
        // A base clustering column keeps its order unless told otherwise.
        assert_eq!(
            mv.column("c").map(|c| c.kind),
            Some(ColumnKind::Clustering(1, Order::Desc))
        );
        assert_eq!(
            mv.column("k").map(|c| c.kind),
            Some(ColumnKind::Clustering(0, Order::Asc))
        );
        assert_eq!(
            run(
                &mut catalog,
                &VIEW.replace("VIEW mv", "VIEW IF NOT EXISTS mv")
            ),
            Ok(SchemaChange::NoOp)
        );
        assert_error(
            &mut catalog,
            VIEW,
            ErrorKind::AlreadyExists,
            "Cannot add already existing table \"mv\" to keyspace \"ks\"",
        );
    }

    #[test]
    fn star_views_follow_added_columns() {
        let mut catalog = schema();
        setup(
            &mut catalog,
            &[
                "CREATE TABLE b (k int, c int, v int, PRIMARY KEY (k, c))",
                "CREATE MATERIALIZED VIEW all_b AS SELECT * FROM b WHERE k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (c, k)",
                "ALTER TABLE b ADD x text",
            ],
        );
        let view = catalog.table("ks", "all_b").expect("view");
        assert!(view.column("x").is_some());
        assert!(view.view.as_ref().is_some_and(|d| d.include_all_columns));
        assert_invalid(
            &mut catalog,
            "ALTER TABLE b DROP v",
            "Cannot drop column v on base table b with materialized views",
        );
        assert_invalid(
            &mut catalog,
            "DROP TABLE b",
            "Cannot drop a table when materialized views still depend on it (ks)",
        );
        run(&mut catalog, "ALTER TABLE b RENAME c TO c2").expect("renamed");
        let view = catalog.table("ks", "all_b").expect("view");
        assert_eq!(view.partition_key, ["c2"]);
    }

    #[test]
    fn view_errors() {
        let mut catalog = schema();
        let cases = [
            ("CREATE MATERIALIZED VIEW t AS SELECT * FROM t WHERE k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (k, c)",
             "Cannot create materialized view 't' - a table with the same name already exists"),
            ("CREATE MATERIALIZED VIEW v AS SELECT * FROM nope WHERE k IS NOT NULL PRIMARY KEY (k)",
             "Base table 'nope' doesn't exist"),
            ("CREATE MATERIALIZED VIEW v AS SELECT * FROM other.t WHERE k IS NOT NULL PRIMARY KEY (k)",
             "Cannot create a materialized view on a table in a different keyspace"),
            ("CREATE MATERIALIZED VIEW v AS SELECT * FROM n WHERE k IS NOT NULL PRIMARY KEY (k)",
             "Materialized views are not supported on counter tables"),
            ("CREATE MATERIALIZED VIEW v AS SELECT * FROM g WHERE k IS NOT NULL PRIMARY KEY (k)",
             "Cannot create materialized view 'v' for base table 'g' with gc_grace_seconds of 0, since this value is used to TTL undelivered updates. Setting gc_grace_seconds too low might cause undelivered updates to expire before being replayed."),
            ("CREATE MATERIALIZED VIEW v AS SELECT k, c, ttl(v) FROM t WHERE k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (k, c)",
             "Can only select columns by name when defining a materialized view (got TTL(v))"),
            ("CREATE MATERIALIZED VIEW v AS SELECT k, c, z FROM t WHERE k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (k, c)",
             "Undefined column name z in table ks.t"),
            ("CREATE MATERIALIZED VIEW v AS SELECT * FROM t WHERE k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (k, c)",
             "Cannot include static column 's' in materialized view 'v'"),
            ("CREATE MATERIALIZED VIEW v AS SELECT k, c FROM t WHERE k IS NOT NULL AND c IS NOT NULL AND v IS NOT NULL PRIMARY KEY (v, k, c)",
             "Unknown column 'v' referenced in PRIMARY KEY for materialized view 'v'"),
            ("CREATE MATERIALIZED VIEW v AS SELECT k, c FROM t WHERE k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (k, c, k)",
             "Duplicate column 'k' in PRIMARY KEY clause for materialized view 'v'"),
            ("CREATE MATERIALIZED VIEW v AS SELECT k, c FROM t WHERE k IS NOT NULL PRIMARY KEY (k)",
             "Cannot create materialized view 'v' without primary key columns c from base table 't'"),
            ("CREATE MATERIALIZED VIEW v AS SELECT k, c, v, w FROM t WHERE k IS NOT NULL AND c IS NOT NULL AND v IS NOT NULL AND w IS NOT NULL PRIMARY KEY ((v, w), k, c)",
             "Cannot include more than one non-primary key column in materialized view primary key (got v, w)"),
            ("CREATE MATERIALIZED VIEW v AS SELECT k, c FROM t WHERE k IS NOT NULL PRIMARY KEY (k, c)",
             "Primary key columns c must be restricted with 'IS NOT NULL' or otherwise"),
            ("CREATE MATERIALIZED VIEW v AS SELECT k, c, v FROM t WHERE k IS NOT NULL AND c IS NOT NULL AND v = 1 PRIMARY KEY (k, c)",
             "Non-primary key columns can only be restricted with 'IS NOT NULL' (got: v restricted illegally)"),
            ("CREATE MATERIALIZED VIEW v AS SELECT k, c FROM t WHERE token(k) > 0 AND c IS NOT NULL PRIMARY KEY (k, c)",
             "Cannot use token relation when defining a materialized view"),
            ("CREATE MATERIALIZED VIEW v AS SELECT k, c FROM t WHERE k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (k, c) WITH CLUSTERING ORDER BY (k ASC)",
             "Clustering key columns must exactly match columns in CLUSTERING ORDER BY directive"),
            ("CREATE MATERIALIZED VIEW v AS SELECT k, c FROM t WHERE k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (k, c) WITH default_time_to_live = 5",
             "Cannot set default_time_to_live for a materialized view. Data in a materialized view always expire at the same time than the corresponding data in the parent table."),
        ];
        for (cql, message) in cases {
            assert_invalid(&mut catalog, cql, message);
        }
        assert_error(
            &mut catalog,
            "CREATE MATERIALIZED VIEW v AS SELECT k, c FROM t WHERE k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (k, c) WITH nope = 1",
            ErrorKind::SyntaxException,
            "Unknown property 'nope'",
        );
        assert_error(
            &mut catalog,
            "CREATE MATERIALIZED VIEW v AS SELECT k, c FROM t WHERE k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (k, c) WITH COMPACT STORAGE",
            ErrorKind::SyntaxException,
            "COMPACT STORAGE tables are not allowed starting with version 4.0",
        );
        catalog.settings_mut().materialized_views_enabled = false;
        assert_invalid(
            &mut catalog,
            "CREATE MATERIALIZED VIEW v AS SELECT k, c FROM t WHERE k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (k, c)",
            "Materialized views are disabled. Enable in cassandra.yaml to use.",
        );
    }

    #[test]
    fn views_refuse_table_statements() {
        let mut catalog = schema();
        setup(&mut catalog, &[VIEW]);
        assert_invalid(
            &mut catalog,
            "ALTER TABLE mv ADD x int",
            "Cannot use ALTER TABLE on a materialized view; use ALTER MATERIALIZED VIEW instead",
        );
        assert_invalid(
            &mut catalog,
            "DROP TABLE mv",
            "Cannot use DROP TABLE on a materialized view. Please use DROP MATERIALIZED VIEW instead.",
        );
        assert_invalid(
            &mut catalog,
            "TRUNCATE mv",
            "Cannot TRUNCATE materialized view directly; must truncate base table instead",
        );
        // The view check comes before the target is looked up.
        assert_invalid(
            &mut catalog,
            "CREATE INDEX ON mv (w)",
            "Secondary indexes on materialized views aren't supported",
        );
        assert_invalid(
            &mut catalog,
            "CREATE INDEX ON mv (k)",
            "Secondary indexes on materialized views aren't supported",
        );
        assert_invalid(
            &mut catalog,
            "ALTER TABLE t WITH gc_grace_seconds = 0",
            "Cannot alter gc_grace_seconds of the base table of a materialized view to 0, since this value is used to TTL undelivered updates. Setting gc_grace_seconds too low might cause undelivered updates to expire before being replayed.",
        );
    }

    #[test]
    fn alter_and_drop_views() {
        let mut catalog = schema();
        setup(&mut catalog, &[VIEW]);
        let change = run(
            &mut catalog,
            "ALTER MATERIALIZED VIEW mv WITH comment = 'x'",
        )
        .expect("altered");
        assert!(matches!(
            change,
            SchemaChange::Altered(SchemaObject::MaterializedView { .. })
        ));
        assert_invalid(
            &mut catalog,
            "ALTER MATERIALIZED VIEW mv WITH default_time_to_live = 3",
            "Forbidden default_time_to_live detected for a materialized view. Data in a materialized view always expire at the same time than the corresponding data in the parent table. default_time_to_live must be set to zero, see CASSANDRA-12868 for more information",
        );
        assert_invalid(
            &mut catalog,
            "ALTER MATERIALIZED VIEW mv WITH gc_grace_seconds = 0",
            "Cannot alter gc_grace_seconds of a materialized view to 0, since this value is used to TTL undelivered updates. Setting gc_grace_seconds too low might cause undelivered updates to expire before being replayed.",
        );
        assert_invalid(
            &mut catalog,
            "ALTER MATERIALIZED VIEW t WITH comment = 'x'",
            "Materialized view 'ks.t' doesn't exist",
        );
        assert_invalid(
            &mut catalog,
            "DROP MATERIALIZED VIEW t",
            "Materialized view 'ks.t' doesn't exist",
        );
        assert_eq!(
            run(&mut catalog, "DROP MATERIALIZED VIEW mv"),
            Ok(SchemaChange::Dropped(SchemaObject::MaterializedView {
                keyspace: "ks".into(),
                name: "mv".into(),
                base: "t".into()
            }))
        );
        assert_eq!(
            run(&mut catalog, "DROP MATERIALIZED VIEW IF EXISTS mv"),
            Ok(SchemaChange::NoOp)
        );
        run(&mut catalog, "DROP TABLE t").expect("no view depends on t any more");
    }
}
