//! `widerow serve --auth` at the byte level: STARTUP answered with
//! AUTHENTICATE naming Cassandra's PasswordAuthenticator, nothing but
//! AUTH_RESPONSE served before a login succeeds, SASL PLAIN logins
//! answered with AUTH_SUCCESS or BAD_CREDENTIALS (0x0100), and roles made
//! over CQL logging in. The messages are Cassandra 5.0's
//! (`ServerConnection`, `PasswordAuthenticator`, `ClientState`).

mod server_client;

use std::net::TcpStream;

use server_client::{
    auth_response_body, error_of, op, plain_token, query_body, request, startup, Frame,
};
use widerow::server::TestServer;
use widerow::Session;

/// Sends STARTUP to node1 and returns the connection with the answer.
fn start(server: &TestServer) -> (TcpStream, Frame) {
    startup(server.addr()).unwrap()
}

/// Sends AUTH_RESPONSE holding `token` on stream `stream`.
fn auth(s: &mut TcpStream, stream: i16, token: Option<&[u8]>) -> Frame {
    request(s, stream, op::AUTH_RESPONSE, &auth_response_body(token)).unwrap()
}

/// A connection logged in as `user`.
fn logged_in(server: &TestServer, user: &str, password: &str) -> TcpStream {
    let (mut s, f) = start(server);
    assert_eq!(f.opcode(), op::AUTHENTICATE);
    let f = auth(&mut s, 2, Some(&plain_token(user, password)));
    assert_eq!(f.opcode(), op::AUTH_SUCCESS, "{:?}", error_of(&f.body));
    s
}

fn query(s: &mut TcpStream, stream: i16, cql: &str) -> Frame {
    request(s, stream, op::QUERY, &query_body(cql)).unwrap()
}

#[test]
fn startup_asks_for_the_password_authenticator() {
    let server = TestServer::start_with_auth(Session::new()).unwrap();
    let (_, f) = start(&server);
    assert_eq!(f.opcode(), op::AUTHENTICATE);
    let name = "org.apache.cassandra.auth.PasswordAuthenticator";
    let mut expected = (name.len() as u16).to_be_bytes().to_vec();
    expected.extend_from_slice(name.as_bytes());
    assert_eq!(f.body, expected);
}

#[test]
fn nothing_but_auth_response_is_served_before_a_login() {
    let server = TestServer::start_with_auth(Session::new()).unwrap();
    let (mut s, _) = start(&server);
    let f = query(&mut s, 3, "SELECT * FROM system_auth.roles");
    assert_eq!(f.opcode(), op::ERROR);
    assert_eq!(
        error_of(&f.body),
        (
            0x000A,
            "Unexpected message QUERY, expecting SASL_RESPONSE".into()
        )
    );
    let f = request(&mut s, 4, op::OPTIONS, &[]).unwrap();
    assert_eq!(
        error_of(&f.body),
        (
            0x000A,
            "Unexpected message OPTIONS, expecting SASL_RESPONSE".into()
        )
    );
    // The connection is still there to log in.
    let f = auth(&mut s, 5, Some(&plain_token("cassandra", "cassandra")));
    assert_eq!(
        (f.opcode(), f.body),
        (op::AUTH_SUCCESS, vec![0xff; 4]),
        "null token"
    );
    let f = query(&mut s, 6, "SELECT role FROM system_auth.roles");
    assert_eq!(f.opcode(), op::RESULT);
}

#[test]
fn bad_credentials_get_cassandras_messages_and_a_retry() {
    let server = TestServer::start_with_auth(Session::new()).unwrap();
    let (mut s, _) = start(&server);
    let attempts: [(Option<&[u8]>, &str); 5] = [
        (
            Some(b"\0cassandra\0wrong"),
            "Provided username cassandra and/or password are incorrect",
        ),
        (
            Some(b"\0ghost\0cassandra"),
            "Provided username ghost and/or password are incorrect",
        ),
        (Some(b"\0cassandra\0"), "Password must not be null"),
        (Some(b"cassandra"), "Password must not be null"),
        (None, "Password must not be null"),
    ];
    for (n, (token, message)) in attempts.into_iter().enumerate() {
        let f = auth(&mut s, n as i16 + 2, token);
        assert_eq!(f.opcode(), op::ERROR);
        assert_eq!(error_of(&f.body), (0x0100, message.to_string()));
    }
    let f = query(&mut s, 9, "SELECT 1");
    assert_eq!(
        error_of(&f.body),
        (
            0x000A,
            "Unexpected message QUERY, expecting SASL_RESPONSE".into()
        ),
        "a refused login logs nobody in ({})",
        f.opcode()
    );
    let f = auth(&mut s, 10, Some(&plain_token("cassandra", "cassandra")));
    assert_eq!(f.opcode(), op::AUTH_SUCCESS);
}

#[test]
fn roles_made_over_cql_log_in_and_are_held_to_their_rights() {
    let server = TestServer::start_with_auth(Session::new()).unwrap();
    let mut admin = logged_in(&server, "cassandra", "cassandra");
    for (n, cql) in [
        "CREATE ROLE alice WITH PASSWORD = 'a1' AND LOGIN = true",
        "CREATE ROLE blocked WITH PASSWORD = 'b1'",
    ]
    .into_iter()
    .enumerate()
    {
        let f = query(&mut admin, n as i16 + 3, cql);
        assert_eq!(f.opcode(), op::RESULT, "{cql}: {:?}", error_of(&f.body));
    }
    let f = query(&mut admin, 5, "DROP ROLE cassandra");
    assert_eq!(
        error_of(&f.body),
        (0x2200, "Cannot DROP primary role for current login".into())
    );

    let (mut s, _) = start(&server);
    let f = auth(&mut s, 2, Some(&plain_token("blocked", "b1")));
    assert_eq!(
        error_of(&f.body),
        (0x0100, "blocked is not permitted to log in".into())
    );

    let mut alice = logged_in(&server, "alice", "a1");
    let f = query(&mut alice, 3, "CREATE ROLE eve");
    assert_eq!(
        error_of(&f.body),
        (
            0x2100,
            "User alice has no CREATE permission on <all roles> or any of its parents".into()
        )
    );
    let f = query(&mut alice, 4, "ALTER ROLE alice WITH PASSWORD = 'a2'");
    assert_eq!(f.opcode(), op::RESULT, "a role changes its own password");
    drop(alice);
    logged_in(&server, "alice", "a2");
}

#[test]
fn without_auth_startup_is_ready_and_auth_response_is_refused() {
    let server = TestServer::start(Session::new()).unwrap();
    let (mut s, f) = start(&server);
    assert_eq!(f.opcode(), op::READY);
    let f = auth(&mut s, 2, Some(&plain_token("cassandra", "cassandra")));
    assert_eq!(f.opcode(), op::ERROR);
    assert_eq!(error_of(&f.body).0, 0x000A);
}
