//! The interactive session, as cqlsh runs it (cqlsh.md §1.2, §1.5, §1.6):
//! a banner, the `widerow> ` / `widerow:ks> ` prompt, lines collected until
//! a statement ends (`   ... ` on the lines after the first), every
//! statement or shell command run through the library's [`Shell`], results
//! paged with `---MORE---`. Ctrl-C drops the statement being typed, Ctrl-D
//! leaves. History lives in `~/.widerow_history` (or `$WIDEROW_HISTORY`),
//! one entry per statement with its line breaks made spaces, as cqlsh keeps
//! it. Tab completes from the grammar and the live schema; with colour on,
//! the input is highlighted by the project's lexer.

use std::cell::RefCell;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;

use rustyline::config::{ColorMode, CompletionType, Config};
use rustyline::error::ReadlineError;
use rustyline::history::DefaultHistory;
use rustyline::{Editor, Event, EventHandler};
use widerow::shell::highlight::Live;
use widerow::shell::input::Pending;
use widerow::shell::{banner, Reply, Shell, LINE_COMMANDS};
use widerow::StatementSplitter;

use super::args::Cli;
use super::helper::ReplHelper;
use super::long_line::{Carry, LongLineCut};
use super::session;

/// History entries kept in the file.
const HISTORY_SIZE: usize = 2000;

/// cqlsh's prompt after three empty lines inside an unfinished statement.
const TERMINATE_HINT: &str =
    "Statements are terminated with a ';'.  You can press CTRL-C to cancel an incomplete statement.";

/// What cqlsh prints between result pages, waiting for Enter.
const MORE: &str = "---MORE---";

/// What a typed line holding bytes that are not UTF-8 gets: the line is
/// dropped, the statement typed before it and the session stay.
const NOT_UTF8: &str = "Invalid input: the line typed is not valid UTF-8 and was dropped.";

type LineEditor = Editor<ReplHelper, DefaultHistory>;

/// Runs the interactive session until EXIT, QUIT or Ctrl-D.
pub fn run(cli: &Cli) -> ExitCode {
    let settings = session::settings(cli, true, false);
    let machine = settings.format.is_machine();
    let color = settings.color;
    let shell = match &cli.connect.connect {
        Some(target) => super::connect::open_shell(cli, target, settings),
        None => session::start_session(&cli.cluster, cli.config.as_deref(), false)
            .map(|(session, _)| Shell::new(session, settings)),
    };
    let shell = match shell {
        Ok(shell) => shell,
        Err(message) => {
            eprintln!("widerow: {message}");
            return ExitCode::from(1);
        }
    };
    let mut repl = Repl {
        shell: Rc::new(RefCell::new(shell)),
        pending: Rc::new(RefCell::new(Pending::new(LINE_COMMANDS))),
        empty_lines: 0,
        history: history_file(),
        carry: Carry::default(),
        fragment: String::new(),
    };
    let mut editor = match repl.editor(color) {
        Ok(editor) => editor,
        Err(e) => {
            eprintln!("widerow: cannot open the line editor: {e}");
            return ExitCode::from(1);
        }
    };
    if !machine {
        print!("{}", banner());
    }
    let code = repl.run(&mut editor);
    if let Some(path) = &repl.history {
        let _ = editor.save_history(path);
    }
    code
}

/// The REPL's state between lines.
struct Repl {
    shell: Rc<RefCell<Shell>>,
    pending: Rc<RefCell<Pending>>,
    /// Empty lines typed in a row inside an unfinished statement.
    empty_lines: usize,
    history: Option<PathBuf>,
    /// Set when a long typed line was cut (see `long_line`).
    carry: Carry,
    /// The cut parts of the line being typed, joined without line breaks.
    fragment: String,
}

impl Repl {
    fn editor(&self, color: bool) -> rustyline::Result<LineEditor> {
        let config = Config::builder()
            .completion_type(CompletionType::List)
            .max_history_size(HISTORY_SIZE)?
            .history_ignore_dups(true)?
            .auto_add_history(false)
            .color_mode(if color {
                ColorMode::Forced
            } else {
                ColorMode::Disabled
            })
            .build();
        let mut editor = LineEditor::with_config(config)?;
        editor.bind_sequence(
            Event::Any,
            EventHandler::Conditional(Box::new(LongLineCut {
                carry: self.carry.clone(),
            })),
        );
        editor.set_helper(Some(ReplHelper {
            shell: Rc::clone(&self.shell),
            pending: Rc::clone(&self.pending),
            color,
            live: Live::default(),
        }));
        if let Some(path) = &self.history {
            let _ = editor.load_history(path);
        }
        let mut shell = self.shell.borrow_mut();
        for entry in editor.history().iter() {
            shell.add_history(entry.clone());
        }
        Ok(editor)
    }

