//! Consistency levels: how many replicas must answer, which ones the coordinator asks,
//! and when it refuses for want of live replicas.
//!
//! This follows Cassandra 5.0's `ConsistencyLevel` and `ReplicaPlans`, because the user
//! sees their results directly: the number in `blockFor` decides whether a query with
//! nodes down succeeds, and the refusal is an `Unavailable` error whose message and
//! `required_replicas` / `alive_replicas` fields scripts and tests compare.
//!
//! The coordinator's preferences are modelled as a snitch that keeps the ring's replica
//! order but puts replicas of its own data centre first (the order every
//! data-centre-aware snitch produces; with one data centre it changes nothing). Latency
//! scores of the dynamic snitch are not simulated, so the order is deterministic.

use std::fmt;
use std::str::FromStr;

use super::replication::{datacenter_factor, natural_replicas, replication_factor};
use super::ring::{NodeIndex, Ring};
use crate::error::{Error, ErrorInfo, ErrorKind, Result};
use crate::schema::Replication;

/// A consistency level, as CQL drivers and cqlsh's `CONSISTENCY` name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ConsistencyLevel {
    /// A write succeeds once stored anywhere, even only as a hint on the coordinator.
    Any,
    /// One replica (cqlsh's default).
    #[default]
    One,
    /// Two replicas.
    Two,
    /// Three replicas.
    Three,
    /// A majority of all replicas, across data centres.
    Quorum,
    /// Every replica.
    All,
    /// A majority of the coordinator's data centre's replicas.
    LocalQuorum,
    /// A majority in every data centre.
    EachQuorum,
    /// Paxos over all replicas (lightweight transactions and serial reads).
    Serial,
    /// Paxos over the coordinator's data centre.
    LocalSerial,
    /// One replica of the coordinator's data centre.
    LocalOne,
    /// The coordinator itself. Cassandra (4.0+) meant it for virtual tables and gives
    /// it no `blockFor`; widerow treats it as one local replica, the coordinator first.
    NodeLocal,
}

impl ConsistencyLevel {
    /// Every level, in the order of their protocol codes (0x0000 … 0x000B).
    pub const LEVELS: [ConsistencyLevel; 12] = [
        ConsistencyLevel::Any,
        ConsistencyLevel::One,
        ConsistencyLevel::Two,
        ConsistencyLevel::Three,
        ConsistencyLevel::Quorum,
        ConsistencyLevel::All,
        ConsistencyLevel::LocalQuorum,
        ConsistencyLevel::EachQuorum,
        ConsistencyLevel::Serial,
        ConsistencyLevel::LocalSerial,
        ConsistencyLevel::LocalOne,
        ConsistencyLevel::NodeLocal,
    ];

