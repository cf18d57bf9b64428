//! widerow's own `CLUSTER …` statements, read the same way by the shell
//! and by `widerow serve` (which each word their own usage message and
//! decide which of them they take: the server refuses `NODES`).

/// A `CLUSTER` statement, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Control {
    /// `CLUSTER`: the nodes.
    Show,
    /// `CLUSTER DOWN node` (`false`) or `CLUSTER UP node` (`true`).
    Mark { node: String, up: bool },
    /// `CLUSTER NODES spec`: the ring rebuilt (the text after NODES).
    Nodes(String),
    /// `CLUSTER SNAPSHOT name`.
    Snapshot(String),
    /// `CLUSTER RESTORE name`.
    Restore(String),
    /// `CLUSTER RESET`.
    Reset,
    /// `CLUSTER CLOCK`.
    ShowClock,
    /// `CLUSTER CLOCK SET 'timestamp'`.
    SetClock(String),
    /// `CLUSTER CLOCK ADVANCE duration`.
    AdvanceClock(String),
}

/// `query` split into the word CLUSTER and what follows it; `None` when it
/// does not start with that word. A trailing `;` is dropped.
pub fn after_cluster(query: &str) -> Option<&str> {
    let text = query.trim().trim_end_matches(';').trim_end();
    let (first, rest) = split_word(text);
    first.eq_ignore_ascii_case("cluster").then_some(rest)
}

/// What follows `CLUSTER`, parsed; `None` when it is no CLUSTER statement
/// (the caller says how they are used).
pub fn parse(rest: &str) -> Option<Control> {
    let (verb, argument) = split_word(rest);
    let one = || match argument.split_whitespace().collect::<Vec<_>>()[..] {
        [word] => Some(word.to_string()),
        _ => None,
    };
    Some(match verb.to_ascii_lowercase().as_str() {
        "" => Control::Show,
        "down" => Control::Mark {
            node: one()?,
            up: false,
        },
        "up" => Control::Mark {
            node: one()?,
            up: true,
        },
        "nodes" => Control::Nodes(argument.to_string()),
        "snapshot" => Control::Snapshot(one()?),
        "restore" => Control::Restore(one()?),
        "reset" if argument.is_empty() => Control::Reset,
        "clock" => parse_clock(argument)?,
        _ => return None,
    })
}

fn parse_clock(rest: &str) -> Option<Control> {
    let (verb, argument) = split_word(rest);
    let argument = unquote(argument);
    match verb.to_ascii_lowercase().as_str() {
        "" => Some(Control::ShowClock),
        "set" if !argument.is_empty() => Some(Control::SetClock(argument.to_string())),
        "advance" if !argument.is_empty() => Some(Control::AdvanceClock(argument.to_string())),
        _ => None,
    }
}

/// The first word of `text` and what follows it, trimmed.
fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    match text.find(char::is_whitespace) {
        Some(at) => (&text[..at], text[at..].trim()),
        None => (text, ""),
    }
}

fn unquote(text: &str) -> &str {
    text.strip_prefix('\'')
        .and_then(|t| t.strip_suffix('\''))
        .unwrap_or(text)
}
