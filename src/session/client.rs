//! A session's state split in two: what every client of it shares (schema,
//! data, ring, roles, the clock — the [`Session`] itself) and what each
//! client chooses for itself ([`Client`]). A server holds one session for
//! all its connections and one `Client` per connection, and lends the
//! connection's to the session for each request it runs; the shell, a
//! script or a library user has one client, the session's own.

use crate::cluster::{ConsistencyLevel, Coordinator};

use super::{fresh_stamp, Session};

/// One client's own choices on a session it may share with others: the
/// keyspace of its last `USE`, its consistency levels, the node it talks
/// to (the coordinator of its statements), its page size, default write
/// timestamp and login.
///
/// [`Session::client`] reads the one in force; [`Session::act_as`] puts
/// another in force. A statement changes only the keyspace of it (`USE`),
/// which the caller reads back with [`Session::keyspace`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Client {
    /// The keyspace unqualified names resolve in.
    pub keyspace: Option<String>,
    /// The level statements run at.
    pub consistency: ConsistencyLevel,
    /// The level of a lightweight transaction's Paxos round.
    pub serial_consistency: ConsistencyLevel,
    /// The node statements arrive on.
    pub coordinator: Coordinator,
    /// The page size reads are fetched with (`None`: unpaged).
    pub page_size: Option<usize>,
    /// The write timestamp writes take without `USING TIMESTAMP` (`None`:
    /// the session clock's).
    pub default_timestamp: Option<i64>,
    /// The role role statements run as (`None`: a superuser's rights, as
    /// without logins).
    pub user: Option<String>,
}

impl Default for Client {
    /// A fresh session's: no keyspace, ONE and SERIAL, node1, unpaged, the
    /// clock's timestamps, no login.
    fn default() -> Client {
        Client {
            keyspace: None,
            consistency: ConsistencyLevel::One,
            serial_consistency: ConsistencyLevel::Serial,
            coordinator: Coordinator::default(),
            page_size: None,
            default_timestamp: None,
            user: None,
        }
    }
}

impl Session {
    /// The client whose choices statements run with now.
    pub fn client(&self) -> Client {
        Client {
            keyspace: self.ctx.keyspace.clone(),
            consistency: self.ctx.consistency,
            serial_consistency: self.ctx.serial_consistency,
            coordinator: self.ctx.coordinator,
            page_size: self.page_size,
            default_timestamp: self.default_timestamp,
            user: self.user.clone(),
        }
    }

    /// Runs the following statements with `client`'s choices. Only what
    /// differs from the client in force changes: a new keyspace, level or
    /// coordinator is a new planning context (prepared statements plan
    /// again), so clients that agree share their plans.
    pub fn act_as(&mut self, client: &Client) {
        let ctx = &mut self.ctx;
        let replans = ctx.keyspace != client.keyspace
            || ctx.consistency != client.consistency
            || ctx.serial_consistency != client.serial_consistency;
        if replans {
            self.ctx_stamp = fresh_stamp();
            ctx.keyspace.clone_from(&client.keyspace);
            ctx.consistency = client.consistency;
            ctx.serial_consistency = client.serial_consistency;
        }
        self.set_coordinator(client.coordinator);
        self.page_size = client.page_size;
        self.default_timestamp = client.default_timestamp;
        if self.user != client.user {
            self.user.clone_from(&client.user);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::NodeIndex;

    #[test]
    fn two_clients_take_turns_on_one_session() {
        let mut session = Session::new();
        session
            .execute_script(
                "CREATE KEYSPACE a WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
                 CREATE KEYSPACE b WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
                 CREATE TABLE a.t (k int PRIMARY KEY);
                 CREATE TABLE b.t (k int PRIMARY KEY);",
            )
            .unwrap();
        let first = Client {
            keyspace: Some("a".into()),
            ..Client::default()
        };
        let second = Client {
            keyspace: Some("b".into()),
            consistency: ConsistencyLevel::Quorum,
            coordinator: Coordinator::Node(NodeIndex(2)),
            page_size: Some(10),
            ..Client::default()
        };
        session.act_as(&first);
        session.execute("INSERT INTO t (k) VALUES (1)").unwrap();
        session.act_as(&second);
        assert_eq!(session.client(), second);
        session.execute("INSERT INTO t (k) VALUES (2)").unwrap();
        let plan = session.plan("SELECT * FROM t WHERE k = 2").unwrap();
        assert_eq!(
            (plan.consistency.as_str(), plan.coordinator.as_str()),
            ("QUORUM", "node3")
        );
        session.act_as(&first);
        let rows = session.execute("SELECT k FROM t").unwrap().rows;
        assert_eq!(rows.len(), 1);
        // A statement's USE changes the client in force, read back by the caller.
        session.execute("USE b").unwrap();
        assert_eq!(session.keyspace(), Some("b"));
    }
}
