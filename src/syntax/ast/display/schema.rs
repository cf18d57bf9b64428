//! Schema statements as CQL text: keyspaces, tables, indexes, types and
//! views, with their properties and options.

use std::fmt::{self, Display, Formatter};

use super::super::*;
use super::{comma, joined, write_quoted, write_where};

impl Display for PropertyValue {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            PropertyValue::Constant(l) => l.fmt(f),
            PropertyValue::Name(n) => n.fmt(f),
            PropertyValue::Map(entries) => {
                f.write_str("{")?;
                joined(f, entries, ", ", |f, (k, v)| write!(f, "{k}: {v}"))?;
                f.write_str("}")
            }
        }
    }
}

impl Display for Property {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {}", self.name, self.value)
    }
}

fn write_properties(f: &mut Formatter<'_>, properties: &[Property]) -> fmt::Result {
    if properties.is_empty() {
        return Ok(());
    }
    f.write_str(" WITH ")?;
    joined(f, properties, " AND ", |f, p| p.fmt(f))
}

impl Display for TableOption {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            TableOption::Property(p) => p.fmt(f),
            TableOption::ClusteringOrder(items) => {
                f.write_str("CLUSTERING ORDER BY (")?;
                joined(f, items, ", ", |f, (c, o)| write!(f, "{c} {}", o.as_str()))?;
                f.write_str(")")
            }
            TableOption::CompactStorage => f.write_str("COMPACT STORAGE"),
        }
    }
}

fn write_table_options(f: &mut Formatter<'_>, options: &[TableOption]) -> fmt::Result {
    if options.is_empty() {
        return Ok(());
    }
    f.write_str(" WITH ")?;
    joined(f, options, " AND ", |f, o| o.fmt(f))
}

fn if_not_exists(flag: bool) -> &'static str {
    if flag {
        "IF NOT EXISTS "
    } else {
        ""
    }
}

fn if_exists(flag: bool) -> &'static str {
    if flag {
        "IF EXISTS "
    } else {
        ""
    }
}

impl Display for CreateKeyspace {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "CREATE KEYSPACE {}{}",
            if_not_exists(self.if_not_exists),
            self.name
        )?;
        write_properties(f, &self.properties)
    }
}

impl Display for AlterKeyspace {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ALTER KEYSPACE {}{}",
            if_exists(self.if_exists),
            self.name
        )?;
        write_properties(f, &self.properties)
    }
}

impl Display for DropObject {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DropObject::Keyspace => "KEYSPACE",
            DropObject::Table => "TABLE",
            DropObject::Index => "INDEX",
            DropObject::Type => "TYPE",
            DropObject::MaterializedView => "MATERIALIZED VIEW",
        })
    }
}

impl Display for Drop {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "DROP {} {}{}",
            self.object,
            if_exists(self.if_exists),
            self.name
        )
    }
}

impl Display for Use {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "USE {}", self.keyspace)
    }
}

impl Display for ColumnDef {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.name, self.ty)?;
        if self.is_static {
            f.write_str(" STATIC")?;
        }
        if self.primary_key {
            f.write_str(" PRIMARY KEY")?;
        }
        Ok(())
    }
}

impl Display for PrimaryKey {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("PRIMARY KEY (")?;
        if self.partition.len() == 1 {
            self.partition[0].fmt(f)?;
        } else {
            f.write_str("(")?;
            comma(f, &self.partition)?;
            f.write_str(")")?;
        }
        for c in &self.clustering {
            write!(f, ", {c}")?;
        }
        f.write_str(")")
    }
}

impl Display for TableElement {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            TableElement::Column(c) => c.fmt(f),
            TableElement::PrimaryKey(pk) => pk.fmt(f),
        }
    }
}

impl Display for CreateTable {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "CREATE TABLE {}{} (",
            if_not_exists(self.if_not_exists),
            self.name
        )?;
        comma(f, &self.elements)?;
        f.write_str(")")?;
        write_table_options(f, &self.options)
    }
}

impl Display for AddedColumn {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.name, self.ty)?;
        if self.is_static {
            f.write_str(" STATIC")?;
        }
        Ok(())
    }
}

fn write_maybe_parenthesized<T: Display>(
    f: &mut Formatter<'_>,
    items: &[T],
    parenthesized: bool,
) -> fmt::Result {
    if parenthesized {
        f.write_str("(")?;
        comma(f, items)?;
        f.write_str(")")
    } else {
        comma(f, items)
    }
}

