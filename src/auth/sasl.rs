//! A login as `PasswordAuthenticator` checks it: the SASL PLAIN token of an
//! AUTH_RESPONSE (`[authzid] NUL authcid NUL password`) decoded, then the
//! password checked against the role's hash and the role's LOGIN flag.
//! Every refusal is an [`ErrorKind::AuthenticationError`] with Cassandra's
//! message, which the server sends as BAD_CREDENTIALS (0x0100).

use crate::error::{Error, ErrorKind};

use super::{check_password, Role, Roles};

/// The user name and password a client sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credentials {
    /// The role to log in as (the authentication id).
    pub username: String,
    /// The password, in clear.
    pub password: String,
}

fn refused(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::AuthenticationError, message)
}

/// Decodes a SASL PLAIN token as Cassandra does: read from the end, the
/// bytes after the last NUL are the password and those after the one
/// before it the user; an authorization id in front is ignored, and a
/// third NUL is an error.
pub fn decode_plain(token: &[u8]) -> Result<Credentials, Error> {
    let mut parts = token.rsplitn(3, |b| *b == 0);
    let last = parts.next();
    let middle = parts.next();
    let front = parts.next();
    if front.is_some_and(|f| f.contains(&0)) {
        return Err(refused(
            "Credential format error: username or password is empty or contains NUL(\\0) character",
        ));
    }
    // With no NUL at all there is neither a password nor a user.
    let (password, user) = match middle {
        Some(middle) => (last.unwrap_or_default(), front.map(|_| middle)),
        None => (&[][..], None),
    };
    if password.is_empty() {
        return Err(refused("Password must not be null"));
    }
    let user = match user {
        Some(user) if !user.is_empty() => user,
        _ => return Err(refused("Authentication ID must not be null")),
    };
    Ok(Credentials {
        username: String::from_utf8_lossy(user).into_owned(),
        password: String::from_utf8_lossy(password).into_owned(),
    })
}

/// Checks `credentials` against `roles`: an unknown role, a role without a
/// password and a wrong password all read the same, so that a client
/// cannot tell which roles exist; a right password for a role that may
/// not log in says so.
pub fn authenticate(roles: &Roles, credentials: &Credentials) -> Result<(), Error> {
    check(credentials, roles.get(&credentials.username))
}

/// [`authenticate`] against the role found (or not) for the user name: a
/// server looks the role up under its lock and hashes outside it.
pub fn check(credentials: &Credentials, role: Option<&Role>) -> Result<(), Error> {
    let name = &credentials.username;
    let incorrect = || {
        refused(format!(
            "Provided username {name} and/or password are incorrect"
        ))
    };
    let role = role.ok_or_else(incorrect)?;
    let hash = role.salted_hash.as_deref().ok_or_else(incorrect)?;
    if !check_password(&credentials.password, hash) {
        return Err(incorrect());
    }
    if !role.can_login {
        return Err(refused(format!("{name} is not permitted to log in")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn creds(user: &str, password: &str) -> Credentials {
        Credentials {
            username: user.into(),
            password: password.into(),
        }
    }

    #[test]
    fn plain_tokens_decode_as_cassandra_reads_them() {
        assert_eq!(decode_plain(b"\0bob\0pw").unwrap(), creds("bob", "pw"));
        assert_eq!(decode_plain(b"admin\0bob\0pw").unwrap(), creds("bob", "pw"));
        let message = |t: &[u8]| decode_plain(t).unwrap_err().message().to_string();
        assert_eq!(message(b"\0bob\0"), "Password must not be null");
        assert_eq!(message(b""), "Password must not be null");
        assert_eq!(message(b"bobpw"), "Password must not be null");
        assert_eq!(message(b"bob\0pw"), "Authentication ID must not be null");
        assert_eq!(message(b"\0\0pw"), "Authentication ID must not be null");
        assert!(message(b"\0a\0bob\0pw").starts_with("Credential format error"));
        assert_eq!(
            decode_plain(b"\0bob\0pw").map_err(|e| e.kind()),
            Ok(creds("bob", "pw"))
        );
    }

    #[test]
    fn logins_are_checked_against_the_roles() {
        let roles = Roles::new();
        assert!(authenticate(&roles, &creds("cassandra", "cassandra")).is_ok());
        let wrong = authenticate(&roles, &creds("cassandra", "nope")).unwrap_err();
        assert_eq!(wrong.kind(), ErrorKind::AuthenticationError);
        assert_eq!(
            wrong.message(),
            "Provided username cassandra and/or password are incorrect"
        );
        let unknown = authenticate(&roles, &creds("ghost", "cassandra")).unwrap_err();
        assert_eq!(
            unknown.message(),
            "Provided username ghost and/or password are incorrect"
        );
    }
}
