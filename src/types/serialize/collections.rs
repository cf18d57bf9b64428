//! Frozen collections, tuples and UDTs: a frozen value is stored as one cell, its elements
//! already serialized and framed by 4-byte lengths.

use super::ParseError;

/// A frozen `list` or `set`: 4-byte element count, then each element as 4-byte length +
/// bytes.
///
/// For a set the caller must pass the elements already sorted by the *element type's*
/// comparator and deduplicated. Byte order is not always value order (`-1` as an int is
/// `ffffffff`, after `1`), so this function cannot sort them itself.
///
/// Fails only when the count or an element's length exceeds `i32::MAX`, which the 4-byte
/// prefix cannot express.
pub fn serialize_collection(elements: &[&[u8]]) -> Result<Vec<u8>, ParseError> {
    let mut out = count_prefix(elements.len())?.to_vec();
    for element in elements {
        out.extend_from_slice(&length_prefix(element.len())?);
        out.extend_from_slice(element);
    }
    Ok(out)
}

/// A frozen `map`: 4-byte entry count, then for each entry the key and the value, each as
/// 4-byte length + bytes. As with sets, the caller supplies the entries sorted by the key
/// type's comparator with unique keys.
///
/// Fails as [`serialize_collection`] does.
pub fn serialize_map(entries: &[(&[u8], &[u8])]) -> Result<Vec<u8>, ParseError> {
    let mut out = count_prefix(entries.len())?.to_vec();
    for (key, value) in entries {
        out.extend_from_slice(&length_prefix(key.len())?);
        out.extend_from_slice(key);
        out.extend_from_slice(&length_prefix(value.len())?);
        out.extend_from_slice(value);
    }
    Ok(out)
}

/// A `tuple` or frozen UDT: each field as 4-byte length + bytes, with no field count
/// (the type fixes it). A null field is length −1 (`ffffffff`) with no bytes, which is
/// different from an empty value (length 0).
///
/// Fails only when a field is longer than `i32::MAX` bytes.
pub fn serialize_tuple(fields: &[Option<&[u8]>]) -> Result<Vec<u8>, ParseError> {
    let mut out = Vec::new();
    for field in fields {
        match field {
            Some(bytes) => {
                out.extend_from_slice(&length_prefix(bytes.len())?);
                out.extend_from_slice(bytes);
            }
            None => out.extend_from_slice(&(-1i32).to_be_bytes()),
        }
    }
    Ok(out)
}

/// A 4-byte big-endian signed element count.
fn count_prefix(count: usize) -> Result<[u8; 4], ParseError> {
    i32_prefix(count, || format!("a collection of {count} elements"))
}

/// A 4-byte big-endian signed length, as used inside collections and tuples.
fn length_prefix(len: usize) -> Result<[u8; 4], ParseError> {
    i32_prefix(len, || format!("an element of {len} bytes"))
}

/// Values larger than `i32::MAX` cannot be encoded (nor held by Cassandra, whose values
/// are Java buffers); they are refused rather than truncated into other bytes.
fn i32_prefix(n: usize, what: impl FnOnce() -> String) -> Result<[u8; 4], ParseError> {
    i32::try_from(n).map(i32::to_be_bytes).map_err(|_| {
        ParseError::new(format!(
            "{} cannot be serialized: the limit is {}",
            what(),
            i32::MAX
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::serialize::{hex, serialize_int};

    #[test]
    fn collections_and_tuples() {
        let one = serialize_int(1);
        let two = serialize_int(2);
        assert_eq!(
            hex(&serialize_collection(&[&one, &two]).unwrap()),
            "00000002000000040000000100000004 00000002".replace(' ', "")
        );
        assert_eq!(
            hex(&serialize_map(&[(b"a", &one)]).unwrap()),
            "00000001000000016100000004 00000001".replace(' ', "")
        );
        assert_eq!(
            hex(&serialize_tuple(&[Some(&one), None, Some(b"")]).unwrap()),
            "0000000400000001ffffffff00000000"
        );
        assert_eq!(hex(&serialize_collection(&[]).unwrap()), "00000000");
    }

    #[test]
    fn lengths_beyond_i32_are_refused_not_truncated() {
        assert_eq!(
            length_prefix(i32::MAX as usize),
            Ok([0x7f, 0xff, 0xff, 0xff])
        );
        let too_long = i32::MAX as usize + 1;
        assert_eq!(
            length_prefix(too_long).unwrap_err().message(),
            "an element of 2147483648 bytes cannot be serialized: the limit is 2147483647"
        );
        assert!(count_prefix(too_long)
            .unwrap_err()
            .message()
            .starts_with("a collection of 2147483648 elements"));
    }
}
