//! The simulated token ring: nodes, their data centres and racks, their tokens, and
//! whether they are up.
//!
//! Everything a coordinator decides starts from the ring: which node owns a token, which
//! nodes hold its replicas, which nodes a range scan visits. Cassandra's rule is that a
//! node owns the tokens from its predecessor's token (exclusive) to its own token
//! (inclusive), so the *primary* replica of a token `t` is the first node clockwise whose
//! token is `≥ t`, wrapping past the largest token back to the smallest
//! (`TokenMetadata.firstToken`). This module keeps that rule and nothing else; replica
//! placement lives in [`super::replication`], consistency in [`super::consistency`].
//!
//! Token layouts are generated the way `ccm` (the tool Cassandra's own distributed tests
//! use) generates them, so a simulated cluster matches a real test cluster token for
//! token: within each data centre the tokens are evenly spaced from the minimum token,
//! and the n-th data centre's tokens are shifted by `100 × n` so that data centres never
//! collide. The default four-node ring is exactly `ccm populate -n 4`. With several
//! tokens per node (vnodes), a data centre's `nodes × tokens` tokens are evenly spaced
//! and dealt to its nodes in turn, so every node's share is the same and the layout is
//! reproducible (a real cluster picks vnode tokens at random or with an allocator;
//! determinism matters more here than imitating randomness).
//!
//! Nothing here touches storage or time; every answer is a pure function of the ring.

use std::fmt;
use std::net::Ipv4Addr;

use crate::cluster::murmur3::MIN_TOKEN;
use crate::error::{Error, ErrorKind, Result};
use crate::schema::Replication;

/// The data centre of the default ring, as Cassandra's `SimpleSnitch` names it.
pub const DEFAULT_DATACENTER: &str = "datacenter1";

/// The rack of the default ring, as Cassandra's `SimpleSnitch` names it.
pub const DEFAULT_RACK: &str = "rack1";

/// Nodes in the default ring, and in a data centre added because a keyspace named it.
pub const DEFAULT_NODES: usize = 4;

/// How far apart consecutive data centres' token layouts are shifted, as `ccm` does
/// (`balanced_tokens_across_dcs`), so two data centres never pick the same token.
pub const DATACENTER_TOKEN_OFFSET: i64 = 100;

/// The most nodes a simulated ring holds. A guard against a mistyped `--nodes`, not a
/// Cassandra limit; it is generous for any cluster a person would model.
pub const MAX_NODES: usize = 4096;

/// The most tokens a simulated ring holds (nodes × tokens per node), for the same reason.
pub const MAX_TOKENS: usize = 1 << 16;

/// Where a node sits in its [`Ring`]: an index into [`Ring::nodes`].
///
/// Indices are stable: a ring only ever grows by appending nodes, so an index taken
/// before [`Ring::add_datacenter`] still names the same node afterwards. Plans carry
/// indices rather than names so they are cheap to copy and compare; [`Ring::node`]
/// gives the node itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeIndex(pub usize);

impl NodeIndex {
    /// The index as a plain number.
    pub fn get(self) -> usize {
        self.0
    }
}

/// One node of the simulated cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// Its name, `node1`, `node2`, … as `ccm` names them; what users type.
    pub id: String,
    /// Its address; the default ring uses 127.0.0.N for `nodeN`, as `ccm` does.
    pub address: Ipv4Addr,
    /// Its data centre.
    pub datacenter: String,
    /// Its rack within the data centre.
    pub rack: String,
    /// The tokens it owns the ranges ending at, in ascending order.
    pub tokens: Vec<i64>,
    /// Whether the failure detector sees it alive.
    pub up: bool,
}

impl Node {
    /// A live node.
    pub fn new(
        id: impl Into<String>,
        address: Ipv4Addr,
        datacenter: impl Into<String>,
        rack: impl Into<String>,
        tokens: Vec<i64>,
    ) -> Node {
        Node {
            id: id.into(),
            address,
            datacenter: datacenter.into(),
            rack: rack.into(),
            tokens,
            up: true,
        }
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id)
    }
}

/// A range of tokens `(start, end]` on the ring, with Cassandra's `Range<Token>`
/// semantics: the start is excluded and the end included, a range whose start is not
/// below its end wraps past the largest token, and `start == end` is the whole ring.
///
/// An end of [`MIN_TOKEN`] means "to the end of the ring": `(t, MIN]` holds every token
/// above `t` (and the minimum token itself, which no key has, since the partitioner
/// keeps it as a sentinel).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TokenRange {
    /// The excluded lower end.
    pub start: i64,
    /// The included upper end.
    pub end: i64,
}