    fn run(&mut self, editor: &mut LineEditor) -> ExitCode {
        let mut initial: Option<String> = None;
        loop {
            // A cut line continues on a row of its own, without a prompt.
            let prompt = if self.fragment.is_empty() {
                self.prompt()
            } else {
                String::new()
            };
            let read = match initial.take() {
                Some(start) => editor.readline_with_initial(&prompt, (&start, "")),
                None => editor.readline(&prompt),
            };
            match read {
                Ok(line) => {
                    if let Some(c) = self.carry.take() {
                        self.fragment.push_str(&line);
                        initial = Some(c.to_string());
                        continue;
                    }
                    let line = self.join_fragments(line);
                    if self.line(editor, &line) {
                        return ExitCode::SUCCESS;
                    }
                }
                Err(ReadlineError::Interrupted) => {
                    self.pending.borrow_mut().take();
                    self.fragment.clear();
                    self.empty_lines = 0;
                }
                Err(ReadlineError::Eof) => {
                    println!();
                    if !self.fragment.is_empty() {
                        let line = self.join_fragments(String::new());
                        self.pending.borrow_mut().push_line(&line);
                    }
                    let text = self.pending.borrow_mut().take();
                    self.execute(editor, &text);
                    return ExitCode::SUCCESS;
                }
                Err(ReadlineError::Io(e)) if e.kind() == io::ErrorKind::InvalidData => {
                    self.fragment.clear();
                    eprintln!("{NOT_UTF8}");
                }
                Err(e) => {
                    eprintln!("widerow: {e}");
                    return ExitCode::from(1);
                }
            }
        }
    }

    /// The whole typed line: the parts a long line was cut into, then `last`.
    fn join_fragments(&mut self, last: String) -> String {
        if self.fragment.is_empty() {
            return last;
        }
        let mut line = std::mem::take(&mut self.fragment);
        line.push_str(&last);
        line
    }

    /// The prompt for the next line: the shell's, its continuation, or
    /// cqlsh's reminder after three empty lines in an open statement.
    fn prompt(&mut self) -> String {
        let shell = self.shell.borrow();
        if self.pending.borrow().is_empty() {
            return shell.prompt();
        }
        if self.empty_lines >= 3 {
            self.empty_lines = 0;
            return TERMINATE_HINT.to_string();
        }
        shell.continuation_prompt()
    }

    /// Takes one line; runs the buffer when it holds whole statements.
    /// Returns whether the session should end.
    fn line(&mut self, editor: &mut LineEditor, line: &str) -> bool {
        let mut pending = self.pending.borrow_mut();
        pending.push_line(line);
        if !pending.is_complete() {
            self.empty_lines = if line.trim().is_empty() {
                self.empty_lines + 1
            } else {
                0
            };
            return false;
        }
        self.empty_lines = 0;
        let has_statement = pending.has_statement();
        let text = pending.take();
        drop(pending);
        if !has_statement {
            return false;
        }
        let entry = text.trim().replace('\n', " ");
        let _ = editor.add_history_entry(entry.as_str());
        if let Some(path) = &self.history {
            let _ = editor.save_history(path);
        }
        self.shell.borrow_mut().add_history(entry);
        self.execute(editor, &text)
    }

    /// Runs the statements of `text`; returns whether one asked to exit.
    fn execute(&mut self, editor: &mut LineEditor, text: &str) -> bool {
        let statements = StatementSplitter::new(text.as_bytes()).with_line_commands(LINE_COMMANDS);
        for statement in statements.filter_map(Result::ok) {
            let mut replies = Vec::new();
            let pause = {
                let mut shell = self.shell.borrow_mut();
                // A panic in one statement is reported (by the hook) and
                // the session goes on, as it was before the statement.
                let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    shell.run_into("<stdin>", &statement, &mut |reply| replies.push(reply));
                }));
                if ran.is_err() {
                    replies.clear();
                }
                let settings = shell.settings();
                settings.page_size.is_some()
                    && !settings.format.is_machine()
                    && !shell.is_capturing()
                    && io::stdout().is_terminal()
            };
            let mut exit = false;
            for reply in replies {
                exit |= reply.exit;
                print_reply(editor, reply, pause);
            }
            if exit {
                return true;
            }
        }
        false
    }
}

/// Prints a reply's pages, pausing with `---MORE---` between them when
/// `pause` (Ctrl-C or Ctrl-D there drops the rest), then its errors.
fn print_reply(editor: &mut LineEditor, reply: Reply, pause: bool) {
    let mut stdout = io::stdout().lock();
    let pages = reply.out.len();
    for (i, page) in reply.out.iter().enumerate() {
        let _ = stdout.write_all(page.as_bytes());
        let _ = stdout.flush();
        if pause && i + 1 < pages && editor.readline(MORE).is_err() {
            break;
        }
    }
    let _ = stdout.flush();
    if !reply.err.is_empty() {
        let _ = io::stderr().lock().write_all(reply.err.as_bytes());
    }
}

/// `$WIDEROW_HISTORY`, else `~/.widerow_history`; none without a home.
fn history_file() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("WIDEROW_HISTORY") {
        return (!path.is_empty()).then(|| PathBuf::from(path));
    }
    std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".widerow_history"))
}
