//! CREATE / ALTER / DROP ROLE and LIST ROLES against a session's
//! [`Roles`], in Cassandra's order — access first, then validation, then
//! the change — and with its messages (`CreateRoleStatement`,
//! `AlterRoleStatement`, `DropRoleStatement`, `ListRolesStatement`,
//! `RoleOptions`).
//!
//! Who runs the statement decides what it may do: `None` (a session
//! without logins: the shell, scripts, the library, a server without
//! `--auth`) may do what a superuser may; a logged-in superuser anything
//! but drop itself or change its own superuser status; any other role only
//! its own password, and LIST ROLES shows it itself. There are no GRANTs,
//! so no role holds permissions on another.

use crate::error::{Error, ErrorKind};
use crate::exec::{ColumnSpec, ResultSet};
use crate::syntax::ast::{
    AlterRole, CreateRole, DropRole, Ident, ListRoles, NativeType, RoleOption, RoleStatement,
};
use crate::types::{DataType, Value};

use super::{hash_password, is_bcrypt_hash, Role, Roles};

/// What a role statement did.
#[derive(Debug)]
pub enum Outcome {
    /// Nothing changed (IF [NOT] EXISTS found nothing to do).
    Unchanged,
    /// The named role was created, altered or dropped: its row is to be
    /// written again (or removed).
    Changed(String),
    /// LIST ROLES' rows.
    Listed(ResultSet),
}

/// The role running a statement: `None` when the session has no logins.
#[derive(Debug, Clone, Copy)]
pub struct Runner<'a> {
    /// The logged-in role, if any.
    pub user: Option<&'a str>,
}

impl Runner<'_> {
    fn is_super(&self, roles: &Roles) -> bool {
        self.user.is_none_or(|u| roles.is_superuser(u))
    }

    /// Cassandra's refusal of a permission no GRANT gave.
    fn no_permission(&self, permission: &str, resource: &str) -> Error {
        Error::new(
            ErrorKind::Unauthorized,
            format!(
                "User {} has no {permission} permission on {resource} or any of its parents",
                self.user.unwrap_or_default()
            ),
        )
    }
}

/// Runs `statement`; `salt` gives each new password hash its salt.
pub fn run(
    roles: &mut Roles,
    statement: &RoleStatement,
    runner: Runner<'_>,
    salt: &mut dyn FnMut() -> [u8; 16],
) -> Result<Outcome, Error> {
    match statement {
        RoleStatement::Create(s) => create(roles, s, runner, salt),
        RoleStatement::Alter(s) => alter(roles, s, runner, salt),
        RoleStatement::Drop(s) => drop(roles, s, runner),
        RoleStatement::List(s) => list(roles, s, runner).map(Outcome::Listed),
    }
}

fn create(
    roles: &mut Roles,
    s: &CreateRole,
    runner: Runner<'_>,
    salt: &mut dyn FnMut() -> [u8; 16],
) -> Result<Outcome, Error> {
    if !runner.is_super(roles) {
        return Err(runner
            .no_permission("CREATE", "<all roles>")
            .with_span(s.span));
    }
    validate_options(&s.options)?;
    let name = &s.name.name;
    if name.is_empty() {
        return Err(Error::invalid("Role name can't be an empty string").with_span(s.name.span));
    }
    if roles.get(name).is_some() {
        if s.if_not_exists {
            return Ok(Outcome::Unchanged);
        }
        return Err(Error::invalid(format!("{name} already exists")).with_span(s.name.span));
    }
    let mut role = Role {
        can_login: false,
        is_superuser: false,
        salted_hash: None,
    };
    apply_options(&mut role, &s.options, salt)?;
    roles.insert(name, role);
    Ok(Outcome::Changed(name.clone()))
}

