//! JSON: Cassandra's `toJson` text, and the JSON Lines values of DESIGN.md.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use serde_json::json;

use crate::syntax::ast::NativeType;
use crate::types::data_type::DataType;
use crate::types::value::{CqlDuration, Value};

fn n(t: NativeType) -> DataType {
    DataType::Native(t)
}

fn text(v: &Value, t: NativeType) -> String {
    v.to_json_text(&n(t))
}

#[test]
fn scalars_as_cassandra_writes_them() {
    use NativeType::*;
    assert_eq!(text(&Value::Int(-5), Int), "-5");
    assert_eq!(
        text(&Value::varint(i128::MAX), Varint),
        "170141183460469231731687303715884105727"
    );
    assert_eq!(text(&Value::decimal(15, -2), Decimal), "1.5E+3");
    assert_eq!(text(&Value::Double(1.0), Double), "1.0");
    assert_eq!(text(&Value::Double(1e10), Double), "1.0E10");
    assert_eq!(text(&Value::Float(1.1), Float), "1.1");
    assert_eq!(text(&Value::Double(f64::NAN), Double), "null");
    assert_eq!(text(&Value::Float(f32::NEG_INFINITY), Float), "null");
    assert_eq!(text(&Value::Boolean(true), Boolean), "true");
    assert_eq!(
        text(&Value::Text("a\"b\\c\u{1}\n/é".into()), Text),
        "\"a\\\"b\\\\c\\u0001\\n/é\""
    );
    assert_eq!(text(&Value::Blob(vec![0xca, 0xfe]), Blob), "\"0xcafe\"");
    assert_eq!(
        text(&Value::Timestamp(1_748_764_800_000), Timestamp),
        "\"2025-06-01 08:00:00.000Z\""
    );
    assert_eq!(text(&Value::date_from_days(20_240), Date), "\"2025-06-01\"");
    assert_eq!(
        text(&Value::Time(28_800_000_000_000), Time),
        "\"08:00:00.000000000\""
    );
    let d = Value::Duration(CqlDuration {
        months: 14,
        days: 3,
        nanos: 0,
    });
    assert_eq!(text(&d, Duration), "\"1y2mo3d\"");
    assert_eq!(
        text(&Value::Inet(IpAddr::V4(Ipv4Addr::LOCALHOST)), Inet),
        "\"127.0.0.1\""
    );
    assert_eq!(
        text(&Value::Inet(IpAddr::V6(Ipv6Addr::LOCALHOST)), Inet),
        "\"0:0:0:0:0:0:0:1\""
    );
    assert_eq!(text(&Value::Null, Int), "null");
    assert_eq!(text(&Value::Empty, Int), "\"\"");
}

#[test]
fn composites_as_cassandra_writes_them() {
    use NativeType::*;
    let map_type = DataType::Map {
        key: Box::new(n(Int)),
        value: Box::new(n(Text)),
        frozen: false,
    };
    let map = Value::map_from(vec![
        (Value::Int(2), Value::Text("b".into())),
        (Value::Int(1), Value::Text("a".into())),
    ]);
    assert_eq!(map.to_json_text(&map_type), "{\"1\": \"a\", \"2\": \"b\"}");
    let list_key = DataType::Map {
        key: Box::new(DataType::List {
            element: Box::new(n(Int)),
            frozen: true,
        }),
        value: Box::new(n(Int)),
        frozen: false,
    };
    let m = Value::map_from(vec![(
        Value::List(vec![Value::Int(1), Value::Int(2)]),
        Value::Int(0),
    )]);
    assert_eq!(m.to_json_text(&list_key), "{\"[1, 2]\": 0}");
    let tuple_type = DataType::Tuple(vec![n(Int), n(Text)]);
    let tuple = Value::Tuple(vec![None, Some(Value::Text("z".into()))]);
    assert_eq!(tuple.to_json_text(&tuple_type), "[null, \"z\"]");
    let udt_type = DataType::Udt {
        keyspace: "ks".into(),
        name: "address".into(),
        fields: vec![("city".into(), n(Text)), ("Zip".into(), n(Int))],
        frozen: true,
    };
    let udt = Value::Udt(vec![Some(Value::Text("Austin".into())), None]);
    assert_eq!(
        udt.to_json_text(&udt_type),
        "{\"city\": \"Austin\", \"\\\"Zip\\\"\": null}"
    );
    let set_type = DataType::Set {
        element: Box::new(n(Int)),
        frozen: false,
    };
    assert_eq!(
        Value::set_from(vec![Value::Int(2), Value::Int(1)]).to_json_text(&set_type),
        "[1, 2]"
    );
}

