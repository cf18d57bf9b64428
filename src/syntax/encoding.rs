//! Script files as cqlsh opens them: a byte-order mark at the start names
//! the encoding and is skipped, and a file without one is UTF-8
//! (`get_file_encoding_bomsize` in cqlshlib/util.py, used by `-f` and
//! SOURCE). UTF-16 and UTF-32 files are decoded to UTF-8 as they stream,
//! so the statement splitter reads every script the same way.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};

/// The encodings a byte-order mark names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8, with or without its mark.
    Utf8,
    /// UTF-16, little-endian.
    Utf16Le,
    /// UTF-16, big-endian.
    Utf16Be,
    /// UTF-32, little-endian.
    Utf32Le,
    /// UTF-32, big-endian.
    Utf32Be,
}

/// The marks, longest first where one begins another (UTF-32LE's starts
/// with UTF-16LE's).
const MARKS: [(&[u8], Encoding); 5] = [
    (&[0xEF, 0xBB, 0xBF], Encoding::Utf8),
    (&[0xFF, 0xFE, 0x00, 0x00], Encoding::Utf32Le),
    (&[0x00, 0x00, 0xFE, 0xFF], Encoding::Utf32Be),
    (&[0xFF, 0xFE], Encoding::Utf16Le),
    (&[0xFE, 0xFF], Encoding::Utf16Be),
];

/// The encoding the first bytes of a file name, and the length of the
/// mark to skip (UTF-8 and no mark when there is none).
pub fn detect(first: &[u8]) -> (Encoding, usize) {
    MARKS
        .iter()
        .find(|(mark, _)| first.starts_with(mark))
        .map_or((Encoding::Utf8, 0), |&(mark, encoding)| {
            (encoding, mark.len())
        })
}

/// Opens a script file for the statement splitter: its mark skipped, its
/// text as UTF-8.
pub fn open_script(mut file: File) -> io::Result<Box<dyn BufRead>> {
    let mut first = [0u8; 4];
    let mut read = 0;
    while read < first.len() {
        match file.read(&mut first[read..])? {
            0 => break,
            n => read += n,
        }
    }
    let (encoding, mark) = detect(&first[..read]);
    file.seek(SeekFrom::Start(mark as u64))?;
    Ok(match encoding {
        Encoding::Utf8 => Box::new(BufReader::new(file)),
        other => Box::new(BufReader::new(Decoder::new(file, other))),
    })
}

/// Decodes UTF-16 or UTF-32 text from `inner` into UTF-8 bytes.
struct Decoder<R> {
    inner: R,
    encoding: Encoding,
    /// Raw bytes read and not yet decoded (a unit or pair cut by a read).
    raw: Vec<u8>,
    /// Decoded UTF-8 not yet handed out, from `out_at`.
    out: Vec<u8>,
    out_at: usize,
    /// Bytes of the file decoded so far, for error messages.
    offset: usize,
}

impl<R: Read> Decoder<R> {
    fn new(inner: R, encoding: Encoding) -> Decoder<R> {
        Decoder {
            inner,
            encoding,
            raw: Vec::new(),
            out: Vec::new(),
            out_at: 0,
            offset: 0,
        }
    }

    /// Reads and decodes the next chunk; false at the end of the input.
    fn refill(&mut self) -> io::Result<bool> {
        let mut chunk = [0u8; 8192];
        loop {
            let n = self.inner.read(&mut chunk)?;
            if n == 0 {
                return match self.raw.is_empty() {
                    true => Ok(false),
                    false => Err(self.invalid("ends inside a character")),
                };
            }
            self.raw.extend_from_slice(&chunk[..n]);
            self.out.clear();
            self.out_at = 0;
            let used = self.decode()?;
            self.raw.drain(..used);
            self.offset += used;
            if !self.out.is_empty() {
                return Ok(true);
            }
        }
    }

    /// Decodes the whole characters at the start of `raw` into `out`;
    /// returns how many raw bytes they took.
    fn decode(&mut self) -> io::Result<usize> {
        let mut at = 0;
        let mut utf8 = [0u8; 4];
        while let Some((c, len)) = self.next_char(at)? {
            self.out
                .extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
            at += len;
        }
        Ok(at)
    }

