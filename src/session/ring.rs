//! `CLUSTER NODES`: the simulated ring rebuilt with other node counts, the
//! same for the shell, the web page and `widerow serve` (each says it in its
//! own words: the shell prints notes, the server announces the nodes that
//! came and went to its drivers).
//!
//! A rebuild is planned first and adopted after, so a server can listen on
//! the new nodes' addresses in between and refuse the rebuild, changing
//! nothing, when it cannot.

use crate::cluster::replication::replication_warnings;
use crate::cluster::{Coordinator, NodeIndex, Ring};
use crate::error::{Error, ErrorKind};
use crate::schema::Replication;

use super::Session;

/// A ring a `CLUSTER NODES` argument asks for, checked against the
/// keyspaces and not yet in use.
#[derive(Debug, Clone)]
pub struct PlannedRing {
    /// The new ring: tokens evenly spaced, every node up.
    pub ring: Ring,
    /// The node count per data centre it was built from.
    pub layout: Vec<(String, usize)>,
}

/// What adopting a [`PlannedRing`] changed, for the caller to tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RingRebuilt {
    /// The old ring's node count.
    pub old_nodes: usize,
    /// The new ring's.
    pub new_nodes: usize,
    /// The node count per data centre.
    pub layout: Vec<(String, usize)>,
    /// Some node of the old ring was down (all are up now).
    pub revived: bool,
    /// The coordinator's node left the ring: requests now arrive on this
    /// node (node1).
    pub coordinator_moved_to: Option<String>,
    /// Cassandra's warnings for keyspaces whose factor the new ring cannot
    /// meet.
    pub warnings: Vec<String>,
}

impl Session {
    /// The ring `spec` asks for (`4`, or `dc1:3,dc2:2`), with the ring's
    /// tokens per node; refused when a keyspace would lose a data centre it
    /// places replicas in. Nothing changes until [`Session::adopt_ring`].
    pub fn plan_ring(&self, spec: &str) -> Result<PlannedRing, Error> {
        let old = &self.context().ring;
        let layout = parse_layout(old, spec)?;
        let ring =
            Ring::with_vnodes(&layout, old.tokens_per_node()).map_err(|e| refusal(e.message()))?;
        self.keeps_datacenters(&ring)?;
        Ok(PlannedRing { ring, layout })
    }

    /// Puts `planned` in place of the ring. The data stays; replicas are
    /// placed anew.
    pub fn adopt_ring(&mut self, planned: PlannedRing) -> RingRebuilt {
        let PlannedRing { ring, layout } = planned;
        let ctx = self.context_mut();
        let mut rebuilt = RingRebuilt {
            old_nodes: ctx.ring.len(),
            new_nodes: ring.len(),
            layout,
            revived: ctx.ring.nodes().iter().any(|n| !n.up),
            coordinator_moved_to: None,
            warnings: Vec::new(),
        };
        if let Coordinator::Node(NodeIndex(i)) = ctx.coordinator {
            if i >= ring.len() {
                ctx.coordinator = Coordinator::Node(NodeIndex(0));
                rebuilt.coordinator_moved_to = Some(ring.node(NodeIndex(0)).id.clone());
            }
        }
        for keyspace in ctx.catalog.keyspaces() {
            rebuilt.warnings.extend(replication_warnings(
                &ring,
                &keyspace.name,
                &keyspace.replication,
            ));
        }
        ctx.catalog.settings_mut().datacenters = ring.datacenters().to_vec();
        ctx.ring = ring;
        rebuilt
    }

    /// Refuses a ring that lacks a data centre some keyspace replicates to.
    fn keeps_datacenters(&self, new: &Ring) -> Result<(), Error> {
        for keyspace in self.context().catalog.keyspaces() {
            let Replication::NetworkTopology { factors } = &keyspace.replication else {
                continue;
            };
            let missing = factors
                .iter()
                .find(|(dc, f)| **f > 0 && !new.has_datacenter(dc));
            if let Some((dc, _)) = missing {
                return Err(refusal(format!(
                    "Keyspace {} places replicas in {dc}, which that ring lacks: keep {dc} in CLUSTER NODES",
                    keyspace.name
                )));
            }
        }
        Ok(())
    }
}

/// The node count per data centre a `CLUSTER NODES` argument asks for; a
/// bare count applies to the ring's only data centre.
fn parse_layout(ring: &Ring, spec: &str) -> Result<Vec<(String, usize)>, Error> {
    let count = |text: &str| {
        text.trim()
            .parse::<usize>()
            .map_err(|_| refusal(format!("CLUSTER NODES: '{text}' is not a node count")))
    };
    if !spec.contains(':') {
        let n = count(spec)?;
        return match ring.datacenters() {
            [dc] => Ok(vec![(dc.clone(), n)]),
            many => Err(refusal(format!(
                "The ring has data centres {}: give each a count, e.g. CLUSTER NODES {}",
                many.join(", "),
                many.iter()
                    .map(|dc| format!("{dc}:{n}"))
                    .collect::<Vec<_>>()
                    .join(",")
            ))),
        };
    }
    spec.split(',')
        .map(|part| {
            let (dc, n) = part.split_once(':').ok_or_else(|| {
                refusal(format!("CLUSTER NODES: expected DC:COUNT, got '{part}'"))
            })?;
            Ok((dc.trim().to_string(), count(n)?))
        })
        .collect()
}

/// A rebuild's errors: the configuration asked for cannot be.
fn refusal(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::ConfigurationException, message)
}
