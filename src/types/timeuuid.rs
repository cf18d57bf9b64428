//! Time-based (version 1) UUIDs: building them from a time and reading their time back,
//! with the layout and conversions of Cassandra's `TimeUUID` (5.0), plus the random
//! version-4 UUIDs of `uuid()`.
//!
//! A version-1 UUID holds a 60-bit timestamp counting 100-nanosecond *ticks* since the
//! start of the Gregorian calendar (1582-10-15T00:00Z), split big-endian over the first
//! eight bytes as `time_low` (bytes 0–3), `time_mid` (4–5) and `time_hi` (the low 12 bits of
//! 6–7, whose top nibble is the version `1`). The last eight bytes are the clock sequence
//! (14 bits under the two variant bits `10`) and the 48-bit node. Cassandra keeps those
//! last eight bytes as one 64-bit number (`clockSeqAndNode`, the "lsb"), which the
//! functions here accept too.
//!
//! Everything here is pure: no clock and no randomness. The session owns those and hands
//! their output in (the current time in microseconds, 16 random bytes), so tests and
//! embedders get reproducible UUIDs.

/// Ticks (100 ns) from 1582-10-15T00:00Z to 1970-01-01T00:00Z: `0x01B21DD213814000`,
/// i.e. 12 219 292 800 000 ms (Cassandra's `UUID_EPOCH_UNIX_MILLIS`, negated) × 10 000.
pub const UUID_EPOCH_OFFSET_TICKS: i64 = 0x01B2_1DD2_1381_4000;

/// The lsb of `min_timeuuid`: eight bytes `0x80`, the smallest under Cassandra's
/// signed-byte comparison of the last eight bytes.
pub const MIN_CLOCK_SEQ_AND_NODE: u64 = 0x8080_8080_8080_8080;

/// The lsb of `max_timeuuid`: eight bytes `0x7f`, the largest under that comparison.
pub const MAX_CLOCK_SEQ_AND_NODE: u64 = 0x7f7f_7f7f_7f7f_7f7f;

const TICKS_MASK: u64 = (1 << 60) - 1;
const MILLIS_PER_TICK_UNIT: i64 = 10_000; // ticks per millisecond

/// A version-1 UUID from its 60-bit tick count and Cassandra's 64-bit lsb (clock
/// sequence and node, variant bits included), laid out as `TimeUUID.rawTimestampToMsb`
/// does. Tick counts beyond 60 bits (times before 1582 or after 5236) are wrapped to 60
/// bits, so the version nibble always stays `1`.
pub fn from_ticks_and_lsb(ticks: u64, lsb: u64) -> [u8; 16] {
    let ticks = ticks & TICKS_MASK;
    let time_low = (ticks & 0xffff_ffff) as u32;
    let time_mid = ((ticks >> 32) & 0xffff) as u16;
    let time_hi_and_version = ((ticks >> 48) as u16) | 0x1000;
    let mut out = [0u8; 16];
    out[0..4].copy_from_slice(&time_low.to_be_bytes());
    out[4..6].copy_from_slice(&time_mid.to_be_bytes());
    out[6..8].copy_from_slice(&time_hi_and_version.to_be_bytes());
    out[8..16].copy_from_slice(&lsb.to_be_bytes());
    out
}

/// Cassandra's lsb for a clock sequence (its low 14 bits are used) and a node (its low
/// 48 bits), with the RFC 4122 variant bits `10` set (`TimeUUID.makeClockSeqAndNode`).
pub fn clock_seq_and_node(clock_seq: u16, node: u64) -> u64 {
    0x8000_0000_0000_0000 | (u64::from(clock_seq & 0x3fff) << 48) | (node & 0xffff_ffff_ffff)
}

/// A version-1 UUID from a tick count, a clock sequence and a node.
pub fn from_ticks(ticks: u64, clock_seq: u16, node: u64) -> [u8; 16] {
    from_ticks_and_lsb(ticks, clock_seq_and_node(clock_seq, node))
}

/// The tick count of a Unix time in microseconds (`unixMicrosToRawTimestamp`).
pub fn unix_micros_to_ticks(unix_micros: i64) -> u64 {
    unix_micros
        .wrapping_mul(10)
        .wrapping_add(UUID_EPOCH_OFFSET_TICKS) as u64
}

/// A version-1 UUID for a Unix time in microseconds, the resolution `now()` uses.
pub fn from_unix_micros(unix_micros: i64, clock_seq: u16, node: u64) -> [u8; 16] {
    from_ticks(unix_micros_to_ticks(unix_micros), clock_seq, node)
}