    /// The character at `raw[at..]` and its length, or `None` when the
    /// bytes there do not hold a whole one yet.
    fn next_char(&self, at: usize) -> io::Result<Option<(char, usize)>> {
        let bytes = &self.raw[at..];
        let (wide, big) = match self.encoding {
            Encoding::Utf32Le => (true, false),
            Encoding::Utf32Be => (true, true),
            Encoding::Utf16Le => (false, false),
            Encoding::Utf16Be | Encoding::Utf8 => (false, true),
        };
        if wide {
            let Some(&[a, b, c, d]) = bytes.get(..4) else {
                return Ok(None);
            };
            let unit = [a, b, c, d];
            let value = if big {
                u32::from_be_bytes(unit)
            } else {
                u32::from_le_bytes(unit)
            };
            return match char::from_u32(value) {
                Some(c) => Ok(Some((c, 4))),
                None => Err(self.invalid_at(at, "is not a character")),
            };
        }
        let unit = |i: usize| -> Option<u16> {
            let pair: [u8; 2] = bytes.get(i..i + 2)?.try_into().ok()?;
            Some(if big {
                u16::from_be_bytes(pair)
            } else {
                u16::from_le_bytes(pair)
            })
        };
        let Some(first) = unit(0) else {
            return Ok(None);
        };
        if !(0xD800..0xE000).contains(&first) {
            return Ok(char::from_u32(first.into()).map(|c| (c, 2)));
        }
        let Some(second) = unit(2) else {
            return Ok(None);
        };
        match char::decode_utf16([first, second]).next() {
            Some(Ok(c)) => Ok(Some((c, 4))),
            _ => Err(self.invalid_at(at, "is a lone surrogate")),
        }
    }

    fn invalid_at(&self, at: usize, what: &str) -> io::Error {
        let name = match self.encoding {
            Encoding::Utf16Le | Encoding::Utf16Be | Encoding::Utf8 => "UTF-16",
            Encoding::Utf32Le | Encoding::Utf32Be => "UTF-32",
        };
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "the {name} text at byte {} {what}",
                self.offset + at + mark_len(self.encoding)
            ),
        )
    }

    fn invalid(&self, what: &str) -> io::Error {
        self.invalid_at(self.raw.len(), what)
    }
}

/// The length of the mark that announced `encoding`.
fn mark_len(encoding: Encoding) -> usize {
    MARKS
        .iter()
        .find(|(_, e)| *e == encoding)
        .map_or(0, |(mark, _)| mark.len())
}

impl<R: Read> Read for Decoder<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.out_at == self.out.len() && !self.refill()? {
            return Ok(0);
        }
        let n = buf.len().min(self.out.len() - self.out_at);
        buf[..n].copy_from_slice(&self.out[self.out_at..self.out_at + n]);
        self.out_at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8], encoding: Encoding) -> io::Result<String> {
        let mut text = String::new();
        Decoder::new(bytes, encoding).read_to_string(&mut text)?;
        Ok(text)
    }

    #[test]
    fn marks_name_their_encoding() {
        assert_eq!(detect(b"\xEF\xBB\xBFSELECT"), (Encoding::Utf8, 3));
        assert_eq!(detect(b"\xFF\xFE\x00\x00"), (Encoding::Utf32Le, 4));
        assert_eq!(detect(b"\xFF\xFES\x00"), (Encoding::Utf16Le, 2));
        assert_eq!(detect(b"\xFE\xFF\x00S"), (Encoding::Utf16Be, 2));
        assert_eq!(detect(b"\x00\x00\xFE\xFF"), (Encoding::Utf32Be, 4));
        assert_eq!(detect(b"SELECT"), (Encoding::Utf8, 0));
    }

    #[test]
    fn utf16_and_utf32_decode_with_pairs() {
        let text = "é; 😀\n";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(decode(&le, Encoding::Utf16Le).unwrap(), text);
        assert_eq!(decode(&be, Encoding::Utf16Be).unwrap(), text);
        let wide: Vec<u8> = text
            .chars()
            .flat_map(|c| (c as u32).to_le_bytes())
            .collect();
        assert_eq!(decode(&wide, Encoding::Utf32Le).unwrap(), text);
        assert!(decode(&le[..le.len() - 1], Encoding::Utf16Le).is_err());
        assert!(decode(&[0x00, 0xD8, 0x41, 0x00], Encoding::Utf16Le).is_err());
    }
}
