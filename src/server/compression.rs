//! Frame-body compression as protocol v4 and below use it: once STARTUP has
//! named an algorithm, every frame with the compression flag carries its body
//! compressed on its own. (In v5 compression moves down into the segments of
//! [`super::segment`], and is lz4 only.)
//!
//! Both directions treat the peer's bytes as hostile: the uncompressed length
//! a body declares is checked against the caller's bound before anything is
//! allocated, and garbage is an error, never a panic.

use std::fmt;

/// A compression algorithm a client may ask for with STARTUP's `COMPRESSION`
/// option; the connection then compresses frame bodies with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Compression {
    /// LZ4 as v4 frames carry it: the uncompressed length as a 4-byte
    /// big-endian int, then one raw LZ4 block (no LZ4 frame format).
    Lz4,
    /// Raw snappy (not the framing format): the uncompressed length is the
    /// varint at the start of the snappy block itself.
    Snappy,
}

/// Why a body could not be compressed or decompressed; the server answers a
/// request it cannot decompress with a PROTOCOL_ERROR.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompressionError {
    /// The body declares an uncompressed length over the caller's bound (or
    /// over what a frame's `[int]` length can hold), so nothing was allocated.
    TooLarge {
        /// The uncompressed length the body declared.
        declared: u64,
        /// The most the caller accepts.
        max: usize,
    },
    /// An LZ4 body shorter than its 4-byte length prefix.
    Truncated,
    /// The compressed bytes are not valid for the algorithm, or decompress to
    /// a length other than the one they declare.
    Corrupt(String),
    /// A body too long for the algorithm's length field; no frame body can be
    /// this long, since a frame's length is an `[int]`.
    InputTooLarge(usize),
}

impl fmt::Display for CompressionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompressionError::TooLarge { declared, max } => write!(
                f,
                "compressed body declares {declared} uncompressed bytes, more than the {max} allowed"
            ),
            CompressionError::Truncated => {
                f.write_str("lz4 body is shorter than its 4-byte length")
            }
            CompressionError::Corrupt(why) => write!(f, "corrupt compressed body: {why}"),
            CompressionError::InputTooLarge(len) => {
                write!(f, "a body of {len} bytes is too long to compress")
            }
        }
    }
}

impl std::error::Error for CompressionError {}

/// The longest body either format can describe: a frame's length and the
/// v4 LZ4 prefix are both signed 32-bit ints on the Java side.
const MAX_BODY: usize = i32::MAX as usize;

impl Compression {
    /// The algorithm a STARTUP `COMPRESSION` value names, or `None` for one
    /// we do not offer (the server then answers with a PROTOCOL_ERROR, as
    /// Cassandra does). Cassandra lower-cases the value before comparing, so
    /// `"LZ4"` is accepted too.
    pub fn parse(name: &str) -> Option<Compression> {
        if name.eq_ignore_ascii_case("lz4") {
            Some(Compression::Lz4)
        } else if name.eq_ignore_ascii_case("snappy") {
            Some(Compression::Snappy)
        } else {
            None
        }
    }

