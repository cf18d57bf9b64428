//! Keeps `grammar/cql.ebnf` and the parser in agreement.
//!
//! * Every `(* example: … *)` in the grammar must parse.
//! * Random sentences derived from the start symbol `statement` (seeded, so
//!   a failure is reproducible) must parse too. The grammar is read with
//!   the notation its header defines: productions `name ::= expression ;`,
//!   `KEYWORD`, `'punctuation'`, `<token class>`, `a b`, `a | b`, `[ a ]`,
//!   `{ a }` and `( a )`, comments in `(* … *)`.
//!
//! The generator follows the grammar blindly except where the grammar's
//! comments state a rule its notation cannot: a property is not given
//! twice, `x = x + 1` names the assigned column again, and in the two places
//! where Cassandra commits to a reading by look-ahead (the header's note on
//! ambiguity) it avoids the sentences that reading refuses. Text Cassandra
//! parses and only then refuses (an `InvalidRequest`) counts as parsed.
//!
//! A failure prints the sentence, so it can be pasted into a REPL. When the
//! grammar and the parser disagree, Cassandra 5.0 decides which one is wrong.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use widerow::syntax::keyword::Keyword;
use widerow::{parse_statement, ErrorKind};

const GRAMMAR: &str = include_str!("../grammar/cql.ebnf");

/// How many random sentences to derive.
const SENTENCES: usize = 600;

/// Beyond this many nested non-terminals the generator takes the shortest
/// way out, so sentences stay small and derivation always ends.
const MAX_DEPTH: usize = 9;

/// The seed of the sentence generator, fixed so failures reproduce. To
/// explore other sentences, set `WIDEROW_GRAMMAR_SEED` to another number.
const SEED: u64 = 0x5eed_c0ff_ee15_ca1e;

fn seed() -> u64 {
    match std::env::var("WIDEROW_GRAMMAR_SEED") {
        Ok(text) => text
            .parse()
            .unwrap_or_else(|_| panic!("WIDEROW_GRAMMAR_SEED={text} is not a number")),
        Err(_) => SEED,
    }
}

// ---------------------------------------------------------------------------
// Reading the grammar
// ---------------------------------------------------------------------------

/// A grammar expression, as the header's notation defines it.
#[derive(Debug, Clone)]
enum Expr {
    /// A non-terminal, `name`.
    Rule(String),
    /// A keyword, written bare in upper case.
    Keyword(String),
    /// Punctuation, written between single quotes.
    Punct(String),
    /// A token class, `<identifier>`.
    Class(String),
    /// `a b …`
    Seq(Vec<Expr>),
    /// `a | b | …`
    Alt(Vec<Expr>),
    /// `[ a ]`
    Opt(Box<Expr>),
    /// `{ a }`
    Rep(Box<Expr>),
}

/// The productions in file order (the first is the start symbol).
struct Grammar {
    order: Vec<String>,
    rules: BTreeMap<String, Expr>,
}

/// The text of every `(* example: … *)` comment, in file order.
fn examples(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            line.strip_prefix("(* example: ")
                .and_then(|rest| rest.strip_suffix(" *)"))
                .map(str::to_string)
        })
        .collect()
}

/// The text with every `(* … *)` comment removed (comments do not nest).
fn strip_comments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find("(*") {
        out.push_str(&rest[..open]);
        let close = rest[open..]
            .find("*)")
            .unwrap_or_else(|| panic!("unclosed comment at {:?}", &rest[open..]));
        rest = &rest[open + close + 2..];
    }
    out.push_str(rest);
    out
}

