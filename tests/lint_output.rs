//! The linter's output formats, configuration file and command line.
//!
//! The fixture (`tests/lint/fixture.cql`) has findings only of the rules the
//! driver reports itself (E001, E002, S001), and the linter selects only
//! those, so the snapshots stay put as other rules land. The SARIF log is
//! validated against the SARIF 2.1.0 schema kept in `tests/lint/` (see its
//! README for where it came from). Update snapshots with
//! `cargo insta test --accept --test lint_output`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use widerow::diagnostic::RenderOptions;
use widerow::lint::config::{find_config_file, ConfigFile};
use widerow::lint::output::{self, OutputFormat};
use widerow::lint::{Finding, LintConfig, Linter, Rule};

const FIXTURE: &str = "tests/lint/fixture.cql";

fn fixture_config() -> LintConfig {
    LintConfig {
        select: vec!["E".into(), "S001".into()],
        ..LintConfig::default()
    }
}

/// The fixture's findings, and the rules that ran.
fn fixture_findings() -> (Vec<Finding>, Vec<Box<dyn Rule>>) {
    let text = std::fs::read_to_string(FIXTURE).expect("fixture");
    let config = fixture_config();
    let mut linter = Linter::new(config.clone());
    let mut findings = linter.lint_str(FIXTURE, &text);
    findings.extend(linter.finish());
    let rules = widerow::lint::rules::all()
        .into_iter()
        .filter(|r| config.is_enabled(r.as_ref(), FIXTURE))
        .collect();
    (findings, rules)
}

fn render(format: OutputFormat) -> String {
    let (findings, rules) = fixture_findings();
    output::render(format, &findings, &rules, RenderOptions::default())
}

#[test]
fn fixture_has_the_three_driver_rules() {
    let (findings, _) = fixture_findings();
    let codes: Vec<&str> = findings.iter().map(|f| f.code).collect();
    assert_eq!(codes, ["E002", "E001", "E001", "S001"], "{findings:#?}");
    assert_eq!(
        output::summary(&findings),
        "4 findings: 3 errors, 1 warning, 0 infos"
    );
    assert_eq!(output::summary(&[]), "no findings");
}

#[test]
fn columns_count_characters() {
    // Line 12 is `  VALUES (now(), 'Zoë Brontë') extra;`: `extra` is the
    // 32nd character (the 34th byte).
    let (findings, _) = fixture_findings();
    let extra = &findings[1].location;
    assert_eq!(
        (extra.line, extra.column, extra.end_line, extra.end_column),
        (12, 32, 12, 37)
    );
}

#[test]
fn human() {
    insta::assert_snapshot!("human", render(OutputFormat::Human));
}

#[test]
fn concise() {
    insta::assert_snapshot!("concise", render(OutputFormat::Concise));
}

#[test]
fn json_lines() {
    let text = render(OutputFormat::Json);
    for line in text.lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("one object per line");
        let keys: Vec<&str> = record
            .as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "file",
                "line",
                "column",
                "end_line",
                "end_column",
                "code",
                "name",
                "level",
                "message",
                "help",
                "suggestion"
            ]
        );
    }
    insta::assert_snapshot!("json", text);
}

#[test]
fn github() {
    insta::assert_snapshot!("github", render(OutputFormat::Github));
}

#[test]
fn sarif() {
    insta::assert_snapshot!("sarif", render(OutputFormat::Sarif));
}

fn sarif_validator() -> jsonschema::Validator {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string("tests/lint/sarif-schema-2.1.0.json").expect("schema file"),
    )
    .expect("schema is JSON");
    jsonschema::validator_for(&schema).expect("schema compiles")
}

