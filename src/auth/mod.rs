//! Roles and logins as Cassandra's `CassandraRoleManager` and
//! `PasswordAuthenticator` keep them: every role is a row of
//! `system_auth.roles` (role, can_login, is_superuser, member_of,
//! salted_hash), passwords hashed with bcrypt in jBCrypt's `$2a$` format at
//! cost 10, and the default superuser `cassandra`/`cassandra` present from
//! the start, as a node creates it (even one that does not authenticate).
//!
//! [`Roles`] is the session's view of that table; every change is written
//! back to its rows so that `SELECT * FROM system_auth.roles` reads as on a
//! node. [`statements`] runs CREATE / ALTER / DROP ROLE and LIST ROLES with
//! Cassandra's checks and messages; [`sasl`] decodes a SASL PLAIN token and
//! checks the credentials, for the server's AUTH_RESPONSE.

pub mod sasl;
pub mod statements;

use std::collections::BTreeMap;

use crate::error::{Error, ErrorKind};
use crate::schema::system::SystemRow;
use crate::types::Value;

/// The role a node creates at first start, with password `cassandra`.
pub const DEFAULT_ROLE: &str = "cassandra";

/// bcrypt's cost as Cassandra uses it (`auth_bcrypt_gensalt_log2_rounds`,
/// 10 by default): the hashes read as a node's would.
pub const BCRYPT_COST: u32 = 10;

/// `cassandra` hashed at cost 10: the default role's `salted_hash`, fixed
/// so that a new session does not spend a bcrypt round on it.
const DEFAULT_ROLE_HASH: &str = "$2a$10$b0jiXVHtbwziXUXfbUvyGO5XMJ78XVwztS9VIMI2ZmL/TkRVFTrSC";

/// One role, as its `system_auth.roles` row holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Role {
    /// May log in (`can_login`).
    pub can_login: bool,
    /// Has superuser status (`is_superuser`).
    pub is_superuser: bool,
    /// The bcrypt hash of its password (`salted_hash`), if it has one.
    pub salted_hash: Option<String>,
}

/// Every role of a session, by name (sorted, as LIST ROLES sorts them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Roles {
    roles: BTreeMap<String, Role>,
}

impl Default for Roles {
    fn default() -> Roles {
        Roles::new()
    }
}

impl Roles {
    /// The roles a new node has: the default superuser alone.
    pub fn new() -> Roles {
        let mut roles = BTreeMap::new();
        roles.insert(DEFAULT_ROLE.to_string(), default_role());
        Roles { roles }
    }

    /// The role called `name`, if it exists.
    pub fn get(&self, name: &str) -> Option<&Role> {
        self.roles.get(name)
    }

    /// Every role, sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Role)> {
        self.roles.iter().map(|(n, r)| (n.as_str(), r))
    }

    /// Whether `name` is a superuser (an unknown role is not).
    pub fn is_superuser(&self, name: &str) -> bool {
        self.get(name).is_some_and(|r| r.is_superuser)
    }

    fn insert(&mut self, name: &str, role: Role) {
        self.roles.insert(name.to_string(), role);
    }

    fn remove(&mut self, name: &str) -> Option<Role> {
        self.roles.remove(name)
    }
}

fn default_role() -> Role {
    Role {
        can_login: true,
        is_superuser: true,
        salted_hash: Some(DEFAULT_ROLE_HASH.to_string()),
    }
}

/// The `system_auth.roles` row of the default role, which a node writes
/// `USING TIMESTAMP 0` at first start.
pub(crate) fn default_role_row() -> SystemRow {
    role_row(DEFAULT_ROLE, &default_role())
}

/// The `system_auth.roles` row of `role`.
pub(crate) fn role_row(name: &str, role: &Role) -> SystemRow {
    SystemRow::new("system_auth", "roles")
        .with("role", Value::Text(name.to_string()))
        .with("can_login", Value::Boolean(role.can_login))
        .with("is_superuser", Value::Boolean(role.is_superuser))
        .with(
            "salted_hash",
            role.salted_hash
                .as_ref()
                .map_or(Value::Null, |h| Value::Text(h.clone())),
        )
}

/// Refuses a write to `system_auth.roles` other than a role statement's.
/// A node lets a superuser write the table directly; widerow keeps the
/// roles logins are checked against beside the rows, so the rows change
/// only with them (see `docs/divergences.md`).
pub(crate) fn not_the_roles_table(keyspace: &str, table: &str) -> Result<(), Error> {
    if keyspace == "system_auth" && table == "roles" {
        return Err(Error::new(
            ErrorKind::Unauthorized,
            "Cannot MODIFY <table system_auth.roles>: widerow changes roles only with \
             CREATE, ALTER and DROP ROLE",
        ));
    }
    Ok(())
}

/// Hashes `password` with bcrypt at Cassandra's cost, salted with `salt`
/// (the session's id source, so seeded sessions hash reproducibly).
pub fn hash_password(password: &str, salt: [u8; 16]) -> Result<String, Error> {
    bcrypt::hash_with_salt(password, BCRYPT_COST, salt)
        .map(|parts| parts.format_for_version(bcrypt::Version::TwoA))
        .map_err(|e| Error::new(ErrorKind::ServerError, format!("cannot hash password: {e}")))
}

/// Whether `password` matches bcrypt `hash`; a malformed hash matches
/// nothing, as in Cassandra's `checkpw`.
pub fn check_password(password: &str, hash: &str) -> bool {
    bcrypt::verify(password, hash).unwrap_or(false)
}

/// Whether `hash` is a bcrypt hash jBCrypt would read (`HASHED PASSWORD`).
pub fn is_bcrypt_hash(hash: &str) -> bool {
    bcrypt::verify("", hash).is_ok() && hash.len() == 60
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_role_logs_in_with_cassandra() {
        let roles = Roles::new();
        let role = roles.get(DEFAULT_ROLE).unwrap();
        assert!(role.can_login && role.is_superuser);
        let hash = role.salted_hash.as_deref().unwrap();
        assert!(hash.starts_with("$2a$10$"));
        assert!(check_password("cassandra", hash));
        assert!(!check_password("Cassandra", hash));
    }

    #[test]
    fn hashes_are_jbcrypt_format_and_check() {
        let hash = hash_password("s3cret", [7; 16]).unwrap();
        assert!(hash.starts_with("$2a$10$") && hash.len() == 60, "{hash}");
        assert!(check_password("s3cret", &hash));
        assert!(!check_password("s3cre", &hash));
        assert!(is_bcrypt_hash(&hash));
        assert!(!is_bcrypt_hash("x"));
        assert!(!check_password("x", "not a hash"));
    }
}
