//! Feeds arbitrary text through every entry point of the front end: the
//! lexer, the script splitter and the statement parser.
//!
//! Besides "never panic", it checks the printer/parser contract the AST
//! documents: printing a parsed statement and parsing the text again gives an
//! equal tree. A mismatch is a real bug in the parser or the printer, so it
//! panics like a crash.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The front end takes `&str`. Converting lossily rather than skipping
    // keeps mutations that break UTF-8 useful: the bad bytes become U+FFFD,
    // which the lexer must reject as an invalid character.
    let text = String::from_utf8_lossy(data);
    let text = text.as_ref();
    let _ = widerow::syntax::lexer::tokenize(text);
    // The whole input as one statement reaches paths the splitter would cut
    // short (text after a `;`, several statements in one).
    check_round_trip(text);
    for statement in widerow::split_statements(text) {
        check_round_trip(&statement.text);
    }
});

fn check_round_trip(text: &str) {
    let Ok(ast) = widerow::parse_statement(text) else {
        return;
    };
    let printed = ast.to_string();
    match widerow::parse_statement(&printed) {
        Ok(reparsed) => assert_eq!(
            reparsed, ast,
            "round trip changed the statement\n input: {text:?}\nprinted: {printed:?}"
        ),
        Err(e) => panic!(
            "printed statement does not parse\n  input: {text:?}\nprinted: {printed:?}\n  error: {e:?}"
        ),
    }
}