    /// The level's name, upper case, as Cassandra's messages and cqlsh print it.
    pub fn name(self) -> &'static str {
        match self {
            ConsistencyLevel::Any => "ANY",
            ConsistencyLevel::One => "ONE",
            ConsistencyLevel::Two => "TWO",
            ConsistencyLevel::Three => "THREE",
            ConsistencyLevel::Quorum => "QUORUM",
            ConsistencyLevel::All => "ALL",
            ConsistencyLevel::LocalQuorum => "LOCAL_QUORUM",
            ConsistencyLevel::EachQuorum => "EACH_QUORUM",
            ConsistencyLevel::Serial => "SERIAL",
            ConsistencyLevel::LocalSerial => "LOCAL_SERIAL",
            ConsistencyLevel::LocalOne => "LOCAL_ONE",
            ConsistencyLevel::NodeLocal => "NODE_LOCAL",
        }
    }

    /// The native protocol's code for the level.
    pub fn code(self) -> u16 {
        match self {
            ConsistencyLevel::Any => 0x0000,
            ConsistencyLevel::One => 0x0001,
            ConsistencyLevel::Two => 0x0002,
            ConsistencyLevel::Three => 0x0003,
            ConsistencyLevel::Quorum => 0x0004,
            ConsistencyLevel::All => 0x0005,
            ConsistencyLevel::LocalQuorum => 0x0006,
            ConsistencyLevel::EachQuorum => 0x0007,
            ConsistencyLevel::Serial => 0x0008,
            ConsistencyLevel::LocalSerial => 0x0009,
            ConsistencyLevel::LocalOne => 0x000A,
            ConsistencyLevel::NodeLocal => 0x000B,
        }
    }

    /// Whether a read only uses replicas of the coordinator's data centre
    /// (`isDatacenterLocal`: LOCAL_ONE, LOCAL_QUORUM and NODE_LOCAL; LOCAL_SERIAL is
    /// restricted to the local data centre by Paxos instead).
    pub fn is_datacenter_local(self) -> bool {
        matches!(
            self,
            ConsistencyLevel::LocalOne
                | ConsistencyLevel::LocalQuorum
                | ConsistencyLevel::NodeLocal
        )
    }

    /// Whether this is a Paxos level (`isSerialConsistency`).
    pub fn is_serial(self) -> bool {
        matches!(
            self,
            ConsistencyLevel::Serial | ConsistencyLevel::LocalSerial
        )
    }

    /// The acknowledgements the level needs (`ConsistencyLevel.blockFor`), with
    /// `local_dc` the coordinator's data centre.
    ///
    /// QUORUM and SERIAL: the sum of all factors / 2 + 1. LOCAL_QUORUM and LOCAL_SERIAL:
    /// the local data centre's factor / 2 + 1 under `NetworkTopologyStrategy` (a data
    /// centre without a factor counts as 0, so 1), QUORUM otherwise. EACH_QUORUM: the sum
    /// of every declared data centre's local quorum, QUORUM for other strategies. ALL:
    /// the total factor. ANY, ONE, LOCAL_ONE, NODE_LOCAL: 1. Factors are the declared
    /// ones, not capped by the nodes that exist; that is why an over-replicated keyspace
    /// fails at QUORUM and ALL.
    pub fn block_for(self, replication: &Replication, local_dc: &str) -> u32 {
        match self {
            ConsistencyLevel::Any
            | ConsistencyLevel::One
            | ConsistencyLevel::LocalOne
            | ConsistencyLevel::NodeLocal => 1,
            ConsistencyLevel::Two => 2,
            ConsistencyLevel::Three => 3,
            ConsistencyLevel::Quorum | ConsistencyLevel::Serial => quorum_for(replication),
            ConsistencyLevel::All => replication_factor(replication),
            ConsistencyLevel::LocalQuorum | ConsistencyLevel::LocalSerial => {
                local_quorum_for(replication, local_dc)
            }
            ConsistencyLevel::EachQuorum => match replication {
                Replication::NetworkTopology { factors } => factors
                    .values()
                    .fold(0u32, |sum, &f| sum.saturating_add(f / 2 + 1)),
                _ => quorum_for(replication),
            },
        }
    }

    /// Refuses levels Cassandra refuses for reads (`validateForRead`): ANY.
    pub fn validate_for_read(self) -> Result<()> {
        match self {
            ConsistencyLevel::Any => Err(Error::invalid(
                "ANY ConsistencyLevel is only supported for writes",
            )),
            _ => Ok(()),
        }
    }

    /// Refuses levels Cassandra refuses for plain writes (`validateForWrite`): the
    /// serial ones, which only conditional updates use.
    pub fn validate_for_write(self) -> Result<()> {
        if self.is_serial() {
            Err(Error::invalid(
                "You must use conditional updates for serializable writes",
            ))
        } else {
            Ok(())
        }
    }

    /// Refuses levels Cassandra refuses for a counter update
    /// (`validateCounterForWrite`): ANY, and the serial ones.
    pub fn validate_for_counter_write(self, table: &str) -> Result<()> {
        match self {
            ConsistencyLevel::Any => Err(Error::invalid(format!(
                "Consistency level ANY is not yet supported for counter table {table}"
            ))),
            ConsistencyLevel::Serial | ConsistencyLevel::LocalSerial => Err(Error::invalid(
                "Counter operations are inherently non-serializable",
            )),
            _ => Ok(()),
        }
    }

    /// Refuses commit levels Cassandra refuses for a conditional update
    /// (`validateForCasCommit`): the serial ones, and EACH_QUORUM outside
    /// `NetworkTopologyStrategy`.
    pub fn validate_for_cas_commit(self, replication: &Replication) -> Result<()> {
        match self {
            ConsistencyLevel::Serial | ConsistencyLevel::LocalSerial => {
                Err(Error::invalid(format!(
                    "{self} is not supported as conditional update commit consistency. Use ANY if \
                 you mean \"make sure it is accepted but I don't care how many replicas commit \
                 it for non-SERIAL reads\""
                )))
            }
            ConsistencyLevel::EachQuorum => {
                let class = match replication {
                    Replication::NetworkTopology { .. } => return Ok(()),
                    Replication::Simple { .. } => "org.apache.cassandra.locator.SimpleStrategy",
                    Replication::Local => "org.apache.cassandra.locator.LocalStrategy",
                };
                Err(Error::invalid(format!(
                    "consistency level {self} not compatible with replication strategy ({class})"
                )))
            }
            _ => Ok(()),
        }
    }

    /// Refuses a serial consistency for a conditional update that is not serial
    /// (`validateForCas`).
    pub fn validate_for_cas(self) -> Result<()> {
        if self.is_serial() {
            Ok(())
        } else {
            Err(Error::invalid(
                "Invalid consistency for conditional update. Must be one of SERIAL or LOCAL_SERIAL",
            ))
        }
    }
}