fn alter(
    roles: &mut Roles,
    s: &AlterRole,
    runner: Runner<'_>,
    salt: &mut dyn FnMut() -> [u8; 16],
) -> Result<Outcome, Error> {
    let name = &s.name.name;
    check_alter_access(roles, s, runner)?;
    validate_options(&s.options)?;
    if s.options.is_empty() {
        return Err(Error::invalid("ALTER [ROLE|USER] can't be empty").with_span(s.span));
    }
    reject_empty_key(&s.name)?;
    let Some(current) = roles.get(name) else {
        if s.if_exists {
            return Ok(Outcome::Unchanged);
        }
        return Err(Error::invalid(format!("{name} doesn't exist")).with_span(s.name.span));
    };
    let mut role = current.clone();
    apply_options(&mut role, &s.options, salt)?;
    roles.insert(name, role);
    Ok(Outcome::Changed(name.clone()))
}

/// `AlterRoleStatement.checkAccess`: nobody changes their own superuser
/// status, only superusers anyone's; others may change their own password.
fn check_alter_access(roles: &Roles, s: &AlterRole, runner: Runner<'_>) -> Result<(), Error> {
    let name = &s.name.name;
    let own = runner.user == Some(name.as_str());
    let superuser_option = s
        .options
        .iter()
        .any(|o| matches!(o, RoleOption::Superuser(_)));
    let unauthorized = |m: String| Error::new(ErrorKind::Unauthorized, m).with_span(s.span);
    if superuser_option && own {
        return Err(unauthorized(
            "You aren't allowed to alter your own superuser status or that of a role granted to you"
                .into(),
        ));
    }
    if superuser_option && !runner.is_super(roles) {
        return Err(unauthorized(
            "Only superusers are allowed to alter superuser status".into(),
        ));
    }
    if runner.is_super(roles) {
        return Ok(());
    }
    if !own {
        return Err(runner
            .no_permission("ALTER", &format!("<role {name}>"))
            .with_span(s.span));
    }
    match s
        .options
        .iter()
        .find(|o| !matches!(o, RoleOption::Password(_) | RoleOption::HashedPassword(_)))
    {
        Some(option) => Err(unauthorized(format!(
            "You aren't allowed to alter {}",
            option.name()
        ))),
        None => Ok(()),
    }
}

fn drop(roles: &mut Roles, s: &DropRole, runner: Runner<'_>) -> Result<Outcome, Error> {
    let name = &s.name.name;
    if !runner.is_super(roles) {
        return Err(runner
            .no_permission("DROP", &format!("<role {name}>"))
            .with_span(s.span));
    }
    reject_empty_key(&s.name)?;
    if roles.get(name).is_none() {
        if s.if_exists {
            return Ok(Outcome::Unchanged);
        }
        return Err(Error::invalid(format!("{name} doesn't exist")).with_span(s.name.span));
    }
    if runner.user == Some(name.as_str()) {
        return Err(Error::invalid("Cannot DROP primary role for current login").with_span(s.span));
    }
    roles.remove(name);
    Ok(Outcome::Changed(name.clone()))
}

fn list(roles: &Roles, s: &ListRoles, runner: Runner<'_>) -> Result<ResultSet, Error> {
    if let Some(of) = &s.of {
        reject_empty_key(of)?;
        if roles.get(&of.name).is_none() {
            return Err(
                Error::invalid(format!("<role {}> doesn't exist", of.name)).with_span(of.span)
            );
        }
    }
    // Without GRANTs a role is granted no other: LIST ROLES OF r is r.
    let shown: Vec<&str> = match (&s.of, runner.is_super(roles), runner.user) {
        (Some(of), true, _) => vec![of.name.as_str()],
        (None, true, _) => roles.iter().map(|(n, _)| n).collect(),
        (Some(of), false, Some(user)) if of.name == user => vec![user],
        (Some(of), false, _) => {
            return Err(Error::new(
                ErrorKind::Unauthorized,
                format!(
                    "You are not authorized to view roles granted to {} ",
                    of.name
                ),
            )
            .with_span(s.span))
        }
        (None, false, user) => user.into_iter().collect(),
    };
    let shown: Vec<(&str, &Role)> = shown
        .into_iter()
        .filter_map(|n| roles.get(n).map(|r| (n, r)))
        .filter(|(_, r)| !s.users || r.can_login)
        .collect();
    if shown.is_empty() {
        return Ok(ResultSet::ok());
    }
    Ok(if s.users {
        users_result(&shown)
    } else {
        roles_result(&shown)
    })
}

