//! Tests of the value order: Cassandra's documented orderings, then proptest checks that
//! for every type the order is total, antisymmetric, transitive and agrees with `==` and
//! `Hash`.

use std::cmp::Ordering;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use proptest::prelude::*;

use crate::types::value::{CqlDuration, Value};

fn uuid(text: &str) -> [u8; 16] {
    let bytes = crate::types::serialize::serialize_uuid(text).expect("valid uuid");
    bytes.try_into().expect("16 bytes")
}

fn sorted(mut values: Vec<Value>) -> Vec<Value> {
    values.sort();
    values
}

#[test]
fn floats_follow_java_total_order() {
    let order = [
        f64::NEG_INFINITY,
        -1.0,
        -f64::MIN_POSITIVE,
        -0.0,
        0.0,
        f64::MIN_POSITIVE,
        1.0,
        f64::INFINITY,
        f64::NAN,
    ];
    for pair in order.windows(2) {
        assert_eq!(
            Value::Double(pair[0]).cmp(&Value::Double(pair[1])),
            Ordering::Less,
            "{pair:?}"
        );
    }
    let order32 = [
        f32::NEG_INFINITY,
        -1.0,
        -f32::MIN_POSITIVE,
        -0.0,
        0.0,
        f32::MIN_POSITIVE,
        f32::MAX,
        f32::INFINITY,
        f32::NAN,
    ];
    for pair in order32.windows(2) {
        assert_eq!(
            Value::Float(pair[0]).cmp(&Value::Float(pair[1])),
            Ordering::Less,
            "{pair:?}"
        );
    }
    // Every NaN is the same NaN, whatever its sign or payload.
    assert_eq!(Value::Double(-f64::NAN), Value::Double(f64::NAN));
    assert_eq!(
        Value::Float(f32::from_bits(0x7fc0_0001)),
        Value::Float(f32::NAN)
    );
}

