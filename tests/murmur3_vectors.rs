//! Checks every row of the shared Murmur3 vector file, in both directions that matter:
//!
//! * the CQL literal, serialized by `widerow::types::serialize` (and composed by
//!   `widerow::cluster::murmur3` for multi-column keys),
//!   gives exactly the bytes in `serialized_hex`, and
//! * those bytes hash to exactly the `token` column.
//!
//! The first half is what makes the second trustworthy for real statements: a correct
//! hash over wrongly serialized bytes is still a wrong token.
//!
//! File format (UTF-8, tab separated, one header line):
//! `cql_type  cql_literal  serialized_hex  token`, where `cql_type` is a type name or a
//! parenthesised list such as `(text,int)`, `cql_literal` is written as in CQL
//! (`'it''s'`, `0xcafe`, `('s-001', 5)`), `serialized_hex` is lower-case hex (empty for an
//! empty key) and `token` is signed decimal.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use widerow::cluster::murmur3::{compose_partition_key, murmur3_token, token_of, MIN_TOKEN};
use widerow::types::serialize::{
    parse_blob_literal, parse_date, parse_timestamp, serialize_ascii, serialize_bigint,
    serialize_boolean, serialize_date, serialize_decimal, serialize_double, serialize_float,
    serialize_inet, serialize_int, serialize_smallint, serialize_text, serialize_timestamp,
    serialize_timeuuid, serialize_tinyint, serialize_uuid, serialize_varint,
};

/// Where the vector file lives, relative to `CARGO_MANIFEST_DIR`: a copy of the
/// project's reference file (`shared/reference/murmur3-vectors.tsv`, from the real
/// Python driver), kept in the repository so that `cargo test` needs nothing beside it.
const VECTORS_PATH: &str = "tests/data/murmur3-vectors.tsv";

/// The number of rows the reference documents; a silently truncated file must not pass.
const EXPECTED_ROWS: usize = 390;

fn vectors_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(VECTORS_PATH)
}

struct Vector {
    line: usize,
    cql_type: String,
    literal: String,
    bytes: Vec<u8>,
    token: i64,
}

fn load_vectors() -> Vec<Vector> {
    let path = vectors_path();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut lines = text.lines().enumerate();
    let (_, header) = lines.next().expect("vector file is empty");
    assert_eq!(
        header.split('\t').collect::<Vec<_>>(),
        ["cql_type", "cql_literal", "serialized_hex", "token"],
        "unexpected header"
    );
    lines
        .filter(|(_, line)| !line.is_empty())
        .map(|(index, line)| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 4, "line {}: {line:?}", index + 1);
            Vector {
                line: index + 1,
                cql_type: fields[0].to_string(),
                literal: fields[1].to_string(),
                bytes: decode_hex(fields[2]),
                token: fields[3]
                    .parse()
                    .unwrap_or_else(|e| panic!("line {}: bad token: {e}", index + 1)),
            }
        })
        .collect()
}

fn decode_hex(hex: &str) -> Vec<u8> {
    assert!(hex.len() % 2 == 0, "odd hex length: {hex}");
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex digit"))
        .collect()
}

/// Removes CQL string quotes, undoing the `''` escape.
fn unquote(literal: &str) -> &str {
    literal
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .unwrap_or_else(|| panic!("expected a quoted string, got {literal}"))
}

fn unquote_owned(literal: &str) -> String {
    unquote(literal).replace("''", "'")
}

/// Splits `(a, 'b,c', 3)` into its top-level elements, respecting quoted strings.
fn split_tuple(literal: &str) -> Vec<String> {
    let inner = literal
        .strip_prefix('(')
        .and_then(|s| s.strip_suffix(')'))
        .unwrap_or_else(|| panic!("expected a tuple literal, got {literal}"));
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut in_string = false;
    for c in inner.chars() {
        match c {
            // A doubled quote toggles twice, which is exactly the escape.
            '\'' => {
                in_string = !in_string;
                current.push(c);
            }
            ',' if !in_string => parts.push(std::mem::take(&mut current).trim().to_string()),
            _ => current.push(c),
        }
    }
    parts.push(current.trim().to_string());
    parts
}

fn is_quoted(literal: &str) -> bool {
    literal.starts_with('\'')
}