impl fmt::Display for ConsistencyLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ConsistencyLevel {
    type Err = Error;

    /// A level by name, case-insensitive (`quorum`, `LOCAL_ONE`).
    fn from_str(text: &str) -> Result<ConsistencyLevel> {
        let text = text.trim();
        ConsistencyLevel::LEVELS
            .into_iter()
            .find(|level| level.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| {
                let names: Vec<&str> = ConsistencyLevel::LEVELS.iter().map(|l| l.name()).collect();
                Error::invalid(format!(
                    "Unknown consistency level '{text}': expected one of {}",
                    names.join(", ")
                ))
            })
    }
}

/// `ConsistencyLevel.quorumFor`: all replicas / 2 + 1.
fn quorum_for(replication: &Replication) -> u32 {
    replication_factor(replication) / 2 + 1
}

/// `ConsistencyLevel.localQuorumFor`: the data centre's factor / 2 + 1 under
/// `NetworkTopologyStrategy`, QUORUM under other strategies.
fn local_quorum_for(replication: &Replication, dc: &str) -> u32 {
    match datacenter_factor(replication, dc) {
        Some(factor) => factor / 2 + 1,
        None => quorum_for(replication),
    }
}

/// Who a coordinator involves for one token at one consistency level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplicaPlan {
    /// The level planned for.
    pub consistency: ConsistencyLevel,
    /// Acknowledgements needed before the coordinator answers.
    pub block_for: u32,
    /// The natural replicas, live or not, in placement order.
    pub replicas: Vec<NodeIndex>,
    /// The live replicas the level may use, in the coordinator's order of preference
    /// (its own data centre first; only that data centre for LOCAL_* reads).
    pub candidates: Vec<NodeIndex>,
    /// The replicas the coordinator sends the request to: for a read the first
    /// `block_for` candidates (per data centre for EACH_QUORUM), for a write every live
    /// replica (down replicas get hints), for Paxos every live participant.
    pub contacts: Vec<NodeIndex>,
}

/// Plans a single-partition read of `token` at `consistency`, coordinated by
/// `coordinator` (`ReplicaPlans.forRead`); serial levels plan a Paxos read
/// ([`plan_paxos`]).
///
/// Fails with `InvalidRequest` for ANY, and with `Unavailable` when too few replicas are
/// live.
pub fn plan_read(
    ring: &Ring,
    replication: &Replication,
    token: i64,
    consistency: ConsistencyLevel,
    coordinator: NodeIndex,
) -> Result<ReplicaPlan> {
    consistency.validate_for_read()?;
    if consistency.is_serial() {
        return plan_paxos(ring, replication, token, consistency, coordinator);
    }
    let local_dc = ring.node(coordinator).datacenter.as_str();
    let replicas = natural_replicas(ring, replication, token, coordinator);
    let block_for = consistency.block_for(replication, local_dc);
    let candidates = read_candidates(ring, &replicas, consistency, coordinator);
    let contacts = read_contacts(ring, replication, consistency, block_for, &candidates);
    assure_available(
        ring,
        replication,
        consistency,
        block_for,
        &contacts,
        local_dc,
    )?;
    Ok(ReplicaPlan {
        consistency,
        block_for,
        replicas,
        candidates,
        contacts,
    })
}

/// Plans a write of `token` at `consistency` (`ReplicaPlans.forWrite`): every live
/// replica is sent the mutation, whatever the level; the level only says how many
/// must acknowledge, counting only the local data centre for LOCAL_*.
///
/// Fails with `InvalidRequest` for SERIAL and LOCAL_SERIAL, and with `Unavailable` when
/// too few replicas are live. ANY never fails: with every replica down the coordinator
/// keeps a hint, and `contacts` is empty.
pub fn plan_write(
    ring: &Ring,
    replication: &Replication,
    token: i64,
    consistency: ConsistencyLevel,
    coordinator: NodeIndex,
) -> Result<ReplicaPlan> {
    consistency.validate_for_write()?;
    let local_dc = ring.node(coordinator).datacenter.as_str();
    let replicas = natural_replicas(ring, replication, token, coordinator);
    let block_for = consistency.block_for(replication, local_dc);
    let candidates = live_sorted(ring, &replicas, local_dc);
    assure_available(
        ring,
        replication,
        consistency,
        block_for,
        &candidates,
        local_dc,
    )?;
    Ok(ReplicaPlan {
        consistency,
        block_for,
        replicas,
        contacts: candidates.clone(),
        candidates,
    })
}

