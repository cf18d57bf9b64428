//! The shell: what cqlsh adds around CQL, as library code so the REPL, `-f`
//! scripts, standard input and embedders all behave alike.
//!
//! A [`Shell`] owns a [`Session`] and the shell's settings (output format,
//! EXPAND, PAGING, TRACING, CAPTURE). [`Shell::run`] takes one statement or
//! shell command, as the statement splitter yields it, and returns a
//! [`Reply`]: the text for standard output (in pages, for the pager), the
//! text for standard error, and whether it failed or asked to exit. Nothing
//! here touches a terminal.

pub mod command;
pub mod copy;
pub mod describe;
pub mod help;
pub mod report;
pub mod save;
pub mod trace;

use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;

use crate::cluster::ConsistencyLevel;
use crate::error::Error;
use crate::exec::ResultSet;
use crate::render::{csv, error_record, expanded_pages, result_record, table_pages, TableOptions};
use crate::session::Session;
use crate::syntax::script::ScriptStatement;

pub use command::{Command, Toggle, LINE_COMMANDS};

/// How results are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// cqlsh's table layout (EXPAND switches to the expanded one).
    Table,
    /// cqlsh's expanded layout, always.
    Expanded,
    /// JSON Lines, one record per statement.
    Json,
    /// CSV blocks.
    Csv,
}

/// The shell's settings, as cqlsh's flags and commands set them.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The output format.
    pub format: Format,
    /// EXPAND ON: rows as `@ Row N` blocks.
    pub expand: bool,
    /// PAGING: the page size, or `None` when off.
    pub page_size: Option<usize>,
    /// TRACING ON: every query followed by its trace.
    pub tracing: bool,
    /// Colour in output and diagnostics.
    pub color: bool,
    /// Interactive (the REPL) rather than batch (scripts): cqlsh's layouts
    /// differ slightly, and errors carry no `FILE:LINE:` prefix.
    pub interactive: bool,
    /// SERIAL CONSISTENCY.
    pub serial_consistency: ConsistencyLevel,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            format: Format::Table,
            expand: false,
            page_size: Some(crate::render::table::DEFAULT_PAGE_SIZE),
            tracing: false,
            color: false,
            interactive: false,
            serial_consistency: ConsistencyLevel::Serial,
        }
    }
}

/// What one statement or command produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reply {
    /// Standard output, in pages (the REPL pauses between them when
    /// paging; elsewhere they are written one after another).
    pub out: Vec<String>,
    /// Standard error.
    pub err: String,
    /// The statement failed (the script's exit code becomes 2).
    pub failed: bool,
    /// EXIT or QUIT.
    pub exit: bool,
}

impl Reply {
    fn out(text: impl Into<String>) -> Reply {
        Reply {
            out: vec![text.into()],
            ..Reply::default()
        }
    }

    fn line(text: impl AsRef<str>) -> Reply {
        Reply::out(format!("{}\n", text.as_ref()))
    }

    fn error(text: impl Into<String>) -> Reply {
        Reply {
            err: text.into(),
            failed: true,
            ..Reply::default()
        }
    }

    /// Everything for standard output, pages joined.
    pub fn stdout(&self) -> String {
        self.out.concat()
    }
}

/// A session with cqlsh's shell around it.
#[derive(Debug)]
pub struct Shell {
    session: Session,
    settings: Settings,
    capture: Option<PathBuf>,
    csv_blocks: usize,
    source_depth: usize,
}

impl Shell {
    /// A shell around `session`.
    pub fn new(session: Session, settings: Settings) -> Shell {
        Shell {
            session,
            settings,
            capture: None,
            csv_blocks: 0,
            source_depth: 0,
        }
    }

    /// The session.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The session, to change.
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The settings, to change.
    pub fn settings_mut(&mut self) -> &mut Settings {
        &mut self.settings
    }

    /// cqlsh's prompt with widerow's name: `widerow> `, or `widerow:ks> `.
    pub fn prompt(&self) -> String {
        match self.session.keyspace() {
            Some(keyspace) => format!("widerow:{keyspace}> "),
            None => "widerow> ".to_string(),
        }
    }

