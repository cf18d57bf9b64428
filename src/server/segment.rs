//! Protocol v5 framing: once a v5 connection is started, frames ("envelopes"
//! in the v5 spec) no longer travel bare but inside *segments*, each with a
//! CRC24-protected header and a CRC32-protected payload, optionally
//! lz4-compressed.
//!
//! A self-contained segment holds one or more whole frames; a frame longer
//! than a segment's payload limit is cut across consecutive segments that are
//! not self-contained. Layouts (all integers little-endian, bit 0 first):
//!
//! * uncompressed: 3 header bytes (payload length: 17 bits, self-contained:
//!   1 bit, padding) + CRC24 of them (3 bytes) + payload + CRC32 (4 bytes);
//! * lz4: 5 header bytes (compressed length: 17 bits, uncompressed length:
//!   17 bits, 0 meaning "sent as is", self-contained: 1 bit, padding) +
//!   CRC24 (3 bytes) + payload + CRC32 of the payload as sent (4 bytes).
//!
//! The checksums are Cassandra's (`org.apache.cassandra.net.Crc`): a CRC24
//! over the header bytes with its own polynomial and seed, and a standard
//! CRC32 whose input is preceded by the four bytes `FA 2D 55 CA`.

use std::fmt;

/// The most payload bytes one segment carries (the length field's 17 bits).
pub const MAX_PAYLOAD: usize = (1 << 17) - 1;

/// A frame's own header: version, flags, stream (2), opcode, length (4).
const FRAME_HEADER: usize = 9;

const CRC24_INIT: u32 = 0x87_5060;
const CRC24_POLY: u32 = 0x197_4F0B;
const CRC32_SEED: [u8; 4] = [0xFA, 0x2D, 0x55, 0xCA];
const CRC32_LEN: usize = 4;

/// Cassandra's CRC24 over the header bytes, least significant byte first.
fn crc24(bytes: &[u8]) -> u32 {
    let mut crc = CRC24_INIT;
    for &byte in bytes {
        crc ^= u32::from(byte) << 16;
        for _ in 0..8 {
            crc <<= 1;
            if crc & 0x100_0000 != 0 {
                crc ^= CRC24_POLY;
            }
        }
    }
    crc & 0xFF_FFFF
}

/// Cassandra's payload CRC32: the usual CRC32, seeded by first feeding it
/// [`CRC32_SEED`].
fn crc32(payload: &[u8]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&CRC32_SEED);
    hasher.update(payload);
    hasher.finalize()
}

/// Why the segment stream from a peer cannot be read on; like Cassandra, the
/// server answers with a protocol error and closes the connection, since
/// there is no telling where the next good segment starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SegmentError {
    /// The header's CRC24 does not match its bytes.
    HeaderCrc {
        /// The CRC the segment carried.
        read: u32,
        /// The CRC of the header bytes as received.
        computed: u32,
    },
    /// The payload's CRC32 does not match its bytes.
    PayloadCrc {
        /// The CRC the segment carried.
        read: u32,
        /// The CRC of the payload as received.
        computed: u32,
    },
    /// A compressed payload that is not a valid lz4 block of the declared
    /// uncompressed length.
    CorruptLz4(String),
    /// A frame declares a body longer than the connection accepts (or longer
    /// than an `[int]` can say); `stream` lets the server say which request.
    FrameTooLarge {
        /// The stream id in the frame's header.
        stream: i16,
        /// The body length the frame declared.
        length: u32,
        /// The most the connection accepts.
        max: usize,
    },
    /// A self-contained segment ends inside a frame.
    IncompleteFrame,
    /// The first segment of a frame cut across segments is too short to hold
    /// the frame's 9-byte header, so its length is unknown.
    ShortFirstSegment(usize),
    /// A segment continuing a cut frame carries more bytes than the frame has
    /// left.
    FrameOverrun {
        /// Bytes the frame still lacked.
        expected: usize,
        /// Bytes the segment carried.
        got: usize,
    },
}

