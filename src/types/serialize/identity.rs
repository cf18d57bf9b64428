//! Values stored as their own bytes, only validated on the way: `text`, `ascii`, `blob`,
//! `boolean`, `uuid`, `timeuuid` and `inet`.

use std::net::{IpAddr, Ipv6Addr};

use super::ParseError;

// ---------------------------------------------------------------------------------------
// Strings and bytes
// ---------------------------------------------------------------------------------------

/// `text`/`varchar`: the UTF-8 bytes with no length or terminator, because the value's
/// length is carried by whatever frames it (a cell, a composite component, a collection).
/// Rust strings are already valid UTF-8, so this cannot fail.
pub fn serialize_text(value: &str) -> Vec<u8> {
    value.as_bytes().to_vec()
}

/// `ascii`: the same bytes as `text`, but only code points 0–127 are legal. The check
/// lives here so an `ascii` key can never be hashed from bytes Cassandra would refuse.
pub fn serialize_ascii(value: &str) -> Result<Vec<u8>, ParseError> {
    match value.bytes().position(|b| !b.is_ascii()) {
        None => Ok(value.as_bytes().to_vec()),
        Some(at) => Err(ParseError::new(format!(
            "Invalid ASCII character at byte {at} of '{value}'"
        ))),
    }
}

/// `blob`: the bytes themselves. Trivial, but present so that a per-type dispatch has an
/// entry for every key type and never special-cases blobs.
pub fn serialize_blob(bytes: &[u8]) -> Vec<u8> {
    bytes.to_vec()
}

/// `blob` from its CQL literal `0x…`. The literal is the only way to write a blob in CQL,
/// and getting it wrong (odd digit counts, the empty `0x`) would change a key's bytes.
/// `0x` alone is a valid, empty blob.
pub fn parse_blob_literal(literal: &str) -> Result<Vec<u8>, ParseError> {
    let digits = literal
        .strip_prefix("0x")
        .or_else(|| literal.strip_prefix("0X"))
        .ok_or_else(|| ParseError::new(format!("'{literal}' is not a blob literal (0x…)")))?;
    if digits.len() % 2 != 0 {
        return Err(ParseError::new(format!(
            "cannot parse '{digits}' as hex bytes: odd number of digits"
        )));
    }
    digits
        .as_bytes()
        .chunks_exact(2)
        .map(|pair| {
            let hi = (pair[0] as char).to_digit(16);
            let lo = (pair[1] as char).to_digit(16);
            match (hi, lo) {
                (Some(hi), Some(lo)) => Ok((hi * 16 + lo) as u8),
                _ => Err(ParseError::new(format!(
                    "cannot parse '{digits}' as hex bytes"
                ))),
            }
        })
        .collect()
}
// ---------------------------------------------------------------------------------------
// Booleans
// ---------------------------------------------------------------------------------------

/// `boolean`: one byte, `01` for true and `00` for false (never any other non-zero byte,
/// which would hash differently).
pub fn serialize_boolean(value: bool) -> Vec<u8> {
    vec![u8::from(value)]
}
// ---------------------------------------------------------------------------------------
// UUIDs
// ---------------------------------------------------------------------------------------

/// `uuid` from its canonical `8-4-4-4-12` hex form: the 16 bytes in the order the hex
/// digits are written (network order, no per-field swapping as in Microsoft GUIDs).
///
/// Only the exact canonical shape is accepted, as in CQL's lexer; Java's more lenient
/// `UUID.fromString` forms (short groups) never reach it. Case is irrelevant.
pub fn serialize_uuid(text: &str) -> Result<Vec<u8>, ParseError> {
    parse_uuid(text)
        .map(|bytes| bytes.to_vec())
        .ok_or_else(|| ParseError::new(format!("Unable to make UUID from '{text}'")))
}

/// `timeuuid`: the same bytes as `uuid`, but only version 1 (time-based) values are
/// legal, because timeuuid ordering reads the embedded timestamp. The version is the high
/// nibble of byte 6.
pub fn serialize_timeuuid(text: &str) -> Result<Vec<u8>, ParseError> {
    let bytes = serialize_uuid(text)?;
    let version = bytes[6] >> 4;
    if version != 1 {
        return Err(ParseError::new(format!(
            "Unsupported UUID version ({version}) for timeuuid '{text}'"
        )));
    }
    Ok(bytes)
}

fn parse_uuid(text: &str) -> Option<[u8; 16]> {
    let bytes = text.as_bytes();
    if bytes.len() != 36 {
        return None;
    }
    let mut out = [0u8; 16];
    let mut nibbles = 0usize;
    for (i, &c) in bytes.iter().enumerate() {
        if matches!(i, 8 | 13 | 18 | 23) {
            if c != b'-' {
                return None;
            }
            continue;
        }
        let v = (c as char).to_digit(16)? as u8;
        out[nibbles / 2] |= if nibbles % 2 == 0 { v << 4 } else { v };
        nibbles += 1;
    }
    Some(out)
}
// ---------------------------------------------------------------------------------------
// inet
// ---------------------------------------------------------------------------------------

/// `inet` from an address value: 4 bytes for IPv4, 16 for IPv6, in network order. An
/// IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is stored as its 4-byte IPv4 form,
/// because that is what Java's `InetAddress` turns it into before Cassandra serializes
/// it; keeping 16 bytes would give a different key.
pub fn serialize_inet_addr(addr: IpAddr) -> Vec<u8> {
    match addr {
        IpAddr::V4(v4) => v4.octets().to_vec(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.octets().to_vec(),
            None => v6.octets().to_vec(),
        },
    }
}

