//! widerow's own statements over the wire, for test suites: a `CLUSTER …`
//! QUERY from any driver takes a simulated node down or up, saves and
//! restores the data between tests, moves the clock, and shows where
//! requests went. They are extensions, not CQL: a real node answers them
//! with a syntax error.
//!
//! - `CLUSTER` — one row per node: name, address, data centre, rack,
//!   state, tokens and the requests it has coordinated.
//! - `CLUSTER DOWN node2` / `CLUSTER UP node2` (a name or an address) —
//!   the node's connections close and its address stops answering until it
//!   is up again; registered clients get a STATUS_CHANGE event; reads and
//!   writes then see it down as the planner does (Unavailable when a
//!   consistency level needs it).
//! - `CLUSTER SNAPSHOT name` / `CLUSTER RESTORE name` — the schema and data
//!   as they are now, and back to them; `CLUSTER RESET` goes back to what
//!   the server started with. Nodes stay up or down as they are.
//! - `CLUSTER CLOCK` shows the session clock; `CLUSTER CLOCK SET
//!   '2030-01-01 00:00:00+0000'` sets it and `CLUSTER CLOCK ADVANCE 1h30m`
//!   (a CQL duration without months, or seconds) moves it, so TTL tests need
//!   no sleeping.
//!
//! - `CLUSTER NODES 6` (or `dc1:3,dc2:2`) — the ring rebuilt as the
//!   shell rebuilds it: the new nodes answer on their own addresses, the
//!   nodes gone stop answering, and registered clients get TOPOLOGY_CHANGE
//!   events (see [`super::topology`]).

use std::net::IpAddr;

use crate::checkpoints::Checkpoints;
use crate::cluster::{statement, Ring};
use crate::error::{Error, ErrorKind};
use crate::exec::{ColumnSpec, ResultSet};
use crate::syntax::ast::NativeType;
use crate::types::{DataType, Value};
use crate::Session;

pub use crate::cluster::statement::Control;

const USAGE: &str = "Improper CLUSTER statement: use CLUSTER, CLUSTER NODES n, CLUSTER DOWN node, \
     CLUSTER UP node, CLUSTER SNAPSHOT name, CLUSTER RESTORE name, CLUSTER RESET, CLUSTER CLOCK, \
     CLUSTER CLOCK SET 'timestamp' or CLUSTER CLOCK ADVANCE duration";

/// `query` as a control statement; `None` when it is not one (it does not
/// start with the word CLUSTER) and goes to the engine.
pub fn parse(query: &str) -> Option<Result<Control, Error>> {
    let rest = statement::after_cluster(query)?;
    Some(statement::parse(rest).ok_or_else(|| invalid(USAGE)))
}

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidRequest, message)
}

/// Runs `control` on `session`; `requests` are the per-node counts, and
/// `listen` binds the addresses of a ring's new nodes before `CLUSTER
/// NODES` puts the ring in place (when it cannot, nothing changes). The
/// caller tells drivers what happened to the ring.
pub fn run(
    control: &Control,
    session: &mut Session,
    state: &mut Checkpoints,
    requests: &[u64],
    listen: impl FnOnce(&Ring) -> std::io::Result<()>,
) -> Result<ResultSet, Error> {
    match control {
        Control::Show => Ok(show(session, requests)),
        Control::Mark { node, up } => mark(session, node, *up),
        Control::Nodes(spec) => {
            let planned = session.plan_ring(spec)?;
            listen(&planned.ring).map_err(|e| {
                Error::new(
                    ErrorKind::ConfigurationException,
                    format!("CLUSTER NODES: {e}"),
                )
            })?;
            session.adopt_ring(planned);
            Ok(ResultSet::ok())
        }
        Control::Snapshot(name) => {
            state.snapshot(name, session);
            Ok(ResultSet::ok())
        }
        Control::Restore(name) => {
            state.restore(name, session)?;
            Ok(ResultSet::ok())
        }
        Control::Reset => {
            state.reset(session);
            Ok(ResultSet::ok())
        }
        Control::ShowClock => Ok(clock_row(session)),
        Control::SetClock(text) => {
            state.set_clock(text, session)?;
            Ok(ResultSet::ok())
        }
        Control::AdvanceClock(text) => {
            state.advance_clock(text)?;
            Ok(ResultSet::ok())
        }
    }
}