impl fmt::Display for SegmentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SegmentError::HeaderCrc { read, computed } => write!(
                f,
                "segment header CRC mismatch: read {read:#08x}, computed {computed:#08x}"
            ),
            SegmentError::PayloadCrc { read, computed } => write!(
                f,
                "segment payload CRC mismatch: read {read:#010x}, computed {computed:#010x}"
            ),
            SegmentError::CorruptLz4(why) => write!(f, "corrupt lz4 segment payload: {why}"),
            SegmentError::FrameTooLarge { stream, length, max } => write!(
                f,
                "frame on stream {stream} declares a {length}-byte body, more than the {max} allowed"
            ),
            SegmentError::IncompleteFrame => {
                f.write_str("a self-contained segment ends inside a frame")
            }
            SegmentError::ShortFirstSegment(len) => write!(
                f,
                "the first segment of a multi-segment frame holds only {len} bytes, less than a frame header"
            ),
            SegmentError::FrameOverrun { expected, got } => write!(
                f,
                "a continuation segment carries {got} bytes where the frame lacks only {expected}"
            ),
        }
    }
}

impl std::error::Error for SegmentError {}

/// Appends one segment carrying `payload` (at most [`MAX_PAYLOAD`] bytes) to
/// `out`. With `compressed`, the payload goes as an lz4 block when that is
/// shorter, as is otherwise (uncompressed length 0), as Cassandra does.
fn write_segment(payload: &[u8], self_contained: bool, compressed: bool, out: &mut Vec<u8>) {
    debug_assert!(payload.len() <= MAX_PAYLOAD);
    let flag = u64::from(self_contained);
    if compressed {
        let block = lz4_flex::block::compress(payload);
        let (sent, uncompressed_len) = if block.len() < payload.len() {
            (&block[..], payload.len())
        } else {
            (payload, 0)
        };
        let header = sent.len() as u64 | (uncompressed_len as u64) << 17 | flag << 34;
        let header = &header.to_le_bytes()[..5];
        out.extend_from_slice(header);
        out.extend_from_slice(&crc24(header).to_le_bytes()[..3]);
        out.extend_from_slice(sent);
        out.extend_from_slice(&crc32(sent).to_le_bytes());
    } else {
        let header = payload.len() as u64 | flag << 17;
        let header = &header.to_le_bytes()[..3];
        out.extend_from_slice(header);
        out.extend_from_slice(&crc24(header).to_le_bytes()[..3]);
        out.extend_from_slice(payload);
        out.extend_from_slice(&crc32(payload).to_le_bytes());
    }
}

/// The length of the frame starting `bytes` (header included), or all of
/// `bytes` when they are too short to hold the frame they begin.
fn frame_len(bytes: &[u8]) -> usize {
    match bytes.get(5..FRAME_HEADER) {
        Some(len) => {
            let body = u32::from_be_bytes([len[0], len[1], len[2], len[3]]);
            FRAME_HEADER
                .saturating_add(usize::try_from(body).unwrap_or(usize::MAX))
                .min(bytes.len())
        }
        None => bytes.len(),
    }
}

/// Wraps whole frames, laid end to end in `frames_bytes`, in segments
/// appended to `out`: consecutive frames share a self-contained segment as
/// long as they fit in [`MAX_PAYLOAD`] bytes together; a frame longer than
/// that is cut across its own segments, not self-contained. `compressed`
/// selects the lz4 layout (for a connection that asked for lz4).
///
/// The frames are the server's own, so they are expected whole; bytes that
/// do not end where their last header says are sent as one more frame
/// rather than lost.
pub fn encode_segments(frames_bytes: &[u8], compressed: bool, out: &mut Vec<u8>) {
    let mut pending_start = 0;
    let mut at = 0;
    while at < frames_bytes.len() {
        let len = frame_len(&frames_bytes[at..]);
        if len > MAX_PAYLOAD {
            if pending_start < at {
                write_segment(&frames_bytes[pending_start..at], true, compressed, out);
            }
            for chunk in frames_bytes[at..at + len].chunks(MAX_PAYLOAD) {
                write_segment(chunk, false, compressed, out);
            }
            at += len;
            pending_start = at;
        } else {
            if at + len - pending_start > MAX_PAYLOAD {
                write_segment(&frames_bytes[pending_start..at], true, compressed, out);
                pending_start = at;
            }
            at += len;
        }
    }
    if pending_start < frames_bytes.len() {
        write_segment(&frames_bytes[pending_start..], true, compressed, out);
    }
}

