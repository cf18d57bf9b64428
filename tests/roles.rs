//! Roles in a session, as a Cassandra 5.0 node with PasswordAuthenticator
//! keeps them: the default superuser, CREATE / ALTER / DROP ROLE and LIST
//! ROLES with the node's messages and columns, every change visible in
//! `system_auth.roles`, failures changing nothing, and what a logged-in
//! role that is not a superuser may do.

use widerow::types::Value;
use widerow::{ErrorKind, ResultSet, Session};

fn run(session: &mut Session, cql: &str) -> ResultSet {
    session
        .execute(cql)
        .unwrap_or_else(|e| panic!("{cql}: {e:?}"))
}

fn refused(session: &mut Session, cql: &str) -> (ErrorKind, String) {
    let e = session.execute(cql).expect_err(cql);
    (e.kind(), e.message().to_string())
}

fn text(v: &Value) -> String {
    match v {
        Value::Text(s) => s.clone(),
        Value::Null => "null".into(),
        other => format!("{other:?}"),
    }
}

/// `system_auth.roles` as (role, can_login, is_superuser, has a hash).
fn role_rows(session: &mut Session) -> Vec<(String, bool, bool, bool)> {
    let result = run(
        session,
        "SELECT role, can_login, is_superuser, salted_hash FROM system_auth.roles",
    );
    let mut rows: Vec<_> = result
        .rows
        .iter()
        .map(|r| {
            (
                text(&r[0]),
                r[1] == Value::Boolean(true),
                r[2] == Value::Boolean(true),
                matches!(&r[3], Value::Text(h) if h.starts_with("$2a$10$") && h.len() == 60),
            )
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn a_new_session_has_the_default_superuser_as_a_node_does() {
    let mut session = Session::new();
    assert_eq!(
        role_rows(&mut session),
        vec![("cassandra".into(), true, true, true)]
    );
    assert!(session.authenticate("cassandra", "cassandra").is_ok());
    let list = run(&mut session, "LIST ROLES");
    let names: Vec<&str> = list.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["role", "super", "login", "options", "datacenters"]);
    assert_eq!(
        list.rows[0],
        vec![
            Value::Text("cassandra".into()),
            Value::Boolean(true),
            Value::Boolean(true),
            Value::Map(vec![]),
            Value::Text("ALL".into()),
        ]
    );
}

#[test]
fn role_statements_change_the_rows_and_the_logins() {
    let mut session = Session::new();
    run(
        &mut session,
        "CREATE ROLE alice WITH PASSWORD = 'pw' AND LOGIN = true",
    );
    run(&mut session, "CREATE ROLE readers");
    run(&mut session, "CREATE USER bob WITH PASSWORD 'b' SUPERUSER");
    assert_eq!(
        role_rows(&mut session),
        vec![
            ("alice".into(), true, false, true),
            ("bob".into(), true, true, true),
            ("cassandra".into(), true, true, true),
            ("readers".into(), false, false, false),
        ]
    );
    assert!(session.authenticate("alice", "pw").is_ok());
    run(&mut session, "ALTER ROLE alice WITH PASSWORD = 'new'");
    let old = session.authenticate("alice", "pw").unwrap_err();
    assert_eq!(old.kind(), ErrorKind::AuthenticationError);
    assert!(session.authenticate("alice", "new").is_ok());
    run(&mut session, "ALTER ROLE alice WITH LOGIN = false");
    assert_eq!(
        session.authenticate("alice", "new").unwrap_err().message(),
        "alice is not permitted to log in"
    );
    run(&mut session, "DROP ROLE alice");
    run(&mut session, "DROP USER IF EXISTS bob");
    assert_eq!(role_rows(&mut session).len(), 2);
    let users = run(&mut session, "LIST USERS");
    let names: Vec<&str> = users.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["name", "super", "datacenters"]);
    assert_eq!(users.rows.len(), 1, "readers may not log in");
}

#[test]
fn refusals_carry_cassandras_messages_and_change_nothing() {
    let mut session = Session::new();
    run(&mut session, "CREATE ROLE alice WITH LOGIN = true");
    let before = role_rows(&mut session);
    let invalid = |m: &str| (ErrorKind::InvalidRequest, m.to_string());
    for (cql, expected) in [
        ("CREATE ROLE alice", invalid("alice already exists")),
        (
            "ALTER ROLE nope WITH LOGIN = true",
            invalid("nope doesn't exist"),
        ),
        ("DROP ROLE nope", invalid("nope doesn't exist")),
        (
            "ALTER ROLE alice",
            invalid("ALTER [ROLE|USER] can't be empty"),
        ),
        (
            "CREATE ROLE ''",
            invalid("Role name can't be an empty string"),
        ),
        ("DROP ROLE ''", invalid("Key may not be empty")),
        ("LIST ROLES OF nope", invalid("<role nope> doesn't exist")),
        (
            "CREATE ROLE r WITH OPTIONS = {'a': 'b'}",
            invalid("org.apache.cassandra.auth.CassandraRoleManager doesn't support OPTIONS"),
        ),
        (
            "ALTER ROLE alice WITH HASHED PASSWORD = 'plain'",
            invalid("Invalid hashed password value. Please use jBcrypt."),
        ),
        (
            "INSERT INTO system_auth.roles (role) VALUES ('x')",
            (
                ErrorKind::Unauthorized,
                "Cannot MODIFY <table system_auth.roles>: widerow changes roles only with \
                 CREATE, ALTER and DROP ROLE"
                    .into(),
            ),
        ),
    ] {
        assert_eq!(refused(&mut session, cql), expected, "{cql}");
    }
    for quiet in [
        "CREATE ROLE IF NOT EXISTS alice WITH SUPERUSER = true",
        "ALTER ROLE IF EXISTS nope WITH LOGIN = true",
        "DROP ROLE IF EXISTS nope",
    ] {
        run(&mut session, quiet);
    }
    assert_eq!(role_rows(&mut session), before);
}

#[test]
fn a_hashed_password_is_stored_as_given() {
    let mut session = Session::new();
    let hash = session
        .roles()
        .get("cassandra")
        .and_then(|r| r.salted_hash.clone())
        .unwrap();
    run(
        &mut session,
        &format!("CREATE ROLE copy WITH HASHED PASSWORD = '{hash}' AND LOGIN = true"),
    );
    assert!(session.authenticate("copy", "cassandra").is_ok());
}

#[test]
fn a_logged_in_role_is_held_to_cassandras_rules() {
    let mut session = Session::new();
    run(
        &mut session,
        "CREATE ROLE alice WITH PASSWORD = 'a' AND LOGIN = true",
    );
    run(&mut session, "CREATE ROLE other");
    session.set_user(Some("alice"));
    let unauthorized = |m: &str| (ErrorKind::Unauthorized, m.to_string());
    for (cql, expected) in [
        (
            "CREATE ROLE eve",
            unauthorized("User alice has no CREATE permission on <all roles> or any of its parents"),
        ),
        (
            "DROP ROLE other",
            unauthorized("User alice has no DROP permission on <role other> or any of its parents"),
        ),
        (
            "ALTER ROLE other WITH PASSWORD = 'x'",
            unauthorized("User alice has no ALTER permission on <role other> or any of its parents"),
        ),
        (
            "ALTER ROLE alice WITH SUPERUSER = true",
            unauthorized(
                "You aren't allowed to alter your own superuser status or that of a role granted to you",
            ),
        ),
        (
            "ALTER ROLE alice WITH LOGIN = false",
            unauthorized("You aren't allowed to alter LOGIN"),
        ),
        (
            "LIST ROLES OF other",
            unauthorized("You are not authorized to view roles granted to other "),
        ),
    ] {
        assert_eq!(refused(&mut session, cql), expected, "{cql}");
    }
    run(&mut session, "ALTER ROLE alice WITH PASSWORD = 'b'");
    assert_eq!(run(&mut session, "LIST ROLES").rows.len(), 1, "only itself");
    session.set_user(Some("cassandra"));
    assert_eq!(
        refused(&mut session, "DROP ROLE cassandra"),
        (
            ErrorKind::InvalidRequest,
            "Cannot DROP primary role for current login".into()
        )
    );
    assert_eq!(run(&mut session, "LIST ROLES").rows.len(), 3);
}

#[test]
fn clones_keep_their_own_roles_and_prepared_role_statements_run() {
    let mut session = Session::new();
    let mut clone = session.clone();
    run(&mut clone, "CREATE ROLE only_here");
    assert!(session.roles().get("only_here").is_none());
    assert_eq!(role_rows(&mut session).len(), 1);
    let prepared = session.prepare("CREATE ROLE p WITH LOGIN = true").unwrap();
    session.execute_prepared(&prepared, &[]).unwrap();
    assert!(session.roles().get("p").is_some_and(|r| r.can_login));
}
