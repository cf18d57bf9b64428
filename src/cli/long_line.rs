//! Keeping a very long typed line linear in the line editor.
//!
//! rustyline redraws the whole line each time the cursor reaches the
//! terminal's last column, so a line typed (or pasted into a terminal
//! without bracketed paste) a character at a time costs its length once per
//! terminal row it fills: quadratic. Past [`CUT_AT`] bytes, a character typed
//! at the end of the line hands the line over to the REPL as a *fragment*
//! and the character opens a fresh edit buffer: each buffer's redraws are
//! bounded, and the REPL joins the fragments, without line breaks, into the
//! one line that was typed. On the screen the line continues on a new row.
//! Bracketed pastes arrive in one piece and never reach this handler.

use std::sync::{Arc, Mutex};

use rustyline::{
    Cmd, ConditionalEventHandler, Event, EventContext, KeyCode, KeyEvent, Modifiers, RepeatCount,
};

/// The length in bytes past which typing at the end of a line cuts it.
pub const CUT_AT: usize = 4096;

/// The character that cut the line, waiting to start the next buffer.
#[derive(Debug, Clone, Default)]
pub struct Carry(Arc<Mutex<Option<char>>>);

impl Carry {
    /// The character that cut the line just read, if it was cut.
    pub fn take(&self) -> Option<char> {
        self.0.lock().ok().and_then(|mut c| c.take())
    }

    fn put(&self, c: char) {
        if let Ok(mut slot) = self.0.lock() {
            *slot = Some(c);
        }
    }
}

/// The `Event::Any` handler that cuts a long line (see the module's docs).
pub struct LongLineCut {
    /// Where the cutting character is left for the REPL.
    pub carry: Carry,
}

impl ConditionalEventHandler for LongLineCut {
    fn handle(
        &self,
        evt: &Event,
        n: RepeatCount,
        _positive: bool,
        ctx: &EventContext<'_>,
    ) -> Option<Cmd> {
        let c = typed_char(evt)?;
        let line = ctx.line();
        if n != 1 || line.len() < CUT_AT || ctx.pos() != line.len() {
            return None;
        }
        self.carry.put(c);
        Some(Cmd::AcceptLine)
    }
}

/// The printable character a single key press types, if it is one.
fn typed_char(evt: &Event) -> Option<char> {
    let Event::KeySeq(keys) = evt else {
        return None;
    };
    match keys.as_slice() {
        [KeyEvent(KeyCode::Char(c), m)]
            if (*m == Modifiers::NONE || *m == Modifiers::SHIFT) && !c.is_control() =>
        {
            Some(*c)
        }
        _ => None,
    }
}
