//! cqlsh display: every example row of `language.md` §3.4, plus cases checked against
//! cqlsh 6.2.2's `formatting.py` run under Python 3.11.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use crate::syntax::ast::NativeType;
use crate::types::data_type::DataType;
use crate::types::value::{CqlDuration, Value};

fn n(t: NativeType) -> DataType {
    DataType::Native(t)
}

fn list(element: DataType) -> DataType {
    DataType::List {
        element: Box::new(element),
        frozen: false,
    }
}

fn shown(v: &Value, t: NativeType) -> String {
    v.cqlsh_display(&n(t))
}

fn text(s: &str) -> Value {
    Value::Text(s.into())
}

fn uuid(s: &str) -> [u8; 16] {
    crate::types::serialize::serialize_uuid(s)
        .expect("valid")
        .try_into()
        .expect("16 bytes")
}

#[test]
fn text_and_numbers() {
    use NativeType::*;
    assert_eq!(shown(&text("héllo wörld"), Text), "héllo wörld");
    assert_eq!(shown(&text("tab\there"), Text), "tab\\there");
    assert_eq!(shown(&text("line\nbreak"), Text), "line\\nbreak");
    assert_eq!(shown(&text("back\\slash"), Text), "back\\\\slash");
    assert_eq!(
        shown(&text("nul\0 del\u{7f} nbsp\u{a0} nel\u{85}"), Text),
        "nul\\x00 del\\x7f nbsp\\xa0 nel\\x85"
    );
    assert_eq!(shown(&text(""), Text), "");
    assert_eq!(shown(&Value::Int(i32::MIN), Int), "-2147483648");
    assert_eq!(shown(&Value::Counter(7), Counter), "7");
    assert_eq!(shown(&Value::varint(-12), Varint), "-12");
    for (v, s) in [
        (1.1f32, "1.1"),
        (std::f32::consts::PI, "3.14159"),
        (100000.0, "1e+05"),
        (123456.7, "1.2346e+05"),
        (1e-4, "0.0001"),
        (1e-5, "1e-05"),
    ] {
        assert_eq!(shown(&Value::Float(v), Float), s);
    }
    for (v, s) in [
        (1.0, "1"),
        (12345.6789, "12345.6789"),
        (99999.4, "99999.4"),
        (123456.7, "1.2346e+05"),
        (-0.0, "-0"),
        (1e300, "1e+300"),
        (10.0, "10"),
    ] {
        assert_eq!(shown(&Value::Double(v), Double), s);
    }
    assert_eq!(shown(&Value::Double(f64::NAN), Double), "NaN");
    assert_eq!(shown(&Value::Float(f32::INFINITY), Float), "Infinity");
    assert_eq!(
        shown(&Value::Double(f64::NEG_INFINITY), Double),
        "-Infinity"
    );
    for (u, s, shown_as) in [
        (314i64, 2, "3.14"),
        (1, 14, "1E-14"),
        (100_000_000_000_000, 13, "10.0000000000000"),
        (0, 1, "0.0"),
        (15, -2, "1.5E+3"),
    ] {
        assert_eq!(shown(&Value::decimal(u, s), Decimal), shown_as);
    }
    assert_eq!(shown(&Value::Boolean(true), Boolean), "True");
    assert_eq!(shown(&Value::Boolean(false), Boolean), "False");
}

