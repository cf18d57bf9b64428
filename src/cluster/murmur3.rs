//! Partition tokens exactly as Cassandra's `Murmur3Partitioner` computes them.
//!
//! Cassandra places every partition on a ring by a 64-bit signed *token*. Anything a user
//! can observe about partition order depends on it: `SELECT token(k) …`, the order of an
//! unrestricted `SELECT * FROM t`, `WHERE token(k) > …` range scans and paging. To
//! reproduce those results byte for byte, widerow must compute the very same token, so
//! this module follows Cassandra's Java code rather than the canonical MurmurHash3.
//!
//! Three details make Cassandra's token differ from "MurmurHash3 of the key":
//!
//! 1. **Sign-extended tail bytes.** Cassandra's `MurmurHash.hash3_x64_128` reads the last
//!    `len % 16` bytes as signed Java `byte`s and widens them to `long` before shifting,
//!    so a byte ≥ 0x80 smears 1-bits over every higher bit of the 64-bit word. Canonical
//!    implementations mask the byte to 8 bits. The two agree only when every tail byte is
//!    < 0x80, which is why ASCII test strings agree and `'é'`, negative ints or most blobs
//!    do not.
//! 2. **Reserved minimum.** `i64::MIN` is the partitioner's minimum token, which stands
//!    for "before every key" in range bounds. The empty key maps to it; a real key whose
//!    hash happens to be `i64::MIN` is moved to `i64::MAX` so it never collides with the
//!    sentinel.
//! 3. **Composite keys.** A partition key with several columns is hashed in its
//!    `CompositeType` form (length-prefixed, end-of-component byte), not as the plain
//!    concatenation of the values.
//!
//! Building a key from column values ([`compose_partition_key`], [`token_of`],
//! [`DecoratedKey::from_components`]) can fail, with Cassandra's `InvalidRequest` for a key
//! longer than [`MAX_KEY_LEN`]; hashing bytes that are already a key cannot.

use std::cmp::Ordering;

use crate::error::{Error, Result};

/// The partitioner's minimum token. It is what `token()` yields for an empty key, and
/// Cassandra uses it as the "start of ring" bound, so no non-empty key is ever given it.
pub const MIN_TOKEN: i64 = i64::MIN;

/// The largest token. Besides being the top of the ring, it is where a key whose hash is
/// exactly [`MIN_TOKEN`] ends up, keeping the minimum free for its sentinel role.
pub const MAX_TOKEN: i64 = i64::MAX;

/// The longest serialized partition key Cassandra accepts, in bytes (`FBUtilities.
/// MAX_UNSIGNED_SHORT`): keys are written with a two-byte length, and so is each
/// component of a composite key, so a longer component cannot be represented at all.
/// Cassandra checks the whole key (`cql3.Validation.validateKey`) whenever a statement
/// reads or writes a partition, and refuses it with `InvalidRequest` "Key length of N is
/// longer than maximum of 65535", N being the length of the whole (composed) key;
/// [`compose_partition_key`] applies the same rule.
pub const MAX_KEY_LEN: usize = u16::MAX as usize;

// Multiplication constants of MurmurHash3 x64_128. They are odd (so multiplying by them
// is a bijection on 64-bit words) and were chosen by the algorithm's author for good
// avalanche behaviour; they must not be "tidied" into anything else.
const C1: u64 = 0x87c3_7b91_1142_53d5;
const C2: u64 = 0x4cf5_ad43_2745_937f;