/// `CLUSTER DOWN`/`UP`: the ring's node marked.
fn mark(session: &mut Session, name: &str, up: bool) -> Result<ResultSet, Error> {
    let ring = &session.context().ring;
    let index = ring.lookup(name)?;
    let node = ring.node(index);
    if node.up == up {
        return Ok(ResultSet::ok());
    }
    let id = node.id.clone();
    let ring = &mut session.context_mut().ring;
    if up {
        ring.set_up(&id)?;
    } else {
        ring.set_down(&id)?;
    }
    Ok(ResultSet::ok())
}

fn column(name: &str, ty: NativeType) -> ColumnSpec {
    ColumnSpec {
        name: name.to_string(),
        data_type: DataType::Native(ty),
    }
}

/// `CLUSTER`'s rows: one per node, with the requests it coordinated.
fn show(session: &Session, requests: &[u64]) -> ResultSet {
    let columns = vec![
        column("node", NativeType::Text),
        column("address", NativeType::Inet),
        column("datacenter", NativeType::Text),
        column("rack", NativeType::Text),
        column("state", NativeType::Text),
        column("tokens", NativeType::Text),
        column("requests", NativeType::Bigint),
    ];
    let ring = &session.context().ring;
    let rows: Vec<Vec<Value>> = ring
        .nodes()
        .iter()
        .enumerate()
        .map(|(i, node)| {
            let tokens: Vec<String> = node.tokens.iter().map(i64::to_string).collect();
            vec![
                Value::Text(node.id.clone()),
                Value::Inet(IpAddr::V4(node.address)),
                Value::Text(node.datacenter.clone()),
                Value::Text(node.rack.clone()),
                Value::Text(if node.up { "UP" } else { "DOWN" }.to_string()),
                Value::Text(tokens.join(",")),
                Value::Bigint(requests.get(i).map_or(0, |&n| n as i64)),
            ]
        })
        .collect();
    ResultSet::rows(columns, rows)
}

fn clock_row(session: &Session) -> ResultSet {
    ResultSet::rows(
        vec![column("now", NativeType::Timestamp)],
        vec![vec![Value::Timestamp(
            session.now_micros().div_euclid(1000),
        )]],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::NodeIndex;

    fn is_up(session: &Session, node: usize) -> bool {
        session.context().ring.node(NodeIndex(node)).up
    }

    #[test]
    fn statements_parse() {
        let p = |q: &str| parse(q).unwrap().unwrap();
        assert_eq!(p("CLUSTER"), Control::Show);
        assert_eq!(p(" cluster ; "), Control::Show);
        assert_eq!(
            p("CLUSTER DOWN node2;"),
            Control::Mark {
                node: "node2".into(),
                up: false
            }
        );
        assert_eq!(
            p("cluster snapshot before"),
            Control::Snapshot("before".into())
        );
        assert_eq!(
            p("CLUSTER CLOCK SET '2030-01-01 00:00:00+0000'"),
            Control::SetClock("2030-01-01 00:00:00+0000".into())
        );
        assert_eq!(
            p("CLUSTER CLOCK ADVANCE 1h"),
            Control::AdvanceClock("1h".into())
        );
        assert!(parse("SELECT * FROM t").is_none());
        assert!(parse("CLUSTERING").is_none());
        assert!(parse("CLUSTER DOWN").unwrap().is_err());
        assert!(parse("CLUSTER EXPLODE").unwrap().is_err());
        assert!(parse("CLUSTER RESET now").unwrap().is_err());
    }

    #[test]
    fn snapshots_restore_data_and_keep_node_states() {
        let mut session = Session::new();
        let mut state = Checkpoints::new(&mut session);
        session
            .execute_script(
                "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', \
                 'replication_factor': 3}; CREATE TABLE ks.t (k int PRIMARY KEY);",
            )
            .unwrap();
        let run = |c: &str, s: &mut Session, st: &mut Checkpoints| {
            run(&parse(c).unwrap().unwrap(), s, st, &[], |_| Ok(())).unwrap()
        };
        run("CLUSTER SNAPSHOT empty", &mut session, &mut state);
        session.execute("INSERT INTO ks.t (k) VALUES (1)").unwrap();
        run("CLUSTER DOWN node2", &mut session, &mut state);
        assert!(!is_up(&session, 1));
        run("CLUSTER RESTORE empty", &mut session, &mut state);
        assert_eq!(session.execute("SELECT * FROM ks.t").unwrap().rows.len(), 0);
        assert!(!is_up(&session, 1));
        run("CLUSTER RESET", &mut session, &mut state);
        assert!(session.execute("SELECT * FROM ks.t").is_err());
        let before = session.now_micros();
        run("CLUSTER CLOCK ADVANCE 1d", &mut session, &mut state);
        assert!(session.now_micros() - before >= 86_400_000_000);
    }
}