fn column(name: &str, data_type: DataType) -> ColumnSpec {
    ColumnSpec {
        name: name.to_string(),
        data_type,
    }
}

fn text() -> DataType {
    DataType::Native(NativeType::Text)
}

fn boolean() -> DataType {
    DataType::Native(NativeType::Boolean)
}

/// LIST ROLES' columns on a 5.0 node: role, super, login, options,
/// datacenters (`ALL`: network permissions are not modelled).
fn roles_result(shown: &[(&str, &Role)]) -> ResultSet {
    let options = DataType::Map {
        key: Box::new(text()),
        value: Box::new(text()),
        frozen: false,
    };
    let columns = vec![
        column("role", text()),
        column("super", boolean()),
        column("login", boolean()),
        column("options", options),
        column("datacenters", text()),
    ];
    let rows: Vec<Vec<Value>> = shown
        .iter()
        .map(|(name, role)| {
            vec![
                Value::Text(name.to_string()),
                Value::Boolean(role.is_superuser),
                Value::Boolean(role.can_login),
                Value::Map(Vec::new()),
                Value::Text("ALL".into()),
            ]
        })
        .collect();
    ResultSet::rows(columns, rows)
}

/// LIST USERS' columns: name, super, datacenters; roles that may log in.
fn users_result(shown: &[(&str, &Role)]) -> ResultSet {
    let columns = vec![
        column("name", text()),
        column("super", boolean()),
        column("datacenters", text()),
    ];
    let rows: Vec<Vec<Value>> = shown
        .iter()
        .map(|(name, role)| {
            vec![
                Value::Text(name.to_string()),
                Value::Boolean(role.is_superuser),
                Value::Text("ALL".into()),
            ]
        })
        .collect();
    ResultSet::rows(columns, rows)
}

/// A role's row is keyed by its name: an empty one is refused as any empty
/// partition key is.
fn reject_empty_key(name: &Ident) -> Result<(), Error> {
    if name.name.is_empty() {
        return Err(Error::invalid("Key may not be empty").with_span(name.span));
    }
    Ok(())
}

/// `RoleOptions.validate` for `CassandraRoleManager` with
/// `PasswordAuthenticator`: LOGIN, SUPERUSER, PASSWORD and HASHED PASSWORD
/// are supported; a hashed password must be a bcrypt hash.
fn validate_options(options: &[RoleOption]) -> Result<(), Error> {
    for option in options {
        match option {
            RoleOption::Options(_) => {
                return Err(Error::invalid(
                    "org.apache.cassandra.auth.CassandraRoleManager doesn't support OPTIONS",
                ))
            }
            RoleOption::HashedPassword(hash) if !is_bcrypt_hash(hash) => {
                return Err(Error::invalid(
                    "Invalid hashed password value. Please use jBcrypt.",
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

fn apply_options(
    role: &mut Role,
    options: &[RoleOption],
    salt: &mut dyn FnMut() -> [u8; 16],
) -> Result<(), Error> {
    for option in options {
        match option {
            RoleOption::Password(p) => role.salted_hash = Some(hash_password(p, salt())?),
            RoleOption::HashedPassword(h) => role.salted_hash = Some(h.clone()),
            RoleOption::Login(b) => role.can_login = *b,
            RoleOption::Superuser(b) => role.is_superuser = *b,
            RoleOption::Options(_) => {}
        }
    }
    Ok(())
}