/// The 60-bit tick count of a version-1 UUID (the version nibble is dropped).
pub fn ticks(uuid: &[u8; 16]) -> u64 {
    crate::types::order::uuid_timestamp(uuid)
}

/// The Unix time of a timeuuid in microseconds (`TimeUUID.unixMicros`: whole
/// microseconds, the tenths dropped).
pub fn unix_micros(uuid: &[u8; 16]) -> i64 {
    (ticks(uuid) / 10) as i64 - UUID_EPOCH_OFFSET_TICKS / 10
}

/// The Unix time of a timeuuid in milliseconds, as `to_timestamp` and
/// `to_unix_timestamp` read it (`TimeUUID.unix(MILLISECONDS)`): the microseconds divided
/// by 1000 *toward zero*, so a pre-1970 timeuuid rounds up to the next millisecond, as in
/// Cassandra.
pub fn unix_millis(uuid: &[u8; 16]) -> i64 {
    unix_micros(uuid) / 1000
}

/// `min_timeuuid(ms)` (language.md §4.2): the first tick of millisecond `ms` and the
/// last eight bytes `8080808080808080` — the smallest timeuuid of that millisecond under
/// Cassandra's timeuuid order. Meant only as a range bound.
pub fn min_timeuuid(unix_millis: i64) -> [u8; 16] {
    let ticks = unix_millis
        .wrapping_mul(MILLIS_PER_TICK_UNIT)
        .wrapping_add(UUID_EPOCH_OFFSET_TICKS);
    from_ticks_and_lsb(ticks as u64, MIN_CLOCK_SEQ_AND_NODE)
}

/// `max_timeuuid(ms)`: the last tick of millisecond `ms` (the first tick of `ms + 1`,
/// minus one) and the last eight bytes `7f7f7f7f7f7f7f7f` — the largest timeuuid of that
/// millisecond. `t >= max_timeuuid(x)` therefore excludes real UUIDs generated at `x`.
pub fn max_timeuuid(unix_millis: i64) -> [u8; 16] {
    let ticks = unix_millis
        .wrapping_add(1)
        .wrapping_mul(MILLIS_PER_TICK_UNIT)
        .wrapping_add(UUID_EPOCH_OFFSET_TICKS)
        .wrapping_sub(1);
    from_ticks_and_lsb(ticks as u64, MAX_CLOCK_SEQ_AND_NODE)
}

/// A random (version 4) UUID from 16 random bytes, as `uuid()` returns: the version
/// nibble set to `4` and the variant bits to `10` (what `UUID.randomUUID` does).
pub fn random_v4(random: [u8; 16]) -> [u8; 16] {
    let mut out = random;
    out[6] = (out[6] & 0x0f) | 0x40;
    out[8] = (out[8] & 0x3f) | 0x80;
    out
}

/// Makes the distinct, increasing timeuuids `now()` needs: Cassandra's
/// `TimeUUID.Generator`, a fixed lsb (chosen once per process from random bits) and a
/// microsecond clock that never repeats or goes back (`Clock.nextUnixMicros`). The
/// caller passes the wall clock in; two calls in the same microsecond get consecutive
/// microseconds.
#[derive(Debug, Clone)]
pub struct Generator {
    lsb: u64,
    last_micros: i64,
}

impl Generator {
    /// A generator whose UUIDs end in this clock sequence and node.
    pub fn new(clock_seq: u16, node: u64) -> Generator {
        Generator {
            lsb: clock_seq_and_node(clock_seq, node),
            last_micros: i64::MIN,
        }
    }

    /// A generator whose clock sequence and node come from eight random bytes. The
    /// node's multicast bit is set, as RFC 4122 asks of a node that is not a MAC
    /// address (Cassandra hashes the host's addresses instead, also setting that bit).
    pub fn from_random(random: [u8; 8]) -> Generator {
        let bits = u64::from_be_bytes(random);
        let node = (bits & 0xffff_ffff_ffff) | 0x0100_0000_0000;
        Generator::new((bits >> 48) as u16, node)
    }