    /// Runs one statement or shell command read from `source` (a file name,
    /// or `<stdin>`).
    pub fn run(&mut self, source: &str, statement: &ScriptStatement) -> Reply {
        let reply = match command::parse(&statement.text) {
            Some(command) => self.command(source, statement, command),
            None => self.cql(source, statement),
        };
        self.capture(&reply);
        reply
    }

    fn cql(&mut self, source: &str, statement: &ScriptStatement) -> Reply {
        if let Some(rest) = explain_target(&statement.text) {
            return match self.session.plan(rest) {
                Ok(plan) => Reply::out(trace::explain(&self.session, &plan)),
                Err(error) => self.report(source, statement, &error),
            };
        }
        match self.session.execute(&statement.text) {
            Ok(result) => {
                let mut reply = self.render(statement, &result);
                if self.settings.tracing && result.plan.is_some() {
                    let text =
                        trace::trace(&self.session, &statement.text, &result, self.settings.color);
                    reply.out.push(text);
                }
                reply
            }
            Err(error) => self.report(source, statement, &error),
        }
    }

    /// A result in the current format.
    pub fn render(&mut self, statement: &ScriptStatement, result: &ResultSet) -> Reply {
        let options = TableOptions {
            interactive: self.settings.interactive,
            page_size: self.settings.page_size,
        };
        match self.settings.format {
            Format::Json => Reply::line(result_record(None, statement.line, result, true)),
            Format::Csv => {
                let block = csv(result);
                let mut reply = Reply::default();
                if !block.is_empty() {
                    let separator = if self.csv_blocks > 0 { "\n" } else { "" };
                    reply.out.push(format!("{separator}{block}"));
                    self.csv_blocks += 1;
                }
                reply.err = crate::render::warnings_block(&result.warnings);
                reply
            }
            Format::Expanded => Reply {
                out: expanded_pages(result, &options),
                ..Reply::default()
            },
            Format::Table if self.settings.expand => Reply {
                out: expanded_pages(result, &options),
                ..Reply::default()
            },
            Format::Table => Reply {
                out: table_pages(result, &options),
                ..Reply::default()
            },
        }
    }

    /// A failed statement, reported as the format and mode want it.
    pub fn report(&self, source: &str, statement: &ScriptStatement, error: &Error) -> Reply {
        if self.settings.format == Format::Json {
            let mut reply = Reply::line(error_record(
                None,
                statement.line,
                error,
                error.is_refusal(),
            ));
            reply.failed = true;
            return reply;
        }
        let prefix = (!self.settings.interactive).then_some(source);
        Reply::error(report::human_error(
            prefix,
            statement,
            error,
            self.settings.color,
        ))
    }

    fn command(&mut self, source: &str, statement: &ScriptStatement, command: Command) -> Reply {
        match command {
            Command::Exit => Reply {
                exit: true,
                ..Reply::default()
            },
            Command::Clear => Reply::out("\x1b[2J\x1b[H"),
            Command::Improper(message) => Reply::error(format!("{message}\n")),
            Command::Expand(t) => toggle_reply("EXPAND", &mut self.settings.expand, t),
            Command::Tracing(t) => toggle_reply("TRACING", &mut self.settings.tracing, t),
            Command::Paging(p) => self.paging(p),
            Command::Consistency(level) => self.consistency(level),
            Command::SerialConsistency(level) => self.serial_consistency(level),
            Command::Show(what) => self.show(&what),
            Command::Help(topic) => match help::help(topic.as_deref()) {
                Ok(text) => Reply::out(text),
                Err(text) => Reply::error(text),
            },
            Command::Source(path) => self.source(&path),
            Command::Capture(target) => self.capture_command(target),
            Command::History(_) => Reply::default(),
            Command::Describe(rest) => match describe::describe(&self.session, &rest) {
                Ok(text) => Reply::out(text),
                Err(error) => self.report(source, statement, &error),
            },
            Command::Copy(text) => copy::copy(self, &text),
            Command::Save(path) => match save::save(&self.session, &path) {
                Ok(text) => Reply::out(text),
                Err(error) => self.report(source, statement, &error),
            },
            Command::Cluster(rest) => match trace::cluster(&mut self.session, &rest) {
                Ok(text) => Reply::out(text),
                Err(error) => self.report(source, statement, &error),
            },
        }
    }

