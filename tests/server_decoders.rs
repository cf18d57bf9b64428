//! The server's decoders fed arbitrary bytes, below the network: frame
//! headers, request bodies, v5 segments, compressed bodies and bound
//! values. None may panic, allocate past its bound or lose bytes; where
//! an encoder exists, what it writes decodes back.
//!
//! Cases per property: 256 by default; `WIDEROW_FUZZ_CASES=N` raises it
//! (`scripts/fuzz-server` runs this file too, in release).

use proptest::prelude::*;
use widerow::server::compression::Compression;
use widerow::server::frame::{Header, HeaderError, Opcode, HEADER_LEN};
use widerow::server::request;
use widerow::server::segment::{encode_segments, SegmentDecoder};
use widerow::server::values;
use widerow::syntax::ast::NativeType;
use widerow::types::DataType;

fn cases(default: u32) -> ProptestConfig {
    let cases = std::env::var("WIDEROW_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    ProptestConfig::with_cases(cases)
}

fn bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 0..max)
}

/// Splits `bytes` into chunks at the given cut points, as reads would.
fn chunks(bytes: &[u8], cuts: &[prop::sample::Index]) -> Vec<Vec<u8>> {
    let mut points: Vec<usize> = cuts.iter().map(|c| c.index(bytes.len() + 1)).collect();
    points.sort_unstable();
    let mut out = Vec::new();
    let mut at = 0;
    for p in points.into_iter().chain([bytes.len()]) {
        out.push(bytes[at..p].to_vec());
        at = p;
    }
    out
}

/// A frame body: mostly short, sometimes longer than a segment carries
/// (random bytes, then a cheap repeated run up to the length).
fn body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        6 => bytes(2048),
        1 => (bytes(2048), 130_000usize..300_000).prop_map(|(mut b, n)| {
            let fill = b.first().copied().unwrap_or(0);
            b.resize(n, fill);
            b
        }),
    ]
}

/// A few frames as the server would send them, laid end to end.
fn frames() -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop::collection::vec(
        (any::<i16>(), body()).prop_map(|(stream, body)| {
            let mut f = vec![0x85, 0];
            f.extend_from_slice(&stream.to_be_bytes());
            f.push(0x08);
            f.extend_from_slice(&(body.len() as u32).to_be_bytes());
            f.extend_from_slice(&body);
            f
        }),
        1..4,
    )
}

/// The types a bound value may be decoded as, nested a little.
fn data_types() -> impl Strategy<Value = DataType> {
    let natives: Vec<NativeType> = NativeType::ALL
        .into_iter()
        .filter(|n| *n != NativeType::Varchar)
        .collect();
    let leaf = prop::sample::select(natives).prop_map(DataType::Native);
    leaf.prop_recursive(3, 12, 3, |inner| {
        let boxed = inner.clone().prop_map(Box::new);
        prop_oneof![
            boxed.clone().prop_map(|element| DataType::List {
                element,
                frozen: true
            }),
            boxed.clone().prop_map(|element| DataType::Set {
                element,
                frozen: true
            }),
            (boxed.clone(), boxed.clone()).prop_map(|(key, value)| DataType::Map {
                key,
                value,
                frozen: true
            }),
            prop::collection::vec(inner.clone(), 1..4).prop_map(DataType::Tuple),
            prop::collection::vec(inner, 1..4).prop_map(|types| DataType::Udt {
                keyspace: "k".into(),
                name: "u".into(),
                fields: types
                    .into_iter()
                    .enumerate()
                    .map(|(i, t)| (format!("f{i}"), t))
                    .collect(),
                frozen: true,
            }),
            (boxed, 1u32..5)
                .prop_map(|(element, dimension)| DataType::Vector { element, dimension }),
        ]
    })
}