impl TokenRange {
    /// The range `(start, end]`.
    pub fn new(start: i64, end: i64) -> TokenRange {
        TokenRange { start, end }
    }

    /// The whole ring, `(MIN, MIN]`, which is what an unrestricted scan reads.
    pub fn full() -> TokenRange {
        TokenRange::new(MIN_TOKEN, MIN_TOKEN)
    }

    /// Whether this is the whole ring.
    pub fn is_full(&self) -> bool {
        self.start == self.end
    }

    /// Whether the range wraps past the largest token (the whole ring does not count).
    pub fn wraps(&self) -> bool {
        self.start > self.end
    }

    /// Whether `token` lies in the range (`Range.contains` in Cassandra).
    pub fn contains(&self, token: i64) -> bool {
        if self.start < self.end {
            self.start < token && token <= self.end
        } else {
            token > self.start || token <= self.end
        }
    }

    /// The range a `token(pk)` restriction selects, or `None` when it selects nothing.
    ///
    /// This follows Cassandra's `StatementRestrictions.
    /// getPartitionKeyBoundsForTokenRestrictions`: a restriction never wraps, so a lower
    /// bound above the upper bound, or equal bounds with either one exclusive, select no
    /// token (CASSANDRA-5573); a bound equal to the minimum token means "unbounded" on
    /// that side, whatever its inclusiveness, so `token(k) > 5 AND token(k) <=
    /// -9223372036854775808` reads from 5 to the end of the ring, as in Cassandra.
    /// Bounds become token ranges by their keys: `>= a` is `(a - 1, …` and `< b` is
    /// `…, b - 1]`.
    pub fn from_bounds(
        lower: std::ops::Bound<i64>,
        upper: std::ops::Bound<i64>,
    ) -> Option<TokenRange> {
        use std::ops::Bound::{Excluded, Included, Unbounded};
        let (start, start_inclusive) = match lower {
            Unbounded => (MIN_TOKEN, true),
            Included(t) => (t, true),
            Excluded(t) => (t, false),
        };
        let (end, end_inclusive) = match upper {
            Unbounded => (MIN_TOKEN, true),
            Included(t) => (t, true),
            Excluded(t) => (t, false),
        };
        if start != MIN_TOKEN
            && end != MIN_TOKEN
            && (start > end || (start == end && (!start_inclusive || !end_inclusive)))
        {
            return None;
        }
        // A token range excludes its start: `>= a` starts just below a. The minimum token
        // has nothing below it and holds no key, so both forms start the ring there.
        let start = if start_inclusive && start != MIN_TOKEN {
            start - 1
        } else {
            start
        };
        if end == MIN_TOKEN {
            // To the end of the ring; empty only if nothing lies above the start.
            return (start != i64::MAX).then_some(TokenRange::new(start, MIN_TOKEN));
        }
        let end = if end_inclusive { end } else { end - 1 };
        // `< MIN + 1` leaves only the minimum token, which no key has; and a start at or
        // past the end (possible only after the adjustments above) holds nothing either.
        if end == MIN_TOKEN || start >= end {
            return None;
        }
        Some(TokenRange::new(start, end))
    }
}

impl fmt::Display for TokenRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {}]", self.start, self.end)
    }
}

/// The simulated cluster's nodes and token ring.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ring {
    nodes: Vec<Node>,
    /// Every token with its owner, ascending by token: the ring itself.
    tokens: Vec<(i64, NodeIndex)>,
    /// Data centres in the order their first node appears.
    datacenters: Vec<String>,
    /// Node count and racks of each data centre, parallel to `datacenters`: placement
    /// asks for them on every token, so they are kept rather than recounted.
    shapes: Vec<DatacenterShape>,
    /// Tokens given to each node of a data centre added later.
    tokens_per_node: usize,
}

impl Default for Ring {
    /// One data centre `datacenter1`, rack `rack1`, four nodes `node1`…`node4` at
    /// 127.0.0.1…127.0.0.4 with one token each: −9223372036854775808,
    /// −4611686018427387904, 0, 4611686018427387904 (`ccm populate -n 4`).
    fn default() -> Ring {
        // Four nodes with one token each is far inside every limit.
        Ring::with_nodes(DEFAULT_NODES)
            .unwrap_or_else(|_| unreachable!("the default ring is valid"))
    }
}