/// Cassandra's MurmurHash3 x64_128 with seed 0, returning both 64-bit words `[h1, h2]`.
///
/// The partitioner only needs `h1`; the pair is returned because both words come out of
/// the same finalisation, so a caller that needs 128 bits (or a test comparing against
/// another implementation) gets them without a second pass. Unlike canonical
/// MurmurHash3, tail bytes are sign-extended (see the module documentation); block bytes
/// are not.
pub fn cassandra_hash3_x64_128(key: &[u8]) -> [u64; 2] {
    let mut h1: u64 = 0;
    let mut h2: u64 = 0;

    // Body: whole 16-byte blocks, each split into two little-endian *unsigned* words.
    // Java assembles these from `byte & 0xff`, so no sign extension happens here.
    let mut blocks = key.chunks_exact(16);
    for block in &mut blocks {
        let (lo, hi) = block.split_at(8);
        let k1 = le_word(lo);
        let k2 = le_word(hi);

        h1 ^= mix_k1(k1);
        h1 = h1.rotate_left(27).wrapping_add(h2);
        h1 = h1.wrapping_mul(5).wrapping_add(0x52dc_e729);

        h2 ^= mix_k2(k2);
        h2 = h2.rotate_left(31).wrapping_add(h1);
        h2 = h2.wrapping_mul(5).wrapping_add(0x3849_5ab5);
    }

    // Tail: the last `len % 16` bytes. Bytes 0..8 feed k1 and 8..15 feed k2, each at its
    // little-endian position. The `as i8 as i64 as u64` chain is the whole Cassandra quirk:
    // 0xe9 becomes 0xffff_ffff_ffff_ffe9 before the shift instead of 0x0000_0000_0000_00e9,
    // so it also flips every bit above its own byte. XOR is order-independent, so the
    // bytes may be folded in ascending order even though Java's switch runs downwards.
    let tail = blocks.remainder();
    let mut k1: u64 = 0;
    let mut k2: u64 = 0;
    for (i, &byte) in tail.iter().enumerate() {
        let widened = byte as i8 as i64 as u64;
        if i < 8 {
            k1 ^= widened << (8 * i);
        } else {
            k2 ^= widened << (8 * (i - 8));
        }
    }
    // The guards mirror Java's fall-through switch (k2 is mixed only for tails longer
    // than 8 bytes). They are not load-bearing: mixing a zero word yields zero and
    // xoring zero changes nothing. What does matter is that a tail of zero *bytes*
    // (e.g. key `00`) still differs from no tail, which the length xor below ensures.
    if tail.len() > 8 {
        h2 ^= mix_k2(k2);
    }
    if !tail.is_empty() {
        h1 ^= mix_k1(k1);
    }

    // Finalisation. Java xors in the length as an `int` widened to `long`; lengths are
    // never negative, so a plain `as u64` is the same value.
    let len = key.len() as u64;
    h1 ^= len;
    h2 ^= len;
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    [h1, h2]
}

/// Reads a body word: up to eight bytes, little-endian, each byte *unsigned* (Java's
/// `getBlock` masks with `0xff`). The body always passes exactly eight.
fn le_word(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .rev()
        .fold(0, |word, &byte| (word << 8) | u64::from(byte))
}

/// Scrambles a low word before it is folded into `h1` (body and tail share it).
fn mix_k1(k1: u64) -> u64 {
    k1.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2)
}

/// Scrambles a high word before it is folded into `h2`; note the constants are swapped
/// and the rotation differs from [`mix_k1`], so the two halves do not mirror each other.
fn mix_k2(k2: u64) -> u64 {
    k2.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1)
}

/// MurmurHash3's 64-bit finaliser: forces every input bit to affect every output bit.
/// The shifts are logical (`>>>` in Java), which is what `>>` does on `u64`.
fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^= k >> 33;
    k
}

/// The Murmur3Partitioner token of an already serialized partition key.
///
/// This is what `token(...)` returns and what orders partitions on the ring, so it must
/// agree with Cassandra bit for bit. Two cases bypass the hash: the empty key, which
/// Cassandra maps to [`MIN_TOKEN`] before hashing (writes reject empty keys, but
/// `token('')` in a WHERE clause still evaluates), and a hash equal to [`MIN_TOKEN`],
/// which is moved to [`MAX_TOKEN`] so the minimum stays a pure sentinel.
///
/// For several partition-key columns, pass the output of [`compose_partition_key`], or
/// use [`token_of`].
pub fn murmur3_token(key: &[u8]) -> i64 {
    if key.is_empty() {
        return MIN_TOKEN;
    }
    let h1 = cassandra_hash3_x64_128(key)[0] as i64;
    if h1 == MIN_TOKEN {
        MAX_TOKEN
    } else {
        h1
    }
}

