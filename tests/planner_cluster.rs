//! Routing on the simulated cluster: tokens, replicas, consistency levels,
//! and Unavailable when too few replicas are alive.

use widerow::cluster::ConsistencyLevel;
use widerow::planner::{plan, Partitions, PlanContext, QueryClass, TokenValue};
use widerow::ErrorKind;

fn context() -> PlanContext {
    let mut ctx = PlanContext::new();
    for statement in widerow::split_statements(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
         USE ks;
         CREATE TABLE kv (k int PRIMARY KEY, v text);",
    ) {
        let parsed = widerow::parse_statement(&statement.text).expect("parses");
        ctx.apply_schema(&parsed).expect("applies");
    }
    ctx
}

fn replicas(ctx: &PlanContext, cql: &str) -> Vec<String> {
    match plan(ctx, cql).expect("plans").partitions {
        Partitions::Keys { partitions } => partitions[0].replicas.clone(),
        other => panic!("expected keys, got {other:?}"),
    }
}

#[test]
fn point_lookup_names_its_token_and_three_replicas() {
    let ctx = context();
    let plan = plan(&ctx, "SELECT * FROM kv WHERE k = 1").expect("plans");
    assert_eq!(plan.class, QueryClass::PointLookup);
    let Partitions::Keys { partitions } = &plan.partitions else {
        panic!("keys expected");
    };
    // murmur3-vectors.tsv: int 1 → -4069959284402364209
    assert_eq!(partitions[0].token, TokenValue::Known(-4069959284402364209));
    assert_eq!(partitions[0].replicas.len(), 3);
    assert_eq!(partitions[0].contacted.len(), 1, "ONE contacts one replica");
}

#[test]
fn quorum_fails_with_unavailable_when_two_of_three_replicas_are_down() {
    let mut ctx = context();
    let replicas = replicas(&ctx, "SELECT * FROM kv WHERE k = 1");
    ctx.consistency = ConsistencyLevel::Quorum;
    ctx.ring.set_down(&replicas[0]).expect("known node");
    let planned = plan(&ctx, "SELECT * FROM kv WHERE k = 1").expect("two of three alive");
    let Partitions::Keys { partitions } = &planned.partitions else {
        panic!("keys expected");
    };
    assert_eq!(partitions[0].down, vec![replicas[0].clone()]);
    assert_eq!(partitions[0].contacted.len(), 2);

    ctx.ring.set_down(&replicas[1]).expect("known node");
    let error = plan(&ctx, "SELECT * FROM kv WHERE k = 1").expect_err("one of three alive");
    assert_eq!(error.kind(), ErrorKind::Unavailable);
    assert_eq!(error.message(), "Cannot achieve consistency level QUORUM");
    assert!(error
        .cqlsh_text()
        .ends_with("info={'consistency': 'QUORUM', 'required_replicas': 2, 'alive_replicas': 1}"));

    ctx.ring.set_up(&replicas[1]).expect("known node");
    assert!(plan(&ctx, "SELECT * FROM kv WHERE k = 1").is_ok());
}

#[test]
fn writes_wait_for_the_level_and_scans_reach_every_node() {
    let ctx = context();
    let write = plan(&ctx, "INSERT INTO kv (k, v) VALUES (1, 'a')").expect("plans");
    assert_eq!(write.class, QueryClass::PointLookup);
    let scan = plan(&ctx, "SELECT * FROM kv").expect("plans");
    assert_eq!(scan.class, QueryClass::ScatterGather);
    assert!(!scan.nodes.is_empty());
}

#[test]
fn bind_markers_leave_the_token_to_execution() {
    let ctx = context();
    let plan = plan(&ctx, "SELECT * FROM kv WHERE k = ?").expect("plans");
    let Partitions::Keys { partitions } = &plan.partitions else {
        panic!("keys expected");
    };
    assert_eq!(partitions[0].token, TokenValue::BoundAtExecution);
}

#[test]
fn a_keyspace_naming_an_unknown_datacenter_grows_the_ring() {
    let mut ctx = PlanContext::new();
    let parsed = widerow::parse_statement(
        "CREATE KEYSPACE geo WITH replication = {'class': 'NetworkTopologyStrategy', 'dc2': 3}",
    )
    .expect("parses");
    ctx.apply_schema(&parsed).expect("applies");
    assert!(ctx.ring.has_datacenter("dc2"));
    assert_eq!(ctx.ring.datacenter_size("dc2"), 4);
}

/// StorageProxy.cas runs the Paxos round before the commit: its participants are the
/// natural replicas (the local data centre's for LOCAL_SERIAL) and a majority of them must
/// be live (ReplicaPlans.forPaxos, assureSufficientLiveReplicasForPaxos), else
/// Unavailable at the serial level, whatever the commit's consistency level. Not checked on
/// the one-node 5.0.8 oracle (it cannot lose replicas); from Cassandra's source.
#[test]
fn lightweight_transactions_need_a_serial_majority() {
    let mut ctx = context();
    let replicas = replicas(&ctx, "SELECT * FROM kv WHERE k = 1");
    let lwt = "INSERT INTO kv (k, v) VALUES (1, 'a') IF NOT EXISTS";
    let planned = plan(&ctx, lwt).expect("all replicas alive");
    let Partitions::Keys { partitions } = &planned.partitions else {
        panic!("keys expected");
    };
    let paxos = partitions[0].paxos.as_ref().expect("a Paxos round");
    assert_eq!((paxos.consistency.as_str(), paxos.required), ("SERIAL", 2));
    assert_eq!(paxos.contacted.len(), 3);
    assert_eq!(partitions[0].required, 1, "the commit waits at ONE");

    ctx.ring.set_down(&replicas[0]).expect("known node");
    ctx.ring.set_down(&replicas[1]).expect("known node");
    assert!(plan(&ctx, "INSERT INTO kv (k, v) VALUES (1, 'a')").is_ok());
    for cql in [
        lwt,
        "UPDATE kv SET v = 'b' WHERE k = 1 IF v = 'a'",
        "DELETE FROM kv WHERE k = 1 IF EXISTS",
        "BEGIN BATCH UPDATE kv SET v = 'b' WHERE k = 1 IF v = 'a'; APPLY BATCH",
    ] {
        let error = plan(&ctx, cql).expect_err("one of three alive");
        assert_eq!(error.kind(), ErrorKind::Unavailable, "{cql}");
        assert_eq!(error.message(), "Cannot achieve consistency level SERIAL");
        assert!(error.cqlsh_text().ends_with(
            "info={'consistency': 'SERIAL', 'required_replicas': 2, 'alive_replicas': 1}"
        ));
    }
    ctx.serial_consistency = ConsistencyLevel::LocalSerial;
    let error = plan(&ctx, lwt).expect_err("one of three alive");
    assert_eq!(
        error.message(),
        "Cannot achieve consistency level LOCAL_SERIAL"
    );
}