impl Ring {
    /// A ring of the given nodes, which may have any data centres, racks and tokens.
    ///
    /// Fails (`ConfigurationException`) when there are no nodes, a node has no token, two
    /// nodes share a name, address or token, or the ring exceeds [`MAX_NODES`] /
    /// [`MAX_TOKENS`]: Cassandra refuses a node that bootstraps with a token already
    /// taken, and a ring without tokens places nothing.
    pub fn new(nodes: Vec<Node>) -> Result<Ring> {
        if nodes.is_empty() {
            return Err(config("A ring needs at least one node"));
        }
        let tokens_per_node = nodes[0].tokens.len().max(1);
        let mut ring = Ring {
            nodes: Vec::new(),
            tokens: Vec::new(),
            datacenters: Vec::new(),
            shapes: Vec::new(),
            tokens_per_node,
        };
        ring.append(nodes)?;
        Ok(ring)
    }

    /// `nodes` nodes in `datacenter1`, rack `rack1`, one token each (`--nodes N`).
    pub fn with_nodes(nodes: usize) -> Result<Ring> {
        Ring::with_vnodes(&[(DEFAULT_DATACENTER, nodes)], 1)
    }

    /// Data centres with the given node counts, rack `rack1`, one token each
    /// (`--datacenters dc1:3,dc2:2`). Nodes are numbered across data centres in the
    /// order given (`dc1` gets `node1`…`node3`, `dc2` gets `node4`, `node5`).
    pub fn with_datacenters<S: AsRef<str>>(datacenters: &[(S, usize)]) -> Result<Ring> {
        Ring::with_vnodes(datacenters, 1)
    }

    /// Like [`Ring::with_datacenters`], with `tokens_per_node` tokens per node (vnodes,
    /// Cassandra's `num_tokens`). Each data centre's tokens are evenly spaced from the
    /// minimum token and dealt to its nodes in turn, shifted by
    /// [`DATACENTER_TOKEN_OFFSET`] per data centre.
    pub fn with_vnodes<S: AsRef<str>>(
        datacenters: &[(S, usize)],
        tokens_per_node: usize,
    ) -> Result<Ring> {
        if datacenters.is_empty() {
            return Err(config("A ring needs at least one data centre"));
        }
        if tokens_per_node == 0 {
            return Err(config("Each node needs at least one token"));
        }
        let mut ring = Ring {
            nodes: Vec::new(),
            tokens: Vec::new(),
            datacenters: Vec::new(),
            shapes: Vec::new(),
            tokens_per_node,
        };
        for (name, count) in datacenters {
            ring.add_datacenter(name.as_ref(), *count)?;
        }
        Ok(ring)
    }

    /// Adds data centre `name` with `nodes` nodes (rack `rack1`, the ring's tokens per
    /// node), numbered and addressed after the existing nodes, and returns their indices.
    ///
    /// widerow calls this when a keyspace names a data centre the ring lacks (see
    /// [`Ring::ensure_datacenters`]), so a production schema pastes in unchanged.
    pub fn add_datacenter(&mut self, name: &str, nodes: usize) -> Result<Vec<NodeIndex>> {
        if name.is_empty() {
            return Err(config("A data centre needs a name"));
        }
        if self.datacenters.iter().any(|dc| dc == name) {
            return Err(config(format!("Data centre '{name}' already exists")));
        }
        if nodes == 0 {
            return Err(config(format!(
                "Data centre '{name}' needs at least one node"
            )));
        }
        if self.nodes.len().saturating_add(nodes) > MAX_NODES {
            return Err(config(format!(
                "A simulated ring holds at most {MAX_NODES} nodes"
            )));
        }
        let total = nodes.saturating_mul(self.tokens_per_node);
        if self.tokens.len().saturating_add(total) > MAX_TOKENS {
            return Err(config(format!(
                "A simulated ring holds at most {MAX_TOKENS} tokens"
            )));
        }
        // ccm shifts the n-th data centre (counting from 0) by 100 × n.
        let offset = DATACENTER_TOKEN_OFFSET.saturating_mul(self.datacenters.len() as i64);
        let layout = balanced_tokens(total, offset);
        let mut per_node = vec![Vec::with_capacity(self.tokens_per_node); nodes];
        for (i, token) in layout.into_iter().enumerate() {
            per_node[i % nodes].push(self.free_token(token));
        }
        let first = self.nodes.len();
        let new_nodes = per_node
            .into_iter()
            .enumerate()
            .map(|(i, tokens)| {
                let number = first + i + 1;
                Node::new(
                    format!("node{number}"),
                    loopback_address(number),
                    name,
                    DEFAULT_RACK,
                    tokens,
                )
            })
            .collect();
        self.append(new_nodes)?;
        Ok((first..self.nodes.len()).map(NodeIndex).collect())
    }

