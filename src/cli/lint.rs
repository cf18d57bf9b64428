//! `widerow lint PATH…`, `widerow rules` and `widerow rule NAME`.
//!
//! Findings go to standard output in the chosen format, the summary line to
//! standard error. Exit 0 when no finding is at or above `--fail-on`, 1 when
//! one is, 2 when the linter could not run (an unreadable file, a bad flag, a
//! bad configuration).

use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::json;
use widerow::diagnostic::RenderOptions;
use widerow::lint::config::{find_config_file, ConfigFile};
use widerow::lint::output::{self, OutputFormat};
use widerow::lint::{rules, Finding, Level, Linter, Rule};

use super::args::{Cli, FailOn, Format, FormatArg, LintArgs, OutputArgs, RuleArgs};
use super::session;

/// Exit code 2: the linter could not run.
fn could_not_run(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("widerow: {message}");
    ExitCode::from(2)
}

/// The configuration file in effect: `--config FILE`, or the `widerow.toml`
/// found from the current directory up; with the path it came from.
pub(super) fn load_config(
    explicit: Option<&Path>,
) -> Result<(ConfigFile, Option<PathBuf>), String> {
    let path = match explicit {
        Some(path) => Some(path.to_path_buf()),
        None => std::env::current_dir()
            .ok()
            .and_then(|dir| find_config_file(&dir)),
    };
    let Some(path) = path else {
        return Ok((ConfigFile::default(), None));
    };
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("{}: {}", path.display(), io_reason(&e)))?;
    let config = ConfigFile::from_toml(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((config, Some(path)))
}

fn io_reason(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::NotFound => "No such file or directory".into(),
        io::ErrorKind::PermissionDenied => "Permission denied".into(),
        _ => error.to_string(),
    }
}

/// Drops empty items of a comma-separated flag (`--select ""`).
fn flag_list(list: &[String]) -> Vec<String> {
    list.iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The lint format `--format` names; `text` (and no `--format`) is `human`.
/// The formats for running statements are refused before linting starts
/// (`cli::resolve_format`); were one to get here, it would read as `human`.
fn lint_format(format: Option<FormatArg>) -> OutputFormat {
    let Some(format) = format else {
        return OutputFormat::Human;
    };
    match format {
        FormatArg::Text
        | FormatArg::Human
        | FormatArg::Table
        | FormatArg::Expanded
        | FormatArg::Csv => OutputFormat::Human,
        FormatArg::Json => OutputFormat::Json,
        FormatArg::Concise => OutputFormat::Concise,
        FormatArg::Sarif => OutputFormat::Sarif,
        FormatArg::Github => OutputFormat::Github,
    }
}

fn fail_level(fail_on: FailOn) -> Level {
    match fail_on {
        FailOn::Error => Level::Error,
        FailOn::Warning => Level::Warning,
        FailOn::Info => Level::Info,
    }
}

/// The `.cql` files under `path` (a file is itself), sorted by path.
fn collect_files(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let meta =
        std::fs::metadata(path).map_err(|e| format!("{}: {}", path.display(), io_reason(&e)))?;
    if !meta.is_dir() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let entries =
        std::fs::read_dir(path).map_err(|e| format!("{}: {}", path.display(), io_reason(&e)))?;
    let mut children: Vec<PathBuf> = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {}", path.display(), io_reason(&e)))?;
        children.push(entry.path());
    }
    children.sort();
    for child in children {
        // `widerow lint .` names `a.cql`, not `./a.cql`.
        let child = match child.strip_prefix(".") {
            Ok(rest) => rest.to_path_buf(),
            Err(_) => child,
        };
        if child.is_dir() {
            collect_files(&child, out)?;
        } else if child.extension().is_some_and(|e| e == "cql") {
            out.push(child);
        }
    }
    Ok(())
}

