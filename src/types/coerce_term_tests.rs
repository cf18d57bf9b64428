//! Collection, tuple and UDT literals: Cassandra's checks in Cassandra's order.

use crate::parse_statement;
use crate::syntax::ast::{InsertSource, NativeType, Statement, TableElement, Term};
use crate::types::data_type::DataType;
use crate::types::value::Value;

use super::{coerce_term, term_text, NotConstantReason, TermError};

/// The term of `INSERT INTO t (c) VALUES (<text>)`.
fn term(text: &str) -> Term {
    let statement = format!("INSERT INTO t (c) VALUES ({text})");
    let Ok(Statement::Insert(insert)) = parse_statement(&statement) else {
        panic!("{statement} does not parse");
    };
    let InsertSource::Values { mut values, .. } = insert.source else {
        panic!("not VALUES");
    };
    values.remove(0)
}

/// The resolved type of `CREATE TABLE t (c <text> PRIMARY KEY)`.
fn ty(text: &str) -> DataType {
    let statement = format!("CREATE TABLE t (c {text} PRIMARY KEY)");
    let Ok(Statement::CreateTable(t)) = parse_statement(&statement) else {
        panic!("{statement} does not parse");
    };
    let TableElement::Column(c) = &t.elements[0] else {
        panic!("no column");
    };
    DataType::resolve(&c.ty, "ks", &()).expect("valid type")
}

fn address() -> DataType {
    DataType::Udt {
        keyspace: "ks".into(),
        name: "address".into(),
        fields: vec![
            ("city".into(), DataType::Native(NativeType::Text)),
            ("zip".into(), DataType::Native(NativeType::Int)),
        ],
        frozen: true,
    }
}

fn value(text: &str, t: &DataType) -> Value {
    match coerce_term(&term(text), t, "c") {
        Ok(v) => v,
        Err(TermError::Invalid(e)) => panic!("{text}: {}", e.message()),
        Err(TermError::NotConstant(n)) => panic!("{text}: not constant {n:?}"),
    }
}

fn error(text: &str, t: &DataType, column: &str) -> String {
    match coerce_term(&term(text), t, column) {
        Err(TermError::Invalid(e)) => e.message().to_string(),
        other => panic!("{text}: expected an error, got {other:?}"),
    }
}

fn deferred(text: &str, t: &DataType) -> NotConstantReason {
    match coerce_term(&term(text), t, "c") {
        Err(TermError::NotConstant(n)) => n.reason,
        other => panic!("{text}: expected a deferred term, got {other:?}"),
    }
}

fn ints(values: &[i32]) -> Vec<Value> {
    values.iter().map(|&i| Value::Int(i)).collect()
}

#[test]
fn lists() {
    let l = ty("list<int>");
    assert_eq!(value("[3, 1, 3]", &l), Value::List(ints(&[3, 1, 3])));
    assert_eq!(value("[]", &l), Value::List(Vec::new()));
    assert_eq!(
        error("['x']", &l, "l"),
        "Invalid list literal for l: value 'x' is not of type int"
    );
    // Assignability of every element is checked before any element is parsed.
    assert_eq!(
        error("[99999999999, 'x']", &l, "l"),
        "Invalid list literal for l: value 'x' is not of type int"
    );
    assert_eq!(
        error("[1, 99999999999]", &l, "l"),
        "Unable to make int from '99999999999'"
    );
    assert_eq!(
        error("[1, ?]", &l, "l"),
        "Invalid list literal for l: bind variables are not supported inside collection literals"
    );
    assert_eq!(
        error("[1, null]", &l, "l"),
        "null is not supported inside collections"
    );
    assert_eq!(
        error("[1]", &ty("int"), "v"),
        "Unexpected receiver type 'int'; only list and vector are expected"
    );
    assert_eq!(
        error("[[1, 'a']]", &ty("list<frozen<list<int>>>"), "l"),
        "Invalid list literal for l: value [1, 'a'] is not of type frozen<list<int>>"
    );
    assert_eq!(
        deferred("[now()]", &ty("list<timeuuid>")),
        NotConstantReason::FunctionCall
    );
    assert_eq!(deferred("?", &l), NotConstantReason::BindMarker);
    assert_eq!(deferred(":name", &l), NotConstantReason::BindMarker);
}

