//! `widerow explain FILE…`: the plan of every statement, or Cassandra's
//! refusal. Schema statements in the files are applied and reported as done.
//! Exit 0 when every statement planned, 1 when one was refused, failed to
//! parse or was Unavailable, 2 when the inputs could not be read.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use serde_json::json;
use widerow::planner::{is_schema_statement, plan_explained, PartialPlan, Plan, PlanContext};
use widerow::syntax::ast::Statement;
use widerow::{parse_statement, Error, ErrorKind, ScriptStatement};

use super::args::{ClusterArgs, ExplainArgs, Format, OutputArgs};
use super::inputs::Input;
use super::report::{human_error, json_record};
use super::session;

/// The context the cluster flags and `--schema` describe, and whether a
/// schema statement failed.
fn local_context(
    cluster: &ClusterArgs,
    config: Option<&std::path::Path>,
) -> Result<(PlanContext, bool), String> {
    let mut ctx = session::context(cluster)?;
    *ctx.catalog.settings_mut() = session::schema_settings(cluster, config)?;
    let failures = session::load_schema(&mut ctx, cluster)?;
    Ok((ctx, failures > 0))
}

/// Runs `widerow explain`: on the context `live` gives (`--connect`'s
/// cluster, or why it could not be reached), or on the flags' own.
pub fn run(
    args: &ExplainArgs,
    cluster: &ClusterArgs,
    output: &OutputArgs,
    config: Option<&std::path::Path>,
    live: Option<Result<PlanContext, String>>,
) -> ExitCode {
    let (mut ctx, mut refused) = match live {
        Some(Ok(ctx)) => (ctx, false),
        Some(Err(message)) => {
            eprintln!("widerow: {message}");
            return ExitCode::from(2);
        }
        None => match local_context(cluster, config) {
            Ok(started) => started,
            Err(message) => {
                eprintln!("widerow: {message}");
                return ExitCode::from(2);
            }
        },
    };
    let mut inputs: Vec<Result<Input, String>> =
        args.files.iter().map(|p| Input::open(p)).collect();
    if let Some(text) = &args.execute {
        inputs.push(Ok(Input::text(text)));
    }
    let several = inputs.len() > 1;
    let color = output.use_color(io::stderr().is_terminal());
    let mut unreadable = false;
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for input in inputs {
        let input = match input {
            Ok(input) => input,
            Err(message) => {
                eprintln!("widerow: {message}");
                unreadable = true;
                continue;
            }
        };
        let name = input.name.clone();
        let file = several.then_some(name.as_str());
        for statement in input.statements() {
            let statement = match statement {
                Ok(statement) => statement,
                Err(e) => {
                    eprintln!("widerow: {name}: {e}");
                    unreadable = true;
                    break;
                }
            };
            let outcome = explain_one(&mut ctx, &statement);
            refused |= outcome.is_err();
            let line = match (outcome, output.format) {
                (Ok(outcome), Format::Text) => Some(text_outcome(&statement, &outcome)),
                (Ok(outcome), Format::Json) => Some(json_outcome(file, &statement, &outcome)),
                (Err(refusal), Format::Text) => {
                    if let Some(partial) = &refusal.partial {
                        let text = text_partial(&statement, refusal.parsed.as_ref(), partial);
                        if write!(out, "{text}").is_err() {
                            return ExitCode::from(2);
                        }
                    }
                    let _ = out.flush();
                    eprint!(
                        "{}",
                        human_error(&name, &statement, &refusal.error, true, color)
                    );
                    None
                }
                (Err(refusal), Format::Json) => Some(json_refusal(file, &statement, &refusal)),
            };
            if let Some(line) = line {
                if writeln!(out, "{line}").is_err() {
                    return ExitCode::from(2);
                }
            }
        }
    }
    let _ = out.flush();
    if unreadable {
        ExitCode::from(2)
    } else if refused {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// What became of one statement.
enum Outcome {
    /// A schema statement, applied.
    Applied(Statement, widerow::planner::Applied),
    /// A data statement and its plan.
    Planned(Statement, Box<Plan>),
}

/// Why a statement has no plan, and the plan as far as it got.
struct Refusal {
    error: Error,
    /// A refusal at planning (class `rejected`); Unavailable is not one.
    rejected: bool,
    /// The statement as parsed, when it parsed.
    parsed: Option<Statement>,
    /// What the planner had established before it stopped.
    partial: Option<Box<PartialPlan>>,
}

impl Refusal {
    fn bare(error: Error, rejected: bool) -> Box<Refusal> {
        Box::new(Refusal {
            error,
            rejected,
            parsed: None,
            partial: None,
        })
    }
}

/// Plans (or applies) one statement.
fn explain_one(
    ctx: &mut PlanContext,
    statement: &ScriptStatement,
) -> Result<Outcome, Box<Refusal>> {
    let parsed = parse_statement(&statement.text).map_err(|e| Refusal::bare(e, true))?;
    if is_schema_statement(&parsed) {
        let applied = ctx
            .apply_schema(&parsed)
            .map_err(|e| Refusal::bare(e, false))?;
        return Ok(Outcome::Applied(parsed, applied));
    }
    match plan_explained(ctx, &parsed) {
        Ok(plan) => Ok(Outcome::Planned(parsed, Box::new(plan))),
        Err(refused) => {
            let refused = *refused;
            Err(Box::new(Refusal {
                rejected: refused.error.kind() != ErrorKind::Unavailable,
                error: refused.error,
                parsed: Some(parsed),
                partial: refused.partial,
            }))
        }
    }
}

/// The partial plan of a refused statement, headed as a plan is.
fn text_partial(
    statement: &ScriptStatement,
    parsed: Option<&Statement>,
    partial: &PartialPlan,
) -> String {
    match parsed {
        Some(parsed) => format!("-- line {}: {parsed}\n{partial}", statement.line),
        None => partial.to_string(),
    }
}

fn text_outcome(statement: &ScriptStatement, outcome: &Outcome) -> String {
    match outcome {
        Outcome::Applied(parsed, applied) => {
            let mut text = format!("-- line {}: {parsed}\napplied\n", statement.line);
            for warning in &applied.warnings {
                text.push_str(&format!("  warning: {warning}\n"));
            }
            for note in &applied.notes {
                text.push_str(&format!("  note: {note}\n"));
            }
            text
        }
        Outcome::Planned(parsed, plan) => format!("-- line {}: {parsed}\n{plan}", statement.line),
    }
}

fn json_outcome(file: Option<&str>, statement: &ScriptStatement, outcome: &Outcome) -> String {
    match outcome {
        Outcome::Applied(_, applied) => {
            let mut fields = vec![("warnings", json!(applied.warnings))];
            if !applied.notes.is_empty() {
                fields.push(("notes", json!(applied.notes)));
            }
            json_record(file, statement, "ok", fields)
        }
        Outcome::Planned(_, plan) => json_record(
            file,
            statement,
            "plan",
            vec![
                ("class", json!(plan.class.as_str())),
                ("plan", serde_json::to_value(plan).unwrap_or_default()),
            ],
        ),
    }
}

fn json_refusal(file: Option<&str>, statement: &ScriptStatement, refusal: &Refusal) -> String {
    let error = &refusal.error;
    let mut fields = vec![
        ("error", json!(error.kind().name())),
        ("message", json!(error.message())),
    ];
    if refusal.rejected {
        fields.push(("class", json!("rejected")));
    }
    if let Some(partial) = &refusal.partial {
        fields.push(("plan", serde_json::to_value(partial).unwrap_or_default()));
    }
    json_record(file, statement, "error", fields)
}