/// Builds the byte string Cassandra hashes for a partition key from its column values.
///
/// A single-column key is hashed as the bare value, so it is returned unchanged; wrapping
/// it would change every token. With two or more columns Cassandra hashes the
/// `CompositeType` encoding, in which each component is `[u16 BE length][bytes][0x00]`.
/// The length prefix is what keeps `('ab', 'c')` and `('a', 'bc')` apart, and the
/// trailing `0x00` is the end-of-component marker that CompositeType also uses for slice
/// bounds (it is always `0x00` in a stored key). Components must be given in the
/// partition key's declaration order; `token(a, b)` always covers all of them.
///
/// Empty keys are not refused here: `token('')` is legal and yields [`MIN_TOKEN`], so
/// Cassandra's "Key may not be empty" belongs to the statements that read or write a
/// partition.
///
/// # Errors
///
/// `InvalidRequest` "Key length of N is longer than maximum of 65535" when the key would
/// be longer than [`MAX_KEY_LEN`] bytes, N being its length. This is the check Cassandra
/// makes on every key a statement reads or writes, with its message and its N (for a
/// composite key Cassandra composes first, so N counts the length prefixes and
/// end-of-component bytes). It covers every component longer than 65535 bytes, which the
/// two-byte length could not express: hashing a truncated length would give a wrong
/// token. widerow applies the rule wherever a key is composed, `token(…)` included;
/// since Cassandra checks the keys that statements read or write, the two can only
/// differ for `token()` over an oversized value.
pub fn compose_partition_key(components: &[&[u8]]) -> Result<Vec<u8>> {
    let len = match components {
        [single] => single.len(),
        _ => components.iter().fold(0usize, |total, c| {
            total.saturating_add(c.len().saturating_add(3))
        }),
    };
    check_key_len(len)?;
    if let [single] = components {
        return Ok(single.to_vec());
    }
    let mut out = Vec::with_capacity(len);
    for component in components {
        // Cannot truncate: the whole key, and so each component, is within u16 range.
        let component_len = component.len() as u16;
        out.extend_from_slice(&component_len.to_be_bytes());
        out.extend_from_slice(component);
        out.push(0x00);
    }
    Ok(out)
}

/// Cassandra's refusal of a composed partition key `len` bytes long (see
/// [`compose_partition_key`]), for callers that compose keys themselves.
pub fn check_key_len(len: usize) -> Result<()> {
    if len > MAX_KEY_LEN {
        return Err(Error::invalid(format!(
            "Key length of {len} is longer than maximum of {MAX_KEY_LEN}"
        )));
    }
    Ok(())
}

/// The token of a partition key given as its serialized column values, in declaration
/// order. This is the common path (`token(a, b)`, placing a new row), so callers do not
/// have to remember that single and composite keys are encoded differently.
///
/// # Errors
///
/// As [`compose_partition_key`].
pub fn token_of(components: &[&[u8]]) -> Result<i64> {
    compose_partition_key(components).map(|key| murmur3_token(&key))
}

/// A serialized partition key paired with its token, ordered the way Cassandra orders
/// partitions on the ring.
///
/// Ring order is by token first and, for the rare keys that share a token, by the
/// serialized key compared as unsigned bytes (Cassandra's `DecoratedKey.compareTo`).
/// Keeping the key bytes in the ordering, rather than the token alone, makes the order
/// total, so colliding keys remain distinct entries in a `BTreeMap` and scan in a
/// deterministic order. The fields are private so the token can never disagree with the
/// key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DecoratedKey {
    token: i64,
    key: Vec<u8>,
}

impl DecoratedKey {
    /// Decorates an already serialized (and, for several columns, composed) key.
    pub fn new(key: Vec<u8>) -> Self {
        DecoratedKey {
            token: murmur3_token(&key),
            key,
        }
    }

    /// Decorates a key given as its serialized column values, composing them first so a
    /// multi-column key cannot accidentally be hashed as a bare concatenation.
    ///
    /// # Errors
    ///
    /// As [`compose_partition_key`].
    pub fn from_components(components: &[&[u8]]) -> Result<Self> {
        compose_partition_key(components).map(Self::new)
    }

    /// The ring position, exposed because `token()` results and token range restrictions
    /// are evaluated against it.
    pub fn token(&self) -> i64 {
        self.token
    }

    /// The serialized key bytes, needed to split a composite key back into columns.
    pub fn key(&self) -> &[u8] {
        &self.key
    }
}

impl Ord for DecoratedKey {
    fn cmp(&self, other: &Self) -> Ordering {
        // Signed token order first: the ring runs from i64::MIN up to i64::MAX.
        // Slice comparison of `[u8]` is unsigned and treats a proper prefix as smaller,
        // which is exactly Cassandra's `ByteBufferUtil.compareUnsigned`.
        self.token
            .cmp(&other.token)
            .then_with(|| self.key.cmp(&other.key))
    }
}