#[test]
fn sets_and_maps() {
    let s = ty("set<int>");
    assert_eq!(value("{3, 1, 2, 1}", &s), Value::Set(ints(&[1, 2, 3])));
    assert_eq!(value("{}", &s), Value::Set(Vec::new()));
    let m = ty("map<text, int>");
    assert_eq!(value("{}", &m), Value::Map(Vec::new()));
    assert_eq!(
        value("{'b': 2, 'a': 1, 'b': 3}", &m),
        Value::Map(vec![
            (Value::Text("a".into()), Value::Int(1)),
            (Value::Text("b".into()), Value::Int(3)),
        ])
    );
    assert_eq!(
        error("{1}", &m, "m"),
        "Invalid set literal for m of type map<text, int>"
    );
    assert_eq!(
        error("{'a'}", &s, "s"),
        "Invalid set literal for s: value 'a' is not of type int"
    );
    assert_eq!(
        error("{1: 2}", &m, "m"),
        "Invalid map literal for m: key 1 is not of type text"
    );
    assert_eq!(
        error("{'a': 'b'}", &m, "m"),
        "Invalid map literal for m: value 'b' is not of type int"
    );
    assert_eq!(
        error("{'a': 1}", &s, "s"),
        "Invalid map literal for s of type set<int>"
    );
    assert_eq!(
        error("{'a': ?}", &m, "m"),
        "Invalid map literal for m: bind variables are not supported inside collection literals"
    );
    assert_eq!(
        error("{'a': null}", &m, "m"),
        "null is not supported inside collections"
    );
    assert_eq!(
        error("{[1]}", &s, "s"),
        "Unexpected receiver type 'int'; only list and vector are expected"
    );
    // Equal decimals are one element; the first written is kept.
    let Value::Set(d) = value("{1.0, 1.00, 2}", &ty("set<decimal>")) else {
        panic!()
    };
    assert_eq!(d.len(), 2);
    assert_eq!(d[0].cqlsh_display(&ty("decimal")), "1.0");
}

#[test]
fn tuples() {
    let t = ty("tuple<int, text>");
    assert_eq!(
        value("(1, 'a')", &t),
        Value::Tuple(vec![Some(Value::Int(1)), Some(Value::Text("a".into()))])
    );
    assert_eq!(
        value("(null, 'z')", &t),
        Value::Tuple(vec![None, Some(Value::Text("z".into()))])
    );
    // Fewer components than the type is allowed and stays shorter (its bytes do too).
    assert_eq!(value("(1)", &t), Value::Tuple(vec![Some(Value::Int(1))]));
    assert_eq!(
        error("(1, 'a', 3)", &t, "t"),
        "Invalid tuple literal for t: too many elements. Type frozen<tuple<int, text>> expects 2 but got 3"
    );
    assert_eq!(
        error("('a', 1)", &t, "t"),
        "Invalid tuple literal for t: component 0 is not of type int"
    );
    assert_eq!(
        error("(1, 2)", &ty("list<int>"), "l"),
        "Invalid tuple type literal for l of type list<int>"
    );
    // Bind markers are fine inside tuples: the tuple is bound at execution.
    assert_eq!(deferred("(1, ?)", &t), NotConstantReason::BindMarker);
    assert_eq!(
        error("[(1, ?)]", &ty("list<frozen<tuple<int, int>>>"), "l"),
        "Invalid list literal for l: bind variables are not supported inside collection literals"
    );
}

#[test]
fn user_defined_types() {
    let a = address();
    assert_eq!(
        value("{city: 'Austin'}", &a),
        Value::Udt(vec![Some(Value::Text("Austin".into())), None])
    );
    assert_eq!(
        value("{zip: 78701, city: 'Austin'}", &a),
        Value::Udt(vec![
            Some(Value::Text("Austin".into())),
            Some(Value::Int(78701))
        ])
    );
    assert_eq!(
        error("{x: 1}", &a, "a"),
        "Unknown field 'x' in value of user defined type address"
    );
    assert_eq!(
        error("{zip: 'a'}", &a, "a"),
        "Invalid user type literal for a: field zip is not of type int"
    );
    assert_eq!(
        error("{zip: 99999999999}", &a, "a"),
        "Unable to make int from '99999999999'"
    );
    assert_eq!(
        error("{a: 1}", &ty("map<int, int>"), "m"),
        "Invalid user type literal for m of type map<int, int>"
    );
    // Cassandra's UserType is a TupleType: a tuple literal fills the fields in order.
    assert_eq!(
        value("('Austin', 1)", &a),
        Value::Udt(vec![
            Some(Value::Text("Austin".into())),
            Some(Value::Int(1))
        ])
    );
    assert_eq!(
        error("1", &a, "a"),
        "Invalid INTEGER constant (1) for \"a\" of type frozen<address>"
    );
}

#[test]
fn vectors() {
    let v = ty("vector<float, 2>");
    assert_eq!(
        value("[1.5, 2]", &v),
        Value::Vector(vec![Value::Float(1.5), Value::Float(2.0)])
    );
    assert_eq!(
        error("[1.5]", &v, "v"),
        "Invalid vector literal for v of type vector<float, 2>; expected 2 elements, but given 1"
    );
    assert_eq!(
        error("[1.5, 'a']", &v, "v"),
        "Invalid vector literal for v: value 'a' is not of type float"
    );
}

#[test]
fn term_text_is_cassandras_get_text() {
    assert_eq!(
        term_text(&term("['it''s', 1, {k: [2]}]")),
        "['it's', 1, {k: [2]}]"
    );
    assert_eq!(
        term_text(&term("{'a': 0xff, 'b': null}")),
        "{'a': 0xff, 'b': NULL}"
    );
    assert_eq!(term_text(&term("(1, ?, :x)")), "(1, ?, :x)");
    assert_eq!(term_text(&term("now()")), "now()");
}