#[test]
fn text_is_byte_order_not_locale_order() {
    let got = sorted(vec![
        Value::Text("a".into()),
        Value::Text("B".into()),
        Value::Text("é".into()),
        Value::Text("ab".into()),
        Value::Text(String::new()),
    ]);
    let texts: Vec<_> = got
        .iter()
        .map(|v| match v {
            Value::Text(s) => s.as_str(),
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(texts, ["", "B", "a", "ab", "é"]);
}

#[test]
fn decimals_compare_numerically() {
    assert_eq!(Value::decimal(10, 1), Value::decimal(100, 2));
    assert_eq!(Value::decimal(0, 5), Value::decimal(0, -3));
    assert!(Value::decimal(-15, 1) < Value::decimal(-14, 1));
    assert!(Value::decimal(15, -2) > Value::decimal(1499, 0)); // 1.5E+3 > 1499
    assert!(Value::decimal(1, i32::MAX) < Value::decimal(1, 0));
    assert!(Value::decimal(-1, i32::MIN) < Value::decimal(-1, 0));
    assert!(Value::decimal(1, i32::MIN) > Value::decimal(999, 0));
}

#[test]
fn timeuuids_order_by_time_then_signed_bytes() {
    // Same timestamp; the last 8 bytes decide, as signed bytes: 0x80 < 0x7f.
    let min = uuid("00000000-0000-1000-8080-808080808080");
    let max = uuid("00000000-0000-1000-7f7f-7f7f7f7f7f7f");
    assert!(Value::Timeuuid(min) < Value::Timeuuid(max));
    // time_hi outranks time_low although it is written later.
    let early = uuid("ffffffff-0000-1000-0000-000000000000");
    let late = uuid("00000000-0000-1001-0000-000000000000");
    assert!(Value::Timeuuid(early) < Value::Timeuuid(late));
    // As plain uuids the same last bytes compare unsigned.
    assert!(Value::Uuid(min) > Value::Uuid(max));
}

#[test]
fn uuids_order_by_version_first() {
    let v4 = uuid("00000000-0000-4000-8000-000000000000");
    let v1 = uuid("ffffffff-ffff-1fff-bfff-ffffffffffff");
    let v4_high = uuid("ffffffff-ffff-4fff-bfff-ffffffffffff");
    assert!(Value::Uuid(v1) < Value::Uuid(v4));
    assert!(Value::Uuid(v4) < Value::Uuid(v4_high));
}

#[test]
fn inet_is_bytes_then_length() {
    let v4 = Value::Inet(IpAddr::V4(Ipv4Addr::new(1, 0, 0, 0)));
    let v6 = Value::Inet(IpAddr::V6(Ipv6Addr::new(0x0100, 0, 0, 0, 0, 0, 0, 0)));
    let v6_low = Value::Inet(IpAddr::V6(Ipv6Addr::LOCALHOST));
    assert!(v4 < v6, "prefix first");
    assert!(v6_low < v4);
}

#[test]
fn collections_and_tuples() {
    let list = |v: &[i32]| Value::List(v.iter().map(|&i| Value::Int(i)).collect());
    assert!(list(&[1, 2]) < list(&[1, 2, 0]));
    assert!(list(&[1, 3]) > list(&[1, 2, 9]));
    let tuple = |v: &[Option<i32>]| Value::Tuple(v.iter().map(|o| o.map(Value::Int)).collect());
    assert!(tuple(&[None, Some(1)]) < tuple(&[Some(i32::MIN), None]));
    assert_eq!(tuple(&[Some(1)]), tuple(&[Some(1), None, None]));
    assert!(tuple(&[Some(1)]) < tuple(&[Some(1), None, Some(0)]));
    let map = |v: &[(i32, i32)]| {
        Value::Map(
            v.iter()
                .map(|&(k, x)| (Value::Int(k), Value::Int(x)))
                .collect(),
        )
    };
    assert!(map(&[(1, 5)]) < map(&[(1, 6)]));
    assert!(map(&[(1, 9)]) < map(&[(2, 0)]));
}

#[test]
fn empty_sorts_first_and_null_before_it() {
    assert!(Value::Empty < Value::Int(i32::MIN));
    assert!(Value::Null < Value::Empty);
    assert!(Value::Empty < Value::Timestamp(i64::MIN));
}

// ---------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------

fn hash_of(v: &Value) -> u64 {
    let mut h = DefaultHasher::new();
    v.hash(&mut h);
    h.finish()
}

fn any_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>(),
        Just(0.0),
        Just(-0.0),
        Just(f64::NAN),
        Just(-f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        (-3i32..3).prop_map(f64::from),
    ]
}

fn bytes16() -> impl Strategy<Value = [u8; 16]> {
    prop_oneof![
        any::<[u8; 16]>(),
        // Few distinct values, so that equal and near-equal pairs occur.
        prop::array::uniform16(prop_oneof![
            Just(0u8),
            Just(0x10),
            Just(0x7f),
            Just(0x80),
            Just(0xff)
        ]),
    ]
}

/// Scalar values of one kind each, with small domains mixed in so equal values occur.
fn scalar(kind: u8) -> BoxedStrategy<Value> {
    match kind {
        0 => "[a-cé]{0,3}".prop_map(Value::Text).boxed(),
        1 => "[ -~]{0,3}".prop_map(Value::Ascii).boxed(),
        2 => any::<i8>().prop_map(Value::Tinyint).boxed(),
        3 => any::<i16>().prop_map(Value::Smallint).boxed(),
        4 => prop_oneof![any::<i32>(), -2i32..2]
            .prop_map(Value::Int)
            .boxed(),
        5 => any::<i64>().prop_map(Value::Bigint).boxed(),
        6 => any::<i64>().prop_map(Value::Counter).boxed(),
        7 => prop_oneof![any::<i128>(), -300i128..300]
            .prop_map(Value::varint)
            .boxed(),
        8 => (
            prop_oneof![any::<i64>().prop_map(i128::from), -200i128..200],
            -4i32..4,
        )
            .prop_map(|(u, s)| Value::decimal(u, s))
            .boxed(),
        9 => any_f64().prop_map(|v| Value::Float(v as f32)).boxed(),
        10 => any_f64().prop_map(Value::Double).boxed(),
        11 => any::<bool>().prop_map(Value::Boolean).boxed(),
        12 => prop::collection::vec(any::<u8>(), 0..3)
            .prop_map(Value::Blob)
            .boxed(),
        13 => bytes16().prop_map(Value::Uuid).boxed(),
        14 => bytes16()
            .prop_map(|mut b| {
                b[6] = (b[6] & 0x0f) | 0x10;
                Value::Timeuuid(b)
            })
            .boxed(),
        15 => any::<i64>().prop_map(Value::Timestamp).boxed(),
        16 => any::<u32>().prop_map(Value::Date).boxed(),
        17 => (0i64..86_400_000_000_000).prop_map(Value::Time).boxed(),
        18 => (-2i32..2, -2i32..2, -2i64..2)
            .prop_map(|(months, days, nanos)| {
                Value::Duration(CqlDuration {
                    months,
                    days,
                    nanos,
                })
            })
            .boxed(),
        19 => prop_oneof![
            any::<[u8; 4]>().prop_map(|b| IpAddr::V4(Ipv4Addr::from(b))),
            any::<[u8; 16]>().prop_map(|b| IpAddr::V6(Ipv6Addr::from(b))),
        ]
        .prop_map(Value::Inet)
        .boxed(),
        _ => Just(Value::Empty).boxed(),
    }
}

const SCALAR_KINDS: u8 = 21;

/// Values of one kind, including collections and tuples of that kind's scalars.
fn of_kind(kind: u8, shape: u8) -> BoxedStrategy<Value> {
    let element = prop_oneof![4 => scalar(kind), 1 => Just(Value::Empty)];
    match shape {
        0 => element.boxed(),
        1 => prop::collection::vec(element, 0..3)
            .prop_map(Value::List)
            .boxed(),
        2 => prop::collection::vec(element, 0..3)
            .prop_map(Value::set_from)
            .boxed(),
        3 => prop::collection::vec((scalar(kind), scalar(4)), 0..3)
            .prop_map(Value::map_from)
            .boxed(),
        _ => prop::collection::vec(prop::option::of(element), 0..3)
            .prop_map(Value::Tuple)
            .boxed(),
    }
}

fn triple() -> impl Strategy<Value = (Value, Value, Value)> {
    (0..SCALAR_KINDS, 0u8..5).prop_flat_map(|(kind, shape)| {
        (
            of_kind(kind, shape),
            of_kind(kind, shape),
            of_kind(kind, shape),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn order_is_a_total_order_consistent_with_eq_and_hash((a, b, c) in triple()) {
        // Antisymmetric and total: swapping the operands reverses the answer.
        prop_assert_eq!(a.cmp(&b), b.cmp(&a).reverse());
        // Reflexive.
        prop_assert_eq!(a.cmp(&a), Ordering::Equal);
        // Consistent with equality and hashing.
        prop_assert_eq!(a == b, a.cmp(&b) == Ordering::Equal);
        if a == b {
            prop_assert_eq!(hash_of(&a), hash_of(&b));
        }
        // Transitive: after sorting, every earlier element is <= every later one.
        let s = sorted(vec![a, b, c]);
        prop_assert!(s[0] <= s[1] && s[1] <= s[2] && s[0] <= s[2]);
    }

    #[test]
    fn mixed_kinds_still_order_totally(
        a in (0..SCALAR_KINDS).prop_flat_map(scalar),
        b in (0..SCALAR_KINDS).prop_flat_map(scalar),
    ) {
        prop_assert_eq!(a.cmp(&b), b.cmp(&a).reverse());
    }

    #[test]
    fn decimal_order_matches_exact_rationals(
        (ua, sa) in (-1000i64..1000, -3i32..4),
        (ub, sb) in (-1000i64..1000, -3i32..4),
    ) {
        // Scale both to a common denominator of 10^7 and compare as integers.
        let exact = |u: i64, s: i32| i128::from(u) * 10i128.pow((7 - s) as u32);
        prop_assert_eq!(
            Value::decimal(ua, sa).cmp(&Value::decimal(ub, sb)),
            exact(ua, sa).cmp(&exact(ub, sb))
        );
    }
}
