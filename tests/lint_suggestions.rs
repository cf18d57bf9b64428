//! Query-table suggestions for every bad query of the examples: each SELECT
//! of `examples/*.cql` is planned against the schema before it (applied in
//! order with `PlanContext::apply_schema`); for every one that is refused or
//! scatter-gather and gets a suggestion, the suggested CREATE TABLE must be
//! accepted by a copy of that schema and the rewritten query must plan as
//! `point-lookup` or `partition-scan` on the new table. Every example file
//! that has a bad query must get at least one suggestion.

use std::fs;
use std::path::{Path, PathBuf};

use widerow::lint::suggest::{suggest_query_table, Suggestion};
use widerow::lint::{LintConfig, Linter};
use widerow::planner::{is_schema_statement, plan_statement, PlanContext, QueryClass};
use widerow::syntax::ast::{Select, Statement};
use widerow::{parse_statement, split_statements};

fn example_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut files: Vec<_> = fs::read_dir(&dir)
        .expect("examples folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cql"))
        .collect();
    files.sort();
    files
}

/// A suggestion to read a table the schema already has: the rewritten query
/// reads it from one partition.
fn check_reading_existing(ctx: &PlanContext, s: &Suggestion) -> Result<QueryClass, String> {
    let rewritten = parse_statement(&s.rewritten_query)
        .map_err(|e| format!("rewritten query does not parse: {}", e.message()))?;
    let class = plan_statement(ctx, &rewritten)
        .map_err(|e| format!("rewritten query refused: {}", e.message()))?
        .class;
    match class {
        QueryClass::PointLookup | QueryClass::PartitionScan => Ok(class),
        other => Err(format!("reading {} is {other}", s.table_name)),
    }
}

/// Checks one suggestion; returns what is wrong with it.
fn check(ctx: &PlanContext, original: &Select, s: &Suggestion) -> Result<QueryClass, String> {
    let keyspace = ctx
        .catalog
        .resolve_table(ctx.keyspace.as_deref(), &original.from)
        .map_err(|e| e.message().to_string())?
        .keyspace
        .clone();
    let existing = s.create_table.is_empty();
    if existing != ctx.catalog.table(&keyspace, &s.table_name).is_some() {
        return Err(format!(
            "{} exists: {}, but the suggestion {} it",
            s.table_name,
            !existing,
            if existing { "reads" } else { "creates" }
        ));
    }
    if existing {
        return check_reading_existing(ctx, s);
    }
    if s.help.is_empty() || s.help.contains('\n') || !s.help.ends_with(&s.table_name) {
        return Err(format!(
            "help is not one sentence naming the table: {}",
            s.help
        ));
    }
    if !s.create_table.ends_with(';') || !s.rewritten_query.ends_with(';') {
        return Err("statements must end with ;".into());
    }
    let mut fresh = ctx.clone();
    let create = parse_statement(&s.create_table)
        .map_err(|e| format!("CREATE TABLE does not parse: {}", e.message()))?;
    if !matches!(create, Statement::CreateTable(_)) {
        return Err("not a CREATE TABLE".into());
    }
    fresh
        .apply_schema(&create)
        .map_err(|e| format!("CREATE TABLE refused: {}", e.message()))?;
    if fresh.catalog.table(&keyspace, &s.table_name).is_none() {
        return Err(format!("{keyspace}.{} was not created", s.table_name));
    }
    let Statement::Select(rewritten) = parse_statement(&s.rewritten_query)
        .map_err(|e| format!("rewritten query does not parse: {}", e.message()))?
    else {
        return Err("rewritten query is not a SELECT".into());
    };
    if rewritten.from.name.name != s.table_name {
        return Err("rewritten query does not read the new table".into());
    }
    if rewritten.allow_filtering {
        return Err("rewritten query still says ALLOW FILTERING".into());
    }
    if rewritten.selection != original.selection
        || rewritten.limit != original.limit
        || rewritten.per_partition_limit != original.per_partition_limit
        || rewritten.order_by != original.order_by
    {
        return Err("rewritten query does not keep the selection, ORDER BY and limits".into());
    }
    let plan = plan_statement(&fresh, &Statement::Select(rewritten))
        .map_err(|e| format!("rewritten query refused: {}", e.message()))?;
    match plan.class {
        QueryClass::PointLookup | QueryClass::PartitionScan => Ok(plan.class),
        other => Err(format!("rewritten query is {other}")),
    }
}

