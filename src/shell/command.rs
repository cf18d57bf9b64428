//! Shell commands: the lines cqlsh handles itself instead of sending them
//! to the server. They are recognised by their first word, end at the end
//! of their line (or at `;`), and are case-insensitive (cqlsh.md §2).

use std::path::PathBuf;

/// The first words of shell commands: the statement splitter ends these at
/// the end of their line, as cqlsh does.
pub const LINE_COMMANDS: &[&str] = &[
    "capture",
    "clear",
    "cls",
    "cluster",
    "consistency",
    "copy",
    "describe",
    "desc",
    "exit",
    "expand",
    "help",
    "?",
    "history",
    "paging",
    "quit",
    "save",
    "serial",
    "show",
    "source",
    "tracing",
    "unicode",
    "login",
    "debug",
];

/// A switch that is queried, turned on or turned off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Toggle {
    /// The bare command: print the current state.
    Show,
    /// `ON`
    On,
    /// `OFF`
    Off,
}

/// `PAGING` with its argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paging {
    /// `PAGING`, `PAGING ON`, `PAGING OFF`
    Toggle(Toggle),
    /// `PAGING n`
    Size(usize),
}

/// One parsed shell command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `DESCRIBE …` / `DESC …`: the rest of the line, for the describer.
    Describe(String),
    /// `EXPAND [ON|OFF]`
    Expand(Toggle),
    /// `PAGING [ON|OFF|n]`
    Paging(Paging),
    /// `TRACING [ON|OFF]`
    Tracing(Toggle),
    /// `CONSISTENCY [level]`
    Consistency(Option<String>),
    /// `SERIAL CONSISTENCY [level]`
    SerialConsistency(Option<String>),
    /// `SOURCE 'file'`
    Source(PathBuf),
    /// `CAPTURE ['file' | OFF]`
    Capture(Option<CaptureTarget>),
    /// `COPY …`: the whole text, for the COPY parser.
    Copy(String),
    /// `HELP [topic]` / `? [topic]`
    Help(Option<String>),
    /// `SHOW VERSION | HOST | SESSION id | REPLICAS token`
    Show(String),
    /// `HISTORY [n]`
    History(Option<usize>),
    /// `CLEAR` / `CLS`
    Clear,
    /// `EXIT` / `QUIT`
    Exit,
    /// `SAVE 'file'` (widerow's own)
    Save(PathBuf),
    /// `CLUSTER [NODES n | DOWN node | UP node]` (widerow's own): the rest.
    Cluster(String),
    /// A command word with arguments cqlsh does not accept: cqlsh's message.
    Improper(String),
}

/// Where CAPTURE sends output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaptureTarget {
    /// `CAPTURE 'file'`
    File(PathBuf),
    /// `CAPTURE OFF`
    Off,
}

/// The text without a trailing `;` and surrounding space.
fn body(text: &str) -> &str {
    text.trim().trim_end_matches(';').trim()
}

/// A quoted file name (`'~/x.cql'` or `"x"`), with `~` expanded as cqlsh does.
pub fn file_argument(text: &str) -> Option<PathBuf> {
    let text = text.trim();
    let inner = text
        .strip_prefix('\'')
        .and_then(|t| t.strip_suffix('\''))
        .or_else(|| text.strip_prefix('"').and_then(|t| t.strip_suffix('"')))
        .unwrap_or(text);
    if inner.is_empty() {
        return None;
    }
    let inner = inner.replace("''", "'");
    if let Some(rest) = inner.strip_prefix("~/") {
        if let Some(home) = std::env::var_os("HOME") {
            return Some(PathBuf::from(home).join(rest));
        }
    }
    Some(PathBuf::from(inner))
}

fn toggle(rest: &str) -> Option<Toggle> {
    match rest.to_ascii_lowercase().as_str() {
        "" => Some(Toggle::Show),
        "on" => Some(Toggle::On),
        "off" => Some(Toggle::Off),
        _ => None,
    }
}