/// Plans the Paxos round of a lightweight transaction or serial read at `serial`
/// (`ReplicaPlans.forPaxos`): the participants are the natural replicas (only the
/// local data centre's for LOCAL_SERIAL), a majority of them *as placed* must be live
/// (so, unlike QUORUM, an over-replicated keyspace counts the nodes that exist), and
/// every live participant is contacted.
///
/// Fails with `InvalidRequest` for a level that is not serial, and with `Unavailable`.
pub fn plan_paxos(
    ring: &Ring,
    replication: &Replication,
    token: i64,
    serial: ConsistencyLevel,
    coordinator: NodeIndex,
) -> Result<ReplicaPlan> {
    serial.validate_for_cas()?;
    let local_dc = ring.node(coordinator).datacenter.as_str();
    let replicas = natural_replicas(ring, replication, token, coordinator);
    let participants: Vec<NodeIndex> = if serial == ConsistencyLevel::LocalSerial {
        replicas
            .iter()
            .copied()
            .filter(|&r| ring.node(r).datacenter == local_dc)
            .collect()
    } else {
        replicas.clone()
    };
    let required = count(participants.len()) / 2 + 1;
    let candidates = live_sorted(ring, &participants, local_dc);
    if count(candidates.len()) < required {
        return Err(unavailable(serial, required, count(candidates.len()), None));
    }
    Ok(ReplicaPlan {
        consistency: serial,
        block_for: required,
        replicas,
        contacts: candidates.clone(),
        candidates,
    })
}

/// Checks that `live` replicas can satisfy `consistency`
/// (`ReplicaPlans.assureSufficientLiveReplicas`), failing with Cassandra's
/// `Unavailable`:
///
/// * ANY always passes (the coordinator can keep a hint);
/// * LOCAL_ONE and LOCAL_QUORUM count only live replicas in `local_dc`;
/// * EACH_QUORUM under `NetworkTopologyStrategy` checks each declared data centre, in
///   declaration order, against its local quorum, and names the first one short:
///   `Cannot achieve consistency level EACH_QUORUM in DC dc2`;
/// * every other level compares all live replicas with `block_for`.
pub fn assure_available(
    ring: &Ring,
    replication: &Replication,
    consistency: ConsistencyLevel,
    block_for: u32,
    live: &[NodeIndex],
    local_dc: &str,
) -> Result<()> {
    let in_dc = |dc: &str| {
        count(
            live.iter()
                .filter(|&&r| ring.node(r).datacenter == dc)
                .count(),
        )
    };
    match consistency {
        ConsistencyLevel::Any => Ok(()),
        ConsistencyLevel::LocalOne | ConsistencyLevel::LocalQuorum => {
            let alive = in_dc(local_dc);
            if alive < block_for {
                Err(unavailable(consistency, block_for, alive, None))
            } else {
                Ok(())
            }
        }
        ConsistencyLevel::EachQuorum
            if matches!(replication, Replication::NetworkTopology { .. }) =>
        {
            if let Replication::NetworkTopology { factors } = replication {
                for (dc, &factor) in factors {
                    let required = factor / 2 + 1;
                    let alive = in_dc(dc);
                    if alive < required {
                        return Err(unavailable(consistency, required, alive, Some(dc)));
                    }
                }
            }
            Ok(())
        }
        _ => {
            let alive = count(live.len());
            if alive < block_for {
                Err(unavailable(consistency, block_for, alive, None))
            } else {
                Ok(())
            }
        }
    }
}

/// Cassandra's `UnavailableException`: `Cannot achieve consistency level QUORUM`, or
/// `… EACH_QUORUM in DC dc2` when one data centre is short, carrying the level and the
/// counts cqlsh prints as `info={'consistency': …, 'required_replicas': …,
/// 'alive_replicas': …}`.
pub fn unavailable(
    consistency: ConsistencyLevel,
    required: u32,
    alive: u32,
    datacenter: Option<&str>,
) -> Error {
    let message = match datacenter {
        Some(dc) => format!("Cannot achieve consistency level {consistency} in DC {dc}"),
        None => format!("Cannot achieve consistency level {consistency}"),
    };
    Error::new(ErrorKind::Unavailable, message).with_info(ErrorInfo::Unavailable {
        consistency: consistency.name().to_string(),
        required_replicas: required,
        alive_replicas: alive,
    })
}

