//! The permission check a node makes before running a schema statement
//! (`ClientState.preventSystemKSSchemaModification`): with authentication
//! off every user may do everything, except change the system keyspaces.
//! It runs after the statement is prepared and before it is applied, so
//! its `Unauthorized` comes before "does not exist" and friends — a 5.0
//! node refuses `DROP TABLE IF EXISTS system.nope` the same way.

use crate::error::{Error, ErrorKind};
use crate::schema::system::{is_local_keyspace, is_replicated_keyspace, is_virtual_keyspace};
use crate::syntax::ast::{DropObject, QualifiedName, Statement};

use super::super::catalog::Catalog;

/// The permission a statement needs (`Permission`), as the message names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Permission {
    Create,
    Alter,
    Drop,
}

impl Permission {
    fn name(self) -> &'static str {
        match self {
            Permission::Create => "CREATE",
            Permission::Alter => "ALTER",
            Permission::Drop => "DROP",
        }
    }
}

/// The data resource a statement needs its permission on (`DataResource`).
enum Resource<'a> {
    /// `<keyspace ks>`
    Keyspace(&'a str),
    /// `<all tables in ks>`
    AllTables(&'a str),
    /// `<table ks.t>`
    Table(&'a str, &'a str),
}

impl Resource<'_> {
    fn keyspace(&self) -> &str {
        match self {
            Resource::Keyspace(ks) | Resource::AllTables(ks) | Resource::Table(ks, _) => ks,
        }
    }

    fn text(&self) -> String {
        match self {
            Resource::Keyspace(ks) => format!("<keyspace {ks}>"),
            Resource::AllTables(ks) => format!("<all tables in {ks}>"),
            Resource::Table(ks, t) => format!("<table {ks}.{t}>"),
        }
    }
}

/// The keyspace of `name`, the session's when it names none; `None` when
/// there is neither (the statement's own check reports that).
fn keyspace_of<'a>(name: &'a QualifiedName, current: Option<&'a str>) -> Option<&'a str> {
    name.keyspace.as_ref().map(|k| k.name.as_str()).or(current)
}

impl Catalog {
    /// Refuses a schema statement on a system keyspace as a 5.0 node does:
    /// `Unauthorized`, `system keyspace is not user-modifiable.` for the
    /// local and virtual ones, `Cannot DROP <table system_auth.t>` for the
    /// replicated ones, whose replication alone may be altered.
    pub(super) fn authorize(
        &self,
        statement: &Statement,
        current: Option<&str>,
    ) -> Result<(), Error> {
        let Some((permission, resource, span)) = self.needs(statement, current) else {
            return Ok(());
        };
        let keyspace = resource.keyspace();
        let message = if is_local_keyspace(keyspace) || is_virtual_keyspace(keyspace) {
            format!("{keyspace} keyspace is not user-modifiable.")
        } else if is_replicated_keyspace(keyspace) {
            if permission == Permission::Alter && matches!(resource, Resource::Keyspace(_)) {
                return Ok(());
            }
            format!("Cannot {} {}", permission.name(), resource.text())
        } else {
            return Ok(());
        };
        Err(Error::new(ErrorKind::Unauthorized, message).with_span(span))
    }

    /// What `statement` needs permission for, if it is a schema change
    /// checked this way.
    fn needs<'a>(
        &'a self,
        statement: &'a Statement,
        current: Option<&'a str>,
    ) -> Option<(Permission, Resource<'a>, crate::syntax::span::Span)> {
        use Permission::{Alter, Create, Drop};
        let table = |name: &'a QualifiedName| {
            keyspace_of(name, current).map(|ks| Resource::Table(ks, name.name.name.as_str()))
        };
        let all_tables =
            |name: &'a QualifiedName| keyspace_of(name, current).map(Resource::AllTables);
        Some(match statement {
            Statement::AlterKeyspace(s) => (Alter, Resource::Keyspace(&s.name.name), s.name.span),
            Statement::CreateTable(s) => (Create, all_tables(&s.name)?, s.name.span),
            Statement::AlterTable(s) => (Alter, table(&s.name)?, s.name.span),
            Statement::CreateIndex(s) => (Alter, table(&s.table)?, s.table.span),
            Statement::CreateType(s) => (Create, all_tables(&s.name)?, s.name.span),
            Statement::AlterType(s) => (Alter, all_tables(&s.name)?, s.name.span),
            Statement::CreateMaterializedView(s) => {
                let ks = keyspace_of(&s.name, current)?;
                (Alter, Resource::Table(ks, &s.base.name.name), s.name.span)
            }
            Statement::AlterMaterializedView(s) => {
                (Alter, self.view_base(&s.name, current)?, s.name.span)
            }
            Statement::Drop(s) => match s.object {
                DropObject::Keyspace => (Drop, Resource::Keyspace(&s.name.name.name), s.name.span),
                DropObject::Table => (Drop, table(&s.name)?, s.name.span),
                DropObject::Type => (Drop, all_tables(&s.name)?, s.name.span),
                DropObject::MaterializedView => {
                    (Alter, self.view_base(&s.name, current)?, s.name.span)
                }
                DropObject::Index => return None,
            },
            _ => return None,
        })
    }

    /// The base table of view `name`, when the view exists.
    fn view_base<'a>(
        &'a self,
        name: &'a QualifiedName,
        current: Option<&'a str>,
    ) -> Option<Resource<'a>> {
        let ks = keyspace_of(name, current)?;
        let view = self.table(ks, &name.name.name)?;
        Some(Resource::Table(ks, view.view_of.as_deref()?))
    }
}