/// A segment header that has passed its CRC, waiting for its payload.
#[derive(Debug, Clone, Copy)]
struct Header {
    /// Payload bytes on the wire.
    payload_len: usize,
    /// The payload's length once decompressed; 0 when sent as is.
    uncompressed_len: usize,
    self_contained: bool,
}

/// A frame cut across segments, gathered until it is whole.
#[derive(Debug)]
struct Partial {
    bytes: Vec<u8>,
    total: usize,
}

/// Reads the segment stream of one v5 connection: feed it the bytes as they
/// arrive, in any chunks, and it hands back each frame once whole (a frame
/// cut across segments is put back together).
///
/// Memory stays bounded by the input: at most one segment is buffered, and a
/// frame cut across segments grows only as its segments arrive, and only if
/// its declared length is within the connection's limit. After an error the
/// decoder keeps returning it: the stream cannot be resynchronised.
#[derive(Debug)]
pub struct SegmentDecoder {
    compressed: bool,
    max_frame_len: usize,
    buf: Vec<u8>,
    header: Option<Header>,
    partial: Option<Partial>,
    failed: Option<SegmentError>,
}

impl SegmentDecoder {
    /// A decoder for a connection whose segments are lz4-compressed
    /// (`compressed`) or not, accepting frame bodies of at most
    /// `max_frame_len` bytes (Cassandra's `native_transport_max_frame_size`).
    pub fn new(compressed: bool, max_frame_len: usize) -> SegmentDecoder {
        SegmentDecoder {
            compressed,
            max_frame_len,
            buf: Vec::new(),
            header: None,
            partial: None,
            failed: None,
        }
    }

    fn header_len(&self) -> usize {
        if self.compressed {
            8
        } else {
            6
        }
    }

    /// Whether the decoder sits between segments with no frame half read, so
    /// the peer closing the connection here loses nothing.
    pub fn is_idle(&self) -> bool {
        self.buf.is_empty() && self.header.is_none() && self.partial.is_none()
    }

    /// Takes in bytes read from the connection and returns the frames they
    /// complete, in order, each with its 9-byte header.
    pub fn feed(&mut self, input: &[u8]) -> Result<Vec<Vec<u8>>, SegmentError> {
        if let Some(error) = &self.failed {
            return Err(error.clone());
        }
        let mut frames = Vec::new();
        match self.run(input, &mut frames) {
            Ok(()) => Ok(frames),
            Err(error) => {
                self.buf = Vec::new();
                self.partial = None;
                self.failed = Some(error.clone());
                Err(error)
            }
        }
    }

    fn run(&mut self, mut input: &[u8], frames: &mut Vec<Vec<u8>>) -> Result<(), SegmentError> {
        loop {
            let need = match self.header {
                None => self.header_len(),
                Some(h) => self.header_len() + h.payload_len + CRC32_LEN,
            };
            let take = need.saturating_sub(self.buf.len()).min(input.len());
            self.buf.extend_from_slice(&input[..take]);
            input = &input[take..];
            if self.buf.len() < need {
                return Ok(());
            }
            match self.header {
                None => self.header = Some(self.read_header()?),
                Some(header) => {
                    self.header = None;
                    let payload = self.read_payload(header)?;
                    self.buf.clear();
                    self.take_payload(payload, header.self_contained, frames)?;
                }
            }
        }
    }

    /// Checks the header at the start of `buf` and reads its fields.
    fn read_header(&self) -> Result<Header, SegmentError> {
        let (fields, crc) = self.buf.split_at(self.header_len() - 3);
        let mut raw = [0u8; 8];
        raw[..fields.len()].copy_from_slice(fields);
        let raw = u64::from_le_bytes(raw);
        let read = u32::from_le_bytes([crc[0], crc[1], crc[2], 0]);
        let computed = crc24(fields);
        if read != computed {
            return Err(SegmentError::HeaderCrc { read, computed });
        }
        let field = |shift: u32| (raw >> shift) as usize & MAX_PAYLOAD;
        Ok(if self.compressed {
            Header {
                payload_len: field(0),
                uncompressed_len: field(17),
                self_contained: raw >> 34 & 1 == 1,
            }
        } else {
            Header {
                payload_len: field(0),
                uncompressed_len: 0,
                self_contained: raw >> 17 & 1 == 1,
            }
        })
    }

