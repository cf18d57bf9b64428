//! The native protocol's notations (`[int]`, `[string]`, `[bytes]`,
//! `[value]`, `[string map]`, …, section 3 of the protocol spec): a
//! [`Reader`] over a frame body that fails, never panics, when the bytes run
//! out, and a [`Writer`] that builds a response body.

use std::fmt;

/// A request body that does not follow the protocol's notation: the server
/// answers it with a PROTOCOL_ERROR.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireError(pub String);

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WireError {}

/// What a `[value]` holds: bytes, null (length −1) or, from v4 on, "unset"
/// (length −2: leave the column as it is).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WireValue {
    /// The value's serialized bytes.
    Bytes(Vec<u8>),
    /// A null value.
    Null,
    /// Not set: the bound column keeps what it had.
    Unset,
}

/// A `[bytes map]`: names and their bytes (null when absent).
pub type BytesMap = Vec<(String, Option<Vec<u8>>)>;

/// Reads one notation after another from a request body.
#[derive(Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, at: 0 }
    }

    /// The bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], WireError> {
        if self.remaining() < n {
            return Err(WireError(format!(
                "Not enough bytes to read {what}: {n} needed, {} left",
                self.remaining()
            )));
        }
        let out = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(out)
    }

    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], WireError> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N, what)?);
        Ok(out)
    }

    /// `[byte]`
    pub fn byte(&mut self) -> Result<u8, WireError> {
        Ok(self.array::<1>("a byte")?[0])
    }

    /// `[short]`: an unsigned 16-bit number.
    pub fn short(&mut self) -> Result<u16, WireError> {
        Ok(u16::from_be_bytes(self.array("a short")?))
    }

    /// `[int]`
    pub fn int(&mut self) -> Result<i32, WireError> {
        Ok(i32::from_be_bytes(self.array("an int")?))
    }

    /// `[long]`
    pub fn long(&mut self) -> Result<i64, WireError> {
        Ok(i64::from_be_bytes(self.array("a long")?))
    }

    /// `[string]`: a `[short]` length, then UTF-8.
    pub fn string(&mut self) -> Result<String, WireError> {
        let len = usize::from(self.short()?);
        utf8(self.take(len, "a string")?)
    }

    /// `[long string]`: an `[int]` length, then UTF-8.
    pub fn long_string(&mut self) -> Result<String, WireError> {
        let len = self.int()?;
        let len = usize::try_from(len)
            .map_err(|_| WireError(format!("Invalid negative long string length {len}")))?;
        utf8(self.take(len, "a long string")?)
    }

    /// `[short bytes]`: a `[short]` length, then the bytes.
    pub fn short_bytes(&mut self) -> Result<Vec<u8>, WireError> {
        let len = usize::from(self.short()?);
        Ok(self.take(len, "short bytes")?.to_vec())
    }

    /// `[bytes]`: an `[int]` length (negative: null), then the bytes.
    pub fn bytes(&mut self) -> Result<Option<Vec<u8>>, WireError> {
        let len = self.int()?;
        if len < 0 {
            return Ok(None);
        }
        Ok(Some(self.take(len as usize, "bytes")?.to_vec()))
    }

    /// `[value]`: like `[bytes]`, with −2 meaning "unset".
    pub fn value(&mut self) -> Result<WireValue, WireError> {
        match self.int()? {
            -1 => Ok(WireValue::Null),
            -2 => Ok(WireValue::Unset),
            len if len < 0 => Err(WireError(format!("Invalid value length {len}"))),
            len => Ok(WireValue::Bytes(
                self.take(len as usize, "a value")?.to_vec(),
            )),
        }
    }

    /// `[string map]`: a `[short]` count of `[string]` pairs.
    pub fn string_map(&mut self) -> Result<Vec<(String, String)>, WireError> {
        let n = self.short()?;
        (0..n)
            .map(|_| Ok((self.string()?, self.string()?)))
            .collect()
    }

    /// `[string list]`: a `[short]` count of `[string]`s.
    pub fn string_list(&mut self) -> Result<Vec<String>, WireError> {
        let n = self.short()?;
        (0..n).map(|_| self.string()).collect()
    }

    /// `[bytes map]`, which a custom payload is: read and ignored by callers.
    pub fn bytes_map(&mut self) -> Result<BytesMap, WireError> {
        let n = self.short()?;
        (0..n)
            .map(|_| Ok((self.string()?, self.bytes()?)))
            .collect()
    }
}

fn utf8(bytes: &[u8]) -> Result<String, WireError> {
    String::from_utf8(bytes.to_vec()).map_err(|_| WireError("Invalid UTF-8 in a string".into()))
}

/// Builds a response body notation by notation.
#[derive(Debug, Default)]
pub struct Writer {
    /// The body so far.
    pub out: Vec<u8>,
}