    /// Adds, with [`DEFAULT_NODES`] nodes each, every data centre `replication` names
    /// (with a factor above zero) that the ring lacks, and returns their names in the
    /// keyspace's order, for the caller's warning. Other strategies name no data centre.
    pub fn ensure_datacenters(&mut self, replication: &Replication) -> Result<Vec<String>> {
        let Replication::NetworkTopology { factors } = replication else {
            return Ok(Vec::new());
        };
        let mut added = Vec::new();
        for (dc, &factor) in factors {
            if factor > 0 && !self.has_datacenter(dc) {
                self.add_datacenter(dc, DEFAULT_NODES)?;
                added.push(dc.clone());
            }
        }
        Ok(added)
    }

    /// Every node, in index order (`node1`, `node2`, … for generated rings).
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The node at `index`.
    ///
    /// # Panics
    /// If `index` did not come from this ring (indices are never removed, so any index
    /// this ring handed out is valid).
    pub fn node(&self, index: NodeIndex) -> &Node {
        &self.nodes[index.0]
    }

    /// How many nodes the ring has.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the ring has no nodes (never true: [`Ring::new`] refuses that).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Every node's index, in index order.
    pub fn indices(&self) -> impl Iterator<Item = NodeIndex> + '_ {
        (0..self.nodes.len()).map(NodeIndex)
    }

    /// The node a user names, by id (`node2`, case-insensitive) or address
    /// (`127.0.0.2`).
    pub fn find(&self, name: &str) -> Option<NodeIndex> {
        let name = name.trim();
        self.nodes
            .iter()
            .position(|n| n.id.eq_ignore_ascii_case(name) || n.address.to_string() == name)
            .map(NodeIndex)
    }

    /// Like [`Ring::find`], failing with an `InvalidRequest` that lists the nodes.
    pub fn lookup(&self, name: &str) -> Result<NodeIndex> {
        self.find(name).ok_or_else(|| {
            let known: Vec<&str> = self.nodes.iter().map(|n| n.id.as_str()).collect();
            Error::invalid(format!(
                "Unknown node '{}': the ring has {}",
                name.trim(),
                known.join(", ")
            ))
        })
    }

    /// Marks the named node down, so consistency levels can no longer count on it.
    pub fn set_down(&mut self, name: &str) -> Result<NodeIndex> {
        let index = self.lookup(name)?;
        self.nodes[index.0].up = false;
        Ok(index)
    }

    /// Marks the named node up again.
    pub fn set_up(&mut self, name: &str) -> Result<NodeIndex> {
        let index = self.lookup(name)?;
        self.nodes[index.0].up = true;
        Ok(index)
    }

    /// Whether the node is up.
    pub fn is_up(&self, index: NodeIndex) -> bool {
        self.node(index).up
    }

    /// Data centre names, in the order their first node appears.
    pub fn datacenters(&self) -> &[String] {
        &self.datacenters
    }

    /// Whether the ring has a node in data centre `name` (names are case-sensitive, as
    /// in Cassandra).
    pub fn has_datacenter(&self, name: &str) -> bool {
        self.datacenters.iter().any(|dc| dc == name)
    }

    /// The nodes of data centre `name`, in index order.
    pub fn datacenter_nodes(&self, name: &str) -> Vec<NodeIndex> {
        self.indices()
            .filter(|&i| self.node(i).datacenter == name)
            .collect()
    }

    /// How many nodes data centre `name` has (0 if the ring lacks it).
    pub fn datacenter_size(&self, name: &str) -> usize {
        self.shape(name).map_or(0, |s| s.nodes)
    }

    /// The distinct racks of data centre `name`, in the order they first appear.
    pub fn racks(&self, datacenter: &str) -> &[String] {
        self.shape(datacenter).map_or(&[], |s| &s.racks)
    }

    fn shape(&self, datacenter: &str) -> Option<&DatacenterShape> {
        let at = self.datacenters.iter().position(|dc| dc == datacenter)?;
        self.shapes.get(at)
    }

    /// Tokens given to each node of a data centre added later.
    pub fn tokens_per_node(&self) -> usize {
        self.tokens_per_node
    }

    /// Every token and its owner, ascending by token.
    pub fn tokens(&self) -> &[(i64, NodeIndex)] {
        &self.tokens
    }

    /// The position in [`Ring::tokens`] of the first token `≥ token`, wrapping to 0 past
    /// the largest (`TokenMetadata.firstTokenIndex`): where a clockwise walk for `token`
    /// starts.
    pub fn first_token_index(&self, token: i64) -> usize {
        let i = self.tokens.partition_point(|&(t, _)| t < token);
        if i == self.tokens.len() {
            0
        } else {
            i
        }
    }

    /// The token whose range holds `token`: the first ring token `≥ token`, wrapping.
    pub fn owning_token(&self, token: i64) -> i64 {
        self.tokens[self.first_token_index(token)].0
    }

    /// The primary replica of `token`: the node owning (previous token, its token].
    pub fn primary(&self, token: i64) -> NodeIndex {
        self.tokens[self.first_token_index(token)].1
    }

    /// The ring's tokens and owners in clockwise order starting at the range that holds
    /// `token`, once around: the walk every placement strategy makes
    /// (`TokenMetadata.ringIterator`).
    pub fn walk(&self, token: i64) -> impl Iterator<Item = (i64, NodeIndex)> + '_ {
        let start = self.first_token_index(token);
        self.tokens[start..]
            .iter()
            .chain(&self.tokens[..start])
            .copied()
    }

    /// The ranges `node` is the primary replica of, one per token, in token order:
    /// `(predecessor token, token]` (the first token's range wraps from the last).
    pub fn primary_ranges(&self, node: NodeIndex) -> Vec<TokenRange> {
        let n = self.tokens.len();
        (0..n)
            .filter(|&i| self.tokens[i].1 == node)
            .map(|i| TokenRange::new(self.tokens[(i + n - 1) % n].0, self.tokens[i].0))
            .collect()
    }

    /// The pieces a coordinator splits `range` into to scan it, in the order it scans
    /// them: cut at every ring token inside the range and at the minimum token, so no
    /// piece wraps (`StorageProxy.getRestrictedRanges` / `ReplicaPlanIterator`). Each
    /// piece lies within one node's primary range, the one of the token its end falls in.
    ///
    /// For the whole default ring this is `(MIN, -4611686018427387904]`,
    /// `(-4611686018427387904, 0]`, `(0, 4611686018427387904]`,
    /// `(4611686018427387904, MIN]`: a full scan reaches node2, node3, node4, then node1,
    /// whose token is the minimum and so owns the tail of the ring. (Cassandra's key-bound
    /// arithmetic can also cut off a piece holding only the minimum token, which no key
    /// has; widerow never plans such a piece.)
    pub fn split_range(&self, range: TokenRange) -> Vec<TokenRange> {
        // Cut points: the ring's tokens plus the minimum token, ascending and distinct.
        let mut cuts: Vec<i64> = Vec::with_capacity(self.tokens.len() + 1);
        if self.tokens.first().map(|&(t, _)| t) != Some(MIN_TOKEN) {
            cuts.push(MIN_TOKEN);
        }
        cuts.extend(self.tokens.iter().map(|&(t, _)| t));
        // Walk the cuts clockwise from the first one strictly after the start.
        let first = cuts.partition_point(|&t| t <= range.start);
        let mut pieces = Vec::new();
        let mut start = range.start;
        for &cut in cuts[first..].iter().chain(&cuts[..first]) {
            if cut == range.end || cut == range.start || !range.contains(cut) {
                break;
            }
            pieces.push(TokenRange::new(start, cut));
            start = cut;
        }
        pieces.push(TokenRange::new(start, range.end));
        // A piece starting at the largest token and ending at the minimum holds only the
        // minimum token, which no key has.
        pieces.retain(|p| !(p.start == i64::MAX && p.end == MIN_TOKEN));
        pieces
    }

    /// The primary owners of the pieces of `range` (see [`Ring::split_range`]), each
    /// once, in the order a scan reaches them.
    pub fn range_owners(&self, range: TokenRange) -> Vec<NodeIndex> {
        let mut owners = Vec::new();
        for piece in self.split_range(range) {
            let owner = self.primary(piece.end);
            if !owners.contains(&owner) {
                owners.push(owner);
            }
        }
        owners
    }

    /// Appends nodes, checking names, addresses and tokens against the ring's.
    fn append(&mut self, nodes: Vec<Node>) -> Result<()> {
        if self.nodes.len().saturating_add(nodes.len()) > MAX_NODES {
            return Err(config(format!(
                "A simulated ring holds at most {MAX_NODES} nodes"
            )));
        }
        let mut tokens = self.tokens.clone();
        let mut all: Vec<&Node> = self.nodes.iter().collect();
        for (offset, node) in nodes.iter().enumerate() {
            if node.id.is_empty() {
                return Err(config("A node needs a name"));
            }
            if node.datacenter.is_empty() || node.rack.is_empty() {
                return Err(config(format!(
                    "Node '{}' needs a data centre and a rack",
                    node.id
                )));
            }
            if node.tokens.is_empty() {
                return Err(config(format!("Node '{}' has no token", node.id)));
            }
            if let Some(other) = all
                .iter()
                .find(|n| n.id.eq_ignore_ascii_case(&node.id) || n.address == node.address)
            {
                return Err(config(format!(
                    "Nodes '{}' and '{}' share a name or an address",
                    other.id, node.id
                )));
            }
            all.push(node);
            let index = NodeIndex(self.nodes.len() + offset);
            tokens.extend(node.tokens.iter().map(|&t| (t, index)));
            if tokens.len() > MAX_TOKENS {
                return Err(config(format!(
                    "A simulated ring holds at most {MAX_TOKENS} tokens"
                )));
            }
        }
        tokens.sort_unstable();
        if let Some(pair) = tokens.windows(2).find(|w| w[0].0 == w[1].0) {
            let (a, b) = (pair[0].1, pair[1].1);
            let name = |i: NodeIndex| {
                self.nodes
                    .get(i.0)
                    .or_else(|| nodes.get(i.0 - self.nodes.len()))
                    .map_or("?", |n| n.id.as_str())
            };
            return Err(config(format!(
                "Nodes '{}' and '{}' both claim token {}",
                name(a),
                name(b),
                pair[0].0
            )));
        }
        for mut node in nodes {
            node.tokens.sort_unstable();
            let at = match self
                .datacenters
                .iter()
                .position(|dc| *dc == node.datacenter)
            {
                Some(at) => at,
                None => {
                    self.datacenters.push(node.datacenter.clone());
                    self.shapes.push(DatacenterShape::default());
                    self.datacenters.len() - 1
                }
            };
            let shape = &mut self.shapes[at];
            shape.nodes += 1;
            if !shape.racks.contains(&node.rack) {
                shape.racks.push(node.rack.clone());
            }
            self.nodes.push(node);
        }
        self.tokens = tokens;
        Ok(())
    }

    /// `token`, or the next token clockwise that no node holds yet: a later data
    /// centre's generated layout may meet a hand-built ring's token, and moving by one
    /// keeps the layout deterministic and still balanced.
    fn free_token(&self, mut token: i64) -> i64 {
        while self
            .tokens
            .binary_search_by(|&(t, _)| t.cmp(&token))
            .is_ok()
        {
            token = token.wrapping_add(1);
        }
        token
    }
}