impl PartialOrd for DecoratedKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Canonical MurmurHash3_x64_128 `h1` (tail bytes masked, not sign-extended), kept
    /// here only to prove that the difference from Cassandra is exactly the documented
    /// quirk and nothing else.
    fn canonical_h1(key: &[u8]) -> i64 {
        let mut h1: u64 = 0;
        let mut h2: u64 = 0;
        let mut blocks = key.chunks_exact(16);
        for block in &mut blocks {
            let k1 = u64::from_le_bytes(block[..8].try_into().unwrap());
            let k2 = u64::from_le_bytes(block[8..].try_into().unwrap());
            h1 ^= mix_k1(k1);
            h1 = h1
                .rotate_left(27)
                .wrapping_add(h2)
                .wrapping_mul(5)
                .wrapping_add(0x52dc_e729);
            h2 ^= mix_k2(k2);
            h2 = h2
                .rotate_left(31)
                .wrapping_add(h1)
                .wrapping_mul(5)
                .wrapping_add(0x3849_5ab5);
        }
        let tail = blocks.remainder();
        let (mut k1, mut k2) = (0u64, 0u64);
        for (i, &b) in tail.iter().enumerate() {
            if i < 8 {
                k1 ^= u64::from(b) << (8 * i);
            } else {
                k2 ^= u64::from(b) << (8 * (i - 8));
            }
        }
        if tail.len() > 8 {
            h2 ^= mix_k2(k2);
        }
        if !tail.is_empty() {
            h1 ^= mix_k1(k1);
        }
        let len = key.len() as u64;
        h1 ^= len;
        h2 ^= len;
        h1 = h1.wrapping_add(h2);
        h2 = h2.wrapping_add(h1);
        h1 = fmix64(h1);
        h2 = fmix64(h2);
        h1.wrapping_add(h2) as i64
    }

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    #[test]
    fn empty_key_is_the_minimum_token() {
        assert_eq!(murmur3_token(b""), MIN_TOKEN);
        assert_eq!(token_of(&[b""]).unwrap(), MIN_TOKEN);
        assert_eq!(token_of(&[]).unwrap(), MIN_TOKEN);
    }

    #[test]
    fn published_cassandra_vectors() {
        // dtest replication_test.py and cqlshlib's token test.
        assert_eq!(murmur3_token(&1i32.to_be_bytes()), -4069959284402364209);
        assert_eq!(murmur3_token(&2i32.to_be_bytes()), -3248873570005575792);
        assert_eq!(murmur3_token(&20i32.to_be_bytes()), 1388667306199997068);
        // python-driver _verify_hash.
        assert_eq!(murmur3_token(b"123"), -7468325962851647638);
        assert_eq!(murmur3_token(&[0xfe; 8]), -8927430733708461935);
        assert_eq!(murmur3_token(&[0x10; 8]), 1446172840243228796);
        assert_eq!(murmur3_token(b"9223372036854775807"), 7162290910810015547);
        assert_eq!(
            murmur3_token(&hex("00ff10fa99").repeat(10)),
            5837342703291459765
        );
    }

    #[test]
    fn quirk_examples_from_the_reference() {
        // (key, Cassandra token, canonical h1)
        let cases: [(&str, i64, i64); 4] = [
            ("ff", -4442228696663692417, 5177511712917721324),
            ("80", -5284281814142962636, 7017059463262962058),
            ("c3a9", 5461403030378599040, -3956277427552623640),
            (
                &"00ff10fa99".repeat(10),
                5837342703291459765,
                -5170820149742265494,
            ),
        ];
        for (key, cassandra, canonical) in cases {
            let key = hex(key);
            assert_eq!(murmur3_token(&key), cassandra, "cassandra {key:02x?}");
            assert_eq!(canonical_h1(&key), canonical, "canonical {key:02x?}");
        }
    }

    #[test]
    fn agrees_with_canonical_when_tail_bytes_are_below_0x80() {
        // Every tail length 0..=16 (plus a second block) with bytes < 0x80 in the tail
        // but high bytes in the body, which must not be sign-extended.
        for len in 1..=48usize {
            let key: Vec<u8> = (0..len)
                .map(|i| {
                    if i < len - len % 16 {
                        0x80 | (i as u8)
                    } else {
                        (i as u8).wrapping_mul(7) & 0x7f
                    }
                })
                .collect();
            assert_eq!(murmur3_token(&key), canonical_h1(&key), "len {len}");
        }
    }

    #[test]
    fn differs_from_canonical_for_each_high_tail_byte_position() {
        // A single high byte at any tail position must change the result; this pins
        // down that the sign extension applies to k2's bytes as well as k1's.
        for tail_len in 1..=15usize {
            for pos in 0..tail_len {
                let mut key = vec![0x41u8; 16 + tail_len];
                key[16 + pos] = 0xc3;
                // Byte 7 sits in k1's top byte, so its extension bits are shifted out
                // of the word and it hashes canonically. k2 receives at most 7 tail
                // bytes, so even its last one (at bit 48) leaves room for extension.
                let survives = pos != 7;
                if survives {
                    assert_ne!(
                        murmur3_token(&key),
                        canonical_h1(&key),
                        "tail {tail_len} pos {pos}"
                    );
                } else {
                    assert_eq!(murmur3_token(&key), canonical_h1(&key));
                }
            }
        }
    }

    #[test]
    fn every_tail_length_hashes_without_panicking_and_is_distinct() {
        let mut seen = std::collections::HashSet::new();
        for len in 0..=33usize {
            let key: Vec<u8> = (0..len).map(|i| 0xff - i as u8).collect();
            let token = murmur3_token(&key);
            assert!(seen.insert(token), "collision at len {len}");
            // Deterministic.
            assert_eq!(token, murmur3_token(&key));
        }
    }

    #[test]
    fn composite_layout_matches_the_reference_example() {
        let key = compose_partition_key(&[b"s-001", &5i32.to_be_bytes()]).unwrap();
        assert_eq!(key, hex("0005732d3030310000040000000500"));
        // An empty component still contributes its length and end-of-component byte.
        assert_eq!(
            compose_partition_key(&[b"", &0i32.to_be_bytes()]).unwrap(),
            hex("00000000040000000000")
        );
    }

    #[test]
    fn single_component_is_not_wrapped() {
        assert_eq!(compose_partition_key(&[b"abc"]).unwrap(), b"abc".to_vec());
        assert_eq!(token_of(&[b"abc"]).unwrap(), -5434086359492102041);
    }

    #[test]
    fn composite_length_prefix_separates_component_boundaries() {
        assert_ne!(
            token_of(&[b"ab", b"c"]).unwrap(),
            token_of(&[b"a", b"bc"]).unwrap()
        );
    }

    /// The message Cassandra's `validateKey` gives, with the length of the whole key.
    fn assert_key_too_long(result: Result<Vec<u8>>, len: usize) {
        let error = result.unwrap_err();
        assert_eq!(error.kind(), crate::ErrorKind::InvalidRequest);
        assert_eq!(
            error.message(),
            format!("Key length of {len} is longer than maximum of 65535")
        );
    }

    #[test]
    fn oversized_component_is_an_invalid_request() {
        let big = vec![0u8; MAX_KEY_LEN + 1];
        // Cassandra composes first, so N counts both components' framing.
        assert_key_too_long(
            compose_partition_key(&[&big, b"x"]),
            MAX_KEY_LEN + 1 + 3 + 1 + 3,
        );
        assert!(token_of(&[&big, b"x"]).is_err());
        assert!(DecoratedKey::from_components(&[b"x", &big]).is_err());
    }

    #[test]
    fn the_limit_is_on_the_whole_key() {
        let at_limit = vec![0xffu8; MAX_KEY_LEN];
        assert_eq!(compose_partition_key(&[&at_limit]).unwrap(), at_limit);
        assert_key_too_long(compose_partition_key(&[&[0u8; MAX_KEY_LEN + 1]]), 65536);

        // Two components that fit a u16 each, but not together.
        let half = vec![0u8; 40_000];
        assert_key_too_long(compose_partition_key(&[&half, &half]), 80_006);

        // Exactly at the limit once framed: 65532 value bytes + 2 length + 1 end byte.
        let framed = vec![0u8; MAX_KEY_LEN - 3];
        let key = compose_partition_key(&[&framed, b""]);
        assert_key_too_long(key, MAX_KEY_LEN + 3);
        let key = compose_partition_key(&[&framed[..MAX_KEY_LEN - 6], b""]).unwrap();
        assert_eq!(key.len(), MAX_KEY_LEN);
        assert_eq!(&key[..2], &((MAX_KEY_LEN - 6) as u16).to_be_bytes());
    }

    #[test]
    fn decorated_keys_sort_by_token_then_unsigned_bytes() {
        let mut keys: Vec<DecoratedKey> = (0i32..50)
            .map(|i| DecoratedKey::new(i.to_be_bytes().to_vec()))
            .collect();
        keys.sort();
        assert!(keys.windows(2).all(|w| w[0].token() <= w[1].token()));

        // Equal tokens fall back to unsigned byte order; build two such keys by hand
        // through the private constructor path.
        let a = DecoratedKey {
            token: 7,
            key: vec![0x01],
        };
        let b = DecoratedKey {
            token: 7,
            key: vec![0x80],
        };
        let c = DecoratedKey {
            token: 7,
            key: vec![0x01, 0x00],
        };
        assert!(a < c && c < b);
        assert!(DecoratedKey::new(Vec::new()) < a);
    }
}
