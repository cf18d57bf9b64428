//! Constants against every native type: Cassandra's acceptance table (`language.md`
//! §3.2) and its messages.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use crate::error::ErrorKind;
use crate::syntax::ast::{Literal, NativeType};
use crate::types::data_type::DataType;
use crate::types::value::{CqlDuration, Value};

use super::coerce;

fn native(t: NativeType) -> DataType {
    DataType::Native(t)
}

fn ok(literal: Literal, t: NativeType) -> Value {
    match coerce(&literal, &native(t), "c") {
        Ok(v) => v,
        Err(e) => panic!("{literal:?} for {t:?}: {}", e.message()),
    }
}

fn err(literal: Literal, ty: &DataType, column: &str) -> String {
    let e = coerce(&literal, ty, column).expect_err("must be refused");
    assert_eq!(e.kind(), ErrorKind::InvalidRequest);
    e.message().to_string()
}

fn err_n(literal: Literal, t: NativeType) -> String {
    err(literal, &native(t), "c")
}

fn s(text: &str) -> Literal {
    Literal::String(text.into())
}

fn i(text: &str) -> Literal {
    Literal::Integer(text.into())
}

fn f(text: &str) -> Literal {
    Literal::Float(text.into())
}

#[test]
fn kinds_the_type_does_not_accept() {
    use NativeType::*;
    assert_eq!(
        err(s("abc"), &native(Int), "id"),
        "Invalid STRING constant (abc) for \"id\" of type int"
    );
    assert_eq!(
        err_n(i("5"), Text),
        "Invalid INTEGER constant (5) for \"c\" of type text"
    );
    assert_eq!(
        err_n(f("1.5"), Int),
        "Invalid FLOAT constant (1.5) for \"c\" of type int"
    );
    assert_eq!(
        err_n(f("1.5"), Varint),
        "Invalid FLOAT constant (1.5) for \"c\" of type varint"
    );
    assert_eq!(
        err_n(s("123e4567-e89b-12d3-a456-426614174000"), Uuid),
        "Invalid STRING constant (123e4567-e89b-12d3-a456-426614174000) for \"c\" of type uuid"
    );
    assert_eq!(
        err_n(Literal::Boolean(true), Int),
        "Invalid BOOLEAN constant (true) for \"c\" of type int"
    );
    assert_eq!(
        err_n(Literal::Hex("01".into()), Int),
        "Invalid HEX constant (0x01) for \"c\" of type int"
    );
    assert_eq!(
        err_n(s("1.2.3.4"), Blob),
        "Invalid STRING constant (1.2.3.4) for \"c\" of type blob"
    );
    assert_eq!(
        err_n(Literal::Duration("1h".into()), Timestamp),
        "Invalid DURATION constant (1h) for \"c\" of type timestamp"
    );
    assert_eq!(
        err_n(
            Literal::Uuid("123e4567-e89b-12d3-a456-426614174000".into()),
            Text
        ),
        "Invalid UUID constant (123e4567-e89b-12d3-a456-426614174000) for \"c\" of type text"
    );
    let list = DataType::List {
        element: Box::new(native(Int)),
        frozen: false,
    };
    assert_eq!(
        err(i("1"), &list, "l"),
        "Invalid INTEGER constant (1) for \"l\" of type list<int>"
    );
}

#[test]
fn integers_are_range_checked_with_each_types_message() {
    use NativeType::*;
    assert!(matches!(ok(i("-2147483648"), Int), Value::Int(i32::MIN)));
    assert_eq!(
        err_n(i("2147483648"), Int),
        "Unable to make int from '2147483648'"
    );
    assert_eq!(err_n(i("128"), Tinyint), "Unable to make byte from '128'");
    assert_eq!(
        err_n(i("-32769"), Smallint),
        "Unable to make short from '-32769'"
    );
    assert_eq!(
        err_n(i("9223372036854775808"), Bigint),
        "Unable to make long from '9223372036854775808'"
    );
    assert_eq!(
        err_n(i("9223372036854775808"), Counter),
        "Unable to make long from '9223372036854775808'"
    );
    assert!(matches!(ok(i("5"), Counter), Value::Counter(5)));
    let big = ok(i("123456789012345678901234567890"), Varint);
    assert_eq!(
        big.cqlsh_display(&native(Varint)),
        "123456789012345678901234567890"
    );
    assert!(matches!(ok(i("3"), Double), Value::Double(v) if v == 3.0));
    assert!(matches!(ok(i("3"), Float), Value::Float(v) if v == 3.0));
    assert_eq!(ok(i("3"), Decimal), Value::decimal(3, 0));
}