    fn paging(&mut self, paging: command::Paging) -> Reply {
        use command::Paging;
        let size = self
            .settings
            .page_size
            .unwrap_or(crate::render::table::DEFAULT_PAGE_SIZE);
        match paging {
            Paging::Toggle(Toggle::Show) => match self.settings.page_size {
                Some(n) => Reply::out(format!("PAGING is ON\nPage size: {n}\n")),
                None => Reply::line("PAGING is OFF"),
            },
            Paging::Toggle(Toggle::On) => {
                let was = self.settings.page_size.is_some();
                self.settings.page_size = Some(size);
                let head = if was {
                    "PAGING is already ON"
                } else {
                    "PAGING set to ON"
                };
                Reply::out(format!("{head}\nPage size: {size}\n"))
            }
            Paging::Toggle(Toggle::Off) => {
                let was = self.settings.page_size.take().is_some();
                Reply::line(if was {
                    "PAGING set to OFF"
                } else {
                    "PAGING is already OFF"
                })
            }
            Paging::Size(n) => {
                self.settings.page_size = Some(n);
                Reply::line(format!("Page size: {n}"))
            }
        }
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
                    Reply::line(format!("Serial consistency level set to {}.", level.name()))
                }
                _ => Reply::error("Improper SERIAL CONSISTENCY command.\n"),
            },
        }
    }

    fn show(&self, what: &str) -> Reply {
        let lower = what.to_ascii_lowercase();
        match lower.split_whitespace().next().unwrap_or("") {
            "version" => Reply::line(version_line()),
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

    fn source(&mut self, path: &std::path::Path) -> Reply {
        let name = path.display().to_string();
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                let reason = match e.kind() {
                    std::io::ErrorKind::NotFound => "[Errno 2] No such file or directory",
                    _ => "[Errno 13] Permission denied",
                };
                return Reply::error(format!("Could not open '{name}': {reason}: '{name}'\n"));
            }
        };
        if self.source_depth > 16 {
            return Reply::error(format!("{name}: SOURCE nested too deeply\n"));
        }
        self.source_depth += 1;
        let interactive = std::mem::replace(&mut self.settings.interactive, false);
        let mut total = Reply::default();
        for statement in
            crate::syntax::script::split_statements_with_line_commands(&text, LINE_COMMANDS)
        {
            let reply = self.run(&name, &statement);
            total.out.extend(reply.out);
            total.err.push_str(&reply.err);
            total.failed |= reply.failed;
            if reply.exit {
                break;
            }
        }
        self.settings.interactive = interactive;
        self.source_depth -= 1;
        total
    }

    fn capture_command(&mut self, target: Option<command::CaptureTarget>) -> Reply {
        use command::CaptureTarget;
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
    fn capture(&self, reply: &Reply) {
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

/// `SHOW VERSION` and `--version`: widerow's version and what it emulates.
pub fn version_line() -> String {
    format!(
        "[widerow {} | Cassandra 5.0 (emulated) | CQL spec 3.4.7 | Native protocol v5]",
        env!("CARGO_PKG_VERSION")
    )
}

/// The statement after `EXPLAIN`, if the text starts with it.
fn explain_target(text: &str) -> Option<&str> {
    let trimmed = text.trim_start();
    let word = trimmed.get(..7)?;
    if word.eq_ignore_ascii_case("explain") && trimmed[7..].starts_with(char::is_whitespace) {
        Some(trimmed[7..].trim())
    } else {
        None
    }
}

fn toggle_reply(name: &str, flag: &mut bool, toggle: Toggle) -> Reply {
    let state = |on: bool| if on { "ON" } else { "OFF" };
    match toggle {
        Toggle::Show => Reply::line(format!("{name} is {}", state(*flag))),
        Toggle::On | Toggle::Off => {
            let on = toggle == Toggle::On;
            if *flag == on {
                Reply::line(format!("{name} is already {}", state(on)))
            } else {
                *flag = on;
                Reply::line(format!("{name} set to {}", state(on)))
            }
        }
    }
}
