//! The `exec` target's run (see `fuzz_targets/exec.rs`).

/// Statements run per input at most (keeps each run fast).
const MAX_STATEMENTS: usize = 64;

/// Runs one input: the first byte picks the starting schema (one of
/// [`super::SCHEMA_SOURCES`], or none), the rest is a script.
pub fn check(data: &[u8]) {
    let Some((&selector, script)) = data.split_first() else {
        return;
    };
    let script = String::from_utf8_lossy(script);
    run_script(selector, &script);
}

/// Runs `script` on the session `selector` picks (one past the schemas: an
/// empty session), checking each statement and then every table.
pub fn run_script(selector: u8, script: &str) {
    let (mut session, clock) = super::session_for(selector);
    let mut previous_end = 0;
    for statement in widerow::split_statements(script)
        .into_iter()
        .take(MAX_STATEMENTS)
    {
        let gap = script.get(previous_end..statement.offset).unwrap_or("");
        clock.advance_secs(super::advances(gap));
        previous_end = statement.offset + statement.text.len();
        let before = session.clone();
        let outcome = session.execute(&statement.text);
        match &outcome {
            Ok(result) => super::render(result),
            Err(error) => super::render_error(error),
        }
        super::check_unchanged(&before, &session, &statement.text, &outcome);
    }
    super::check_full_scans(&mut session);
}

/// The selector of an empty session.
pub fn empty_session_selector() -> u8 {
    super::SCHEMA_SOURCES.len() as u8
}
