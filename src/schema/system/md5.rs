//! MD5 (RFC 1321) and Java's `UUID.nameUUIDFromBytes`: Cassandra names
//! its system tables by the MD5 of keyspace and table name
//! (`TableId.forSystemTable`), and its schema version is an MD5-based UUID
//! of the schema's digest. Written here, small and allocation-light, to
//! give those UUIDs bit for bit.

/// The per-round shift amounts.
const SHIFTS: [u32; 64] = [
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9,
    14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15,
    21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
];

/// `floor(abs(sin(i + 1)) * 2^32)`, the RFC's table.
const K: [u32; 64] = [
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
];

/// An MD5 computation fed piece by piece, so a digest over many rows needs
/// no buffer holding them all.
#[derive(Debug, Clone)]
pub struct Md5 {
    state: [u32; 4],
    pending: Vec<u8>,
    length: u64,
}

impl Default for Md5 {
    fn default() -> Md5 {
        Md5 {
            state: [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476],
            pending: Vec::with_capacity(64),
            length: 0,
        }
    }
}

impl Md5 {
    /// A fresh digest.
    pub fn new() -> Md5 {
        Md5::default()
    }

    /// Adds `bytes` to the digest.
    pub fn update(&mut self, bytes: &[u8]) {
        self.length = self.length.wrapping_add(bytes.len() as u64);
        self.pending.extend_from_slice(bytes);
        let whole = self.pending.len() / 64 * 64;
        for chunk in self.pending[..whole].chunks_exact(64) {
            compress(&mut self.state, chunk);
        }
        self.pending.drain(..whole);
    }

    /// The 16-byte digest.
    pub fn finish(mut self) -> [u8; 16] {
        let bits = self.length.wrapping_mul(8);
        let mut tail = std::mem::take(&mut self.pending);
        tail.push(0x80);
        while tail.len() % 64 != 56 {
            tail.push(0);
        }
        tail.extend_from_slice(&bits.to_le_bytes());
        for chunk in tail.chunks_exact(64) {
            compress(&mut self.state, chunk);
        }
        let mut out = [0u8; 16];
        for (i, word) in self.state.iter().enumerate() {
            out[i * 4..i * 4 + 4].copy_from_slice(&word.to_le_bytes());
        }
        out
    }
}

/// One 64-byte block into the state.
fn compress(state: &mut [u32; 4], block: &[u8]) {
    let mut m = [0u32; 16];
    for (i, word) in block.chunks_exact(4).enumerate() {
        m[i] = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
    }
    let [mut a, mut b, mut c, mut d] = *state;
    for i in 0..64 {
        let (f, g) = match i / 16 {
            0 => ((b & c) | (!b & d), i),
            1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
            2 => (b ^ c ^ d, (3 * i + 5) % 16),
            _ => (c ^ (b | !d), (7 * i) % 16),
        };
        let rotated = a
            .wrapping_add(f)
            .wrapping_add(K[i])
            .wrapping_add(m[g])
            .rotate_left(SHIFTS[i]);
        a = d;
        d = c;
        c = b;
        b = b.wrapping_add(rotated);
    }
    state[0] = state[0].wrapping_add(a);
    state[1] = state[1].wrapping_add(b);
    state[2] = state[2].wrapping_add(c);
    state[3] = state[3].wrapping_add(d);
}

/// Java's `UUID.nameUUIDFromBytes`: the MD5 of `bytes` marked as a
/// version-3 UUID of the IETF variant.
pub fn name_uuid(bytes: &[u8]) -> [u8; 16] {
    let mut md5 = Md5::new();
    md5.update(bytes);
    version_3(md5.finish())
}

/// A digest marked as a version-3 UUID.
pub fn version_3(mut digest: [u8; 16]) -> [u8; 16] {
    digest[6] = (digest[6] & 0x0f) | 0x30;
    digest[8] = (digest[8] & 0x3f) | 0x80;
    digest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn digests_match_rfc_1321() {
        let md5 = |text: &str| {
            let mut m = Md5::new();
            m.update(text.as_bytes());
            hex(&m.finish())
        };
        assert_eq!(md5(""), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(md5("abc"), "900150983cd24fb0d6963f7d28e17f72");
        assert_eq!(
            md5("12345678901234567890123456789012345678901234567890123456789012345678901234567890"),
            "57edf4a22be3c955ac49da2e2107b67a"
        );
    }

    #[test]
    fn system_table_ids_are_the_nodes() {
        // `system.local`'s id on a Cassandra 5.0.8 node.
        assert_eq!(
            hex(&name_uuid(b"systemlocal")),
            "7ad54392bcdd35a684174e047860b377"
        );
    }
}