/// Parses `text` as a shell command, or `None` when it is CQL.
pub fn parse(text: &str) -> Option<Command> {
    let body = body(text);
    let (word, rest) = match body.find(|c: char| c.is_whitespace()) {
        Some(i) => (&body[..i], body[i..].trim()),
        None => (body, ""),
    };
    let word = word.to_ascii_lowercase();
    let improper = |name: &str| Some(Command::Improper(format!("Improper {name} command.")));
    match word.as_str() {
        "describe" | "desc" => Some(Command::Describe(rest.to_string())),
        "expand" => toggle(rest)
            .map(Command::Expand)
            .or_else(|| improper("EXPAND")),
        "tracing" => toggle(rest)
            .map(Command::Tracing)
            .or_else(|| improper("TRACING")),
        "paging" => match toggle(rest) {
            Some(t) => Some(Command::Paging(Paging::Toggle(t))),
            None => match rest.parse::<usize>() {
                Ok(n) if n > 0 => Some(Command::Paging(Paging::Size(n))),
                _ => improper("PAGING"),
            },
        },
        "consistency" => Some(Command::Consistency(
            (!rest.is_empty()).then(|| rest.to_string()),
        )),
        "serial" => {
            let (second, level) = match rest.find(|c: char| c.is_whitespace()) {
                Some(i) => (&rest[..i], rest[i..].trim()),
                None => (rest, ""),
            };
            if second.eq_ignore_ascii_case("consistency") {
                Some(Command::SerialConsistency(
                    (!level.is_empty()).then(|| level.to_string()),
                ))
            } else {
                improper("SERIAL")
            }
        }
        "source" => match file_argument(rest) {
            Some(path) => Some(Command::Source(path)),
            None => improper("SOURCE"),
        },
        "capture" => Some(Command::Capture(match rest {
            "" => None,
            r if r.eq_ignore_ascii_case("off") => Some(CaptureTarget::Off),
            r => match file_argument(r) {
                Some(path) => Some(CaptureTarget::File(path)),
                None => return improper("CAPTURE"),
            },
        })),
        "copy" => Some(Command::Copy(body.to_string())),
        "help" | "?" => Some(Command::Help((!rest.is_empty()).then(|| rest.to_string()))),
        "show" => Some(Command::Show(rest.to_string())),
        "history" => match rest {
            "" => Some(Command::History(None)),
            n => match n.parse() {
                Ok(n) => Some(Command::History(Some(n))),
                Err(_) => improper("HISTORY"),
            },
        },
        "clear" | "cls" if rest.is_empty() => Some(Command::Clear),
        "exit" | "quit" if rest.is_empty() => Some(Command::Exit),
        "save" => match file_argument(rest) {
            Some(path) => Some(Command::Save(path)),
            None => improper("SAVE"),
        },
        "cluster" => Some(Command::Cluster(rest.to_string())),
        "unicode" => improper("UNICODE"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_case_insensitive_and_take_an_optional_semicolon() {
        assert_eq!(parse("expand on;"), Some(Command::Expand(Toggle::On)));
        assert_eq!(parse("EXPAND"), Some(Command::Expand(Toggle::Show)));
        assert_eq!(parse("Paging 50"), Some(Command::Paging(Paging::Size(50))));
        assert_eq!(
            parse("SERIAL CONSISTENCY local_serial"),
            Some(Command::SerialConsistency(Some("local_serial".into())))
        );
        assert_eq!(
            parse("SOURCE '/tmp/x.cql'"),
            Some(Command::Source("/tmp/x.cql".into()))
        );
        assert_eq!(
            parse("CAPTURE OFF"),
            Some(Command::Capture(Some(CaptureTarget::Off)))
        );
        assert_eq!(parse("SELECT * FROM t"), None);
        assert_eq!(parse("exit"), Some(Command::Exit));
    }

    #[test]
    fn bad_arguments_get_cqlsh_s_improper_message() {
        assert_eq!(
            parse("EXPAND maybe"),
            Some(Command::Improper("Improper EXPAND command.".into()))
        );
        assert_eq!(
            parse("UNICODE"),
            Some(Command::Improper("Improper UNICODE command.".into()))
        );
    }
}