#[test]
fn every_suggestion_in_the_examples_serves_its_query_from_one_partition() {
    let mut failures = Vec::new();
    let mut report = Vec::new();
    let mut total = 0;
    for file in example_files() {
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let source = fs::read_to_string(&file).expect("readable");
        let mut ctx = PlanContext::new();
        let mut bad = 0;
        let mut suggested = 0;
        for statement in split_statements(&source) {
            let parsed = parse_statement(&statement.text).expect("examples parse");
            if is_schema_statement(&parsed) {
                ctx.apply_schema(&parsed).expect("example schema applies");
                continue;
            }
            let Statement::Select(select) = &parsed else {
                continue;
            };
            let is_bad = match plan_statement(&ctx, &parsed) {
                Ok(plan) => plan.class == QueryClass::ScatterGather,
                Err(_) => true,
            };
            let suggestion = suggest_query_table(&ctx, select);
            if !is_bad {
                if let Some(s) = suggestion {
                    failures.push(format!(
                        "{name}:{}: a good query got a suggestion: {}",
                        statement.line, s.table_name
                    ));
                }
                continue;
            }
            bad += 1;
            let Some(s) = suggestion else {
                report.push(format!("{name}:{}: no suggestion", statement.line));
                continue;
            };
            suggested += 1;
            match check(&ctx, select, &s) {
                Ok(class) => report.push(format!(
                    "{name}:{}: {class}\n{}\n{}\n{}",
                    statement.line, s.help, s.create_table, s.rewritten_query
                )),
                Err(why) => failures.push(format!(
                    "{name}:{}: {why}\n{}\n{}",
                    statement.line, s.create_table, s.rewritten_query
                )),
            }
        }
        if bad > 0 && suggested == 0 {
            failures.push(format!("{name}: {bad} bad queries and not one suggestion"));
        }
        total += suggested;
    }
    println!("{}", report.join("\n\n"));
    assert!(total > 0, "no suggestion at all");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The queries of DESIGN.md's bad designs and the seed's common mistakes,
/// with the table the method of seeds/000 would write for each.
#[test]
fn the_bad_designs_get_the_tables_the_method_asks_for() {
    let mut ctx = PlanContext::new();
    for statement in split_statements(
        "CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
         USE iot;
         CREATE TABLE readings_by_sensor_and_ts (sensor_id text, reading_ts timestamp,
             temperature double, PRIMARY KEY ((sensor_id, reading_ts)));
         CREATE TABLE users (user_id uuid PRIMARY KEY, email text, name text, country text);
         CREATE INDEX users_email_idx ON users (email);
         CREATE TABLE orders_by_user (user_id uuid, order_id timeuuid, status text, total decimal,
             PRIMARY KEY (user_id, order_id)) WITH CLUSTERING ORDER BY (order_id DESC);",
    ) {
        let parsed = parse_statement(&statement.text).expect("parses");
        ctx.apply_schema(&parsed).expect("applies");
    }
    let cases = [
        (
            // Too many tiny partitions: the hour of one sensor.
            "SELECT * FROM readings_by_sensor_and_ts WHERE sensor_id = 's-001' \
             AND reading_ts >= '2025-06-01T08:00:00Z' AND reading_ts < '2025-06-01T09:00:00Z' \
             ALLOW FILTERING",
            "readings_by_sensor_id_reading_ts_date",
            "PRIMARY KEY ((sensor_id, reading_ts_date), reading_ts)",
        ),
        (
            // A secondary index on a high-cardinality column.
            "SELECT * FROM users WHERE email = 'alice@example.com'",
            "users_by_email",
            "PRIMARY KEY (email, user_id)",
        ),
        (
            // An order by id, asked of the table by user.
            "SELECT * FROM orders_by_user WHERE order_id = d52fe800-4085-11f0-9345-0242ac120002",
            "orders_by_order_id",
            "PRIMARY KEY (order_id, user_id)",
        ),
    ];
    for (query, table, key) in cases {
        let Ok(Statement::Select(select)) = parse_statement(query) else {
            panic!("{query} is not a SELECT");
        };
        let s = suggest_query_table(&ctx, &select).unwrap_or_else(|| panic!("{query}"));
        assert_eq!(s.table_name, table, "{query}");
        assert!(s.create_table.contains(key), "{}", s.create_table);
        check(&ctx, &select, &s).unwrap_or_else(|why| panic!("{query}: {why}"));
    }
    // ALLOW FILTERING in a production query, by country: a table keyed by
    // country alone is the hot partition of the seeds' bad designs (rule
    // hot-partition), and the query has no time range to bucket by, so no
    // design is offered.
    let Ok(Statement::Select(by_country)) =
        parse_statement("SELECT * FROM users WHERE country = 'TW' ALLOW FILTERING")
    else {
        panic!("not a SELECT");
    };
    assert_eq!(suggest_query_table(&ctx, &by_country), None);
}

/// The `.cql` files of the lint corpus and the examples.
fn corpus_files() -> Vec<PathBuf> {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lint/rules");
    let mut files: Vec<PathBuf> = fs::read_dir(&rules)
        .expect("tests/lint/rules")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cql"))
        .collect();
    files.sort();
    files.extend(example_files());
    files
}

/// The schema statements of `source` that start before `line`: what the
/// statement on that line was linted against.
fn schema_before(source: &str, line: usize) -> String {
    split_statements(source)
        .into_iter()
        .filter(|s| s.line < line)
        .filter(|s| parse_statement(&s.text).is_ok_and(|p| is_schema_statement(&p)))
        .map(|s| s.text + ";\n")
        .collect()
}

/// Every suggestion `widerow lint --suggest` prints for the corpus, linted
/// as a file of its own (on the schema its query was linted against, with
/// the same configuration, no suppression comment), draws no finding: the
/// linter never proposes a design its own rules reject.
#[test]
fn every_suggestion_of_the_corpus_lints_clean() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for file in corpus_files() {
        let name = file.display().to_string();
        let source = fs::read_to_string(&file).expect("readable");
        let mut linter = Linter::new(LintConfig::default());
        let mut findings = linter.lint_str(&name, &source);
        findings.extend(linter.finish());
        for finding in findings {
            let Some(script) = &finding.suggestion else {
                continue;
            };
            checked += 1;
            let line = finding
                .source
                .as_ref()
                .map_or(finding.location.line, |s| s.line);
            let mut fresh = Linter::new(LintConfig::default());
            // Schema statements a fixture means to fail are not the
            // suggestion's business.
            let _ = fresh.load_schema("schema.cql", &schema_before(&source, line));
            let mut found = fresh.lint_str("suggestion.cql", script);
            found.extend(fresh.finish());
            found.retain(|f| f.location.file == "suggestion.cql");
            if !found.is_empty() {
                let codes: Vec<String> = found
                    .iter()
                    .map(|f| format!("{} {}: {}", f.code, f.name, f.message))
                    .collect();
                failures.push(format!(
                    "{name}:{line} ({}):\n{script}\n  {}",
                    finding.code,
                    codes.join("\n  ")
                ));
            }
        }
    }
    assert!(checked > 0, "no suggestion at all");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