#[test]
fn identity_and_time_types() {
    use NativeType::*;
    let u = uuid("123e4567-e89b-12d3-a456-426614174000");
    assert_eq!(
        shown(&Value::Uuid(u), Uuid),
        "123e4567-e89b-12d3-a456-426614174000"
    );
    assert_eq!(
        shown(&Value::Timeuuid(u), Timeuuid),
        "123e4567-e89b-12d3-a456-426614174000"
    );
    assert_eq!(
        shown(&Value::Timestamp(1_748_764_800_000), Timestamp),
        "2025-06-01 08:00:00.000000+0000"
    );
    assert_eq!(
        shown(&Value::Timestamp(-1), Timestamp),
        "1969-12-31 23:59:59.999000+0000"
    );
    assert_eq!(shown(&Value::date_from_days(20_240), Date), "2025-06-01");
    assert_eq!(
        shown(&Value::Time(29_574_000_000_000), Time),
        "08:12:54.000000000"
    );
    assert_eq!(
        shown(&Value::Time(29_574_123_456_789), Time),
        "08:12:54.123456789"
    );
    let d = |months, days, nanos| {
        Value::Duration(CqlDuration {
            months,
            days,
            nanos,
        })
    };
    assert_eq!(shown(&d(0, 0, 5_400_000_000_000), Duration), "1h30m");
    assert_eq!(shown(&d(14, 3, 0), Duration), "1y2mo3d");
    assert_eq!(shown(&d(0, 0, 1500), Duration), "1us500ns");
    assert_eq!(shown(&d(-1, -2, -3_000_000), Duration), "-1mo2d3ms");
    assert_eq!(shown(&d(0, 0, 0), Duration), "");
    assert_eq!(
        shown(&Value::Inet(IpAddr::V4(Ipv4Addr::LOCALHOST)), Inet),
        "127.0.0.1"
    );
    assert_eq!(
        shown(&Value::Inet(IpAddr::V6(Ipv6Addr::LOCALHOST)), Inet),
        "::1"
    );
    assert_eq!(shown(&Value::Blob(vec![0xca, 0xfe]), Blob), "0xcafe");
    assert_eq!(shown(&Value::Blob(Vec::new()), Blob), "0x");
    assert_eq!(shown(&Value::Null, Int), "null");
    assert_eq!(shown(&Value::Empty, Int), "");
}

#[test]
fn inet_like_glibc() {
    // Checked against cqlsh (the driver formats with socket.inet_ntop).
    for (addr, s) in [
        ("::1.2.3.4", "::1.2.3.4"),
        ("::ffff:1.2.3.4", "::ffff:1.2.3.4"),
        ("2001:db8::1", "2001:db8::1"),
        ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),
        ("1:0:0:2:0:0:0:3", "1:0:0:2::3"),
        ("fe80::", "fe80::"),
        ("::", "::"),
        ("0:0:0:0:0:1:0:0", "::1:0:0"),
    ] {
        let v6: Ipv6Addr = addr.parse().expect("valid");
        assert_eq!(
            shown(&Value::Inet(IpAddr::V6(v6)), NativeType::Inet),
            s,
            "{addr}"
        );
    }
}

#[test]
fn collections_tuples_and_udts() {
    use NativeType::*;
    let ints = |v: &[i32]| v.iter().map(|&i| Value::Int(i)).collect::<Vec<_>>();
    assert_eq!(
        Value::List(ints(&[1, 2, 3])).cqlsh_display(&list(n(Int))),
        "[1, 2, 3]"
    );
    assert_eq!(
        Value::List(vec![text("a"), text("b'c")]).cqlsh_display(&list(n(Text))),
        "['a', 'b''c']"
    );
    let set_type = DataType::Set {
        element: Box::new(n(Int)),
        frozen: false,
    };
    assert_eq!(
        Value::set_from(ints(&[3, 1, 2])).cqlsh_display(&set_type),
        "{1, 2, 3}"
    );
    let map_type = DataType::Map {
        key: Box::new(n(Text)),
        value: Box::new(n(Int)),
        frozen: false,
    };
    let map = Value::map_from(vec![(text("b"), Value::Int(2)), (text("a"), Value::Int(1))]);
    assert_eq!(map.cqlsh_display(&map_type), "{'a': 1, 'b': 2}");
    let tuple_type = DataType::Tuple(vec![n(Int), n(Text), n(Boolean)]);
    let tuple = Value::Tuple(vec![
        Some(Value::Int(1)),
        Some(text("a")),
        Some(Value::Boolean(true)),
    ]);
    assert_eq!(tuple.cqlsh_display(&tuple_type), "(1, 'a', True)");
    let pair = DataType::Tuple(vec![n(Int), n(Text)]);
    assert_eq!(
        Value::Tuple(vec![None, Some(text("z"))]).cqlsh_display(&pair),
        "(None, 'z')"
    );
    // A tuple shorter than its type is padded by the driver.
    assert_eq!(
        Value::Tuple(vec![Some(Value::Int(1))]).cqlsh_display(&pair),
        "(1, None)"
    );
    let address = DataType::Udt {
        keyspace: "ks".into(),
        name: "address".into(),
        fields: vec![("city".into(), n(Text)), ("zip".into(), n(Int))],
        frozen: true,
    };
    let udt = Value::Udt(vec![Some(text("Austin")), None]);
    assert_eq!(udt.cqlsh_display(&address), "{city: 'Austin', zip: null}");
    let nested_type = list(DataType::Set {
        element: Box::new(n(Int)),
        frozen: true,
    });
    let nested = Value::List(vec![
        Value::set_from(ints(&[1])),
        Value::set_from(ints(&[3, 2])),
    ]);
    assert_eq!(nested.cqlsh_display(&nested_type), "[{1}, {2, 3}]");
}

