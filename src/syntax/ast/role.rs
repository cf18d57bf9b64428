//! Role statements: CREATE / ALTER / DROP ROLE, LIST ROLES, and the USER
//! forms cqlsh users still type (Cassandra reads those as role statements
//! too: a user is a role that may log in).

use std::fmt::{self, Display, Formatter};

use super::super::span::Span;
use super::display::write_quoted;
use super::expr::{Ident, Literal};

/// A role statement.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RoleStatement {
    /// `CREATE ROLE` or `CREATE USER`
    Create(CreateRole),
    /// `ALTER ROLE` or `ALTER USER`
    Alter(AlterRole),
    /// `DROP ROLE` or `DROP USER`
    Drop(DropRole),
    /// `LIST ROLES` or `LIST USERS`
    List(ListRoles),
}

impl RoleStatement {
    /// The span of the whole statement.
    pub fn span(&self) -> Span {
        match self {
            RoleStatement::Create(s) => s.span,
            RoleStatement::Alter(s) => s.span,
            RoleStatement::Drop(s) => s.span,
            RoleStatement::List(s) => s.span,
        }
    }
}

/// One option of a role's `WITH … AND …`, in the order written (Cassandra
/// refuses an option given twice while parsing).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RoleOption {
    /// `PASSWORD = '…'`, stored hashed.
    Password(String),
    /// `HASHED PASSWORD = '$2a$…'`, a bcrypt hash stored as given.
    HashedPassword(String),
    /// `LOGIN = true|false`
    Login(bool),
    /// `SUPERUSER = true|false`
    Superuser(bool),
    /// `OPTIONS = {…}`: custom options, which Cassandra's role manager
    /// refuses; kept so the refusal is the server's, not a syntax error.
    Options(Vec<(Literal, Literal)>),
}

impl RoleOption {
    /// Cassandra's name for the option (`IRoleManager.Option`), as its
    /// messages print it.
    pub fn name(&self) -> &'static str {
        match self {
            RoleOption::Password(_) => "PASSWORD",
            RoleOption::HashedPassword(_) => "HASHED_PASSWORD",
            RoleOption::Login(_) => "LOGIN",
            RoleOption::Superuser(_) => "SUPERUSER",
            RoleOption::Options(_) => "OPTIONS",
        }
    }
}

/// `CREATE ROLE [IF NOT EXISTS] name [WITH option AND …]`, or
/// `CREATE USER [IF NOT EXISTS] name [WITH PASSWORD '…'] [SUPERUSER|NOSUPERUSER]`
/// (which always carries `LOGIN = true` and a SUPERUSER option).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CreateRole {
    /// `IF NOT EXISTS` was given.
    pub if_not_exists: bool,
    /// The role (unquoted names fold to lower case).
    pub name: Ident,
    /// The options, in order.
    pub options: Vec<RoleOption>,
    /// Written as `CREATE USER`.
    pub user: bool,
    /// The whole statement.
    pub span: Span,
}

/// `ALTER ROLE [IF EXISTS] name [WITH option AND …]`, or the USER form.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AlterRole {
    /// `IF EXISTS` was given.
    pub if_exists: bool,
    /// The role.
    pub name: Ident,
    /// The options, in order (none is an error the server raises).
    pub options: Vec<RoleOption>,
    /// Written as `ALTER USER`.
    pub user: bool,
    /// The whole statement.
    pub span: Span,
}

/// `DROP ROLE [IF EXISTS] name`, or `DROP USER …`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DropRole {
    /// `IF EXISTS` was given.
    pub if_exists: bool,
    /// The role.
    pub name: Ident,
    /// Written as `DROP USER`.
    pub user: bool,
    /// The whole statement.
    pub span: Span,
}

/// `LIST ROLES [OF name] [NORECURSIVE]`, or `LIST USERS`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ListRoles {
    /// `OF name`: the roles granted to this one (and itself).
    pub of: Option<Ident>,
    /// `NORECURSIVE` was given.
    pub norecursive: bool,
    /// Written as `LIST USERS` (whose columns differ).
    pub users: bool,
    /// The whole statement.
    pub span: Span,
}