/// The live replicas, those of `local_dc` first, otherwise in placement order.
pub(super) fn live_sorted(ring: &Ring, replicas: &[NodeIndex], local_dc: &str) -> Vec<NodeIndex> {
    let (mut local, remote): (Vec<NodeIndex>, Vec<NodeIndex>) = replicas
        .iter()
        .copied()
        .filter(|&r| ring.is_up(r))
        .partition(|&r| ring.node(r).datacenter == local_dc);
    local.extend(remote);
    local
}

/// The replicas a read at `consistency` may use (`ReplicaPlans.candidatesForRead`):
/// the live ones in preference order, only the local data centre's for LOCAL_*, and
/// for NODE_LOCAL the coordinator first when it is one of them.
pub(super) fn read_candidates(
    ring: &Ring,
    replicas: &[NodeIndex],
    consistency: ConsistencyLevel,
    coordinator: NodeIndex,
) -> Vec<NodeIndex> {
    let local_dc = ring.node(coordinator).datacenter.as_str();
    let mut candidates = live_sorted(ring, replicas, local_dc);
    if consistency.is_datacenter_local() {
        candidates.retain(|&r| ring.node(r).datacenter == local_dc);
    }
    if consistency == ConsistencyLevel::NodeLocal {
        if let Some(at) = candidates.iter().position(|&r| r == coordinator) {
            candidates[..=at].rotate_right(1);
        }
    }
    candidates
}

/// The candidates a read contacts (`ReplicaPlans.contactForRead`): the first
/// `block_for`, or for EACH_QUORUM under `NetworkTopologyStrategy` the first local quorum
/// of each declared data centre (`contactForEachQuorumRead`).
pub(super) fn read_contacts(
    ring: &Ring,
    replication: &Replication,
    consistency: ConsistencyLevel,
    block_for: u32,
    candidates: &[NodeIndex],
) -> Vec<NodeIndex> {
    match (consistency, replication) {
        (ConsistencyLevel::EachQuorum, Replication::NetworkTopology { factors }) => {
            let mut left: Vec<(&str, u32)> = factors
                .iter()
                .map(|(dc, &f)| (dc.as_str(), f / 2 + 1))
                .collect();
            candidates
                .iter()
                .copied()
                .filter(|&r| {
                    let dc = ring.node(r).datacenter.as_str();
                    match left.iter_mut().find(|(d, _)| *d == dc) {
                        Some((_, n)) if *n > 0 => {
                            *n -= 1;
                            true
                        }
                        _ => false,
                    }
                })
                .collect()
        }
        _ => candidates
            .iter()
            .copied()
            .take(block_for as usize)
            .collect(),
    }
}

/// Whether `live` replicas are enough for a read at `consistency`, without an error
/// (`ReplicaPlans.isSufficientLiveReplicasForRead`, used to merge scan ranges).
pub(super) fn sufficient_for_read(
    ring: &Ring,
    replication: &Replication,
    consistency: ConsistencyLevel,
    live: &[NodeIndex],
    local_dc: &str,
) -> bool {
    let block_for = consistency.block_for(replication, local_dc);
    assure_available(ring, replication, consistency, block_for, live, local_dc).is_ok()
        && !live.is_empty()
}

