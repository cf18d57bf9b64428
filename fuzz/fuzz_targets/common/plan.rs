//! The `plan` target's checks (see `fuzz_targets/plan.rs`).

use widerow::planner::{is_schema_statement, plan_statement};
use widerow::{parse_statement, Plan, PlanContext};

const MAX_STATEMENTS: usize = 64;

/// Runs one input: the first byte picks the schema (one of
/// [`super::SCHEMA_SOURCES`], or an empty catalog), the rest is a script
/// whose schema statements are applied and whose other statements are
/// planned.
pub fn check(data: &[u8]) {
    let Some((&selector, script)) = data.split_first() else {
        return;
    };
    let script = String::from_utf8_lossy(script);
    let contexts = super::plan_contexts();
    let mut ctx = contexts
        .get(selector as usize % (contexts.len() + 1))
        .cloned()
        .unwrap_or_else(PlanContext::new);
    for statement in widerow::split_statements(&script)
        .into_iter()
        .take(MAX_STATEMENTS)
    {
        let Ok(parsed) = parse_statement(&statement.text) else {
            continue;
        };
        if is_schema_statement(&parsed) {
            let before = ctx.clone();
            if ctx.apply_schema(&parsed).is_err() {
                assert!(
                    before.catalog == ctx.catalog && before.keyspace == ctx.keyspace,
                    "a failed schema statement changed the catalog: {:?}",
                    statement.text
                );
            }
            continue;
        }
        let planned = plan_statement(&ctx, &parsed);
        let again = plan_statement(&ctx, &parsed);
        assert_eq!(
            outcome(&planned),
            outcome(&again),
            "planning twice differs: {:?}",
            statement.text
        );
        match &planned {
            Ok(plan) => {
                let _ = plan.to_string();
                let _ = serde_json::to_string(plan);
            }
            Err(error) => super::render_error(error),
        }
        let printed = parsed.to_string();
        if let Ok(reparsed) = parse_statement(&printed) {
            let replanned = plan_statement(&ctx, &reparsed);
            assert_eq!(
                outcome(&planned),
                outcome(&replanned),
                "the printed statement plans differently\n  input: {:?}\nprinted: {printed:?}",
                statement.text
            );
        }
    }
}

/// What a planning outcome must agree on: the whole plan, or the error's
/// kind and message (not its span, which moves with the text).
fn outcome(result: &Result<Plan, widerow::Error>) -> Result<Plan, (widerow::ErrorKind, String)> {
    match result {
        Ok(plan) => Ok(plan.clone()),
        Err(e) => Err((e.kind(), e.message().to_string())),
    }
}