/// Role names are written as string constants when they are not plain
/// lower-case names, as Cassandra accepts both and the USER forms refuse
/// double quotes.
fn write_role_name(f: &mut Formatter<'_>, name: &Ident) -> fmt::Result {
    if super::is_bare_name(&name.name) {
        f.write_str(&name.name)
    } else {
        write_quoted(f, &name.name, '\'')
    }
}

fn write_options(f: &mut Formatter<'_>, options: &[RoleOption]) -> fmt::Result {
    for (n, option) in options.iter().enumerate() {
        f.write_str(if n == 0 { " WITH " } else { " AND " })?;
        match option {
            RoleOption::Password(p) => {
                f.write_str("PASSWORD = ")?;
                write_quoted(f, p, '\'')?;
            }
            RoleOption::HashedPassword(p) => {
                f.write_str("HASHED PASSWORD = ")?;
                write_quoted(f, p, '\'')?;
            }
            RoleOption::Login(b) => write!(f, "LOGIN = {b}")?,
            RoleOption::Superuser(b) => write!(f, "SUPERUSER = {b}")?,
            RoleOption::Options(entries) => {
                f.write_str("OPTIONS = {")?;
                for (n, (k, v)) in entries.iter().enumerate() {
                    if n > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k}: {v}")?;
                }
                f.write_str("}")?;
            }
        }
    }
    Ok(())
}

/// The USER form's tail: `WITH [HASHED] PASSWORD '…'` and `SUPERUSER` or
/// `NOSUPERUSER`; LOGIN is implied.
fn write_user_options(f: &mut Formatter<'_>, options: &[RoleOption]) -> fmt::Result {
    for option in options {
        match option {
            RoleOption::Password(p) => {
                f.write_str(" WITH PASSWORD ")?;
                write_quoted(f, p, '\'')?;
            }
            RoleOption::HashedPassword(p) => {
                f.write_str(" WITH HASHED PASSWORD ")?;
                write_quoted(f, p, '\'')?;
            }
            _ => {}
        }
    }
    for option in options {
        if let RoleOption::Superuser(b) = option {
            f.write_str(if *b { " SUPERUSER" } else { " NOSUPERUSER" })?;
        }
    }
    Ok(())
}

impl Display for CreateRole {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(if self.user {
            "CREATE USER "
        } else {
            "CREATE ROLE "
        })?;
        if self.if_not_exists {
            f.write_str("IF NOT EXISTS ")?;
        }
        write_role_name(f, &self.name)?;
        if self.user {
            write_user_options(f, &self.options)
        } else {
            write_options(f, &self.options)
        }
    }
}

impl Display for AlterRole {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(if self.user {
            "ALTER USER "
        } else {
            "ALTER ROLE "
        })?;
        if self.if_exists {
            f.write_str("IF EXISTS ")?;
        }
        write_role_name(f, &self.name)?;
        if self.user {
            write_user_options(f, &self.options)
        } else {
            write_options(f, &self.options)
        }
    }
}

impl Display for DropRole {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(if self.user {
            "DROP USER "
        } else {
            "DROP ROLE "
        })?;
        if self.if_exists {
            f.write_str("IF EXISTS ")?;
        }
        write_role_name(f, &self.name)
    }
}

impl Display for ListRoles {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if self.users {
            return f.write_str("LIST USERS");
        }
        f.write_str("LIST ROLES")?;
        if let Some(of) = &self.of {
            f.write_str(" OF ")?;
            write_role_name(f, of)?;
        }
        if self.norecursive {
            f.write_str(" NORECURSIVE")?;
        }
        Ok(())
    }
}

impl Display for RoleStatement {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            RoleStatement::Create(s) => s.fmt(f),
            RoleStatement::Alter(s) => s.fmt(f),
            RoleStatement::Drop(s) => s.fmt(f),
            RoleStatement::List(s) => s.fmt(f),
        }
    }
}