fn schema_errors(validator: &jsonschema::Validator, log: &serde_json::Value) -> Vec<String> {
    validator
        .iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

#[test]
fn sarif_is_valid_against_the_schema() {
    let validator = sarif_validator();
    let log: serde_json::Value =
        serde_json::from_str(&render(OutputFormat::Sarif)).expect("SARIF is JSON");
    let errors = schema_errors(&validator, &log);
    assert!(errors.is_empty(), "{errors:#?}");
    let run = &log["runs"][0];
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    assert_eq!(run["tool"]["driver"]["name"], "widerow");
    assert!(run["tool"]["driver"].get("informationUri").is_none());

    // With every rule listed, and a finding of each level, still valid.
    let (mut findings, _) = fixture_findings();
    findings[0].level = widerow::lint::Level::Info;
    findings[1].location.file = "dir with space/ä.cql".into();
    let all = widerow::lint::rules::all();
    let log = output::sarif::log(&findings, &all);
    let errors = schema_errors(&validator, &log);
    assert!(errors.is_empty(), "{errors:#?}");
    // In file order the unused suppression (line 6) comes first.
    assert_eq!(log["runs"][0]["results"][1]["level"], "note");
}

#[test]
fn the_schema_does_reject_a_bad_log() {
    let validator = sarif_validator();
    let mut log: serde_json::Value =
        serde_json::from_str(&render(OutputFormat::Sarif)).expect("SARIF is JSON");
    log["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!schema_errors(&validator, &log).is_empty());
    let missing = serde_json::json!({ "runs": [] });
    assert!(!schema_errors(&validator, &missing).is_empty());
}

#[test]
fn sarif_uris() {
    use output::sarif::uri;
    assert_eq!(uri("tests/a.cql"), "tests/a.cql");
    assert_eq!(uri("/srv/app/a b.cql"), "file:///srv/app/a%20b.cql");
    assert_eq!(uri("schema/é.cql"), "schema/%C3%A9.cql");
    assert_eq!(uri("C:\\app\\a.cql"), "file:///C:/app/a.cql");
}

#[test]
fn github_escapes() {
    let (mut findings, _) = fixture_findings();
    findings[0].message = "50% of\nrows".into();
    findings[0].location.file = "a,b:c.cql".into();
    let line = output::github::command(&findings[0]);
    assert!(
        line.starts_with("::error file=a%2Cb%3Ac.cql,line=9,col=1,"),
        "{line}"
    );
    assert!(line.ends_with("::50%25 of%0Arows"), "{line}");
}

#[test]
fn suggestions_script() {
    let (mut findings, _) = fixture_findings();
    assert_eq!(output::suggestions(&findings), "");
    findings[0].suggestion = Some("CREATE TABLE broken (id int PRIMARY KEY, note text);".into());
    assert_eq!(
        output::suggestions(&findings),
        "-- tests/lint/fixture.cql:9:1: E002 invalid-statement: InvalidRequest: No PRIMARY KEY specifed for table 'broken' (exactly one required)\n\
         CREATE TABLE broken (id int PRIMARY KEY, note text);\n"
    );
    let human = output::human::render_one(&findings[0], RenderOptions::default());
    assert!(human.contains("suggestion:"), "{human}");
    assert!(
        human.contains("CREATE TABLE broken (id int PRIMARY KEY"),
        "{human}"
    );
}

#[test]
fn format_names() {
    for format in OutputFormat::ALL {
        assert_eq!(OutputFormat::parse(format.name()), Some(format));
    }
    assert_eq!(OutputFormat::parse("text"), None);
}

// ---------------------------------------------------------------- config

const GOOD: &str = r#"
[lint]
select = ["E", "Q001", "allow-filtering"]
ignore = ["S001"]
extend-select = ["K"]
target = "cassandra-5"

[lint.per-file-ignores]
"migrations/*.cql" = ["E002"]

[lint.options.hot-partition]
low-cardinality = ["tier", "plan"]

[lint.options.unbounded-partition]
buckets = ["shard_no"]
max = 3

[limits]
max-rows = 1000
"#;

#[test]
fn config_good_file() {
    let config = LintConfig::from_toml(GOOD).expect("good file");
    assert_eq!(config.select, ["E", "Q001", "allow-filtering"]);
    assert_eq!(config.ignore, ["S001"]);
    assert_eq!(config.extend_select, ["K"]);
    assert_eq!(config.target, "cassandra-5");
    assert_eq!(config.per_file_ignores["migrations/*.cql"], ["E002"]);
    assert_eq!(
        config.option_words("hot-partition", "low-cardinality"),
        Some(vec!["tier".to_string(), "plan".to_string()])
    );
    assert_eq!(config.option_u64("unbounded-partition", "max", 0), 3);

    let file = ConfigFile::from_toml(GOOD).expect("good file");
    assert_eq!(file.lint, config);
    assert_eq!(
        file.limits.get("max-rows").and_then(|v| v.as_integer()),
        Some(1000)
    );
    // What --show-config prints reads back the same.
    let again = ConfigFile::from_toml(&file.to_toml()).expect("round trip");
    assert_eq!(again, file);

    assert_eq!(
        LintConfig::from_toml("").expect("empty"),
        LintConfig::default()
    );
    assert_eq!(
        LintConfig::from_toml("[limits]\nanything = 1\n").expect("limits only"),
        LintConfig::default()
    );
}

#[test]
fn config_bad_files() {
    let refused = |text: &str, needle: &str| {
        let error = LintConfig::from_toml(text).expect_err(text);
        assert!(error.contains(needle), "{text:?} → {error}");
    };
    refused("[lint]\nselct = [\"E\"]\n", "unknown key `selct`");
    refused(
        "[lint]\nextend_select = [\"E\"]\n",
        "unknown key `extend_select`",
    );
    refused("[lints]\n", "unknown table `lints`");
    refused(
        "[lint]\ntarget = \"cassandra-4\"\n",
        "unsupported target `cassandra-4`",
    );
    refused("[lint]\nselect = \"E\"\n", "`lint.select` must be a list");
    refused("[lint]\nselect = [1]\n", "list of strings");
    refused(
        "[lint.options]\nhot-partition = 3\n",
        "`lint.options.hot-partition` must be a table",
    );
    refused("[lint]\nselect = [\n", "invalid TOML");
    refused("lint = 3\n", "`lint` must be a table");
}

#[test]
fn config_rules_are_checked() {
    let rules = widerow::lint::rules::all();
    let ok = LintConfig::from_toml("[lint]\nselect = [\"E\", \"Q\", \"S00\", \"syntax-error\"]\n")
        .expect("parses");
    assert_eq!(ok.check_rules(&rules), Ok(()));
    let unknown = LintConfig::from_toml("[lint]\nignore = [\"no-such-rule\"]\n").expect("parses");
    let error = unknown.check_rules(&rules).expect_err("unknown rule");
    assert!(error.contains("no-such-rule"), "{error}");
    let options = LintConfig::from_toml("[lint.options.nope]\nx = 1\n").expect("parses");
    assert!(options.check_rules(&rules).is_err());
}

#[test]
fn config_is_found_walking_up() {
    let root = scratch("walk");
    let nested = root.join("a/b");
    std::fs::create_dir_all(&nested).expect("dirs");
    assert!(find_config_file(&nested).is_none_or(|p| !p.starts_with(&root)));
    std::fs::write(root.join("widerow.toml"), "[lint]\n").expect("write");
    assert_eq!(find_config_file(&nested), Some(root.join("widerow.toml")));
}

// ------------------------------------------------------------- command line

/// A fresh directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("lint_output_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn widerow(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_widerow"))
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .output()
        .expect("run widerow")
}

fn code(output: &Output) -> i32 {
    output.status.code().expect("exit code")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A project directory: a config selecting only the driver's rules, a
/// clean file, a file with a syntax error, and one with only an unused
/// suppression (a warning).
fn project(name: &str) -> PathBuf {
    let dir = scratch(name);
    std::fs::write(
        dir.join("widerow.toml"),
        "[lint]\nselect = [\"E\", \"S001\"]\n",
    )
    .expect("config");
    std::fs::create_dir_all(dir.join("cql/nested")).expect("dirs");
    std::fs::write(
        dir.join("cql/clean.cql"),
        "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3};\n",
    )
    .expect("clean");
    std::fs::write(dir.join("cql/nested/broken.cql"), "SELET 1;\n").expect("broken");
    std::fs::write(dir.join("cql/nested/notes.txt"), "SELET 1;\n").expect("not cql");
    std::fs::write(
        dir.join("warn.cql"),
        "-- widerow: ignore[syntax-error]\nCREATE KEYSPACE k2 WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3};\n",
    )
    .expect("warn");
    dir
}

#[test]
fn cli_exit_codes() {
    let dir = project("exit");
    let clean = widerow(&dir, &["lint", "cql/clean.cql"]);
    assert_eq!(code(&clean), 0, "{}", stderr(&clean));
    assert_eq!(stderr(&clean).trim(), "no findings");
    assert_eq!(stdout(&clean), "");

    // A directory is searched for *.cql files.
    let tree = widerow(&dir, &["lint", "--format", "concise", "cql"]);
    assert_eq!(code(&tree), 1, "{}", stderr(&tree));
    let out = stdout(&tree);
    assert!(
        out.starts_with("cql/nested/broken.cql:1:1: E001 syntax-error: "),
        "{out}"
    );
    assert_eq!(out.lines().count(), 1, "{out}");
    assert_eq!(
        stderr(&tree).trim(),
        "1 finding: 1 error, 0 warnings, 0 infos"
    );

    // --fail-on
    let warn = widerow(&dir, &["lint", "warn.cql"]);
    assert_eq!(code(&warn), 0, "{}", stderr(&warn));
    let warn = widerow(&dir, &["lint", "--fail-on", "warning", "warn.cql"]);
    assert_eq!(code(&warn), 1, "{}", stderr(&warn));
    let warn = widerow(&dir, &["lint", "--fail-on", "info", "warn.cql"]);
    assert_eq!(code(&warn), 1);

    // Flags beat the file.
    let ignored = widerow(
        &dir,
        &["lint", "--ignore", "S001", "--fail-on", "info", "warn.cql"],
    );
    assert_eq!(code(&ignored), 0, "{}", stderr(&ignored));
    let selected = widerow(
        &dir,
        &[
            "lint",
            "--select",
            "S001",
            "--fail-on",
            "warning",
            "cql",
            "warn.cql",
        ],
    );
    assert_eq!(code(&selected), 1, "{}", stderr(&selected));
    assert!(
        stderr(&selected).contains("1 warning"),
        "{}",
        stderr(&selected)
    );

    // Could not run.
    let missing = widerow(&dir, &["lint", "nope.cql"]);
    assert_eq!(code(&missing), 2);
    assert!(
        stderr(&missing).contains("nope.cql: No such file or directory"),
        "{}",
        stderr(&missing)
    );
    assert_eq!(
        code(&widerow(&dir, &["lint", "--fail-on", "fatal", "warn.cql"])),
        2
    );
    assert_eq!(
        code(&widerow(&dir, &["lint", "--format", "xml", "warn.cql"])),
        2
    );
    assert_eq!(code(&widerow(&dir, &["lint"])), 2);
    let unknown = widerow(&dir, &["lint", "--select", "no-such-rule", "warn.cql"]);
    assert_eq!(code(&unknown), 2);
    assert!(
        stderr(&unknown).contains("no-such-rule"),
        "{}",
        stderr(&unknown)
    );
}

#[test]
fn cli_configuration() {
    let dir = project("config");
    std::fs::write(dir.join("bad.toml"), "[lint]\nselct = [\"E\"]\n").expect("bad");
    let bad = widerow(&dir, &["lint", "--config", "bad.toml", "warn.cql"]);
    assert_eq!(code(&bad), 2);
    assert!(
        stderr(&bad).contains("bad.toml: unknown key `selct`"),
        "{}",
        stderr(&bad)
    );
    std::fs::write(dir.join("old.toml"), "[lint]\ntarget = \"cassandra-3\"\n").expect("old");
    let old = widerow(&dir, &["lint", "--config", "old.toml", "warn.cql"]);
    assert_eq!(code(&old), 2);
    assert!(
        stderr(&old).contains("unsupported target `cassandra-3`"),
        "{}",
        stderr(&old)
    );
    assert_eq!(
        code(&widerow(
            &dir,
            &["lint", "--config", "absent.toml", "warn.cql"]
        )),
        2
    );

    // Found walking up from a subdirectory.
    let shown = widerow(&dir.join("cql/nested"), &["lint", "--show-config"]);
    assert_eq!(code(&shown), 0, "{}", stderr(&shown));
    let text = stdout(&shown);
    let shown_config = ConfigFile::from_toml(&text).expect("--show-config prints TOML");
    assert_eq!(shown_config.lint.select, ["E", "S001"]);
    assert!(text.starts_with("# from "), "{text}");

    let shown = widerow(
        &dir,
        &["lint", "--show-config", "--extend-select", "E001,E002"],
    );
    let shown_config = ConfigFile::from_toml(&stdout(&shown)).expect("TOML");
    assert_eq!(shown_config.lint.extend_select, ["E001", "E002"]);
}

#[test]
fn cli_formats() {
    let dir = project("formats");
    let sarif = widerow(&dir, &["lint", "--format", "sarif", "cql"]);
    assert_eq!(code(&sarif), 1);
    let log: serde_json::Value = serde_json::from_str(&stdout(&sarif)).expect("SARIF");
    let errors = schema_errors(&sarif_validator(), &log);
    assert!(errors.is_empty(), "{errors:#?}");
    let json = widerow(&dir, &["lint", "--format", "json", "cql"]);
    let line: serde_json::Value = serde_json::from_str(stdout(&json).trim()).expect("JSON line");
    assert_eq!(line["code"], "E001");
    let github = widerow(&dir, &["lint", "--format", "github", "cql"]);
    assert!(stdout(&github).starts_with("::error file=cql/nested/broken.cql,line=1,col=1,"));
    let human = widerow(&dir, &["lint", "cql"]);
    assert!(
        stdout(&human).contains("E001 syntax-error"),
        "{}",
        stdout(&human)
    );
    assert!(
        !stdout(&human).contains('\u{1b}'),
        "no colour off a terminal"
    );
    let suggest = widerow(&dir, &["lint", "--suggest", "cql"]);
    assert_eq!(code(&suggest), 1);
    assert_eq!(stdout(&suggest), "");

    // The other modes know only text and json.
    std::fs::write(dir.join("q.cql"), "SELECT 1 FROM system.local;\n").expect("q");
    let parse = widerow(&dir, &["parse", "--format", "sarif", "q.cql"]);
    assert_eq!(code(&parse), 2);
    assert!(
        stderr(&parse).contains("--format sarif is for `widerow lint`"),
        "{}",
        stderr(&parse)
    );
    let run = widerow(&dir, &["--format", "github", "-e", "SELECT 1 FROM t;"]);
    assert_eq!(code(&run), 1);
}

#[test]
fn cli_rules() {
    let dir = scratch("rules");
    let list = widerow(&dir, &["rules"]);
    assert_eq!(code(&list), 0);
    let text = stdout(&list);
    for (code, name) in [
        ("E001", "syntax-error"),
        ("E002", "invalid-statement"),
        ("S001", "unused-suppression"),
    ] {
        let line = text
            .lines()
            .find(|l| l.starts_with(code))
            .unwrap_or_else(|| panic!("{code} listed:\n{text}"));
        assert!(line.contains(name), "{line}");
    }
    let json = widerow(&dir, &["rules", "--format", "json"]);
    let first: serde_json::Value =
        serde_json::from_str(stdout(&json).lines().next().expect("a rule")).expect("JSON");
    assert_eq!(first["code"], "E001");
    assert_eq!(first["level"], "error");

    for name in ["syntax-error", "E001", "e001"] {
        let page = widerow(&dir, &["rule", name]);
        assert_eq!(code(&page), 0);
        assert!(
            stdout(&page).starts_with("# syntax-error (E001)\n"),
            "{}",
            stdout(&page)
        );
        assert!(stdout(&page).contains("## What it does"));
    }
    let unknown = widerow(&dir, &["rule", "no-such-rule"]);
    assert_eq!(code(&unknown), 2);
    assert!(
        stderr(&unknown).contains("unknown rule 'no-such-rule'"),
        "{}",
        stderr(&unknown)
    );
}

/// The `(line, column)` of each finding, in the order `text` (rendered in
/// `format`) prints them.
fn printed_positions(format: OutputFormat, text: &str) -> Vec<(u64, u64)> {
    let number = |s: &str| s.parse::<u64>().expect("a number");
    let json_position = |v: &serde_json::Value| {
        (
            v["line"].as_u64().expect("line"),
            v["column"].as_u64().expect("column"),
        )
    };
    match format {
        OutputFormat::Human | OutputFormat::Concise => text
            .split("fixture.cql:")
            .skip(1)
            .map(|rest| {
                let mut parts = rest.split([':', ']', '\n']);
                (number(parts.next().unwrap()), number(parts.next().unwrap()))
            })
            .collect(),
        OutputFormat::Json => text
            .lines()
            .map(|l| json_position(&serde_json::from_str(l).unwrap()))
            .collect(),
        OutputFormat::Github => text
            .lines()
            .map(|l| {
                let field = |name: &str| {
                    let rest = l.split(name).nth(1).expect(name);
                    number(rest.split(',').next().unwrap())
                };
                (field(",line="), field(",col="))
            })
            .collect(),
        OutputFormat::Sarif => {
            let log: serde_json::Value = serde_json::from_str(text).unwrap();
            log["runs"][0]["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| {
                    let region = &r["locations"][0]["physicalLocation"]["region"];
                    (
                        region["startLine"].as_u64().unwrap(),
                        region["startColumn"].as_u64().unwrap(),
                    )
                })
                .collect()
        }
    }
}

#[test]
fn every_format_prints_findings_in_file_order() {
    let (mut findings, rules) = fixture_findings();
    // Two findings on one line, handed over in the wrong order.
    // `VALUES` on line 12, the statement's second line (byte 42 of it).
    let mut same_line = findings[1].clone();
    same_line.location.column = 3;
    same_line.location.end_column = 9;
    same_line.span = widerow::syntax::span::Span::new(42, 48);
    findings.push(same_line);
    findings.reverse();
    let expected = [(6, 1), (9, 1), (12, 3), (12, 32), (13, 1)];
    for format in OutputFormat::ALL {
        let text = output::render(format, &findings, &rules, RenderOptions::default());
        assert_eq!(printed_positions(format, &text), expected, "{format}");
    }
}

/// `widerow lint` reads a statement within the `[limits]` a run would
/// hold it to (the file's, with the flags on top): past them it is an
/// invalid statement, reported at the IN list, whose values no rule reads.
#[test]
fn cli_applies_the_limits() {
    let dir = scratch("limits");
    std::fs::write(
        dir.join("widerow.toml"),
        "[lint]\nselect = [\"E\"]\n\n[limits]\nin_list_length = 2\n",
    )
    .expect("config");
    std::fs::write(
        dir.join("q.cql"),
        "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3};\n\
         CREATE TABLE ks.t (k int PRIMARY KEY, v int);\n\
         SELECT * FROM ks.t WHERE k IN (1, 2, 3);\n",
    )
    .expect("query");
    let refused = widerow(&dir, &["lint", "--format", "concise", "q.cql"]);
    assert_eq!(code(&refused), 1, "{}", stderr(&refused));
    assert_eq!(
        stdout(&refused),
        "q.cql:3:26: E002 invalid-statement: InvalidRequest: IN list of 3 values exceeds the limit of 2 ([limits] in_list_length)\n"
    );
    let allowed = widerow(
        &dir,
        &[
            "lint",
            "--max-in-list-length",
            "3",
            "--format",
            "concise",
            "q.cql",
        ],
    );
    assert_eq!(code(&allowed), 0, "{}", stdout(&allowed));
}