/// Serializes one CQL literal of one (non-composite) type, the way a statement would.
fn serialize_literal(cql_type: &str, literal: &str) -> Vec<u8> {
    let fail = |what: &dyn std::fmt::Display| -> ! {
        panic!("cannot serialize {literal} as {cql_type}: {what}")
    };
    let no_clock = || -> i64 { panic!("vectors never use 'now'") };
    match cql_type {
        "text" | "varchar" => serialize_text(&unquote_owned(literal)),
        "ascii" => serialize_ascii(&unquote_owned(literal)).unwrap_or_else(|e| fail(&e)),
        "blob" => parse_blob_literal(literal).unwrap_or_else(|e| fail(&e)),
        "boolean" => serialize_boolean(match literal {
            "true" => true,
            "false" => false,
            _ => fail(&"not a boolean"),
        }),
        "tinyint" => serialize_tinyint(literal.parse().unwrap_or_else(|e| fail(&e))),
        "smallint" => serialize_smallint(literal.parse().unwrap_or_else(|e| fail(&e))),
        "int" => serialize_int(literal.parse().unwrap_or_else(|e| fail(&e))),
        "bigint" => serialize_bigint(literal.parse().unwrap_or_else(|e| fail(&e))),
        "varint" => serialize_varint(literal).unwrap_or_else(|e| fail(&e)),
        "decimal" => serialize_decimal(literal).unwrap_or_else(|e| fail(&e)),
        "float" => serialize_float(literal.parse().unwrap_or_else(|e| fail(&e))),
        "double" => serialize_double(literal.parse().unwrap_or_else(|e| fail(&e))),
        "uuid" => serialize_uuid(literal).unwrap_or_else(|e| fail(&e)),
        "timeuuid" => serialize_timeuuid(literal).unwrap_or_else(|e| fail(&e)),
        "timestamp" => {
            let text = if is_quoted(literal) {
                unquote(literal)
            } else {
                literal
            };
            serialize_timestamp(parse_timestamp(text, no_clock).unwrap_or_else(|e| fail(&e)))
        }
        "date" => {
            let text = if is_quoted(literal) {
                unquote(literal)
            } else {
                literal
            };
            serialize_date(parse_date(text).unwrap_or_else(|e| fail(&e)))
        }
        "inet" => serialize_inet(unquote(literal)).unwrap_or_else(|e| fail(&e)),
        other => panic!("no serializer for type {other}"),
    }
}

/// The partition-key bytes for a row: composed for `(t1,t2,…)` types, bare otherwise.
fn serialize_key(cql_type: &str, literal: &str) -> (Vec<Vec<u8>>, Vec<u8>) {
    match cql_type.strip_prefix('(').and_then(|s| s.strip_suffix(')')) {
        Some(types) => {
            let types: Vec<&str> = types.split(',').map(str::trim).collect();
            let literals = split_tuple(literal);
            assert_eq!(types.len(), literals.len(), "{cql_type} vs {literal}");
            let components: Vec<Vec<u8>> = types
                .iter()
                .zip(&literals)
                .map(|(t, l)| serialize_literal(t, l))
                .collect();
            let refs: Vec<&[u8]> = components.iter().map(Vec::as_slice).collect();
            let key = compose_partition_key(&refs)
                .unwrap_or_else(|e| panic!("cannot compose {literal} as {cql_type}: {e}"));
            (components, key)
        }
        None => {
            let bytes = serialize_literal(cql_type, literal);
            (vec![bytes.clone()], bytes)
        }
    }
}

#[test]
fn every_vector_serializes_and_hashes_exactly() {
    let vectors = load_vectors();
    assert_eq!(vectors.len(), EXPECTED_ROWS, "row count");

    let mut failures = Vec::new();
    let mut per_type: BTreeMap<&str, usize> = BTreeMap::new();
    for v in &vectors {
        let (components, key) = serialize_key(&v.cql_type, &v.literal);
        if key != v.bytes {
            failures.push(format!(
                "line {} {} {}: serialized {key:02x?}, expected {:02x?}",
                v.line, v.cql_type, v.literal, v.bytes
            ));
        }
        let token = murmur3_token(&v.bytes);
        if token != v.token {
            failures.push(format!(
                "line {} {} {}: token {token}, expected {}",
                v.line, v.cql_type, v.literal, v.token
            ));
        }
        let refs: Vec<&[u8]> = components.iter().map(Vec::as_slice).collect();
        if token_of(&refs).ok() != Some(v.token) {
            failures.push(format!(
                "line {} {} {}: token_of disagrees",
                v.line, v.cql_type, v.literal
            ));
        }
        *per_type.entry(v.cql_type.as_str()).or_default() += 1;
    }
    assert!(
        failures.is_empty(),
        "{} of {} vectors failed:\n{}",
        failures.len(),
        vectors.len(),
        failures.join("\n")
    );
    eprintln!(
        "all {} vectors matched (serialization and token): {per_type:?}",
        vectors.len()
    );
}