#[test]
fn json_lines_values() {
    use NativeType::*;
    assert_eq!(Value::Int(1).to_json(&n(Int)), json!(1));
    assert_eq!(Value::Text("a".into()).to_json(&n(Text)), json!("a"));
    assert_eq!(Value::Null.to_json(&n(Text)), json!(null));
    assert_eq!(Value::Boolean(false).to_json(&n(Boolean)), json!(false));
    // NaN and the infinities are strings in JSON Lines (DESIGN.md), not Cassandra's null.
    assert_eq!(Value::Double(f64::NAN).to_json(&n(Double)), json!("NaN"));
    assert_eq!(
        Value::Float(f32::INFINITY).to_json(&n(Float)),
        json!("Infinity")
    );
    assert_eq!(
        Value::Double(f64::NEG_INFINITY).to_json(&n(Double)),
        json!("-Infinity")
    );
    // Numbers keep Cassandra's digits exactly (serde_json writes the exponent mark in
    // lower case, which JSON reads the same).
    let serialized =
        |v: &Value, t: NativeType| serde_json::to_string(&v.to_json(&n(t))).expect("serializes");
    assert_eq!(serialized(&Value::decimal(15, -2), Decimal), "1.5e+3");
    assert_eq!(serialized(&Value::Double(1e10), Double), "1.0e+10");
    assert_eq!(serialized(&Value::decimal(1234, 2), Decimal), "12.34");
    assert_eq!(serialized(&Value::Float(1.1), Float), "1.1");
    assert_eq!(
        serialized(&Value::varint(i128::MIN), Varint),
        i128::MIN.to_string()
    );
    assert_eq!(
        Value::Timestamp(1_748_764_800_000).to_json(&n(Timestamp)),
        json!("2025-06-01 08:00:00.000Z")
    );
    let map_type = DataType::Map {
        key: Box::new(n(Int)),
        value: Box::new(n(Boolean)),
        frozen: false,
    };
    let map = Value::map_from(vec![(Value::Int(1), Value::Boolean(true))]);
    assert_eq!(map.to_json(&map_type), json!({"1": true}));
    let tuple_type = DataType::Tuple(vec![n(Int), n(Text)]);
    assert_eq!(
        Value::Tuple(vec![Some(Value::Int(1))]).to_json(&tuple_type),
        json!([1, null])
    );
}

/// `push_json` writes exactly what `serde_json` writes for `to_json`'s tree.
#[test]
fn push_json_matches_the_tree() {
    use NativeType::*;
    let mut cases = vec![
        (Value::Null, n(Int)),
        (Value::Boolean(true), n(Boolean)),
        (Value::Int(-42), n(Int)),
        (Value::Bigint(i64::MIN), n(Bigint)),
        (Value::Text("a \"q\" \\ \n\t\u{1} ünï 日本".into()), n(Text)),
        (Value::Timestamp(1_748_764_800_000), n(Timestamp)),
        (Value::Double(f64::NAN), n(Double)),
        (Value::Float(f32::INFINITY), n(Float)),
        (Value::Blob(vec![0xca, 0xfe]), n(Blob)),
    ];
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        cases.push((Value::Double(f64::from_bits(x)), n(Double)));
        cases.push((Value::Float(f32::from_bits(x as u32)), n(Float)));
        cases.push((Value::Double((x % 100_000) as f64 / 10.0), n(Double)));
    }
    for (value, ty) in cases {
        let mut out = Vec::new();
        value.push_json(&ty, &mut out);
        let expected = serde_json::to_string(&value.to_json(&ty)).expect("serializes");
        assert_eq!(
            String::from_utf8(out).expect("UTF-8"),
            expected,
            "{value:?}"
        );
    }
}