/// Splits production text into the notation's symbols.
fn symbols(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some(&(at, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let end = match c {
            '\'' => text[at + 1..]
                .find('\'')
                .map(|i| at + 1 + i + 1)
                .expect("closed quote"),
            '<' => text[at..]
                .find('>')
                .map(|i| at + i + 1)
                .expect("closed class"),
            ':' => {
                assert!(
                    text[at..].starts_with("::="),
                    "stray ':' at {}",
                    &text[at..]
                );
                at + 3
            }
            '|' | '[' | ']' | '{' | '}' | '(' | ')' | ';' => at + 1,
            _ if c.is_ascii_alphanumeric() || c == '_' => text[at..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(text.len(), |i| at + i),
            _ => panic!("unexpected character {c:?} in the grammar"),
        };
        out.push(text[at..end].to_string());
        while chars.peek().is_some_and(|&(i, _)| i < end) {
            chars.next();
        }
    }
    out
}

/// A recursive-descent reader of one expression over the symbols.
struct Reader<'a> {
    symbols: &'a [String],
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<&str> {
        self.symbols.get(self.at).map(String::as_str)
    }

    fn expect(&mut self, symbol: &str) {
        assert_eq!(self.peek(), Some(symbol), "at symbol {}", self.at);
        self.at += 1;
    }

    fn alternatives(&mut self) -> Expr {
        let mut alts = vec![self.sequence()];
        while self.peek() == Some("|") {
            self.at += 1;
            alts.push(self.sequence());
        }
        if alts.len() == 1 {
            alts.pop().expect("one alternative")
        } else {
            Expr::Alt(alts)
        }
    }

    fn sequence(&mut self) -> Expr {
        let mut items = Vec::new();
        while let Some(symbol) = self.peek().map(str::to_string) {
            let item = match symbol.as_str() {
                "|" | "]" | "}" | ")" | ";" => break,
                "[" | "{" | "(" => {
                    let close = match symbol.as_str() {
                        "[" => "]",
                        "{" => "}",
                        _ => ")",
                    };
                    self.at += 1;
                    let inner = self.alternatives();
                    self.expect(close);
                    match symbol.as_str() {
                        "[" => Expr::Opt(Box::new(inner)),
                        "{" => Expr::Rep(Box::new(inner)),
                        _ => inner,
                    }
                }
                s if s.starts_with('\'') => {
                    self.at += 1;
                    Expr::Punct(s[1..s.len() - 1].to_string())
                }
                s if s.starts_with('<') => {
                    self.at += 1;
                    Expr::Class(s[1..s.len() - 1].to_string())
                }
                s if s.chars().next().is_some_and(|c| c.is_ascii_uppercase()) => {
                    self.at += 1;
                    Expr::Keyword(s.to_string())
                }
                s => {
                    self.at += 1;
                    Expr::Rule(s.to_string())
                }
            };
            items.push(item);
        }
        if items.len() == 1 {
            items.pop().expect("one item")
        } else {
            Expr::Seq(items)
        }
    }
}

fn read_grammar(text: &str) -> Grammar {
    let symbols = symbols(&strip_comments(text));
    let mut reader = Reader {
        symbols: &symbols,
        at: 0,
    };
    let mut grammar = Grammar {
        order: Vec::new(),
        rules: BTreeMap::new(),
    };
    while let Some(name) = reader.peek().map(str::to_string) {
        reader.at += 1;
        reader.expect("::=");
        let expr = reader.alternatives();
        reader.expect(";");
        assert!(
            grammar.rules.insert(name.clone(), expr).is_none(),
            "{name} is defined twice"
        );
        grammar.order.push(name);
    }
    grammar
}

fn referenced(expr: &Expr, out: &mut BTreeSet<String>) {
    match expr {
        Expr::Rule(name) => {
            out.insert(name.clone());
        }
        Expr::Seq(items) | Expr::Alt(items) => items.iter().for_each(|e| referenced(e, out)),
        Expr::Opt(inner) | Expr::Rep(inner) => referenced(inner, out),
        Expr::Keyword(_) | Expr::Punct(_) | Expr::Class(_) => {}
    }
}

// ---------------------------------------------------------------------------
// Deriving sentences
// ---------------------------------------------------------------------------

/// SplitMix64: small, seedable and good enough to pick alternatives.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// Words for `<identifier>`; each is checked not to be a keyword.
const NAMES: [&str; 12] = [
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
    "lambda", "omega",
];

/// How many non-terminals deep the shortest derivation of each rule goes.
fn min_heights(grammar: &Grammar) -> BTreeMap<String, usize> {
    let mut heights: BTreeMap<String, usize> = BTreeMap::new();
    loop {
        let mut changed = false;
        for (name, expr) in &grammar.rules {
            if let Some(h) = height(expr, &heights) {
                if heights.get(name).is_none_or(|&old| h + 1 < old) {
                    heights.insert(name.clone(), h + 1);
                    changed = true;
                }
            }
        }
        if !changed {
            return heights;
        }
    }
}

/// The shortest derivation height of `expr`, if known yet.
fn height(expr: &Expr, heights: &BTreeMap<String, usize>) -> Option<usize> {
    match expr {
        Expr::Rule(name) => heights.get(name).copied(),
        Expr::Keyword(_) | Expr::Punct(_) | Expr::Class(_) => Some(0),
        Expr::Opt(_) | Expr::Rep(_) => Some(0),
        Expr::Seq(items) => items
            .iter()
            .map(|e| height(e, heights))
            .try_fold(0, |acc, h| h.map(|h| acc.max(h))),
        Expr::Alt(items) => items.iter().filter_map(|e| height(e, heights)).min(),
    }
}

struct Generator<'g> {
    grammar: &'g Grammar,
    heights: BTreeMap<String, usize>,
    rng: Rng,
    /// Rules expanded at least once over the whole run.
    used: BTreeSet<String>,
    /// A counter that makes property names unique within a sentence.
    fresh: usize,
}