    /// Checks the payload CRC of the whole segment in `buf` and returns the
    /// payload, decompressed.
    fn read_payload(&self, header: Header) -> Result<Vec<u8>, SegmentError> {
        let start = self.header_len();
        let (payload, crc) = self.buf[start..].split_at(header.payload_len);
        let read = u32::from_le_bytes([crc[0], crc[1], crc[2], crc[3]]);
        let computed = crc32(payload);
        if read != computed {
            return Err(SegmentError::PayloadCrc { read, computed });
        }
        if header.uncompressed_len == 0 {
            return Ok(payload.to_vec());
        }
        let mut out = vec![0; header.uncompressed_len];
        let written = lz4_flex::block::decompress_into(payload, &mut out)
            .map_err(|e| SegmentError::CorruptLz4(e.to_string()))?;
        if written != out.len() {
            return Err(SegmentError::CorruptLz4(format!(
                "declares {} bytes but holds {written}",
                out.len()
            )));
        }
        Ok(out)
    }

    /// The declared total length (header included) of the frame starting
    /// `bytes`, which hold at least its header, checked against the limit.
    fn declared_len(&self, bytes: &[u8]) -> Result<usize, SegmentError> {
        let stream = i16::from_be_bytes([bytes[2], bytes[3]]);
        let length = u32::from_be_bytes([bytes[5], bytes[6], bytes[7], bytes[8]]);
        let body = usize::try_from(length).unwrap_or(usize::MAX);
        if length > i32::MAX as u32 || body > self.max_frame_len {
            return Err(SegmentError::FrameTooLarge {
                stream,
                length,
                max: self.max_frame_len,
            });
        }
        Ok(FRAME_HEADER + body)
    }

