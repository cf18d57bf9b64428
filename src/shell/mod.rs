//! The shell: what cqlsh adds around CQL, as library code so the REPL, `-f`
//! scripts, standard input and embedders all behave alike.
//!
//! A [`Shell`] owns a [`Session`] and the shell's settings (output format,
//! EXPAND, PAGING, TRACING, CAPTURE). [`Shell::run`] takes one statement or
//! shell command, as the statement splitter yields it, and returns a
//! [`Reply`]: the text for standard output (in pages, for the pager), the
//! text for standard error, and whether it failed or asked to exit. Nothing
//! here touches a terminal: the REPL's completion ([`complete`]), syntax
//! highlighting ([`highlight`]) and statement collection ([`input`]) are
//! pure functions of the text and the session's catalog too.

pub mod command;
pub mod complete;
pub mod copy;
pub mod describe;
pub mod gate;
pub mod help;
pub mod highlight;
pub mod input;
pub mod remote;
pub mod report;
pub mod save;
pub mod trace;

use std::collections::VecDeque;
use std::io::BufRead;
use std::path::PathBuf;

use crate::cluster::ConsistencyLevel;
use crate::error::Error;
use crate::exec::ResultSet;
use crate::render::{csv, error_record, expanded_pages, result_record, table_pages, TableOptions};
use crate::session::Session;
use crate::syntax::lexer::{Lexer, TokenKind};
use crate::syntax::script::ScriptStatement;

pub use command::{Command, Toggle, LINE_COMMANDS};
pub use remote::Remote;

/// What cqlsh prints when the input ends inside a statement not closed by
/// `;` (cqlsh.md §1.3).
pub const INCOMPLETE: &str = "Incomplete statement at end of file";

/// How many history entries the shell keeps for `HISTORY`.
const HISTORY_KEPT: usize = 1000;

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

impl Format {
    /// JSON Lines and CSV are for tools: no colour, banner or pager.
    pub fn is_machine(self) -> bool {
        matches!(self, Format::Json | Format::Csv)
    }
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
    /// `--lint`: the linter's findings before a scatter-gather or
    /// filtering query is sent (see [`gate`]).
    pub lint_before_send: bool,
    /// `--refuse scatter-gather`: such a query is not sent.
    pub refuse_scatter_gather: bool,
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
            lint_before_send: false,
            refuse_scatter_gather: false,
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