impl Generator<'_> {
    fn sentence(&mut self) -> String {
        self.fresh = 0;
        let mut tokens = Vec::new();
        self.rule("statement", 0, &mut tokens);
        tokens.join(" ")
    }

    fn rule(&mut self, name: &str, depth: usize, out: &mut Vec<String>) {
        self.used.insert(name.to_string());
        let expr = self.grammar.rules[name].clone();
        match name {
            // Cassandra refuses the same property twice, so a generated
            // property gets a name of its own.
            "property" => {
                self.fresh += 1;
                out.push(format!("prop{}", self.fresh));
                out.push("=".into());
                self.rule("property_value", depth + 1, out);
            }
            // Cassandra refuses a role option given twice, and PASSWORD
            // with HASHED PASSWORD, as the grammar's comment says: each
            // alternative is taken at most once, one password kind only.
            "role_options" => {
                self.used.insert("role_option".into());
                let Expr::Alt(alts) = self.grammar.rules["role_option"].clone() else {
                    panic!("role_option is a choice")
                };
                let mut chosen: Vec<usize> = Vec::new();
                let count = 1 + self.rng.below(alts.len());
                while chosen.len() < count {
                    let pick = self.rng.below(alts.len());
                    if !chosen.contains(&pick) {
                        chosen.push(pick);
                    }
                }
                // Alternatives 0 and 1 are PASSWORD and HASHED PASSWORD.
                if chosen.contains(&0) {
                    chosen.retain(|&c| c != 1);
                }
                for (n, pick) in chosen.into_iter().enumerate() {
                    if n > 0 {
                        out.push("AND".into());
                    }
                    self.expr(&alts[pick], depth + 1, out);
                }
            }
            // `x = x + 1`: the column on the right must be the assigned
            // one, as the grammar's comment on `assignment` says.
            "assignment" => {
                let Expr::Alt(alts) = &expr else {
                    panic!("assignment is a choice")
                };
                let alt = &alts[self.rng.below(alts.len())];
                let mut first: Option<Vec<String>> = None;
                let items = match alt {
                    Expr::Seq(items) => items.clone(),
                    other => vec![other.clone()],
                };
                for item in &items {
                    match (item, &first) {
                        (Expr::Rule(r), Some(column)) if r == "column_name" => {
                            out.extend(column.iter().cloned());
                        }
                        (Expr::Rule(r), None) if r == "column_name" => {
                            let mut column = Vec::new();
                            self.rule(r, depth + 1, &mut column);
                            out.extend(column.iter().cloned());
                            first = Some(column);
                        }
                        _ => self.expr(item, depth + 1, out),
                    }
                }
            }
            // Cassandra reads JSON or DISTINCT as the modifier whenever a
            // selection follows it (a syntactic predicate), so a selection
            // must not start with the word unless that modifier is present.
            "select_statement" => {
                let Expr::Seq(items) = &expr else {
                    panic!("select_statement is a sequence")
                };
                let start = out.len();
                for item in items {
                    if !matches!(item, Expr::Rule(r) if r == "selection") {
                        self.expr(item, depth + 1, out);
                        continue;
                    }
                    let modifiers = out[start + 1..].to_vec();
                    loop {
                        let mut selection = Vec::new();
                        self.rule("selection", depth + 1, &mut selection);
                        let first = selection[0].as_str();
                        let read_as_modifier = (first == "JSON" && modifiers.is_empty())
                            || (first == "DISTINCT" && !modifiers.iter().any(|m| m == "DISTINCT"));
                        if !read_as_modifier {
                            out.extend(selection);
                            break;
                        }
                    }
                }
            }
            // `(x) AS y`: Cassandra tries a type hint first, and `x` may be
            // a type and `as` a column, so an alias does not follow a
            // parenthesised single token.
            "selector_item" => {
                let mut selector = Vec::new();
                self.rule("selector", depth + 1, &mut selector);
                let n = selector.len();
                let hint_like = n >= 3 && selector[n - 3] == "(" && selector[n - 1] == ")";
                out.extend(selector);
                if !hint_like && self.rng.chance(50) {
                    out.push("AS".into());
                    self.rule("name", depth + 1, out);
                }
            }
            _ => self.expr(&expr, depth + 1, out),
        }
    }

    fn expr(&mut self, expr: &Expr, depth: usize, out: &mut Vec<String>) {
        let deep = depth > MAX_DEPTH;
        match expr {
            Expr::Rule(name) => self.rule(name, depth, out),
            Expr::Keyword(k) => out.push(k.clone()),
            Expr::Punct(p) => out.push(p.clone()),
            Expr::Class(class) => out.push(self.concrete(class)),
            Expr::Seq(items) => items.iter().for_each(|e| self.expr(e, depth, out)),
            Expr::Alt(alts) => {
                let choice = if deep {
                    let shortest = alts
                        .iter()
                        .filter_map(|a| height(a, &self.heights))
                        .min()
                        .expect("every rule derives a sentence");
                    let candidates: Vec<&Expr> = alts
                        .iter()
                        .filter(|a| height(a, &self.heights) == Some(shortest))
                        .collect();
                    candidates[self.rng.below(candidates.len())]
                } else {
                    &alts[self.rng.below(alts.len())]
                };
                self.expr(choice, depth, out);
            }
            Expr::Opt(inner) => {
                if !deep && self.rng.chance(50) {
                    self.expr(inner, depth, out);
                }
            }
            Expr::Rep(inner) => {
                if !deep {
                    while self.rng.chance(40) {
                        self.expr(inner, depth, out);
                    }
                }
            }
        }
    }

    /// A token of a class, spelt the simplest way that class allows.
    fn concrete(&mut self, class: &str) -> String {
        match class {
            "identifier" => NAMES[self.rng.below(NAMES.len())].to_string(),
            "quoted_identifier" => ["\"Quoted\"", "\"select\"", "\"with \"\"quote\"\"\""]
                [self.rng.below(3)]
            .to_string(),
            "string" => ["'x'", "''", "'it''s'", "$$raw$$"][self.rng.below(4)].to_string(),
            "integer" => ["1", "42", "-7"][self.rng.below(3)].to_string(),
            "float" => ["1.5", "-2.5e3", "1.", "-NaN"][self.rng.below(4)].to_string(),
            "boolean" => ["true", "FALSE"][self.rng.below(2)].to_string(),
            "uuid" => "123e4567-e89b-12d3-a456-426614174000".to_string(),
            "hex" => ["0xcafe", "0x"][self.rng.below(2)].to_string(),
            "duration" => ["1h30m", "P1DT2H", "PT5M", "-3w"][self.rng.below(4)].to_string(),
            other => panic!("unknown token class <{other}>"),
        }
    }
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