/// `inet` from its text, as `InetAddress.getByName` reads an address literal.
///
/// * IPv4 in Java's (BSD) forms: `a.b.c.d`, and the shorter `a.b.c`, `a.b` and `a`
///   where the last part fills the remaining bytes (`127.1` is 127.0.0.1,
///   `2130706433` too). Parts are decimal without leading zeros (current JDKs reject
///   those as ambiguous octal).
/// * IPv6 in standard notation, optionally in `[…]`; IPv4-mapped addresses become 4
///   bytes (see [`serialize_inet_addr`]).
/// * The empty string is the empty value (zero bytes), as in Cassandra's `fromString`.
///
/// Not reproduced: host names, which Cassandra would resolve through DNS, and IPv6 scope
/// suffixes (`%eth0`). Error text: "Unable to make inet address from '…'".
pub fn serialize_inet(text: &str) -> Result<Vec<u8>, ParseError> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let error = || ParseError::new(format!("Unable to make inet address from '{text}'"));
    if let Some(inner) = text.strip_prefix('[') {
        let inner = inner.strip_suffix(']').ok_or_else(error)?;
        let v6: Ipv6Addr = inner.parse().map_err(|_| error())?;
        return Ok(serialize_inet_addr(IpAddr::V6(v6)));
    }
    if let Some(v4) = parse_java_ipv4(text) {
        return Ok(v4.to_vec());
    }
    let v6: Ipv6Addr = text.parse().map_err(|_| error())?;
    Ok(serialize_inet_addr(IpAddr::V6(v6)))
}

/// Java's `textToNumericFormatV4`: one to four dot-separated decimal parts; every part
/// but the last is one byte, the last fills all remaining bytes.
fn parse_java_ipv4(text: &str) -> Option<[u8; 4]> {
    let parts: Vec<&str> = text.split('.').collect();
    if parts.len() > 4 {
        return None;
    }
    let mut value: u64 = 0;
    for (i, part) in parts.iter().enumerate() {
        let ambiguous = part.len() > 1 && part.starts_with('0');
        if part.is_empty()
            || part.len() > 10
            || ambiguous
            || !part.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let n: u64 = part.parse().ok()?;
        let is_last = i == parts.len() - 1;
        let bits = if is_last { 8 * (4 - i as u32) } else { 8 };
        if n >= 1u64 << bits {
            return None;
        }
        value = if is_last {
            (value << bits) | n
        } else {
            (value << 8) | n
        };
    }
    Some((value as u32).to_be_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::serialize::hex;

    #[test]
    fn strings_bytes_and_booleans() {
        assert_eq!(hex(&serialize_boolean(true)), "01");
        assert_eq!(hex(&serialize_boolean(false)), "00");
        assert_eq!(serialize_text("é"), vec![0xc3, 0xa9]);
        assert!(serialize_ascii("é").is_err());
        assert_eq!(serialize_ascii("abc").unwrap(), b"abc".to_vec());
        assert_eq!(serialize_blob(&[0xca, 0xfe]), vec![0xca, 0xfe]);
        assert_eq!(parse_blob_literal("0xCAfe").unwrap(), vec![0xca, 0xfe]);
        assert_eq!(parse_blob_literal("0x").unwrap(), Vec::<u8>::new());
        for bad in ["cafe", "0xcaf", "0xzz"] {
            assert!(parse_blob_literal(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn uuid_forms() {
        assert_eq!(
            hex(&serialize_uuid("123E4567-e89b-12d3-a456-426614174000").unwrap()),
            "123e4567e89b12d3a456426614174000"
        );
        for bad in [
            "123e4567e89b12d3a456426614174000",
            "123e4567-e89b-12d3-a456-42661417400",
            "123e4567-e89b-12d3-a456-4266141740000",
            "g23e4567-e89b-12d3-a456-426614174000",
            "123e4567+e89b-12d3-a456-426614174000",
        ] {
            assert!(serialize_uuid(bad).is_err(), "{bad}");
        }
        assert!(serialize_timeuuid("50554d6e-29bb-11e5-b345-feff819cdc9f").is_ok());
        assert!(serialize_timeuuid("550e8400-e29b-41d4-a716-446655440000").is_err());
    }

    #[test]
    fn inet_forms() {
        for (text, expected) in [
            ("127.0.0.1", "7f000001"),
            ("10.0.0.1", "0a000001"),
            ("::1", "00000000000000000000000000000001"),
            ("2001:db8::1", "20010db8000000000000000000000001"),
            ("[::1]", "00000000000000000000000000000001"),
            ("::ffff:192.168.0.1", "c0a80001"),
            ("::192.168.0.1", "000000000000000000000000c0a80001"),
            ("127.1", "7f000001"),
            ("10.1.2", "0a010002"),
            ("2130706433", "7f000001"),
            ("0.0.0.0", "00000000"),
            ("", ""),
        ] {
            assert_eq!(hex(&serialize_inet(text).unwrap()), expected, "{text}");
        }
        for bad in [
            "256.0.0.1",
            "1.2.3.4.5",
            "01.2.3.4",
            "1..3.4",
            "1.2.3.",
            "1.2.65536",
            "localhost",
            "::1%eth0",
            "[127.0.0.1]",
            "4294967296",
        ] {
            assert!(serialize_inet(bad).is_err(), "{bad}");
        }
    }
}
