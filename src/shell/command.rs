//! Shell commands: the lines cqlsh handles itself instead of sending them
//! to the server. They are recognised by their first word, end at the end
//! of their line (or at `;`), and are case-insensitive (cqlsh.md §2).

use std::fs::{File, OpenOptions};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use super::{describe, help, save, trace, Reply, Shell};
use crate::cluster::ConsistencyLevel;
use crate::syntax::encoding::open_script;
use crate::syntax::script::{ScriptStatement, StatementSplitter};

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

/// The longest word that starts a shell command.
const LONGEST_COMMAND: &str = "consistency";

/// Parses `text` as a shell command, or `None` when it is CQL.
pub fn parse(text: &str) -> Option<Command> {
    let body = body(text);
    let (word, rest) = match body.find(|c: char| c.is_whitespace()) {
        Some(i) => (&body[..i], body[i..].trim()),
        None => (body, ""),
    };
    // Lowercased on the stack: every statement a script runs is asked.
    let mut lower = [0u8; LONGEST_COMMAND.len()];
    let lower = lower.get_mut(..word.len())?;
    lower.copy_from_slice(word.as_bytes());
    lower.make_ascii_lowercase();
    let word = std::str::from_utf8(lower).ok()?;
    let improper = |name: &str| Some(Command::Improper(format!("Improper {name} command.")));
    match word {
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

/// A shell command's reply as JSON Lines, so standard output stays one
/// record per line and standard error stays empty: its text becomes an
/// `output` record, its error an `error` record. A failed reply with no
/// error text already holds the records `Shell::report` wrote (a server
/// error from DESCRIBE, SAVE or CLUSTER) and passes as it is.
fn json_reply(statement: &ScriptStatement, reply: Reply) -> Reply {
    use crate::render::{output_record, shell_error_record};
    if reply.failed && reply.err.is_empty() {
        return reply;
    }
    let mut out = Vec::new();
    let text = reply.stdout();
    if !text.is_empty() {
        out.push(format!("{}\n", output_record(None, statement.line, &text)));
    }
    if !reply.err.is_empty() {
        let record = if reply.failed {
            shell_error_record(None, statement.line, reply.err.trim_end())
        } else {
            output_record(None, statement.line, &reply.err)
        };
        out.push(format!("{record}\n"));
    }
    Reply {
        out,
        err: String::new(),
        ..reply
    }
}

/// How deep SOURCE may nest (a file sourcing itself stops here).
const MAX_SOURCE_DEPTH: usize = 16;

impl Shell {
    /// Runs a shell command; COPY FROM STDIN reads `stdin` when given,
    /// else this process's standard input.
    pub(super) fn command(
        &mut self,
        source: &str,
        statement: &ScriptStatement,
        command: Command,
        stdin: Option<&mut dyn BufRead>,
    ) -> Reply {
        if matches!(command, Command::Clear) && self.settings.format.is_machine() {
            return Reply::default();
        }
        // Describe, Save, Cluster report through `report`, which prefixes.
        let own_errors = !matches!(
            command,
            Command::Describe(_) | Command::Save(_) | Command::Cluster(_)
        );
        let reply = self.command_reply(source, statement, command, stdin);
        if self.settings.format == super::Format::Json {
            json_reply(statement, reply)
        } else if own_errors {
            self.prefix_errors(source, statement, reply)
        } else {
            reply
        }
    }

    /// In batch mode cqlsh prefixes every error line with `FILE:LINE:`.
    pub(super) fn prefix_errors(
        &self,
        source: &str,
        statement: &ScriptStatement,
        mut reply: Reply,
    ) -> Reply {
        if let Some(name) = self.prefix(source) {
            reply.err = reply
                .err
                .lines()
                .map(|l| format!("{name}:{}:{l}\n", statement.line))
                .collect();
        }
        reply
    }

    fn command_reply(
        &mut self,
        source: &str,
        statement: &ScriptStatement,
        command: Command,
        stdin: Option<&mut dyn BufRead>,
    ) -> Reply {
        match command {
            Command::Exit => Reply {
                exit: true,
                ..Reply::default()
            },
            Command::Clear => Reply::out("\x1b[2J\x1b[H"),
            Command::Improper(message) => Reply::error(format!("{message}\n")),
            Command::Expand(t) => EXPAND.apply(&mut self.settings.expand, t),
            Command::Tracing(t) => TRACING.apply(&mut self.settings.tracing, t),
            Command::Paging(p) => self.paging(p),
            Command::Consistency(level) => self.consistency(level),
            Command::SerialConsistency(level) => self.serial_consistency(level),
            Command::Show(what) => self.show(&what),
            Command::Help(topic) => match help::help(topic.as_deref()) {
                Ok(text) => Reply::out(text),
                Err(text) => Reply::error(text),
            },
            // Reached only through `command` called directly: `run_into`
            // streams SOURCE itself.
            Command::Source(_) => self.run(source, statement),
            Command::Capture(target) => self.capture_command(target),
            Command::History(n) => self.history(n),
            Command::Describe(rest) => match describe::describe(&self.session, &rest) {
                Ok(text) => Reply::out(text),
                Err(error) if self.settings.format == super::Format::Json => {
                    self.report(source, statement, &error)
                }
                // DESCRIBE runs on the server since Cassandra 4.0; cqlsh
                // prints the server's message alone.
                Err(error) => self.prefix_errors(
                    source,
                    statement,
                    Reply::error(format!("{}\n", error.message())),
                ),
            },
            Command::Copy(text) => match stdin {
                Some(stdin) => super::copy::copy_with_stdin(self, &text, stdin),
                None => super::copy::copy(self, &text),
            },
            Command::Save(_) | Command::Cluster(_) if self.remote.is_some() => {
                Reply::error(format!(
                    "{} works on widerow's in-memory cluster only, not in connect mode\n",
                    statement
                        .text
                        .split_whitespace()
                        .next()
                        .unwrap_or("")
                        .to_uppercase()
                ))
            }
            Command::Save(path) => match save::save(&self.session, &path) {
                Ok(text) => Reply::out(text),
                Err(error) => self.report(source, statement, &error),
            },
            Command::Cluster(rest) => match trace::cluster_with_checkpoints(
                &mut self.session,
                &mut self.checkpoints,
                &rest,
            ) {
                Ok(text) => Reply::out(text),
                Err(error) => self.report(source, statement, &error),
            },
        }
    }

    /// `do_paging`: the switch, then `Page size: N` whenever paging is on
    /// after it; `PAGING n` turns it on at that size and says only that.
    fn paging(&mut self, paging: Paging) -> Reply {
        let default = crate::render::table::DEFAULT_PAGE_SIZE;
        let mut reply = match paging {
            Paging::Toggle(toggle) => {
                let mut on = self.settings.page_size.is_some();
                let reply = PAGING.apply(&mut on, toggle);
                let size = self.settings.page_size.unwrap_or(default);
                self.settings.page_size = on.then_some(size);
                reply
            }
            Paging::Size(n) => {
                self.settings.page_size = Some(n);
                Reply::default()
            }
        };
        if let Some(size) = self.settings.page_size {
            // One page with the switch's line: nothing to pause between.
            let text = reply.stdout() + &format!("Page size: {size}\n");
            reply.out = vec![text];
        }
        reply
    }

    fn consistency(&mut self, level: Option<String>) -> Reply {
        match level {
            None => Reply::line(format!(
                "Current consistency level is {}.",
                self.session.context().consistency.name()
            )),
            Some(text) => match text.parse::<ConsistencyLevel>() {
                Ok(level) => {
                    self.session.set_consistency(level);
                    Reply::line(format!("Consistency level set to {}.", level.name()))
                }
                Err(_) => Reply::error("Improper CONSISTENCY command.\n"),
            },
        }
    }

    fn serial_consistency(&mut self, level: Option<String>) -> Reply {
        match level {
            None => Reply::line(format!(
                "Current serial consistency level is {}.",
                self.settings.serial_consistency.name()
            )),
            Some(text) => match text.parse::<ConsistencyLevel>() {
                Ok(level) if level.is_serial() => {
                    self.settings.serial_consistency = level;
                    self.session.set_serial_consistency(level);
                    Reply::line(format!("Serial consistency level set to {}.", level.name()))
                }
                _ => Reply::error("Improper SERIAL CONSISTENCY command.\n"),
            },
        }
    }

    fn show(&self, what: &str) -> Reply {
        let lower = what.to_ascii_lowercase();
        match lower.split_whitespace().next().unwrap_or("") {
            "version" => Reply::line(super::version_line()),
            "host" if self.remote.is_some() => Reply::line(format!(
                "Connected to cluster at {}",
                self.remote
                    .as_ref()
                    .map(|r| r.contact())
                    .unwrap_or_default()
            )),
            "host" => Reply::line(format!(
                "Connected to widerow at {} (simulated)",
                self.session
                    .context()
                    .ring
                    .nodes()
                    .first()
                    .map_or("127.0.0.1".to_string(), |n| n.address.to_string())
            )),
            "session" => Reply::line(format!(
                "Session {} wasn't found.",
                what.split_whitespace().nth(1).unwrap_or("")
            )),
            _ => Reply::error("Improper SHOW command.\n"),
        }
    }

    /// `HISTORY [n]`: the last n entries before this command (n, once
    /// given, stays the length shown, as in cqlsh).
    fn history(&mut self, n: Option<usize>) -> Reply {
        if let Some(n) = n {
            self.history_shown = n;
        }
        let before = self.history.len().saturating_sub(1);
        let from = before.saturating_sub(self.history_shown);
        let text: String = self
            .history
            .range(from..before)
            .map(|entry| format!("{entry}\n"))
            .collect();
        Reply::out(text)
    }

    /// SOURCE: the file's statements run as a batch-mode sub-shell (errors
    /// prefixed with the file's name and line), each reply handed to `sink`
    /// as it comes. EXIT in the file ends only the file.
    pub(super) fn source(
        &mut self,
        source: &str,
        statement: &ScriptStatement,
        path: &Path,
        sink: &mut dyn FnMut(Reply),
    ) {
        let name = path.display().to_string();
        let fail = |shell: &Shell, text: String| {
            shell.prefix_errors(source, statement, Reply::error(text))
        };
        let file = match File::open(path).and_then(open_script) {
            Ok(file) => file,
            Err(e) => {
                let reason = match e.kind() {
                    std::io::ErrorKind::NotFound => "[Errno 2] No such file or directory",
                    _ => "[Errno 13] Permission denied",
                };
                let message = format!("Could not open '{name}': {reason}: '{name}'\n");
                return sink(fail(self, message));
            }
        };
        if self.source_depth >= MAX_SOURCE_DEPTH {
            return sink(fail(self, format!("{name}: SOURCE nested too deeply\n")));
        }
        self.source_depth += 1;
        let interactive = std::mem::replace(&mut self.settings.interactive, false);
        let mut statements = StatementSplitter::new(file).with_line_commands(LINE_COMMANDS);
        while let Some(statement) = statements.next() {
            let statement = match statement {
                Ok(statement) => statement,
                Err(e) => {
                    // cqlsh reports the decoding error on the SOURCE line.
                    sink(fail(self, format!("{name}: {e}\n")));
                    break;
                }
            };
            let mut exit = false;
            // A COPY … FROM STDIN reads the sourced file's next lines, as in cqlsh.
            let mut data = statements.data_lines(super::copy::is_end_of_data);
            self.run_into_with_stdin(&name, &statement, &mut data, &mut |mut reply| {
                exit |= std::mem::take(&mut reply.exit);
                sink(reply)
            });
            if exit {
                break;
            }
        }
        self.settings.interactive = interactive;
        self.source_depth -= 1;
    }

    fn capture_command(&mut self, target: Option<CaptureTarget>) -> Reply {
        match (target, &self.capture) {
            (None, Some(path)) => Reply::line(format!(
                "Currently capturing query output to '{}'.",
                path.display()
            )),
            (None, None) => Reply::line("Currently not capturing query output."),
            (Some(CaptureTarget::Off), None) => Reply::error("Not currently capturing output.\n"),
            (Some(CaptureTarget::Off), Some(_)) => {
                self.capture = None;
                Reply::default()
            }
            (Some(CaptureTarget::File(_)), Some(path)) => Reply::error(format!(
                "Already capturing output to {}. Use CAPTURE OFF to disable.\n",
                path.display()
            )),
            (Some(CaptureTarget::File(path)), None) => {
                if let Err(e) = OpenOptions::new().create(true).append(true).open(&path) {
                    return Reply::error(format!(
                        "Unable to open '{}' for writing: {e}\n",
                        path.display()
                    ));
                }
                let reply = Reply::line(format!(
                    "Now capturing query output to '{}'.",
                    path.display()
                ));
                self.capture = Some(path);
                reply
            }
        }
    }

    /// Appends query output to the CAPTURE file (the reply still goes to
    /// standard output, as in cqlsh).
    pub(super) fn capture(&self, reply: &Reply) {
        let Some(path) = &self.capture else {
            return;
        };
        if reply.out.is_empty() {
            return;
        }
        if let Ok(mut file) = OpenOptions::new().create(true).append(true).open(path) {
            let _ = file.write_all(reply.stdout().as_bytes());
        }
    }
}

/// A cqlsh on/off switch: the command word and the words its messages use
/// for the setting (`SwitchCommand` in cqlshlib/cqlshmain.py).
#[derive(Debug, Clone, Copy)]
struct Switch {
    command: &'static str,
    description: &'static str,
}

/// `TRACING`, as `do_tracing` names it.
const TRACING: Switch = Switch {
    command: "TRACING",
    description: "Tracing",
};

/// `EXPAND`, as `do_expand` names it.
const EXPAND: Switch = Switch {
    command: "EXPAND",
    description: "Expanded output",
};

/// `PAGING`, as `do_paging` names it.
const PAGING: Switch = Switch {
    command: "PAGING",
    description: "Query paging",
};

impl Switch {
    /// Shows or sets `flag` with cqlsh's words; switching to the state it
    /// already has is an error, as cqlsh's `printerr` makes it.
    fn apply(self, flag: &mut bool, toggle: Toggle) -> Reply {
        let Switch {
            command,
            description,
        } = self;
        match (toggle, *flag) {
            (Toggle::Show, true) => Reply::line(format!(
                "{description} is currently enabled. Use {command} OFF to disable"
            )),
            (Toggle::Show, false) => Reply::line(format!(
                "{description} is currently disabled. Use {command} ON to enable."
            )),
            (Toggle::On, true) => Reply::error(format!(
                "{description} is already enabled. Use {command} OFF to disable.\n"
            )),
            (Toggle::Off, false) => Reply::error(format!("{description} is not enabled.\n")),
            (Toggle::On, false) => {
                *flag = true;
                Reply::line(format!("Now {description} is enabled"))
            }
            (Toggle::Off, true) => {
                *flag = false;
                Reply::line(format!("Disabled {description}."))
            }
        }
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