    /// The name drivers send and SUPPORTED lists.
    pub fn name(self) -> &'static str {
        match self {
            Compression::Lz4 => "lz4",
            Compression::Snappy => "snappy",
        }
    }

    /// Whether a connection of this protocol version may use the algorithm:
    /// Cassandra 5.0 refuses snappy from v5 on, where compression happens
    /// per segment and only lz4 is defined.
    pub fn available_for(self, protocol_version: u8) -> bool {
        match self {
            Compression::Lz4 => true,
            Compression::Snappy => protocol_version <= 4,
        }
    }

    /// Compresses one frame body. Fails only for a body longer than any
    /// frame can carry.
    pub fn compress(self, body: &[u8]) -> Result<Vec<u8>, CompressionError> {
        if body.len() > MAX_BODY {
            return Err(CompressionError::InputTooLarge(body.len()));
        }
        match self {
            Compression::Lz4 => {
                let block = lz4_flex::block::compress(body);
                let mut out = Vec::with_capacity(4 + block.len());
                // Fits: checked against MAX_BODY above.
                out.extend_from_slice(&(body.len() as u32).to_be_bytes());
                out.extend_from_slice(&block);
                Ok(out)
            }
            Compression::Snappy => snap::raw::Encoder::new()
                .compress_vec(body)
                .map_err(|_| CompressionError::InputTooLarge(body.len())),
        }
    }

    /// Decompresses one frame body whose uncompressed length may be at most
    /// `max_len` (the connection's frame size limit): a larger declared
    /// length is refused before any allocation, so a hostile frame cannot
    /// make us reserve gigabytes.
    pub fn decompress(self, body: &[u8], max_len: usize) -> Result<Vec<u8>, CompressionError> {
        let max = max_len.min(MAX_BODY);
        match self {
            Compression::Lz4 => {
                let (prefix, block) = match body.split_first_chunk::<4>() {
                    Some(split) => split,
                    None => return Err(CompressionError::Truncated),
                };
                let declared = u32::from_be_bytes(*prefix);
                let len = usize::try_from(declared).unwrap_or(usize::MAX);
                if len > max {
                    return Err(CompressionError::TooLarge {
                        declared: u64::from(declared),
                        max: max_len,
                    });
                }
                if len == 0 && block.is_empty() {
                    return Ok(Vec::new());
                }
                let mut out = vec![0; len];
                let written = lz4_flex::block::decompress_into(block, &mut out)
                    .map_err(|e| CompressionError::Corrupt(e.to_string()))?;
                if written != len {
                    return Err(CompressionError::Corrupt(format!(
                        "lz4 body declares {len} bytes but holds {written}"
                    )));
                }
                Ok(out)
            }
            Compression::Snappy => {
                let len = snap::raw::decompress_len(body)
                    .map_err(|e| CompressionError::Corrupt(e.to_string()))?;
                if len > max {
                    return Err(CompressionError::TooLarge {
                        declared: len as u64,
                        max: max_len,
                    });
                }
                let mut out = vec![0; len];
                let written = snap::raw::Decoder::new()
                    .decompress(body, &mut out)
                    .map_err(|e| CompressionError::Corrupt(e.to_string()))?;
                if written != len {
                    return Err(CompressionError::Corrupt(format!(
                        "snappy body declares {len} bytes but holds {written}"
                    )));
                }
                Ok(out)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parses_the_names_drivers_send() {
        assert_eq!(Compression::parse("lz4"), Some(Compression::Lz4));
        assert_eq!(Compression::parse("snappy"), Some(Compression::Snappy));
        assert_eq!(Compression::parse("LZ4"), Some(Compression::Lz4));
        assert_eq!(Compression::parse("zstd"), None);
        assert_eq!(Compression::parse(""), None);
        for c in [Compression::Lz4, Compression::Snappy] {
            assert_eq!(Compression::parse(c.name()), Some(c));
        }
    }

    #[test]
    fn snappy_is_for_v4_and_below_only() {
        assert!(Compression::Snappy.available_for(4));
        assert!(Compression::Snappy.available_for(3));
        assert!(!Compression::Snappy.available_for(5));
        assert!(Compression::Lz4.available_for(5));
    }

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    const MAX: usize = 256 << 20;

    // Compressed bodies made by cassandra-driver 3.30.1 (the Python driver)
    // with the functions it registers in
    // `cassandra.connection.locally_supported_compressions`: `lz4_compress`
    // (python-lz4's block, its little-endian size swapped for the v4
    // big-endian one) and python-snappy's `compress`; by a one-off script not
    // kept in the repository. The other direction (the driver decompressing
    // ours) was checked by the same script.
    #[test]
    fn decompresses_the_drivers_bodies() {
        let hello = b"hello hello hello hello".to_vec();
        let cases: [(Compression, &str, Vec<u8>); 6] = [
            (
                Compression::Lz4,
                "000000176868656c6c6f2006005068656c6c6f",
                hello.clone(),
            ),
            (Compression::Snappy, "171468656c6c6f20420600", hello),
            (
                Compression::Lz4,
                "000003e81f000100ffffffd2500000000000",
                vec![0; 1000],
            ),
            (
                Compression::Snappy,
                concat!(
                    "e8070000fe0100fe0100fe0100fe0100fe0100fe0100fe0100fe0100fe0100",
                    "fe0100fe0100fe0100fe0100fe0100fe01009a0100"
                ),
                vec![0; 1000],
            ),
            (Compression::Lz4, "0000000000", Vec::new()),
            (Compression::Snappy, "00", Vec::new()),
        ];
        for (compression, driver, plain) in cases {
            assert_eq!(
                compression.decompress(&hex(driver), MAX),
                Ok(plain.clone()),
                "{driver}"
            );
            let ours = compression.compress(&plain).unwrap();
            assert_eq!(compression.decompress(&ours, MAX), Ok(plain));
        }
    }

    #[test]
    fn lz4_prefix_is_big_endian() {
        let body = Compression::Lz4.compress(&[7; 300]).unwrap();
        assert_eq!(body[..4], [0, 0, 1, 0x2c]);
    }

    #[test]
    fn a_declared_length_over_the_bound_allocates_nothing() {
        // 2 GiB - 1 declared, a few bytes sent.
        let lz4 = hex("7fffffff1f000100ffffffd25000000000");
        assert_eq!(
            Compression::Lz4.decompress(&lz4, MAX),
            Err(CompressionError::TooLarge {
                declared: 0x7fff_ffff,
                max: MAX
            })
        );
        let lz4 = hex("ffffffff00");
        assert!(matches!(
            Compression::Lz4.decompress(&lz4, usize::MAX),
            Err(CompressionError::TooLarge { .. })
        ));
        // Snappy's varint saying 0xffffffff.
        let snappy = hex("ffffffff0f00");
        assert!(matches!(
            Compression::Snappy.decompress(&snappy, MAX),
            Err(CompressionError::TooLarge { .. })
        ));
        // Just over a small bound.
        let body = Compression::Snappy.compress(&[1; 1001]).unwrap();
        assert!(matches!(
            Compression::Snappy.decompress(&body, 1000),
            Err(CompressionError::TooLarge {
                declared: 1001,
                max: 1000
            })
        ));
        assert!(Compression::Snappy.decompress(&body, 1001).is_ok());
    }

    #[test]
    fn malformed_bodies_are_errors() {
        assert_eq!(
            Compression::Lz4.decompress(&[0, 0, 1], MAX),
            Err(CompressionError::Truncated)
        );
        // The driver's 23-byte "hello" body, declared one byte longer.
        let mut long = hex("000000176868656c6c6f2006005068656c6c6f");
        long[3] = 0x18;
        assert!(matches!(
            Compression::Lz4.decompress(&long, MAX),
            Err(CompressionError::Corrupt(_))
        ));
        assert!(matches!(
            Compression::Snappy.decompress(&[], MAX),
            Err(CompressionError::Corrupt(_))
        ));
        assert!(matches!(
            Compression::Snappy.decompress(&hex("0a0102"), MAX),
            Err(CompressionError::Corrupt(_))
        ));
    }

    proptest! {
        #[test]
        fn round_trip(
            body in prop::collection::vec(any::<u8>(), 0..5_000),
            repeats in 1usize..20,
            lz4 in any::<bool>(),
        ) {
            let compression = if lz4 { Compression::Lz4 } else { Compression::Snappy };
            let body = body.repeat(repeats);
            let compressed = compression.compress(&body).unwrap();
            prop_assert_eq!(compression.decompress(&compressed, body.len()), Ok(body));
        }

        #[test]
        fn garbage_never_panics(
            bytes in prop::collection::vec(any::<u8>(), 0..2_000),
            max_len in 0usize..100_000,
        ) {
            for compression in [Compression::Lz4, Compression::Snappy] {
                if let Ok(out) = compression.decompress(&bytes, max_len) {
                    prop_assert!(out.len() <= max_len);
                }
            }
        }

        #[test]
        fn corrupted_bodies_never_panic(
            body in prop::collection::vec(any::<u8>(), 0..500),
            at in any::<prop::sample::Index>(),
            flip in 1u8..,
        ) {
            for compression in [Compression::Lz4, Compression::Snappy] {
                let mut compressed = compression.compress(&body.repeat(3)).unwrap();
                let i = at.index(compressed.len());
                compressed[i] ^= flip;
                let _ = compression.decompress(&compressed, 1 << 20);
            }
        }
    }
}