proptest! {
    #![proptest_config(cases(256))]

    /// Any nine bytes parse as a header or a reason not to; a header that
    /// parses is a served version within the limit.
    #[test]
    fn headers_parse_or_are_refused(raw in any::<[u8; HEADER_LEN]>(), max in any::<u32>()) {
        match Header::parse(&raw, max) {
            Ok(h) => {
                prop_assert!((4..=5).contains(&h.version));
                prop_assert!(h.length <= max);
            }
            Err(HeaderError::TooLong { length }) => prop_assert!(length > max),
            Err(HeaderError::Direction) => prop_assert!(raw[0] & 0x80 != 0),
            Err(HeaderError::Version { requested, .. }) => prop_assert!(!(4..=5).contains(&requested)),
        }
    }

    /// Every opcode's body decoder returns a request or an error for any
    /// bytes, in any version.
    #[test]
    fn request_bodies_decode_or_are_refused(
        version in 0u8..8,
        opcode in any::<u8>(),
        body in bytes(512),
    ) {
        if let Some(opcode) = Opcode::from_byte(opcode) {
            let _ = request::decode(version, opcode, &body);
        }
    }

    /// A request body that starts well (a statement, a consistency, flags)
    /// and goes on with random bytes: every flag's field is read or refused.
    #[test]
    fn request_parameters_decode_or_are_refused(
        version in 4u8..=5,
        opcode in prop::sample::select(vec![Opcode::Query, Opcode::Execute, Opcode::Batch, Opcode::Prepare]),
        flags in any::<u32>(),
        rest in bytes(256),
    ) {
        let mut body = match opcode {
            Opcode::Execute => vec![0, 2, 1, 2],
            Opcode::Batch => vec![0, 0, 1, 0, 0, 0, 0, 1, b'x', 0, 0],
            _ => vec![0, 0, 0, 1, b'x'],
        };
        if opcode == Opcode::Execute && version >= 5 {
            body.extend_from_slice(&[0, 0]);
        }
        body.extend_from_slice(&[0, 1]);
        if version >= 5 {
            body.extend_from_slice(&flags.to_be_bytes());
        } else {
            body.push(flags as u8);
        }
        body.extend_from_slice(&rest);
        let _ = request::decode(version, opcode, &body);
    }

    /// Random bytes in random chunks: frames or an error, never a panic;
    /// what stays buffered is bounded by the input.
    #[test]
    fn segment_garbage_is_refused(
        compressed in any::<bool>(),
        input in bytes(4096),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..8),
    ) {
        let mut decoder = SegmentDecoder::new(compressed, 1 << 20);
        for chunk in chunks(&input, &cuts) {
            if decoder.feed(&chunk).is_err() {
                prop_assert!(decoder.feed(&[0]).is_err(), "an error sticks");
                break;
            }
        }
    }

    /// What the server writes in segments reads back as the same frames,
    /// however the bytes are chunked, compressed or not.
    #[test]
    fn segments_read_back_what_was_written(
        compressed in any::<bool>(),
        frames in frames(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..8),
    ) {
        let mut wire = Vec::new();
        encode_segments(&frames.concat(), compressed, &mut wire);
        let mut decoder = SegmentDecoder::new(compressed, 1 << 20);
        let mut read = Vec::new();
        for chunk in chunks(&wire, &cuts) {
            read.extend(decoder.feed(&chunk).unwrap());
        }
        prop_assert_eq!(read, frames);
        prop_assert!(decoder.is_idle());
    }

    /// Good segments with bytes flipped: refused (the CRCs see it) or, for a
    /// flip the CRCs cannot see, decoded — never a panic.
    #[test]
    fn corrupted_segments_are_refused(
        compressed in any::<bool>(),
        frames in frames(),
        flips in prop::collection::vec((any::<prop::sample::Index>(), 1u8..), 1..4),
    ) {
        let mut wire = Vec::new();
        encode_segments(&frames.concat(), compressed, &mut wire);
        for (at, x) in &flips {
            let i = at.index(wire.len());
            wire[i] ^= x;
        }
        let _ = SegmentDecoder::new(compressed, 1 << 20).feed(&wire);
    }

    /// Compressed bodies: garbage is refused, nothing is allocated past the
    /// bound, and what is compressed decompresses back.
    #[test]
    fn compressed_bodies_are_bounded(
        lz4 in any::<bool>(),
        garbage in bytes(1024),
        body in bytes(4096),
        max in 0usize..8192,
    ) {
        let c = if lz4 { Compression::Lz4 } else { Compression::Snappy };
        if let Ok(out) = c.decompress(&garbage, max) {
            prop_assert!(out.len() <= max);
        }
        let packed = c.compress(&body).unwrap();
        prop_assert_eq!(c.decompress(&packed, body.len()).unwrap(), body.clone());
        if !body.is_empty() {
            prop_assert!(c.decompress(&packed, body.len() - 1).is_err());
        }
    }

    /// A bound value of any type, from any bytes: a value or an error.
    #[test]
    fn bound_values_decode_or_are_refused(ty in data_types(), raw in bytes(96)) {
        let _ = values::decode(&ty, &raw);
    }
}