#[test]
fn per_type_counts_match_the_reference() {
    let vectors = load_vectors();
    let mut per_type: BTreeMap<String, usize> = BTreeMap::new();
    for v in &vectors {
        *per_type.entry(v.cql_type.clone()).or_default() += 1;
    }
    let expected: BTreeMap<String, usize> = [
        ("text", 101),
        ("blob", 57),
        ("int", 50),
        ("bigint", 30),
        ("uuid", 25),
        ("timeuuid", 5),
        ("(text,int)", 22),
        ("(int,int)", 20),
        ("(text,date)", 20),
        ("(bigint,text)", 4),
        ("(uuid,text,int)", 3),
        ("varint", 10),
        ("date", 6),
        ("timestamp", 6),
        ("smallint", 5),
        ("tinyint", 5),
        ("ascii", 4),
        ("double", 4),
        ("inet", 4),
        ("decimal", 4),
        ("float", 3),
        ("boolean", 2),
    ]
    .into_iter()
    .map(|(t, n)| (t.to_string(), n))
    .collect();
    assert_eq!(per_type, expected);
}

#[test]
fn empty_keys_are_exactly_the_minimum_token_rows() {
    for v in load_vectors() {
        assert_eq!(
            v.bytes.is_empty(),
            v.token == MIN_TOKEN,
            "line {}: {} {}",
            v.line,
            v.cql_type,
            v.literal
        );
    }
}

/// Canonical MurmurHash3_x64_128 `h1` (tail bytes masked to 8 bits), written
/// independently of the library so that it can confirm the vectors really exercise the
/// sign-extension quirk: an implementation without it must fail on exactly the rows the
/// reference says it would.
fn canonical_h1(key: &[u8]) -> i64 {
    const C1: u64 = 0x87c3_7b91_1142_53d5;
    const C2: u64 = 0x4cf5_ad43_2745_937f;
    fn fmix(mut k: u64) -> u64 {
        k ^= k >> 33;
        k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
        k ^= k >> 33;
        k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        k ^ (k >> 33)
    }
    let (mut h1, mut h2) = (0u64, 0u64);
    let full = key.len() / 16 * 16;
    for block in key[..full].chunks(16) {
        let k1 = u64::from_le_bytes(block[..8].try_into().unwrap());
        let k2 = u64::from_le_bytes(block[8..].try_into().unwrap());
        h1 ^= k1.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2);
        h1 = h1
            .rotate_left(27)
            .wrapping_add(h2)
            .wrapping_mul(5)
            .wrapping_add(0x52dc_e729);
        h2 ^= k2.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1);
        h2 = h2
            .rotate_left(31)
            .wrapping_add(h1)
            .wrapping_mul(5)
            .wrapping_add(0x3849_5ab5);
    }
    let mut tail = [0u8; 16];
    tail[..key.len() - full].copy_from_slice(&key[full..]);
    let k1 = u64::from_le_bytes(tail[..8].try_into().unwrap());
    let k2 = u64::from_le_bytes(tail[8..].try_into().unwrap());
    h2 ^= k2.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1);
    h1 ^= k1.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2);
    h1 ^= key.len() as u64;
    h2 ^= key.len() as u64;
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    h1 = fmix(h1);
    h2 = fmix(h2);
    h1.wrapping_add(h2) as i64
}

#[test]
fn the_vectors_exercise_the_sign_extension_quirk() {
    let vectors = load_vectors();
    let non_empty: Vec<&Vector> = vectors.iter().filter(|v| !v.bytes.is_empty()).collect();
    let differing = non_empty
        .iter()
        .filter(|v| canonical_h1(&v.bytes) != v.token)
        .count();
    // The reference states 170 of the 387 non-empty keys differ from canonical.
    assert_eq!((differing, non_empty.len()), (170, 387));
    // And where canonical agrees, the tail indeed has no byte >= 0x80 that survives.
    for v in non_empty {
        let tail = &v.bytes[v.bytes.len() / 16 * 16..];
        let has_high = tail.iter().enumerate().any(|(i, &b)| b >= 0x80 && i != 7);
        assert_eq!(
            canonical_h1(&v.bytes) != v.token,
            has_high,
            "line {}",
            v.line
        );
    }
}