    /// Adds `other` after this reply (SOURCE gathers its statements' replies).
    pub fn append(&mut self, other: Reply) {
        self.out.extend(other.out);
        self.err.push_str(&other.err);
        self.failed |= other.failed;
        self.exit |= other.exit;
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
    history: VecDeque<String>,
    history_shown: usize,
    /// The cluster statements run on in connect mode.
    remote: Option<Box<dyn Remote>>,
    /// CLUSTER SNAPSHOT's snapshots, the data the shell started with and
    /// the clock CLUSTER CLOCK moves.
    checkpoints: crate::checkpoints::Checkpoints,
}

impl Shell {
    /// A shell around `session`.
    pub fn new(mut session: Session, settings: Settings) -> Shell {
        let checkpoints = crate::checkpoints::Checkpoints::new(&mut session);
        Shell {
            checkpoints,
            session,
            settings,
            capture: None,
            csv_blocks: 0,
            source_depth: 0,
            history: VecDeque::new(),
            history_shown: 50,
            remote: None,
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

    /// Whether CAPTURE is on (cqlsh does not pause between pages then).
    pub fn is_capturing(&self) -> bool {
        self.capture.is_some()
    }

    /// cqlsh's prompt with widerow's name: `widerow> `, or `widerow:ks> `.
    pub fn prompt(&self) -> String {
        match self.session.keyspace() {
            Some(keyspace) => format!("widerow:{keyspace}> "),
            None => "widerow> ".to_string(),
        }
    }

    /// cqlsh's continuation prompt: `... ` right-aligned under the prompt
    /// (`   ... `, or `           ... ` after `USE ks`; cqlsh.md §1.5).
    pub fn continuation_prompt(&self) -> String {
        let width = self.prompt().chars().count();
        format!("{}... ", " ".repeat(width.saturating_sub(4)))
    }

    /// Remembers a history entry for `HISTORY` (the REPL adds each
    /// statement as it is entered, newlines made spaces).
    pub fn add_history(&mut self, entry: impl Into<String>) {
        if self.history.len() == HISTORY_KEPT {
            self.history.pop_front();
        }
        self.history.push_back(entry.into());
    }

    /// Completion candidates for `line` with the cursor at byte `cursor`,
    /// from the session's current schema (see [`complete::complete`]).
    pub fn complete(&self, line: &str, cursor: usize) -> complete::Completion {
        complete::complete(self.session.context(), line, cursor)
    }

    /// Runs one statement or shell command read from `source` (a file name,
    /// or `<stdin>`).
    pub fn run(&mut self, source: &str, statement: &ScriptStatement) -> Reply {
        let mut total = Reply::default();
        self.run_into(source, statement, &mut |reply| total.append(reply));
        total
    }

    /// Runs one statement or shell command, handing its output to `sink` as
    /// it is produced (SOURCE hands over each of its file's statements in
    /// turn, so a long sourced file is never held whole).
    pub fn run_into(
        &mut self,
        source: &str,
        statement: &ScriptStatement,
        sink: &mut dyn FnMut(Reply),
    ) {
        self.run_statement(source, statement, None, sink);
    }

    /// Runs one statement as [`Shell::run_into`] does, with `stdin` as what
    /// a `COPY … FROM STDIN` reads instead of this process's standard input.
    /// cqlsh reads that data from its own input, so a script runner passes
    /// the lines that follow the statement in the script
    /// ([`StatementSplitter::data_lines`](crate::StatementSplitter::data_lines)).
    /// Nothing else reads `stdin`; a COPY that fails before reading (a
    /// missing table, a bad option) leaves it unread, as cqlsh does.
    pub fn run_into_with_stdin(
        &mut self,
        source: &str,
        statement: &ScriptStatement,
        stdin: &mut dyn BufRead,
        sink: &mut dyn FnMut(Reply),
    ) {
        self.run_statement(source, statement, Some(stdin), sink);
    }

    fn run_statement(
        &mut self,
        source: &str,
        statement: &ScriptStatement,
        stdin: Option<&mut dyn BufRead>,
        sink: &mut dyn FnMut(Reply),
    ) {
        let reply = if !statement.terminated {
            self.incomplete(source, statement)
        } else if let Some(reply) = self.lexing_error(source, statement) {
            reply
        } else {
            match command::parse(&statement.text) {
                Some(Command::Source(path)) => return self.source(source, statement, &path, sink),
                Some(command) => self.command(source, statement, command, stdin),
                None => self.cql(source, statement),
            }
        };
        self.capture(&reply);
        sink(reply);
    }

    fn cql(&mut self, source: &str, statement: &ScriptStatement) -> Reply {
        self.refresh_mirror();
        if let Some(rest) = explain_target(&statement.text) {
            return match self.session.explain(rest) {
                // In JSON Lines, the record `widerow explain` writes.
                Ok(plan) if self.settings.format == Format::Json => Reply::line(
                    serde_json::json!({
                        "line": statement.line,
                        "kind": "plan",
                        "class": plan.class.as_str(),
                        "plan": serde_json::to_value(&plan).unwrap_or_default(),
                    })
                    .to_string(),
                ),
                Ok(plan) => Reply::out(trace::explain(&self.session, &plan)),
                Err(refused) => self.report_refused(source, statement, *refused),
            };
        }
        let findings = match self.gate(source, statement) {
            gate::Gate::Refuse(reply) => return reply,
            gate::Gate::Send(findings) => findings,
        };
        let mut reply = match self.remote.is_some() {
            true => self.remote_cql(source, statement),
            false => self.local_cql(source, statement),
        };
        reply.err.insert_str(0, &findings);
        reply
    }

    fn local_cql(&mut self, source: &str, statement: &ScriptStatement) -> Reply {
        // The shell pages as cqlsh does (100 rows) until PAGING OFF, and
        // what Cassandra refuses only when paged follows it.
        self.session.set_page_size(self.settings.page_size);
        match self.session.execute(&statement.text) {
            Ok(result) => {
                let mut reply = self.render(statement, &result);
                if self.settings.tracing && result.plan.is_some() {
                    let text =
                        trace::trace(&self.session, &statement.text, &result, self.settings.color);
                    // The trace follows the last page: it is no page of
                    // its own for the pager to pause before.
                    match reply.out.last_mut() {
                        Some(last) => last.push_str(&text),
                        None => reply.out.push(text),
                    }
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
        let pages = match self.settings.format {
            Format::Json => {
                let metrics = !self.is_connected();
                return Reply::line(result_record(None, statement.line, result, metrics));
            }
            Format::Csv => return self.render_csv(result),
            Format::Expanded => expanded_pages(result, &options),
            Format::Table if self.settings.expand => expanded_pages(result, &options),
            Format::Table => table_pages(result, &options),
        };
        Reply {
            out: pages,
            ..Reply::default()
        }
    }

    /// A CSV block, separated from the previous one by a blank line. CSV has
    /// no place for warnings: they go to standard error, as cqlsh prints
    /// them (cqlsh.md §3.4).
    fn render_csv(&mut self, result: &ResultSet) -> Reply {
        let block = csv(result);
        let mut reply = Reply::default();
        if !block.is_empty() {
            let separator = if self.csv_blocks > 0 { "\n" } else { "" };
            reply.out.push(format!("{separator}{block}"));
            self.csv_blocks += 1;
        }
        reply.err = crate::render::warnings_block(&result.warnings)
            + &crate::render::notes_block(&result.notes);
        reply
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
        Reply::error(report::human_error(
            self.prefix(source),
            statement,
            error,
            self.settings.color,
        ))
    }

    /// An EXPLAIN the planner stopped on: the partial plan, then the error
    /// as [`Shell::report`] gives it (in JSON Lines, one error record with
    /// the partial plan as its `plan`).
    fn report_refused(
        &self,
        source: &str,
        statement: &ScriptStatement,
        refused: crate::planner::PlanError,
    ) -> Reply {
        let Some(partial) = refused.partial else {
            return self.report(source, statement, &refused.error);
        };
        let error = &refused.error;
        if self.settings.format == Format::Json {
            let rejected = error.kind() != crate::error::ErrorKind::Unavailable;
            let mut record = crate::render::json::error_json(None, statement.line, error, rejected);
            record["plan"] = serde_json::to_value(&*partial).unwrap_or_default();
            let mut reply = Reply::line(record.to_string());
            reply.failed = true;
            return reply;
        }
        let mut reply = self.report(source, statement, error);
        reply
            .out
            .insert(0, trace::explain_refused(&self.session, &partial, error));
        reply
    }

    /// The `FILE:` of batch mode's `FILE:LINE:` prefix; none interactively.
    fn prefix<'a>(&self, source: &'a str) -> Option<&'a str> {
        (!self.settings.interactive).then_some(source)
    }

    /// A statement cut off by the end of the input, which cqlsh does not
    /// run. In JSON Lines it is an error record naming `SyntaxException`
    /// (cqlsh says it itself; there is no server error to name).
    fn incomplete(&self, source: &str, statement: &ScriptStatement) -> Reply {
        if self.settings.format == Format::Json {
            let record = error_record(None, statement.line, &Error::syntax(INCOMPLETE), false);
            let mut reply = Reply::line(record);
            reply.failed = true;
            return reply;
        }
        Reply::error(match self.prefix(source) {
            Some(name) => format!("{name}:{}:{INCOMPLETE}\n", statement.line),
            None => format!("{INCOMPLETE}\n"),
        })
    }

    /// cqlsh's own lexing error for a character its tokenizer does not know
    /// (`@`, `#`, a backtick …; cqlsh.md §1.4): the statement is not sent.
    /// JSON Lines keeps the server's `SyntaxException` record instead.
    fn lexing_error(&self, source: &str, statement: &ScriptStatement) -> Option<Reply> {
        if self.settings.format == Format::Json || statement.lexes_cleanly {
            return None;
        }
        let text = &statement.text;
        let bad = Lexer::new(text)
            .find(|t| t.kind == TokenKind::Invalid && !t.text(text).starts_with('!'))?;
        let before = &text[..bad.span.start];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |p| p + 1);
        let mut char = before[line_start..].chars().count() + 1;
        if line == 1 {
            char += statement.column - 1;
        }
        let echoed = text[line_start..].lines().next().unwrap_or("");
        let indent = if line == 1 { statement.column - 1 } else { 0 };
        let lines = [
            match self.prefix(source) {
                Some(_) => format!("Invalid syntax at line {line}, char {char}"),
                None => format!("Invalid syntax at char {char}"),
            },
            format!("  {}{echoed}", " ".repeat(indent)),
            format!(" {}^", " ".repeat(char)),
        ];
        let prefix = match self.prefix(source) {
            Some(name) => format!("{name}:{}:", statement.line),
            None => String::new(),
        };
        let err: String = lines.iter().map(|l| format!("{prefix}{l}\n")).collect();
        Some(Reply::error(err))
    }
}

/// `SHOW VERSION`: widerow's version and what it emulates, in cqlsh's
/// bracketed layout.
pub fn version_line() -> String {
    format!(
        "[widerow {} | Cassandra 5.0 (emulated) | CQL spec 3.4.7 | Native protocol v5]",
        env!("CARGO_PKG_VERSION")
    )
}

/// `widerow --version` (cqlsh prints `cqlsh 6.2.2`): widerow's version and
/// what it emulates.
pub fn version_text() -> String {
    format!(
        "widerow {} (emulates Cassandra 5.0, CQL spec 3.4.7, cqlsh 6.2)",
        env!("CARGO_PKG_VERSION")
    )
}

/// The interactive banner (cqlsh.md §1.2), with widerow's names.
pub fn banner() -> String {
    format!(
        "Connected to widerow (an in-memory Cassandra, simulated cluster)\n{}\nUse HELP for help.\n",
        version_line()
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