#[test]
fn floats_and_decimals() {
    use NativeType::*;
    assert!(matches!(ok(f("NaN"), Double), Value::Double(v) if v.is_nan() && v.is_sign_positive()));
    assert!(matches!(ok(f("-NaN"), Float), Value::Float(v) if v.to_bits() == 0x7fc0_0000));
    assert!(matches!(ok(f("-Infinity"), Double), Value::Double(v) if v == f64::NEG_INFINITY));
    assert!(matches!(ok(f("1e500"), Double), Value::Double(v) if v == f64::INFINITY));
    assert_eq!(ok(f("1.50"), Decimal), Value::decimal(150, 2));
    assert_eq!(
        err_n(f("NaN"), Decimal),
        "unable to make BigDecimal from 'NaN'"
    );
    assert_eq!(
        err_n(f("Infinity"), Decimal),
        "unable to make BigDecimal from 'Infinity'"
    );
}

#[test]
fn strings_for_text_like_and_temporal_types() {
    use NativeType::*;
    assert!(matches!(ok(s("héllo"), Text), Value::Text(t) if t == "héllo"));
    assert!(matches!(ok(s("plain"), Ascii), Value::Ascii(t) if t == "plain"));
    assert_eq!(
        err_n(s("héllo"), Ascii),
        "Invalid ASCII character in string literal: \
         java.nio.charset.UnmappableCharacterException: Input length = 1"
    );
    assert!(matches!(
        ok(s("2025-06-01 08:00:00+0000"), Timestamp),
        Value::Timestamp(1_748_764_800_000)
    ));
    assert!(matches!(
        ok(i("1748764800000"), Timestamp),
        Value::Timestamp(1_748_764_800_000)
    ));
    assert_eq!(
        err_n(s("2025-13-01"), Timestamp),
        "Unable to coerce '2025-13-01' to a formatted date (long)"
    );
    assert!(matches!(
        ok(s("1970-01-01"), Date),
        Value::Date(0x8000_0000)
    ));
    assert!(matches!(ok(i("0"), Date), Value::Date(0)));
    assert_eq!(
        err_n(s("2025-02-30"), Date),
        "Unable to coerce '2025-02-30' to a formatted date (long)"
    );
    assert_eq!(
        err_n(i("-1"), Date),
        "Unable to make unsigned int (for date) from: '-1'"
    );
    assert!(matches!(
        ok(s("08:12:54.5"), Time),
        Value::Time(29_574_500_000_000)
    ));
    assert!(matches!(ok(i("1"), Time), Value::Time(1)));
    assert_eq!(
        err_n(s("25:00:00"), Time),
        "(TimeType) Unable to coerce '25:00:00' to a formatted time (long)"
    );
    assert_eq!(
        err_n(i("86400000000000"), Time),
        "Unable to make long (for time) from: '86400000000000'"
    );
    // The empty string is Cassandra's empty value for these types.
    for t in [Timestamp, Date, Time, Inet] {
        assert!(matches!(ok(s(""), t), Value::Empty), "{t:?}");
    }
    assert!(matches!(ok(s(""), Text), Value::Text(t) if t.is_empty()));
}

#[test]
fn inet_addresses() {
    use NativeType::Inet;
    assert!(
        matches!(ok(s("127.0.0.1"), Inet), Value::Inet(a) if a == IpAddr::V4(Ipv4Addr::LOCALHOST))
    );
    assert!(matches!(ok(s("::1"), Inet), Value::Inet(a) if a == IpAddr::V6(Ipv6Addr::LOCALHOST)));
    // Stored as Cassandra stores it: an IPv4-mapped address is 4 bytes.
    assert!(matches!(
        ok(s("::ffff:10.0.0.1"), Inet),
        Value::Inet(IpAddr::V4(_))
    ));
    assert_eq!(
        err_n(s("localhost"), Inet),
        "Unable to make inet address from 'localhost'"
    );
}