fn write_renames(f: &mut Formatter<'_>, renames: &[(Ident, Ident)]) -> fmt::Result {
    joined(f, renames, " AND ", |f, (from, to)| {
        write!(f, "{from} TO {to}")
    })
}

impl Display for AlterTableAction {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            AlterTableAction::Add {
                if_not_exists: flag,
                columns,
                parenthesized,
            } => {
                write!(f, "ADD {}", if_not_exists(*flag))?;
                write_maybe_parenthesized(f, columns, *parenthesized)
            }
            AlterTableAction::Drop {
                if_exists: flag,
                columns,
                parenthesized,
                timestamp,
            } => {
                write!(f, "DROP {}", if_exists(*flag))?;
                write_maybe_parenthesized(f, columns, *parenthesized)?;
                if let Some(ts) = timestamp {
                    write!(f, " USING TIMESTAMP {ts}")?;
                }
                Ok(())
            }
            AlterTableAction::Rename {
                if_exists: flag,
                renames,
            } => {
                write!(f, "RENAME {}", if_exists(*flag))?;
                write_renames(f, renames)
            }
            AlterTableAction::With(options) => {
                f.write_str("WITH ")?;
                joined(f, options, " AND ", |f, o| o.fmt(f))
            }
            AlterTableAction::AlterType { column, ty } => write!(f, "ALTER {column} TYPE {ty}"),
            AlterTableAction::DropCompactStorage => f.write_str("DROP COMPACT STORAGE"),
        }
    }
}

impl Display for AlterTable {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ALTER TABLE {}{} {}",
            if_exists(self.if_exists),
            self.name,
            self.action
        )
    }
}

impl Display for Truncate {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "TRUNCATE TABLE {}", self.table)
    }
}

impl Display for IndexTarget {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let wrapper = match self.kind {
            IndexTargetKind::Simple => return self.column.fmt(f),
            IndexTargetKind::Keys => "KEYS",
            IndexTargetKind::Values => "VALUES",
            IndexTargetKind::Entries => "ENTRIES",
            IndexTargetKind::Full => "FULL",
        };
        write!(f, "{wrapper}({})", self.column)
    }
}

impl Display for CreateIndex {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("CREATE ")?;
        if self.custom {
            f.write_str("CUSTOM ")?;
        }
        write!(f, "INDEX {}", if_not_exists(self.if_not_exists))?;
        if let Some(name) = &self.name {
            write!(f, "{name} ")?;
        }
        write!(f, "ON {} (", self.table)?;
        comma(f, &self.targets)?;
        f.write_str(")")?;
        if let Some(class) = &self.using {
            f.write_str(" USING ")?;
            write_quoted(f, class, '\'')?;
        }
        write_properties(f, &self.properties)
    }
}

fn write_fields(f: &mut Formatter<'_>, fields: &[(Ident, CqlType)]) -> fmt::Result {
    joined(f, fields, ", ", |f, (name, ty)| write!(f, "{name} {ty}"))
}

impl Display for CreateType {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "CREATE TYPE {}{} (",
            if_not_exists(self.if_not_exists),
            self.name
        )?;
        write_fields(f, &self.fields)?;
        f.write_str(")")
    }
}

impl Display for AlterType {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "ALTER TYPE {}{} ", if_exists(self.if_exists), self.name)?;
        match &self.action {
            AlterTypeAction::Add {
                if_not_exists: flag,
                field,
                ty,
            } => write!(f, "ADD {}{field} {ty}", if_not_exists(*flag)),
            AlterTypeAction::Rename {
                if_exists: flag,
                renames,
            } => {
                write!(f, "RENAME {}", if_exists(*flag))?;
                write_renames(f, renames)
            }
            AlterTypeAction::Alter { field, ty } => write!(f, "ALTER {field} TYPE {ty}"),
        }
    }
}

impl Display for CreateMaterializedView {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "CREATE MATERIALIZED VIEW {}{} AS SELECT {} FROM {}",
            if_not_exists(self.if_not_exists),
            self.name,
            self.select,
            self.base
        )?;
        write_where(f, &self.where_clause)?;
        write!(f, " {}", self.primary_key)?;
        write_table_options(f, &self.options)
    }
}

impl Display for AlterMaterializedView {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ALTER MATERIALIZED VIEW {}{}",
            if_exists(self.if_exists),
            self.name
        )?;
        write_table_options(f, &self.options)
    }
}