/// A count as the `u32` Cassandra's messages carry (a ring never holds more nodes).
fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ConsistencyLevel as CL;

    fn ids(ring: &Ring, nodes: &[NodeIndex]) -> Vec<String> {
        nodes.iter().map(|&i| ring.node(i).id.clone()).collect()
    }

    fn nts(pairs: &[(&str, u32)]) -> Replication {
        Replication::NetworkTopology {
            factors: pairs.iter().map(|&(dc, f)| (dc.to_string(), f)).collect(),
        }
    }

    fn simple(factor: u32) -> Replication {
        Replication::Simple { factor }
    }

    fn info(err: &Error) -> (String, u32, u32) {
        match err.info() {
            Some(ErrorInfo::Unavailable {
                consistency,
                required_replicas,
                alive_replicas,
            }) => (consistency.clone(), *required_replicas, *alive_replicas),
            other => panic!("no Unavailable info on {err:?}: {other:?}"),
        }
    }

    #[test]
    fn names_parse_and_display() {
        for level in CL::LEVELS {
            assert_eq!(level.to_string().parse::<CL>().unwrap(), level);
            assert_eq!(level.name().to_lowercase().parse::<CL>().unwrap(), level);
        }
        assert_eq!(" Local_Quorum ".parse::<CL>().unwrap(), CL::LocalQuorum);
        assert_eq!(CL::EachQuorum.to_string(), "EACH_QUORUM");
        assert_eq!(CL::default(), CL::One);
        assert_eq!(CL::LocalOne.code(), 0x000A);
        let err = "QUORUMS".parse::<CL>().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidRequest);
        assert!(err
            .message()
            .starts_with("Unknown consistency level 'QUORUMS'"));
    }

    #[test]
    fn block_for_every_level() {
        let s3 = simple(3);
        let n = nts(&[("dc1", 3), ("dc2", 2)]);
        let expect = [
            // level, SimpleStrategy 3, NTS dc1:3 dc2:2 seen from dc1, from dc2
            (CL::Any, 1, 1, 1),
            (CL::One, 1, 1, 1),
            (CL::Two, 2, 2, 2),
            (CL::Three, 3, 3, 3),
            (CL::Quorum, 2, 3, 3), // 5 / 2 + 1
            (CL::All, 3, 5, 5),
            (CL::LocalQuorum, 2, 2, 2), // dc1: 3/2+1; dc2: 2/2+1
            (CL::EachQuorum, 2, 4, 4),  // 2 + 2
            (CL::Serial, 2, 3, 3),
            (CL::LocalSerial, 2, 2, 2),
            (CL::LocalOne, 1, 1, 1),
            (CL::NodeLocal, 1, 1, 1),
        ];
        for (level, simple3, from_dc1, from_dc2) in expect {
            assert_eq!(level.block_for(&s3, "datacenter1"), simple3, "{level}");
            assert_eq!(level.block_for(&n, "dc1"), from_dc1, "{level}");
            assert_eq!(level.block_for(&n, "dc2"), from_dc2, "{level}");
        }
        // LOCAL_QUORUM from a data centre without a factor: 0 / 2 + 1.
        assert_eq!(CL::LocalQuorum.block_for(&n, "dc3"), 1);
        let n51 = nts(&[("dc1", 5), ("dc2", 1)]);
        assert_eq!(CL::LocalQuorum.block_for(&n51, "dc1"), 3);
        assert_eq!(CL::LocalQuorum.block_for(&n51, "dc2"), 1);
        assert_eq!(CL::EachQuorum.block_for(&n51, "dc1"), 4);
        assert_eq!(CL::Quorum.block_for(&Replication::Local, "x"), 1);
        assert_eq!(CL::All.block_for(&simple(1), "x"), 1);
        assert_eq!(CL::Quorum.block_for(&simple(4), "x"), 3);
    }

    #[test]
    fn reads_contact_the_first_block_for_live_replicas() {
        let ring = Ring::default();
        let r = simple(3);
        let plan = plan_read(&ring, &r, 0, CL::Quorum, NodeIndex(0)).unwrap();
        assert_eq!(ids(&ring, &plan.replicas), ["node3", "node4", "node1"]);
        assert_eq!(ids(&ring, &plan.contacts), ["node3", "node4"]);
        assert_eq!(plan.block_for, 2);
        let one = plan_read(&ring, &r, 0, CL::One, NodeIndex(0)).unwrap();
        assert_eq!(ids(&ring, &one.contacts), ["node3"]);
        let all = plan_read(&ring, &r, 0, CL::All, NodeIndex(0)).unwrap();
        assert_eq!(ids(&ring, &all.contacts), ["node3", "node4", "node1"]);
    }

    #[test]
    fn unavailable_with_nodes_down() {
        let mut ring = Ring::default();
        ring.set_down("node3").unwrap();
        ring.set_down("node4").unwrap();
        let r = simple(3);
        // ONE still works, from the replica left.
        let one = plan_read(&ring, &r, 0, CL::One, NodeIndex(0)).unwrap();
        assert_eq!(ids(&ring, &one.contacts), ["node1"]);
        let err = plan_read(&ring, &r, 0, CL::Quorum, NodeIndex(0)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Unavailable);
        assert_eq!(err.message(), "Cannot achieve consistency level QUORUM");
        assert_eq!(info(&err), ("QUORUM".into(), 2, 1));
        assert_eq!(
            err.cqlsh_text(),
            "Unavailable: Error from server: code=1000 [Unavailable exception] \
             message=\"Cannot achieve consistency level QUORUM\" \
             info={'consistency': 'QUORUM', 'required_replicas': 2, 'alive_replicas': 1}"
        );
        let err = plan_write(&ring, &r, 0, CL::All, NodeIndex(0)).unwrap_err();
        assert_eq!(err.message(), "Cannot achieve consistency level ALL");
        assert_eq!(info(&err), ("ALL".into(), 3, 1));
        let err = plan_read(&ring, &r, 0, CL::Three, NodeIndex(0)).unwrap_err();
        assert_eq!(info(&err), ("THREE".into(), 3, 1));
        // Only the token's own replicas count: node1 alone holds MIN at RF 1.
        assert!(plan_read(&ring, &simple(1), i64::MIN, CL::All, NodeIndex(0)).is_ok());
        assert!(plan_read(&ring, &simple(1), 0, CL::One, NodeIndex(0)).is_err());
    }

    #[test]
    fn over_replicated_keyspaces_fail_at_quorum_and_all() {
        let ring = Ring::with_nodes(2).unwrap();
        let r = simple(3);
        let plan = plan_read(&ring, &r, 0, CL::Quorum, NodeIndex(0)).unwrap();
        assert_eq!(plan.contacts.len(), 2);
        let err = plan_read(&ring, &r, 0, CL::All, NodeIndex(0)).unwrap_err();
        assert_eq!(info(&err), ("ALL".into(), 3, 2));
        let err = plan_read(&ring, &simple(5), 0, CL::Quorum, NodeIndex(0)).unwrap_err();
        assert_eq!(info(&err), ("QUORUM".into(), 3, 2));
        // Paxos counts the replicas that exist: a majority of 2 is 2.
        let paxos = plan_paxos(&ring, &simple(5), 0, CL::Serial, NodeIndex(0)).unwrap();
        assert_eq!(paxos.block_for, 2);
    }

    #[test]
    fn writes_go_to_every_live_replica() {
        let mut ring = Ring::default();
        let r = simple(3);
        let plan = plan_write(&ring, &r, 0, CL::One, NodeIndex(0)).unwrap();
        assert_eq!(ids(&ring, &plan.contacts), ["node3", "node4", "node1"]);
        ring.set_down("node4").unwrap();
        let plan = plan_write(&ring, &r, 0, CL::Quorum, NodeIndex(0)).unwrap();
        assert_eq!(ids(&ring, &plan.contacts), ["node3", "node1"]);
        // ANY survives every replica down: the coordinator keeps a hint.
        ring.set_down("node3").unwrap();
        ring.set_down("node1").unwrap();
        let plan = plan_write(&ring, &r, 0, CL::Any, NodeIndex(1)).unwrap();
        assert!(plan.contacts.is_empty());
        assert!(plan_write(&ring, &r, 0, CL::One, NodeIndex(1)).is_err());
    }

    #[test]
    fn levels_refused_for_reads_or_writes() {
        let ring = Ring::default();
        let r = simple(3);
        let err = plan_read(&ring, &r, 0, CL::Any, NodeIndex(0)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidRequest);
        assert_eq!(
            err.message(),
            "ANY ConsistencyLevel is only supported for writes"
        );
        let err = plan_write(&ring, &r, 0, CL::Serial, NodeIndex(0)).unwrap_err();
        assert_eq!(
            err.message(),
            "You must use conditional updates for serializable writes"
        );
        assert!(plan_paxos(&ring, &r, 0, CL::Quorum, NodeIndex(0)).is_err());
        assert_eq!(
            CL::Any
                .validate_for_counter_write("likes")
                .unwrap_err()
                .message(),
            "Consistency level ANY is not yet supported for counter table likes"
        );
        assert!(CL::LocalSerial.validate_for_counter_write("likes").is_err());
        assert!(CL::Quorum.validate_for_counter_write("likes").is_ok());
        assert_eq!(
            CL::EachQuorum
                .validate_for_cas_commit(&r)
                .unwrap_err()
                .message(),
            "consistency level EACH_QUORUM not compatible with replication strategy \
             (org.apache.cassandra.locator.SimpleStrategy)"
        );
        assert!(CL::Serial.validate_for_cas_commit(&r).is_err());
        assert!(CL::Any.validate_for_cas_commit(&r).is_ok());
    }

    #[test]
    fn local_levels_count_only_the_local_datacenter() {
        let mut ring = Ring::with_datacenters(&[("dc1", 3), ("dc2", 3)]).unwrap();
        let r = nts(&[("dc1", 3), ("dc2", 3)]);
        // node1..3 in dc1, node4..6 in dc2; every node is a replica.
        let plan = plan_read(&ring, &r, 0, CL::LocalQuorum, NodeIndex(0)).unwrap();
        assert_eq!(plan.block_for, 2);
        assert!(plan
            .contacts
            .iter()
            .all(|&c| ring.node(c).datacenter == "dc1"));
        assert_eq!(plan.contacts.len(), 2);
        // QUORUM (4 of 6) prefers the local data centre, then goes remote.
        let plan = plan_read(&ring, &r, 0, CL::Quorum, NodeIndex(0)).unwrap();
        let dcs: Vec<&str> = plan
            .contacts
            .iter()
            .map(|&c| ring.node(c).datacenter.as_str())
            .collect();
        assert_eq!(dcs, ["dc1", "dc1", "dc1", "dc2"]);
        // Seen from dc2 the same read prefers dc2.
        let plan = plan_read(&ring, &r, 0, CL::LocalOne, NodeIndex(3)).unwrap();
        assert_eq!(ring.node(plan.contacts[0]).datacenter, "dc2");

        ring.set_down("node2").unwrap();
        ring.set_down("node3").unwrap();
        let err = plan_read(&ring, &r, 0, CL::LocalQuorum, NodeIndex(0)).unwrap_err();
        assert_eq!(
            err.message(),
            "Cannot achieve consistency level LOCAL_QUORUM"
        );
        assert_eq!(info(&err), ("LOCAL_QUORUM".into(), 2, 1));
        // QUORUM can use dc2 instead.
        assert!(plan_read(&ring, &r, 0, CL::Quorum, NodeIndex(0)).is_ok());
        // From dc2, LOCAL_QUORUM is fine.
        assert!(plan_read(&ring, &r, 0, CL::LocalQuorum, NodeIndex(3)).is_ok());
        ring.set_down("node1").unwrap();
        let err = plan_read(&ring, &r, 0, CL::LocalOne, NodeIndex(0)).unwrap_err();
        assert_eq!(info(&err), ("LOCAL_ONE".into(), 1, 0));
        let err = plan_paxos(&ring, &r, 0, CL::LocalSerial, NodeIndex(0)).unwrap_err();
        assert_eq!(
            err.message(),
            "Cannot achieve consistency level LOCAL_SERIAL"
        );
        assert_eq!(info(&err), ("LOCAL_SERIAL".into(), 2, 0));
        // SERIAL needs a majority of all six participants.
        let err = plan_read(&ring, &r, 0, CL::Serial, NodeIndex(0)).unwrap_err();
        assert_eq!(info(&err), ("SERIAL".into(), 4, 3));
    }

    #[test]
    fn each_quorum_names_the_short_datacenter() {
        let mut ring = Ring::with_datacenters(&[("dc1", 3), ("dc2", 3)]).unwrap();
        let r = nts(&[("dc1", 3), ("dc2", 3)]);
        let plan = plan_read(&ring, &r, 0, CL::EachQuorum, NodeIndex(0)).unwrap();
        assert_eq!(plan.block_for, 4);
        let per_dc = |dc: &str| {
            plan.contacts
                .iter()
                .filter(|&&c| ring.node(c).datacenter == dc)
                .count()
        };
        assert_eq!((per_dc("dc1"), per_dc("dc2")), (2, 2));
        ring.set_down("node5").unwrap();
        ring.set_down("node6").unwrap();
        let err = plan_read(&ring, &r, 0, CL::EachQuorum, NodeIndex(0)).unwrap_err();
        assert_eq!(
            err.message(),
            "Cannot achieve consistency level EACH_QUORUM in DC dc2"
        );
        assert_eq!(info(&err), ("EACH_QUORUM".into(), 2, 1));
        let err = plan_write(&ring, &r, 0, CL::EachQuorum, NodeIndex(0)).unwrap_err();
        assert_eq!(info(&err), ("EACH_QUORUM".into(), 2, 1));
        // Under SimpleStrategy EACH_QUORUM is QUORUM.
        let plan = plan_read(&ring, &simple(6), 0, CL::EachQuorum, NodeIndex(0)).unwrap();
        assert_eq!(plan.block_for, 4);
    }

    #[test]
    fn node_local_prefers_the_coordinator() {
        let ring = Ring::default();
        let plan = plan_read(&ring, &simple(3), 0, CL::NodeLocal, NodeIndex(0)).unwrap();
        assert_eq!(ids(&ring, &plan.contacts), ["node1"]);
    }
}
