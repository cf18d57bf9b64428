//! The simulated cluster: partitioner, token ring, replica placement, consistency.
//!
//! Cassandra places every partition on a ring of 64-bit tokens and routes each query by
//! them. [`murmur3`] computes a partition key's token exactly as Cassandra's
//! `Murmur3Partitioner` does; [`ring`] holds the nodes and their tokens; [`replication`]
//! places a token's replicas as `SimpleStrategy` and `NetworkTopologyStrategy` do;
//! [`consistency`] says how many replicas a level needs, which ones a coordinator asks
//! and when it is `Unavailable`; [`coordinator`] picks the coordinating node; [`range`]
//! plans range scans. All of it is pure and deterministic, so the planner can use it
//! without storage.

pub mod consistency;
pub mod coordinator;
pub mod murmur3;
pub mod range;
pub mod replication;
pub mod ring;
pub mod statement;

pub use consistency::ConsistencyLevel;
pub use coordinator::Coordinator;
pub use ring::{Node, NodeIndex, Ring};
