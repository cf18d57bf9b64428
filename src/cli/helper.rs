//! The line editor's helper: completion and highlighting from the library
//! (`widerow::shell::complete`, `widerow::shell::highlight`), with the lines
//! of the statement typed so far as context.

use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;

use rustyline::completion::{Completer, Pair};
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Context, Helper};
use widerow::shell::highlight::Live;
use widerow::shell::input::Pending;
use widerow::shell::Shell;

/// Completion and highlighting for the REPL. It sees the shell (for the
/// live catalog) and the lines already typed of the current statement.
pub struct ReplHelper {
    /// The shell, borrowed only while completing.
    pub shell: Rc<RefCell<Shell>>,
    /// The statement's earlier lines.
    pub pending: Rc<RefCell<Pending>>,
    /// Highlight the input.
    pub color: bool,
    /// The highlighter, which keeps typing a long line cheap.
    pub live: Live,
}

impl Completer for ReplHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let (Ok(shell), Ok(pending)) = (self.shell.try_borrow(), self.pending.try_borrow()) else {
            return Ok((pos, Vec::new()));
        };
        let before = pending.text();
        let whole = format!("{before}{line}");
        let completion = shell.complete(&whole, before.len() + pos);
        let start = completion.start.saturating_sub(before.len()).min(pos);
        let typed = &line[start..pos];
        let mut pairs: Vec<Pair> = completion
            .candidates
            .iter()
            .map(|c| Pair {
                display: c.text.clone(),
                replacement: if c.hint {
                    typed.to_string()
                } else {
                    c.text.clone()
                },
            })
            .collect();
        // A hint alone would be "completed" silently: cqlsh lists it with an
        // empty entry beside it instead.
        if pairs.len() == 1 && completion.candidates[0].hint {
            pairs.push(Pair {
                display: String::new(),
                replacement: typed.to_string(),
            });
        }
        Ok((start, pairs))
    }
}

impl Highlighter for ReplHelper {
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        if !self.color {
            return Cow::Borrowed(line);
        }
        let open = self.pending.try_borrow().ok().and_then(|p| p.open_token());
        match self.live.paint(line, open) {
            Some(painted) => Cow::Owned(painted),
            None => Cow::Borrowed(line),
        }
    }

    /// Colours do not depend on the cursor, so moving it repaints nothing;
    /// a typed character repaints the line only while it is short (each
    /// repaint lexes and redraws all of it).
    fn highlight_char(&self, line: &str, _pos: usize, kind: CmdKind) -> bool {
        self.color
            && match kind {
                CmdKind::MoveCursor => false,
                CmdKind::Other => self.live.repaint_on_keystroke(line),
                CmdKind::ForcedRefresh => true,
            }
    }
}

impl Hinter for ReplHelper {
    type Hint = String;
}

/// Every physical line is returned as typed: the REPL collects statements
/// itself ([`Pending`]), as cqlsh does, with its continuation prompt.
impl Validator for ReplHelper {}

impl Helper for ReplHelper {}