#[test]
fn quoting_inside_collections() {
    use NativeType::*;
    assert_eq!(
        Value::List(vec![Value::Timestamp(1_748_764_800_000)]).cqlsh_display(&list(n(Timestamp))),
        "['2025-06-01 08:00:00.000000+0000']"
    );
    assert_eq!(
        Value::List(vec![Value::date_from_days(20_090)]).cqlsh_display(&list(n(Date))),
        "[2025-01-02]"
    );
    assert_eq!(
        Value::List(vec![Value::Blob(vec![1])]).cqlsh_display(&list(n(Blob))),
        "[0x01]"
    );
    let u = uuid("00000000-0000-0000-0000-000000000001");
    assert_eq!(
        Value::List(vec![Value::Uuid(u)]).cqlsh_display(&list(n(Uuid))),
        "[00000000-0000-0000-0000-000000000001]"
    );
    assert_eq!(
        Value::List(vec![Value::Inet(IpAddr::V4(Ipv4Addr::LOCALHOST))])
            .cqlsh_display(&list(n(Inet))),
        "['127.0.0.1']"
    );
    assert_eq!(
        Value::List(vec![text("x\ny\\")]).cqlsh_display(&list(n(Text))),
        "['x\\ny\\\\']"
    );
    let durations = Value::List(vec![
        Value::Duration(CqlDuration::default()),
        Value::Duration(CqlDuration {
            months: -1,
            days: -2,
            nanos: -3_000_000,
        }),
    ]);
    assert_eq!(durations.cqlsh_display(&list(n(Duration))), "[, -1mo2d3ms]");
    assert_eq!(
        Value::List(vec![Value::Boolean(true), Value::Double(1.5)]).cqlsh_display(&list(n(Double))),
        "[True, 1.5]"
    );
}

#[test]
fn sets_of_uuids_follow_python_order() {
    // Cassandra orders timeuuids by time; Python sorts UUID objects by their integer.
    let early_big = uuid("ffffffff-0000-1000-8000-000000000000");
    let late_small = uuid("00000000-0000-1001-8000-000000000000");
    let set = Value::set_from(vec![
        Value::Timeuuid(late_small),
        Value::Timeuuid(early_big),
    ]);
    let Value::Set(ordered) = &set else { panic!() };
    assert_eq!(ordered[0], Value::Timeuuid(early_big));
    let ty = DataType::Set {
        element: Box::new(n(NativeType::Timeuuid)),
        frozen: false,
    };
    assert_eq!(
        set.cqlsh_display(&ty),
        "{00000000-0000-1001-8000-000000000000, ffffffff-0000-1000-8000-000000000000}"
    );
}