#[test]
fn grammar_is_well_formed() {
    let grammar = read_grammar(GRAMMAR);
    assert_eq!(grammar.order.first().map(String::as_str), Some("statement"));
    let mut reachable = BTreeSet::from(["statement".to_string()]);
    let mut queue = vec!["statement".to_string()];
    while let Some(name) = queue.pop() {
        let expr = grammar
            .rules
            .get(&name)
            .unwrap_or_else(|| panic!("{name} is used but not defined"));
        let mut refs = BTreeSet::new();
        referenced(expr, &mut refs);
        for r in refs {
            if reachable.insert(r.clone()) {
                queue.push(r);
            }
        }
    }
    let unreachable: Vec<_> = grammar
        .order
        .iter()
        .filter(|n| !reachable.contains(*n))
        .collect();
    assert!(unreachable.is_empty(), "unreachable: {unreachable:?}");
    let heights = min_heights(&grammar);
    let underivable: Vec<_> = grammar
        .order
        .iter()
        .filter(|n| !heights.contains_key(*n))
        .collect();
    assert!(
        underivable.is_empty(),
        "derive no sentence: {underivable:?}"
    );

    // The header promises examples for every *_statement production, right
    // below it.
    for name in grammar.order.iter().filter(|n| n.ends_with("_statement")) {
        let start = GRAMMAR
            .find(&format!("\n{name} ::="))
            .unwrap_or_else(|| panic!("{name} starts a line"));
        let after = &GRAMMAR[start..];
        let end = after[1..].find("\n\n").map_or(after.len(), |i| i + 1);
        assert!(
            after[..end].contains("(* example: "),
            "{name} has no example below it"
        );
    }
    for name in NAMES {
        assert!(Keyword::lookup(name).is_none(), "{name} is a keyword");
    }
}