    fn take_payload(
        &mut self,
        payload: Vec<u8>,
        self_contained: bool,
        frames: &mut Vec<Vec<u8>>,
    ) -> Result<(), SegmentError> {
        if self_contained {
            // Cassandra reads a self-contained segment even while a cut frame
            // is being gathered; so do we, leaving that frame pending.
            let mut rest = &payload[..];
            while !rest.is_empty() {
                if rest.len() < FRAME_HEADER {
                    return Err(SegmentError::IncompleteFrame);
                }
                let len = self.declared_len(rest)?;
                if len > rest.len() {
                    return Err(SegmentError::IncompleteFrame);
                }
                let (frame, tail) = rest.split_at(len);
                frames.push(frame.to_vec());
                rest = tail;
            }
            return Ok(());
        }
        let mut partial = match self.partial.take() {
            Some(partial) => partial,
            None => {
                if payload.len() < FRAME_HEADER {
                    return Err(SegmentError::ShortFirstSegment(payload.len()));
                }
                Partial {
                    total: self.declared_len(&payload)?,
                    bytes: Vec::new(),
                }
            }
        };
        let expected = partial.total - partial.bytes.len();
        if payload.len() > expected {
            return Err(SegmentError::FrameOverrun {
                expected,
                got: payload.len(),
            });
        }
        if partial.bytes.is_empty() {
            partial.bytes = payload;
        } else {
            partial.bytes.extend_from_slice(&payload);
        }
        if partial.bytes.len() == partial.total {
            frames.push(partial.bytes);
        } else {
            self.partial = Some(partial);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    /// A frame as the vector script built them: a v5 request header
    /// (version 5, no flags, `stream`, opcode QUERY) and `body_len` bytes of
    /// `fill`, or of the pattern `(i * 7 + 3) % 251` when `fill` is `None`.
    fn frame(body_len: usize, stream: i16, fill: Option<u8>) -> Vec<u8> {
        let mut f = vec![5, 0];
        f.extend_from_slice(&stream.to_be_bytes());
        f.push(7);
        f.extend_from_slice(&(body_len as u32).to_be_bytes());
        f.extend((0..body_len).map(|i| fill.unwrap_or(((i * 7 + 3) % 251) as u8)));
        f
    }

    fn decode_all(bytes: &[u8], compressed: bool) -> Result<Vec<Vec<u8>>, SegmentError> {
        SegmentDecoder::new(compressed, 256 << 20).feed(bytes)
    }

    /// Opens one whole segment whose payload is not necessarily frames.
    fn open_segment(bytes: &[u8], compressed: bool) -> Result<(bool, Vec<u8>), SegmentError> {
        let mut decoder = SegmentDecoder::new(compressed, usize::MAX);
        decoder.buf = bytes[..decoder.header_len()].to_vec();
        let header = decoder.read_header()?;
        assert_eq!(
            bytes.len(),
            decoder.header_len() + header.payload_len + CRC32_LEN
        );
        decoder.buf = bytes.to_vec();
        Ok((header.self_contained, decoder.read_payload(header)?))
    }

    /// (header with its CRC24, payload CRC32) of each segment in `bytes`.
    fn segment_marks(bytes: &[u8], compressed: bool) -> Vec<(String, String)> {
        let header_len = if compressed { 8 } else { 6 };
        let mut marks = Vec::new();
        let mut at = 0;
        while at < bytes.len() {
            let mut raw = [0u8; 8];
            raw[..3].copy_from_slice(&bytes[at..at + 3]);
            let len = u64::from_le_bytes(raw) as usize & MAX_PAYLOAD;
            let end = at + header_len + len + CRC32_LEN;
            let to_hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
            marks.push((
                to_hex(&bytes[at..at + header_len]),
                to_hex(&bytes[end - CRC32_LEN..end]),
            ));
            at = end;
        }
        marks
    }

    // The vectors below come from cassandra-driver 3.30.1 (the Python
    // driver), encoded by its own `cassandra/segment.py` (`SegmentCodec`,
    // `compute_crc24`, `compute_crc32`) through
    // `cassandra.connection.segment_codec_no_compression` and
    // `segment_codec_lz4`, by a one-off script not kept in the repository.

    #[test]
    fn crc24_matches_the_driver() {
        // compute_crc24(value, length) over the value's low bytes.
        let cases: [(u64, usize, u32); 4] = [
            (0x00_0000, 3, 0x7d_e777),
            (0x02_000a, 3, 0x79_688c),
            (0x12_3456_7890, 5, 0x56_49a6),
            (0xff_ffff, 3, 0x7a_86ff),
        ];
        for (value, len, expected) in cases {
            assert_eq!(crc24(&value.to_le_bytes()[..len]), expected, "{value:#x}");
        }
    }

    #[test]
    fn crc32_matches_the_driver() {
        // compute_crc32(data, CRC32_INITIAL), CRC32_INITIAL = 0x44777ed3.
        assert_eq!(crc32(b""), 0x4477_7ed3);
        assert_eq!(crc32(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]), 0xdffa_32a8);
    }

    #[test]
    fn single_segments_match_the_driver_byte_for_byte() {
        let ten: Vec<u8> = (0..10).collect();
        // (payload, compressed, the driver's segment); with lz4 these
        // payloads do not shrink, so both sides send them as they are.
        let cases: [(&[u8], bool, &str); 4] = [
            (b"", false, "0000026a36c4d37e7744"),
            (&ten, false, "0a00028c687900010203040506070809a832fadf"),
            (b"", true, "00000000043b414ed37e7744"),
            (&ten, true, "0a000000048edb5800010203040506070809a832fadf"),
        ];
        for (payload, compressed, driver) in cases {
            let mut out = Vec::new();
            write_segment(payload, true, compressed, &mut out);
            assert_eq!(out, hex(driver));
            assert_eq!(open_segment(&out, compressed), Ok((true, payload.to_vec())));
        }
    }

    #[test]
    fn reads_the_drivers_compressed_segment() {
        // 100 zero bytes, which the driver's lz4 does compress.
        let driver = hex("0b00c800048f183a1f0001004b5000000000004ce5584c");
        assert_eq!(open_segment(&driver, true), Ok((true, vec![0; 100])));
    }

    #[test]
    fn packs_small_frames_into_one_segment_as_the_driver_would() {
        let frames = [frame(1, 1, None), frame(50, 4, None)].concat();
        let driver = hex(concat!(
            "450002bff1d805000001070000000103050000040700000032030a11181f262d",
            "343b424950575e656c737a81888f969da4abb2b9c0c7ced5dce3eaf1f8040b12",
            "1920272e353c434a51585f095256bd"
        ));
        let mut out = Vec::new();
        encode_segments(&frames, false, &mut out);
        assert_eq!(out, driver);
        assert_eq!(
            decode_all(&driver, false),
            Ok(vec![frame(1, 1, None), frame(50, 4, None)])
        );
    }

    #[test]
    fn a_frame_of_exactly_the_payload_limit_is_one_segment() {
        let big = frame(MAX_PAYLOAD - FRAME_HEADER, 1, None);
        let mut out = Vec::new();
        encode_segments(&big, false, &mut out);
        assert_eq!(out.len(), 131_081);
        assert_eq!(
            segment_marks(&out, false),
            [("ffff03254047".to_string(), "7fb6219e".to_string())]
        );
        assert_eq!(decode_all(&out, false), Ok(vec![big]));
    }

    #[test]
    fn larger_frames_are_cut_as_the_driver_cuts_them() {
        let cases = [
            (
                frame(200_000, 1, None),
                vec![("ffff013891fe", "c044fcf0"), ("4a0d01c0e0e2", "912a0308")],
            ),
            (
                frame(300_000, 3, Some(b'a')),
                vec![
                    ("ffff013891fe", "d95ba513"),
                    ("ffff013891fe", "49531ffb"),
                    ("eb930052e0c6", "a2e80df2"),
                ],
            ),
        ];
        for (big, driver) in cases {
            let mut out = Vec::new();
            encode_segments(&big, false, &mut out);
            let driver: Vec<_> = driver
                .into_iter()
                .map(|(h, c)| (h.to_string(), c.to_string()))
                .collect();
            assert_eq!(segment_marks(&out, false), driver);
            assert_eq!(decode_all(&out, false), Ok(vec![big.clone()]));
            let mut compressed = Vec::new();
            encode_segments(&big, true, &mut compressed);
            assert!(compressed.len() < out.len());
            assert_eq!(decode_all(&compressed, true), Ok(vec![big]));
        }
    }

    /// The driver's lz4 segment for `frame(131062, 1, None)`: one
    /// self-contained segment, 783 bytes compressed.
    const DRIVER_LZ4_MAX: &str = concat!(
        "0f03feff07a58ffefff505000001070001fff6030a11181f262d343b42495057",
        "5e656c737a81888f969da4abb2b9c0c7ced5dce3eaf1f8040b121920272e353c",
        "434a51585f666d747b828990979ea5acb3bac1c8cfd6dde4ebf2f9050c131a21",
        "282f363d444b525960676e757c838a91989fa6adb4bbc2c9d0d7dee5ecf3fa06",
        "0d141b222930373e454c535a61686f767d848b9299a0a7aeb5bcc3cad1d8dfe6",
        "edf400070e151c232a31383f464d545b626970777e858c939aa1a8afb6bdc4cb",
        "d2d9e0e7eef501080f161d242b323940474e555c636a71787f868d949ba2a9b0",
        "b7bec5ccd3dae1e8eff6020910171e252c333a41484f565d646b727980878e95",
        "9ca3aab1b8bfc6cdd4dbe2e9f0f7fb00",
    );

    #[test]
    fn reads_the_drivers_lz4_frame_of_the_payload_limit() {
        // After the literal run, the driver's block is 512 bytes of 0xff
        // (a match length continued) and an 11-byte tail, the payload CRC last.
        let mut driver = hex(DRIVER_LZ4_MAX);
        driver.extend(std::iter::repeat_n(0xff, 512));
        driver.extend(hex("e350f8040b1219d4eeae97"));
        assert_eq!(driver.len(), 795);
        let big = frame(MAX_PAYLOAD - FRAME_HEADER, 1, None);
        assert_eq!(crc32fast::hash(&big), 0x47c7_2f80);
        assert_eq!(decode_all(&driver, true), Ok(vec![big]));
    }

    #[test]
    fn feeds_in_any_chunks() {
        let frames = [
            frame(0, 1, None),
            frame(200_000, 2, None),
            frame(17, 3, None),
        ];
        let mut wire = Vec::new();
        encode_segments(&frames.concat(), true, &mut wire);
        for chunk in [1, 5, 8, 4096, wire.len()] {
            let mut decoder = SegmentDecoder::new(true, 1 << 20);
            let mut got = Vec::new();
            for piece in wire.chunks(chunk) {
                got.extend(decoder.feed(piece).unwrap());
            }
            assert_eq!(got, frames, "chunks of {chunk}");
            assert!(decoder.is_idle());
        }
    }

    #[test]
    fn a_bad_header_crc_is_caught_before_the_payload_arrives() {
        let mut wire = Vec::new();
        encode_segments(&frame(10, 1, None), false, &mut wire);
        wire[0] ^= 1;
        let mut decoder = SegmentDecoder::new(false, 1 << 20);
        assert!(matches!(
            decoder.feed(&wire[..6]),
            Err(SegmentError::HeaderCrc { .. })
        ));
        // The error sticks: the stream cannot be read on.
        assert!(matches!(
            decoder.feed(&wire[6..]),
            Err(SegmentError::HeaderCrc { .. })
        ));
    }

    #[test]
    fn a_bad_payload_crc_is_an_error() {
        for compressed in [false, true] {
            let mut wire = Vec::new();
            encode_segments(&frame(10, 1, None), compressed, &mut wire);
            let last = wire.len() - 5;
            wire[last] ^= 0x40;
            assert!(matches!(
                decode_all(&wire, compressed),
                Err(SegmentError::PayloadCrc { .. })
            ));
        }
    }

    /// A compressed-layout segment with any fields, CRCs made right.
    fn raw_lz4_segment(payload: &[u8], uncompressed_len: usize, self_contained: bool) -> Vec<u8> {
        let header = payload.len() as u64
            | (uncompressed_len as u64) << 17
            | u64::from(self_contained) << 34;
        let header = &header.to_le_bytes()[..5];
        let mut out = header.to_vec();
        out.extend_from_slice(&crc24(header).to_le_bytes()[..3]);
        out.extend_from_slice(payload);
        out.extend_from_slice(&crc32(payload).to_le_bytes());
        out
    }

    #[test]
    fn corrupt_lz4_is_an_error() {
        // A literal run claiming 15 + 255 bytes with none following.
        let bad = raw_lz4_segment(&[0xf0, 0xff, 0x01], 100, true);
        assert!(matches!(
            decode_all(&bad, true),
            Err(SegmentError::CorruptLz4(_))
        ));
        // Valid lz4 of 20 bytes, declared as 40.
        let block = lz4_flex::block::compress(&frame(11, 1, None));
        let short = raw_lz4_segment(&block, 40, true);
        assert!(matches!(
            decode_all(&short, true),
            Err(SegmentError::CorruptLz4(_))
        ));
    }

    #[test]
    fn a_frame_over_the_limit_is_refused_before_it_is_gathered() {
        // A first segment declaring a 200 MB body: refused at once.
        let mut head = frame(0, 9, None);
        head[5..9].copy_from_slice(&200_000_000u32.to_be_bytes());
        head.extend_from_slice(&[0; 100]);
        let mut wire = Vec::new();
        write_segment(&head, false, false, &mut wire);
        let mut decoder = SegmentDecoder::new(false, 1 << 20);
        assert_eq!(
            decoder.feed(&wire),
            Err(SegmentError::FrameTooLarge {
                stream: 9,
                length: 200_000_000,
                max: 1 << 20
            })
        );
        // Inside a self-contained segment too, and a negative [int] length.
        let mut small = frame(0, -1, None);
        small[5..9].copy_from_slice(&(-5i32).to_be_bytes());
        let mut wire = Vec::new();
        write_segment(&small, true, false, &mut wire);
        assert!(matches!(
            decode_all(&wire, false),
            Err(SegmentError::FrameTooLarge { stream: -1, .. })
        ));
    }

    #[test]
    fn segments_that_do_not_hold_their_frames_are_errors() {
        let whole = frame(20, 1, None);
        let mut wire = Vec::new();
        write_segment(&whole[..15], true, false, &mut wire);
        assert_eq!(decode_all(&wire, false), Err(SegmentError::IncompleteFrame));

        let mut wire = Vec::new();
        write_segment(&whole[..5], false, false, &mut wire);
        assert_eq!(
            decode_all(&wire, false),
            Err(SegmentError::ShortFirstSegment(5))
        );

        let mut wire = Vec::new();
        write_segment(&whole[..15], false, false, &mut wire);
        write_segment(&[0; 30], false, false, &mut wire);
        assert_eq!(
            decode_all(&wire, false),
            Err(SegmentError::FrameOverrun {
                expected: 14,
                got: 30
            })
        );
    }

    #[test]
    fn an_empty_segment_and_a_self_contained_one_amid_a_cut_frame() {
        let cut = frame(30, 1, None);
        let other = frame(3, 2, None);
        let mut wire = Vec::new();
        write_segment(&[], true, false, &mut wire);
        write_segment(&cut[..20], false, false, &mut wire);
        write_segment(&other, true, false, &mut wire);
        write_segment(&cut[20..], false, false, &mut wire);
        assert_eq!(decode_all(&wire, false), Ok(vec![other, cut]));
    }

    fn frame_strategy() -> impl Strategy<Value = Vec<u8>> {
        let body = prop_oneof![
            8 => prop::collection::vec(any::<u8>(), 0..300),
            1 => (MAX_PAYLOAD - 20..MAX_PAYLOAD * 3).prop_map(|n| vec![0x5a; n]),
        ];
        (any::<i16>(), body).prop_map(|(stream, body)| {
            let mut f = frame(0, stream, None);
            f[5..9].copy_from_slice(&(body.len() as u32).to_be_bytes());
            f.extend_from_slice(&body);
            f
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn round_trip(
            frames in prop::collection::vec(frame_strategy(), 0..8),
            compressed in any::<bool>(),
            chunk in 1usize..70_000,
        ) {
            let mut wire = Vec::new();
            encode_segments(&frames.concat(), compressed, &mut wire);
            let mut decoder = SegmentDecoder::new(compressed, 1 << 20);
            let mut got = Vec::new();
            for piece in wire.chunks(chunk) {
                got.extend(decoder.feed(piece).unwrap());
            }
            prop_assert_eq!(got, frames);
            prop_assert!(decoder.is_idle());
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn garbage_never_panics(
            bytes in prop::collection::vec(any::<u8>(), 0..2_000),
            compressed in any::<bool>(),
            chunk in 1usize..600,
        ) {
            let mut decoder = SegmentDecoder::new(compressed, 1 << 16);
            for piece in bytes.chunks(chunk) {
                if decoder.feed(piece).is_err() {
                    break;
                }
            }
        }

        #[test]
        fn corrupted_segments_never_panic(
            frames in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..200), 1..5),
            compressed in any::<bool>(),
            at in any::<prop::sample::Index>(),
            flip in 1u8..,
        ) {
            // Valid segments (CRCs right, so the decoder reaches the lz4 and
            // framing checks) around payloads that are not frames.
            let mut wire = Vec::new();
            for payload in &frames {
                write_segment(payload, at.index(2) == 0, compressed, &mut wire);
            }
            let _ = decode_all(&wire, compressed);
            let i = at.index(wire.len());
            wire[i] ^= flip;
            let _ = decode_all(&wire, compressed);
        }

        #[test]
        fn any_compressed_payload_with_right_crcs_never_panics(
            payload in prop::collection::vec(any::<u8>(), 0..400),
            uncompressed_len in 0usize..=MAX_PAYLOAD,
            self_contained in any::<bool>(),
        ) {
            let _ = decode_all(&raw_lz4_segment(&payload, uncompressed_len, self_contained), true);
        }
    }
}