/// Runs `widerow lint`.
pub fn run(args: &LintArgs, cli: &Cli) -> ExitCode {
    let (mut file, path) = match load_config(cli.config.as_deref()) {
        Ok(loaded) => loaded,
        Err(message) => return could_not_run(message),
    };
    if let Some(select) = &args.select {
        file.lint.select = flag_list(select);
    }
    if let Some(ignore) = &args.ignore {
        file.lint.ignore = flag_list(ignore);
    }
    if let Some(extend) = &args.extend_select {
        file.lint.extend_select = flag_list(extend);
    }
    if let Err(message) = file.lint.check_rules(&rules::all()) {
        let origin = path
            .as_ref()
            .map_or("configuration".into(), |p| p.display().to_string());
        return could_not_run(format!("{origin}: {message}"));
    }
    if args.show_config {
        let origin = match &path {
            Some(p) => format!("# from {}\n", p.display()),
            None => "# no widerow.toml found: defaults\n".into(),
        };
        print!("{origin}{}", file.to_toml());
        return ExitCode::SUCCESS;
    }

    // `--connect`: the live cluster's schema is linted as a schema file
    // given as a path is, on the cluster's own ring.
    let live = match &cli.connect.connect {
        Some(target) => match super::connect::live_schema(cli, target) {
            Ok((text, ctx)) => Some(("<cluster>".to_string(), text, ctx)),
            Err(message) => return could_not_run(message),
        },
        None => None,
    };
    let base = match &live {
        Some((_, _, ctx)) => Ok(ctx.clone()),
        None => session::context(&cli.cluster),
    };
    let context = base.and_then(|mut context| {
        // Lint reads statements as a run would, within the same limits.
        context.limits = session::limits(&cli.cluster, cli.config.as_deref())?;
        Ok(context)
    });
    let context = match context {
        Ok(context) => context,
        Err(message) => return could_not_run(message),
    };
    let mut linter = Linter::with_context(context, file.lint);
    let mut findings: Vec<Finding> = Vec::new();
    if let Some((name, text, _)) = &live {
        // Judged as a schema file given as a path is: its findings count.
        findings.extend(linter.lint_str(name, text));
    }
    if let Some(schema) = &cli.cluster.schema {
        let text = match std::fs::read_to_string(schema) {
            Ok(text) => text,
            Err(e) => return could_not_run(format!("{}: {}", schema.display(), io_reason(&e))),
        };
        if let Err(failures) = linter.load_schema(&schema.display().to_string(), &text) {
            findings.extend(failures);
        }
    }
    if let Some(keyspace) = &cli.cluster.keyspace {
        if let Err(failures) = linter.load_schema("-k", &format!("USE {keyspace};")) {
            let reason = failures
                .first()
                .map_or(String::new(), |f| f.message.clone());
            return could_not_run(format!("-k {keyspace}: {reason}"));
        }
    }

    let mut files = Vec::new();
    let mut unreadable = false;
    for path in &args.paths {
        if path == Path::new("-") {
            files.push(path.clone());
        } else if let Err(message) = collect_files(path, &mut files) {
            eprintln!("widerow: {message}");
            unreadable = true;
        }
    }
    for path in &files {
        let result = if path == Path::new("-") {
            let mut text = String::new();
            io::stdin()
                .read_to_string(&mut text)
                .map(|_| linter.lint_str("<stdin>", &text))
        } else {
            linter.lint_file(path)
        };
        match result {
            Ok(found) => findings.extend(found),
            Err(e) => {
                eprintln!("widerow: {}: {}", path.display(), io_reason(&e));
                unreadable = true;
            }
        }
    }
    findings.extend(linter.finish());

    let format = lint_format(cli.output.format_arg);
    let text = if args.suggest {
        output::suggestions(&findings)
    } else {
        let color = use_color(&cli.output, format);
        // SARIF lists the rules that ran, and any rule a finding names.
        let listed: Vec<Box<dyn Rule>> = rules::all()
            .into_iter()
            .filter(|r| {
                linter.config().is_enabled(r.as_ref(), "")
                    || findings.iter().any(|f| f.code == r.code())
            })
            .collect();
        output::render(
            format,
            &findings,
            &listed,
            RenderOptions {
                color,
                ..RenderOptions::default()
            },
        )
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    if out
        .write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .is_err()
    {
        return ExitCode::from(2);
    }
    eprintln!("{}", output::summary(&findings));

    if unreadable {
        return ExitCode::from(2);
    }
    let threshold = fail_level(args.fail_on);
    if findings.iter().any(|f| f.level >= threshold) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Colour only for the `human` format, on a terminal, unless forbidden.
fn use_color(output: &OutputArgs, format: OutputFormat) -> bool {
    if format != OutputFormat::Human || output.no_color {
        return false;
    }
    if output.color {
        return true;
    }
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && io::stdout().is_terminal()
}

/// `widerow rules`: one line per rule (code, name, level, summary), or one
/// JSON object per rule with `--format json`.
pub fn list_rules(output: &OutputArgs) -> ExitCode {
    let rules = rules::all();
    let mut text = String::new();
    match output.format {
        Format::Json => {
            for rule in &rules {
                let record = json!({
                    "code": rule.code(),
                    "name": rule.name(),
                    "level": rule.default_level().as_str(),
                    "summary": rule.summary(),
                });
                text.push_str(&record.to_string());
                text.push('\n');
            }
        }
        Format::Text => {
            let width = rules.iter().map(|r| r.name().len()).max().unwrap_or(0);
            for rule in &rules {
                text.push_str(&format!(
                    "{:<5} {:<width$}  {:<7}  {}\n",
                    rule.code(),
                    rule.name(),
                    rule.default_level().as_str(),
                    rule.summary(),
                ));
            }
        }
    }
    print!("{text}");
    ExitCode::SUCCESS
}

/// `widerow rule NAME`: the rule's documentation.
pub fn show_rule(args: &RuleArgs) -> ExitCode {
    let rules = rules::all();
    let wanted = args.name.trim();
    let Some(rule) = rules
        .iter()
        .find(|r| r.name() == wanted || r.code().eq_ignore_ascii_case(wanted))
    else {
        return could_not_run(format!(
            "unknown rule '{wanted}' (see `widerow rules` for the list)"
        ));
    };
    print!("{}", rule_page(rule.as_ref()));
    ExitCode::SUCCESS
}

/// A rule's page: its name, code, level and summary, then its documentation.
fn rule_page(rule: &dyn Rule) -> String {
    let mut page = format!(
        "# {} ({})\n\nDefault level: {}. {}\n\n",
        rule.name(),
        rule.code(),
        rule.default_level().as_str(),
        capitalise(rule.summary()),
    );
    page.push_str(rule.documentation().trim_end());
    page.push('\n');
    page
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => {
            let mut out: String = first.to_uppercase().collect();
            out.push_str(chars.as_str());
            if !out.ends_with('.') {
                out.push('.');
            }
            out
        }
        None => String::new(),
    }
}