#[test]
fn every_example_parses() {
    let examples = examples(GRAMMAR);
    let mut failures = String::new();
    for example in &examples {
        if let Err(e) = parse_statement(example) {
            writeln!(failures, "{example}\n    {}", e.message()).expect("writing to a String");
        }
    }
    assert!(
        failures.is_empty(),
        "examples that do not parse:\n{failures}"
    );
    assert!(examples.len() >= 100, "only {} examples", examples.len());
    println!("{} grammar examples parse", examples.len());
}

#[test]
fn random_sentences_parse() {
    let grammar = read_grammar(GRAMMAR);
    let mut generator = Generator {
        heights: min_heights(&grammar),
        grammar: &grammar,
        rng: Rng(seed()),
        used: BTreeSet::new(),
        fresh: 0,
    };
    let mut failures = Vec::new();
    for _ in 0..SENTENCES {
        let sentence = generator.sentence();
        match parse_statement(&sentence) {
            Ok(_) => {}
            // Text Cassandra parses and then refuses (a vector of -7
            // dimensions) agrees with the grammar, which describes syntax.
            Err(e) if e.kind() == ErrorKind::InvalidRequest => {}
            Err(e) => failures.push(format!("{sentence}\n    {}", e.message())),
        }
    }
    let unused: Vec<_> = grammar
        .order
        .iter()
        .filter(|n| !generator.used.contains(*n))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {SENTENCES} sentences do not parse:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(unused.is_empty(), "rules never exercised: {unused:?}");
    println!("{SENTENCES} random sentences parse");
}