/// What placement needs to know of a data centre.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct DatacenterShape {
    nodes: usize,
    racks: Vec<String>,
}

/// `count` tokens evenly spaced round the ring from the minimum token, shifted by
/// `offset`: token `i` is `i × ⌊2⁶⁴ / count⌋ − 2⁶³ + offset`, as `ccm`'s
/// `balanced_tokens` computes it (floor division first, so a non-power-of-two count
/// leaves its remainder at the top of the ring, exactly as there).
pub fn balanced_tokens(count: usize, offset: i64) -> Vec<i64> {
    if count == 0 {
        return Vec::new();
    }
    let step = (1i128 << 64) / count as i128;
    (0..count)
        .map(|i| {
            let t = i as i128 * step + i64::MIN as i128 + offset as i128;
            // Wrap rather than overflow, should an offset push the last token past the top.
            t as i64
        })
        .collect()
}

/// `nodeN`'s address: 127.0.0.N for N < 256, as `ccm` numbers nodes; larger simulated
/// rings continue into the rest of 127.0.0.0/8.
fn loopback_address(number: usize) -> Ipv4Addr {
    let n = number as u32;
    Ipv4Addr::new(127, (n >> 16) as u8, (n >> 8) as u8, n as u8)
}

fn config(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::ConfigurationException, message)
}

#[cfg(test)]
mod tests;