#[test]
fn uuids_blobs_booleans_durations() {
    use NativeType::*;
    let v4 = Literal::Uuid("123e4567-e89b-42d3-a456-426614174000".into());
    let v1 = Literal::Uuid("50554d6e-29bb-11e5-b345-feff819cdc9f".into());
    assert!(matches!(ok(v4.clone(), Uuid), Value::Uuid(_)));
    assert!(matches!(ok(v1.clone(), Timeuuid), Value::Timeuuid(_)));
    assert!(matches!(ok(v1, Uuid), Value::Uuid(_)));
    assert_eq!(
        err_n(v4, Timeuuid),
        "TimeUUID supports only version 1 UUIDs"
    );
    assert!(matches!(ok(Literal::Hex("cafe".into()), Blob), Value::Blob(b) if b == [0xca, 0xfe]));
    assert!(matches!(ok(Literal::Hex(String::new()), Blob), Value::Blob(b) if b.is_empty()));
    assert_eq!(
        err_n(Literal::Hex("abc".into()), Blob),
        "cannot parse 'abc' as hex bytes"
    );
    // The tinyint quirk: a hex constant's preferred type is the one-byte type.
    assert!(matches!(
        ok(Literal::Hex("ff".into()), Tinyint),
        Value::Tinyint(-1)
    ));
    assert_eq!(
        err_n(Literal::Hex("0102".into()), Tinyint),
        "Expected 1 byte for a tinyint (2)"
    );
    assert!(matches!(
        ok(Literal::Boolean(false), Boolean),
        Value::Boolean(false)
    ));
    assert!(matches!(
        ok(Literal::Duration("1h30m".into()), Duration),
        Value::Duration(CqlDuration {
            months: 0,
            days: 0,
            nanos: 5_400_000_000_000
        })
    ));
    assert_eq!(
        err_n(i("5"), Duration),
        "Unable to convert '5' to a duration"
    );
    assert_eq!(
        err_n(i("-5"), Duration),
        "Unable to convert '5' to a duration"
    );
}

#[test]
fn null_for_everything_but_counters() {
    for t in NativeType::ALL {
        if t == NativeType::Counter {
            assert_eq!(
                err_n(Literal::Null, t),
                "Invalid null value for counter increment/decrement"
            );
        } else {
            assert!(matches!(ok(Literal::Null, t), Value::Null), "{t:?}");
        }
    }
    let set = DataType::Set {
        element: Box::new(native(NativeType::Int)),
        frozen: true,
    };
    assert!(matches!(coerce(&Literal::Null, &set, "s"), Ok(Value::Null)));
}

#[test]
fn tuples_read_cassandras_tuple_string() {
    // Constants are "weakly assignable" to tuples; TupleType.fromString then decides.
    let ty = DataType::Tuple(vec![native(NativeType::Int), native(NativeType::Text)]);
    let v = coerce(&s("1:a\\:b"), &ty, "t").expect("valid");
    assert_eq!(
        v,
        Value::Tuple(vec![Some(Value::Int(1)), Some(Value::Text("a:b".into()))])
    );
    let v = coerce(&i("7"), &ty, "t").expect("valid");
    assert_eq!(v, Value::Tuple(vec![Some(Value::Int(7))]));
    let v = coerce(&s("@:x"), &ty, "t").expect("valid");
    assert_eq!(v, Value::Tuple(vec![None, Some(Value::Text("x".into()))]));
    assert_eq!(
        err(s("1:a:b"), &ty, "t"),
        "Invalid tuple literal: too many elements. Type frozen<tuple<int, text>> expects 2 but got 3"
    );
    assert_eq!(err(s("x:a"), &ty, "t"), "Unable to make int from 'x'");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
    /// The plain-decimal reading gives every double bit for bit as the
    /// general parser does, and declines nothing it should read.
    #[test]
    fn plain_decimals_read_as_parse_reads_them(
        text in "-?[0-9]{0,18}(\\.[0-9]{0,18})?|-?[0-9]{1,3}\\.[0-9]{1,3}|[0-9.eE+-]{1,8}",
    ) {
        let fast = super::parse_f64(&text).map(f64::to_bits);
        let general = text.parse::<f64>().ok().map(f64::to_bits);
        proptest::prop_assert_eq!(fast, general, "{}", text);
    }
}