    /// The next timeuuid, at `now_micros` or, if the clock has not moved past the last
    /// UUID's microsecond, one microsecond after it.
    pub fn next(&mut self, now_micros: i64) -> [u8; 16] {
        let micros = if now_micros > self.last_micros {
            now_micros
        } else {
            self.last_micros.saturating_add(1)
        };
        self.last_micros = micros;
        from_ticks_and_lsb(unix_micros_to_ticks(micros), self.lsb)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(u: &[u8; 16]) -> String {
        crate::types::format::uuid_text(u)
    }

    /// 2013-01-01T00:05:00Z, the reference's `minTimeuuid('2013-01-01 00:05+0000')`.
    const T: i64 = 1_356_998_700_000;

    #[test]
    fn min_and_max_match_python_uuid() {
        // python3: t = ms*10000 + 0x01B21DD213814000;
        // uuid.UUID(fields=(t & 0xffffffff, (t>>32) & 0xffff, ((t>>48) & 0xfff) | 0x1000,
        //                   0x80, 0x80, 0x808080808080))
        assert_eq!(
            text(&min_timeuuid(T)),
            "e23f1e00-53a6-11e2-8080-808080808080"
        );
        assert_eq!(
            text(&max_timeuuid(T)),
            "e23f450f-53a6-11e2-7f7f-7f7f7f7f7f7f"
        );
        assert_eq!(unix_millis(&min_timeuuid(T)), T);
        assert_eq!(unix_millis(&max_timeuuid(T)), T);
        assert_eq!(ticks(&max_timeuuid(T)) - ticks(&min_timeuuid(T)), 9_999);
    }

    #[test]
    fn min_and_max_bracket_every_uuid_of_the_millisecond() {
        use crate::types::Value;
        let inside = from_unix_micros(T * 1000 + 999, 0x3fff, 0xffff_ffff_ffff);
        let low = from_unix_micros(T * 1000, 0, 0);
        for u in [inside, low] {
            assert!(Value::Timeuuid(min_timeuuid(T)) <= Value::Timeuuid(u));
            assert!(Value::Timeuuid(u) <= Value::Timeuuid(max_timeuuid(T)));
        }
        assert!(Value::Timeuuid(max_timeuuid(T)) < Value::Timeuuid(min_timeuuid(T + 1)));
    }

    #[test]
    fn known_v1_vector() {
        // python3: micros = 1717228800123456; t = micros*10 + 0x01B21DD213814000;
        // uuid.UUID(fields=(..., 0x80 | (0x1234 >> 8) & 0x3f, 0x34, 0x0123456789ab))
        let u = from_unix_micros(1_717_228_800_123_456, 0x1234, 0x0123_4567_89ab);
        assert_eq!(text(&u), "f1cc9680-1fec-11ef-9234-0123456789ab");
        assert_eq!(unix_micros(&u), 1_717_228_800_123_456);
        assert_eq!(unix_millis(&u), 1_717_228_800_123);
        // The Gregorian epoch itself: tick 0.
        let epoch = from_ticks(0, 0, 0);
        assert_eq!(text(&epoch), "00000000-0000-1000-8000-000000000000");
        let unix_epoch = from_ticks(UUID_EPOCH_OFFSET_TICKS as u64, 0, 0);
        assert_eq!(text(&unix_epoch), "13814000-1dd2-11b2-8000-000000000000");
        assert_eq!(unix_millis(&unix_epoch), 0);
    }

    #[test]
    fn pre_1970_millis_truncate_toward_zero() {
        // 1.5 ms before the epoch reads as -1 ms, as Cassandra's TimeUnit conversion does.
        let u = from_unix_micros(-1_500, 0, 0);
        assert_eq!(unix_micros(&u), -1_500);
        assert_eq!(unix_millis(&u), -1);
        assert_eq!(unix_millis(&min_timeuuid(-123)), -123);
        // The last tick of -123 ms is -122.0001 ms: truncated toward zero, -122.
        assert_eq!(unix_millis(&max_timeuuid(-123)), -122);
    }

    #[test]
    fn random_v4_sets_version_and_variant() {
        let bytes: [u8; 16] = std::array::from_fn(|i| i as u8);
        // python3: uuid.UUID(bytes=bytes(range(16)), version=4)
        assert_eq!(
            text(&random_v4(bytes)),
            "00010203-0405-4607-8809-0a0b0c0d0e0f"
        );
        let ones = random_v4([0xff; 16]);
        assert_eq!(ones[6] >> 4, 4);
        assert_eq!(ones[8] >> 6, 0b10);
    }

    #[test]
    fn generator_is_strictly_increasing() {
        let mut g = Generator::new(0x1234, 0x0123_4567_89ab);
        let a = g.next(1_000);
        let b = g.next(1_000);
        let c = g.next(999);
        let d = g.next(5_000);
        assert_eq!(
            [a, b, c, d].map(|u| unix_micros(&u)),
            [1_000, 1_001, 1_002, 5_000]
        );
        assert_eq!(
            &a[8..],
            &clock_seq_and_node(0x1234, 0x0123_4567_89ab).to_be_bytes()
        );
        let r = Generator::from_random([0xff; 8]).next(0);
        assert_eq!(r[6] >> 4, 1);
        assert_eq!(r[8] >> 6, 0b10);
        assert_eq!(r[10] & 0x01, 0x01, "multicast bit of the node");
    }
}