impl Writer {
    /// An empty body.
    pub fn new() -> Writer {
        Writer::default()
    }

    /// `[byte]`
    pub fn byte(&mut self, v: u8) -> &mut Writer {
        self.out.push(v);
        self
    }

    /// `[short]`
    pub fn short(&mut self, v: u16) -> &mut Writer {
        self.out.extend_from_slice(&v.to_be_bytes());
        self
    }

    /// `[int]`
    pub fn int(&mut self, v: i32) -> &mut Writer {
        self.out.extend_from_slice(&v.to_be_bytes());
        self
    }

    /// `[long]`
    pub fn long(&mut self, v: i64) -> &mut Writer {
        self.out.extend_from_slice(&v.to_be_bytes());
        self
    }

    /// `[string]`, cut at 65,535 bytes (on a character boundary) rather
    /// than written with a wrong length.
    pub fn string(&mut self, s: &str) -> &mut Writer {
        let mut end = s.len().min(usize::from(u16::MAX));
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        self.short(end as u16);
        self.out.extend_from_slice(&s.as_bytes()[..end]);
        self
    }

    /// `[long string]`
    pub fn long_string(&mut self, s: &str) -> &mut Writer {
        self.int(len_i32(s.len()));
        self.out.extend_from_slice(s.as_bytes());
        self
    }

    /// `[short bytes]`
    pub fn short_bytes(&mut self, b: &[u8]) -> &mut Writer {
        let len = b.len().min(usize::from(u16::MAX));
        self.short(len as u16);
        self.out.extend_from_slice(&b[..len]);
        self
    }

    /// `[bytes]`, `None` as null.
    pub fn bytes(&mut self, b: Option<&[u8]>) -> &mut Writer {
        match b {
            None => self.int(-1),
            Some(b) => {
                self.int(len_i32(b.len()));
                self.out.extend_from_slice(b);
                self
            }
        }
    }

    /// `[string list]`
    pub fn string_list<S: AsRef<str>>(&mut self, items: &[S]) -> &mut Writer {
        self.short(items.len().min(usize::from(u16::MAX)) as u16);
        for item in items.iter().take(usize::from(u16::MAX)) {
            self.string(item.as_ref());
        }
        self
    }

    /// `[string multimap]`
    pub fn string_multimap(&mut self, entries: &[(&str, Vec<String>)]) -> &mut Writer {
        self.short(entries.len() as u16);
        for (key, values) in entries {
            self.string(key);
            self.string_list(values);
        }
        self
    }

    /// `[inet]`: the address's length and bytes, then the port.
    pub fn inet(&mut self, addr: std::net::SocketAddr) -> &mut Writer {
        match addr.ip() {
            std::net::IpAddr::V4(ip) => {
                self.byte(4);
                self.out.extend_from_slice(&ip.octets());
            }
            std::net::IpAddr::V6(ip) => {
                self.byte(16);
                self.out.extend_from_slice(&ip.octets());
            }
        }
        self.int(i32::from(addr.port()))
    }
}

/// A length as the protocol's `[int]`; lengths past `i32::MAX` cannot
/// occur because frames are bounded far below that.
fn len_i32(len: usize) -> i32 {
    i32::try_from(len).unwrap_or(i32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notations_round_trip() {
        let mut w = Writer::new();
        w.short(7)
            .int(-3)
            .long(1 << 40)
            .string("héllo")
            .long_string("q");
        w.bytes(Some(b"ab")).bytes(None).string_list(&["a", "b"]);
        let mut r = Reader::new(&w.out);
        assert_eq!(r.short().unwrap(), 7);
        assert_eq!(r.int().unwrap(), -3);
        assert_eq!(r.long().unwrap(), 1 << 40);
        assert_eq!(r.string().unwrap(), "héllo");
        assert_eq!(r.long_string().unwrap(), "q");
        assert_eq!(r.bytes().unwrap(), Some(b"ab".to_vec()));
        assert_eq!(r.bytes().unwrap(), None);
        assert_eq!(r.string_list().unwrap(), vec!["a", "b"]);
        assert_eq!(r.remaining(), 0);
    }

    #[test]
    fn short_input_is_an_error_not_a_panic() {
        let mut r = Reader::new(&[0, 9, b'a']);
        assert!(r.string().is_err());
        let mut r = Reader::new(&[0x7f, 0xff, 0xff, 0xff]);
        assert!(r.bytes().is_err());
        let mut r = Reader::new(&[0xff, 0xff, 0xff, 0xfd]);
        assert!(r.value().is_err());
        let mut r = Reader::new(&[0xff, 0xff, 0xff, 0xfe]);
        assert_eq!(r.value().unwrap(), WireValue::Unset);
    }
}
