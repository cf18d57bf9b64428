//! Inputs found by fuzzing (`fuzz/`, target `parse`) and the deep-nesting
//! cases that guard the parser's stack, replayed on every `cargo test`.
//!
//! Each input must not panic; when it parses, printing the statement and
//! parsing the text again must give an equal tree, the property the fuzz
//! target checks.

use widerow::syntax::MAX_NESTING;
use widerow::{parse_statement, split_statements, ErrorKind};

/// Runs `text` through the lexer, the splitter and the parser, as the fuzz
/// target does, and checks the round trip of whatever parses.
fn check(text: &str) {
    let _ = widerow::syntax::lexer::tokenize(text);
    round_trip(text);
    for statement in split_statements(text) {
        round_trip(&statement.text);
    }
}

fn round_trip(text: &str) {
    let Ok(ast) = parse_statement(text) else {
        return;
    };
    let printed = ast.to_string();
    match parse_statement(&printed) {
        Ok(reparsed) => assert_eq!(reparsed, ast, "printed as {printed:?}"),
        Err(e) => panic!("{text:?} printed as {printed:?}, which does not parse: {e:?}"),
    }
}

/// Asserts that `text` is refused with a syntax error (not a crash).
fn assert_syntax_error(text: &str) {
    let error = parse_statement(text).expect_err("deeply nested input must be refused");
    assert_eq!(error.kind(), ErrorKind::SyntaxException, "{error:?}");
    check(text);
}

#[test]
fn seeds_round_trip() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/corpus/parse");
    let mut parsed = 0;
    for entry in std::fs::read_dir(dir).expect("seed corpus") {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        parsed += usize::from(parse_statement(&text).is_ok());
        check(&text);
    }
    // The seeds are the examples of the grammar and of examples/: nearly all
    // parse, so the fuzzer starts from valid statements.
    assert!(parsed > 200, "only {parsed} seeds parse");
}

#[test]
fn deep_parentheses_are_refused() {
    let depth = 10_000;
    let text = format!(
        "SELECT * FROM t WHERE k = {}1{}",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    assert_syntax_error(&text);
}

#[test]
fn nesting_at_the_limit_parses() {
    let depth = MAX_NESTING;
    let text = format!(
        "SELECT * FROM t WHERE k = {}1{}",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    parse_statement(&text).expect("nesting up to MAX_NESTING is accepted");
    check(&text);
}

#[test]
fn deep_frozen_types_are_refused() {
    let depth = 10_000;
    let text = format!(
        "CREATE TABLE t (k int PRIMARY KEY, v {}int{})",
        "frozen<".repeat(depth),
        ">".repeat(depth)
    );
    assert_syntax_error(&text);
}

#[test]
fn deep_collection_literals_are_refused() {
    let depth = 10_000;
    for (open, close) in [("[", "]"), ("{", "}")] {
        let text = format!(
            "INSERT INTO t (k, v) VALUES (1, {}1{})",
            open.repeat(depth),
            close.repeat(depth)
        );
        assert_syntax_error(&text);
    }
}

#[test]
fn deep_unary_minus_chain_is_refused() {
    let text = format!("SELECT * FROM t WHERE k = {}1", "- ".repeat(10_000));
    assert_syntax_error(&text);
    let text = format!("SELECT {}k FROM t", "- ".repeat(10_000));
    assert_syntax_error(&text);
}

#[test]
fn deep_negated_parentheses_are_refused() {
    let depth = 10_000;
    let text = format!(
        "SELECT * FROM t WHERE k = {}1{}",
        "-(".repeat(depth),
        ")".repeat(depth)
    );
    assert_syntax_error(&text);
}

/// `head`, then `link` repeated, then `tail`, in a statement built by
/// `wrap`: `short` links must parse, 100,000 must be refused.
fn check_chain(wrap: impl Fn(&str) -> String, [head, link, tail]: [&str; 3], short: usize) {
    let chain = |n: usize| wrap(&format!("{head}{}{tail}", link.repeat(n)));
    let text = chain(short);
    parse_statement(&text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    check(&text);
    assert_syntax_error(&chain(100_000));
}

fn in_where(expression: &str) -> String {
    format!("SELECT * FROM t WHERE k = {expression}")
}

fn in_selection(expression: &str) -> String {
    format!("SELECT {expression} FROM t")
}

// A chain of operators, subscripts or field accesses nests nothing in the
// text but builds a tree as deep as the chain is long, which printing,
// comparing and dropping walk by recursion: 100,000 links overflowed the
// stack in all three.

#[test]
fn long_arithmetic_chains_are_refused() {
    check_chain(in_where, ["1", " + 1", ""], 100);
    check_chain(in_where, ["1", " * 1", ""], 100);
    check_chain(in_selection, ["k", " + k", ""], 100);
    check_chain(in_selection, ["k", " / k", ""], 100);
}

#[test]
fn long_chains_of_signed_literals_are_refused() {
    // `1 -1 -1` lexes as `1`, `-1`, `-1` and means `1 - 1 - 1`.
    check_chain(in_where, ["1", " -1", ""], 100);
    check_chain(in_selection, ["k", " -1.5", ""], 100);
}

#[test]
fn long_subscript_and_field_chains_are_refused() {
    check_chain(in_selection, ["k", "[1]", ""], 100);
    check_chain(in_selection, ["k", ".f", ""], 100);
    check_chain(in_selection, ["k", "[1].f", ""], 50);
}

#[test]
fn long_type_hint_chains_are_refused() {
    // Each hint is read by recursion in the parser itself: 300 hints in a
    // WHERE clause, or 100 in a selection, overflowed while parsing.
    check_chain(in_where, ["", "(int) ", "1"], 40);
    check_chain(in_selection, ["", "(int) ", "k"], 40);
    check_chain(in_selection, ["", "(int) -", "k"], 40);
}

#[test]
fn chains_inside_brackets_add_up() {
    // The tree is as deep as every chain on the way down together: each
    // parenthesised chain is the first operand of the next one out.
    let mut expression = String::from("1");
    for _ in 0..MAX_NESTING - 1 {
        expression = format!("({expression}{})", " + 1".repeat(20));
    }
    assert_syntax_error(&in_where(&expression));
}

#[test]
fn long_statements_with_shallow_trees_parse() {
    // Length alone is no reason to refuse: commas, `=`, reserved keywords
    // and statement boundaries end one chain before the next begins.
    let inserts = "INSERT INTO ks.t (k, v) VALUES (-1, ks.f(-2) - 3) ".repeat(1_000);
    let batch = format!("BEGIN BATCH {inserts}APPLY BATCH");
    let values: Vec<String> = (0..5_000).map(|n| format!("-{n}")).collect();
    let in_list = format!("SELECT * FROM ks.t WHERE k IN ({})", values.join(", "));
    let selectors: Vec<String> = (0..1_000).map(|n| format!("c{n} + 1 * -2")).collect();
    let selection = format!("SELECT {} FROM ks.t", selectors.join(", "));
    let relations: Vec<String> = (0..1_000)
        .map(|n| format!("c{n} >= ks.f(-{n}) + 1"))
        .collect();
    let update = format!("UPDATE ks.t SET v = 1 WHERE {}", relations.join(" AND "));
    for text in [batch, in_list, selection, update] {
        parse_statement(&text).unwrap_or_else(|e| panic!("{e:?}"));
        check(&text);
    }
}
