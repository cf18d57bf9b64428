//! `widerow serve --auth` at the byte level: STARTUP answered with
//! AUTHENTICATE naming Cassandra's PasswordAuthenticator, nothing but
//! AUTH_RESPONSE served before a login succeeds, SASL PLAIN logins
//! answered with AUTH_SUCCESS or BAD_CREDENTIALS (0x0100), and roles made
//! over CQL logging in. The messages are Cassandra 5.0's
//! (`ServerConnection`, `PasswordAuthenticator`, `ClientState`).

mod protocol_client;

use protocol_client::{auth_response_body, error_of, plain_token, query_body, request, startup};
use widerow::server::TestServer;
use widerow::Session;

const AUTHENTICATE: u8 = 0x03;
const QUERY: u8 = 0x07;
const RESULT: u8 = 0x08;
const OPTIONS: u8 = 0x05;
const AUTH_RESPONSE: u8 = 0x0F;
const AUTH_SUCCESS: u8 = 0x10;
const ERROR: u8 = 0x00;

/// A connection logged in as `user`.
fn logged_in(server: &TestServer, user: &str, password: &str) -> std::net::TcpStream {
    let (mut s, opcode, _) = startup(server);
    assert_eq!(opcode, AUTHENTICATE);
    let token = plain_token(user, password);
    let (opcode, body) = request(&mut s, 2, AUTH_RESPONSE, &auth_response_body(Some(&token)));
    assert_eq!(opcode, AUTH_SUCCESS, "{:?}", error_of(&body));
    s
}

fn query(s: &mut std::net::TcpStream, stream: i16, cql: &str) -> (u8, Vec<u8>) {
    request(s, stream, QUERY, &query_body(cql))
}

#[test]
fn startup_asks_for_the_password_authenticator() {
    let server = TestServer::start_with_auth(Session::new()).unwrap();
    let (_, opcode, body) = startup(&server);
    assert_eq!(opcode, AUTHENTICATE);
    let name = "org.apache.cassandra.auth.PasswordAuthenticator";
    let mut expected = (name.len() as u16).to_be_bytes().to_vec();
    expected.extend_from_slice(name.as_bytes());
    assert_eq!(body, expected);
}

#[test]
fn nothing_but_auth_response_is_served_before_a_login() {
    let server = TestServer::start_with_auth(Session::new()).unwrap();
    let (mut s, _, _) = startup(&server);
    let (opcode, body) = query(&mut s, 3, "SELECT * FROM system_auth.roles");
    assert_eq!(opcode, ERROR);
    assert_eq!(
        error_of(&body),
        (
            0x000A,
            "Unexpected message QUERY, expecting SASL_RESPONSE".into()
        )
    );
    let (_, body) = request(&mut s, 4, OPTIONS, &[]);
    assert_eq!(
        error_of(&body),
        (
            0x000A,
            "Unexpected message OPTIONS, expecting SASL_RESPONSE".into()
        )
    );
    // The connection is still there to log in.
    let token = plain_token("cassandra", "cassandra");
    let (opcode, body) = request(&mut s, 5, AUTH_RESPONSE, &auth_response_body(Some(&token)));
    assert_eq!((opcode, body), (AUTH_SUCCESS, vec![0xff; 4]), "null token");
    let (opcode, _) = query(&mut s, 6, "SELECT role FROM system_auth.roles");
    assert_eq!(opcode, RESULT);
}

#[test]
fn bad_credentials_get_cassandras_messages_and_a_retry() {
    let server = TestServer::start_with_auth(Session::new()).unwrap();
    let (mut s, _, _) = startup(&server);
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
        let (opcode, body) = request(
            &mut s,
            n as i16 + 2,
            AUTH_RESPONSE,
            &auth_response_body(token),
        );
        assert_eq!(opcode, ERROR);
        assert_eq!(error_of(&body), (0x0100, message.to_string()));
    }
    let (opcode, body) = query(&mut s, 9, "SELECT 1");
    assert_eq!(
        error_of(&body),
        (
            0x000A,
            "Unexpected message QUERY, expecting SASL_RESPONSE".into()
        ),
        "a refused login logs nobody in ({opcode})"
    );
    let token = plain_token("cassandra", "cassandra");
    let (opcode, _) = request(&mut s, 10, AUTH_RESPONSE, &auth_response_body(Some(&token)));
    assert_eq!(opcode, AUTH_SUCCESS);
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
        let (opcode, body) = query(&mut admin, n as i16 + 3, cql);
        assert_eq!(opcode, RESULT, "{cql}: {:?}", error_of(&body));
    }
    let (_, body) = query(&mut admin, 5, "DROP ROLE cassandra");
    assert_eq!(
        error_of(&body),
        (0x2200, "Cannot DROP primary role for current login".into())
    );

    let (mut s, _, _) = startup(&server);
    let token = plain_token("blocked", "b1");
    let (_, body) = request(&mut s, 2, AUTH_RESPONSE, &auth_response_body(Some(&token)));
    assert_eq!(
        error_of(&body),
        (0x0100, "blocked is not permitted to log in".into())
    );

    let mut alice = logged_in(&server, "alice", "a1");
    let (_, body) = query(&mut alice, 3, "CREATE ROLE eve");
    assert_eq!(
        error_of(&body),
        (
            0x2100,
            "User alice has no CREATE permission on <all roles> or any of its parents".into()
        )
    );
    let (opcode, _) = query(&mut alice, 4, "ALTER ROLE alice WITH PASSWORD = 'a2'");
    assert_eq!(opcode, RESULT, "a role changes its own password");
    drop(alice);
    logged_in(&server, "alice", "a2");
}

#[test]
fn without_auth_startup_is_ready_and_auth_response_is_refused() {
    let server = TestServer::start(Session::new()).unwrap();
    let (mut s, opcode, _) = startup(&server);
    assert_eq!(opcode, 0x02, "READY");
    let token = plain_token("cassandra", "cassandra");
    let (opcode, body) = request(&mut s, 2, AUTH_RESPONSE, &auth_response_body(Some(&token)));
    assert_eq!(opcode, ERROR);
    assert_eq!(error_of(&body).0, 0x000A);
}
