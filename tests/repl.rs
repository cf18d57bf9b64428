//! The interactive shell end to end: the real binary in a pseudo-terminal,
//! driven key by key as a person would (cqlsh.md §1.2, §1.5, §1.6, §3.1).
//!
//! Each test starts its own `widerow` on a fresh pty with a small schema
//! (`--schema`) and its own history file, types, and waits (a few seconds
//! at most) for what cqlsh would show. What is read has the line editor's
//! escape sequences removed, so the tests match the text a person sees.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use nix::pty::{openpty, Winsize};

const SCHEMA: &str = "\
CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE ks.users (g int, id int, name text, PRIMARY KEY (g, id));
INSERT INTO ks.users (g, id, name) VALUES (0, 1, 'Alice');
INSERT INTO ks.users (g, id, name) VALUES (0, 2, 'Bob');
INSERT INTO ks.users (g, id, name) VALUES (0, 3, 'Carol');
CREATE TABLE ks.items (id int PRIMARY KEY);
";

/// How long any expected text may take to appear.
const TIMEOUT: Duration = Duration::from_secs(5);

/// A `widerow` running on a pseudo-terminal.
struct Repl {
    master: File,
    child: Child,
    /// What has been read and not yet matched, escapes removed.
    seen: String,
    /// Everything read, escapes included.
    raw: Vec<u8>,
    /// How many bytes were read in all, including those since forgotten.
    received: usize,
    dir: PathBuf,
}

impl Repl {
    fn start(name: &str, args: &[&str]) -> Repl {
        Repl::start_with(name, args, &[])
    }

    /// Starts with `env` set besides the test's own variables.
    fn start_with(name: &str, args: &[&str], env: &[(&str, &str)]) -> Repl {
        Repl::start_sized(name, args, env, 200)
    }

    /// Starts on a terminal `columns` wide.
    fn start_sized(name: &str, args: &[&str], env: &[(&str, &str)], columns: u16) -> Repl {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("repl_{name}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        std::fs::write(dir.join("schema.cql"), SCHEMA).expect("schema");
        let size = Winsize {
            ws_row: 50,
            ws_col: columns,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        let pty = openpty(Some(&size), None).expect("openpty");
        let mut command = Command::new(env!("CARGO_BIN_EXE_widerow"));
        command
            .args(["--schema", "schema.cql"])
            .args(args)
            .current_dir(&dir)
            .env("TERM", "xterm")
            .env("HOME", &dir)
            .env("WIDEROW_HISTORY", dir.join("history"))
            .env_remove("NO_COLOR")
            .envs(env.iter().copied())
            .stdin(stdio(&pty.slave))
            .stdout(stdio(&pty.slave))
            .stderr(stdio(&pty.slave));
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            command.pre_exec(|| {
                nix::unistd::setsid().map_err(std::io::Error::from)?;
                if nix::libc::ioctl(0, nix::libc::TIOCSCTTY as _, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().expect("spawn widerow");
        drop(pty.slave);
        Repl {
            master: File::from(pty.master),
            child,
            seen: String::new(),
            raw: Vec::new(),
            received: 0,
            dir,
        }
    }

    /// Types `keys`.
    fn send(&mut self, keys: &str) {
        self.master
            .write_all(keys.as_bytes())
            .expect("write to pty");
        self.master.flush().expect("flush pty");
    }

    /// Types raw bytes, which need not be UTF-8.
    fn send_bytes(&mut self, bytes: &[u8]) {
        self.master.write_all(bytes).expect("write to pty");
        self.master.flush().expect("flush pty");
    }

    /// Types `bytes` without ever blocking on a full terminal, reading (and
    /// forgetting, but for the last few bytes) the screen meanwhile, so that
    /// neither side waits for the other.
    fn send_reading(&mut self, bytes: &[u8], deadline: Instant) {
        use nix::fcntl::{fcntl, FcntlArg, OFlag};
        let flags = fcntl(&self.master, FcntlArg::F_GETFL).expect("flags");
        let nonblocking = OFlag::from_bits_truncate(flags) | OFlag::O_NONBLOCK;
        fcntl(&self.master, FcntlArg::F_SETFL(nonblocking)).expect("nonblocking");
        let mut sent = 0;
        while sent < bytes.len() {
            assert!(Instant::now() < deadline, "typing did not finish");
            let end = bytes.len().min(sent + 1024);
            match self.master.write(&bytes[sent..end]) {
                Ok(n) => sent += n,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => panic!("write to pty: {e}"),
            }
            self.read(Duration::from_millis(1));
            let keep = self.seen.len().saturating_sub(64);
            self.seen.drain(..keep);
            self.raw.clear();
        }
        let flags = OFlag::from_bits_truncate(flags);
        fcntl(&self.master, FcntlArg::F_SETFL(flags)).expect("blocking");
    }

    /// Types `line` and Enter.
    fn line(&mut self, line: &str) {
        self.send(line);
        self.send("\r");
    }

    /// Waits until `text` shows; returns what came before it (and drops
    /// both from what is still to be matched).
    #[track_caller]
    fn expect(&mut self, text: &str) -> String {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(at) = self.seen.find(text) {
                let before = self.seen[..at].to_string();
                self.seen.drain(..at + text.len());
                return before;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(
                !left.is_zero() && self.read(left),
                "timed out waiting for {text:?}; screen so far:\n{}",
                self.seen
            );
        }
    }

    /// Reads what is available within `wait`; false at end of output.
    fn read(&mut self, wait: Duration) -> bool {
        let millis = u16::try_from(wait.as_millis()).unwrap_or(u16::MAX);
        let mut fds = [PollFd::new(self.master.as_fd(), PollFlags::POLLIN)];
        match poll(&mut fds, PollTimeout::from(millis)) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(_) => return false,
        }
        let mut buf = [0u8; 4096];
        let n = match self.master.read(&mut buf) {
            Ok(0) | Err(_) => return false,
            Ok(n) => n,
        };
        let chunk = &buf[..n];
        // The line editor asks where the cursor is: answer "column 1".
        if chunk.windows(4).any(|w| w == b"\x1b[6n") {
            self.send("\x1b[1;1R");
        }
        self.raw.extend_from_slice(chunk);
        self.received += n;
        self.seen
            .push_str(&strip_escapes(&String::from_utf8_lossy(chunk)));
        true
    }

    /// Waits for the process to end; its exit code.
    fn wait(&mut self) -> i32 {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status.code().unwrap_or(-1);
            }
            assert!(Instant::now() < deadline, "widerow did not exit");
            self.read(Duration::from_millis(50));
        }
    }
}

impl Drop for Repl {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn stdio(fd: &OwnedFd) -> Stdio {
    Stdio::from(fd.try_clone().expect("dup pty"))
}

/// The text with ANSI escape sequences and carriage returns removed.
fn strip_escapes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\x1b' => match chars.next() {
                Some('[') => {
                    for c in chars.by_ref() {
                        if ('\x40'..='\x7e').contains(&c) {
                            break;
                        }
                    }
                }
                Some(']') => {
                    for c in chars.by_ref() {
                        if c == '\x07' {
                            break;
                        }
                    }
                }
                _ => {}
            },
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

const QUERY_ROW: &str = "SELECT id, name FROM ks.users WHERE g = 0 AND id = 1;";

#[test]
fn banner_prompt_and_exit() {
    let mut repl = Repl::start("banner", &["--no-color"]);
    let banner = repl.expect("widerow> ");
    assert!(banner.contains("Use HELP for help."), "{banner}");
    assert!(banner.contains("Cassandra 5.0"), "{banner}");
    repl.line("USE ks;");
    repl.expect("widerow:ks> ");
    repl.line("exit");
    assert_eq!(repl.wait(), 0);
}

#[test]
fn multi_line_statements_use_the_continuation_prompt() {
    let mut repl = Repl::start("multiline", &["--no-color"]);
    repl.expect("widerow> ");
    repl.line("SELECT id, name");
    // cqlsh.md §1.5: `... ` right-aligned under the prompt (`widerow> `).
    repl.expect("\n     ... ");
    repl.line("FROM ks.users");
    repl.expect("     ... ");
    repl.line("WHERE g = 0 AND id = 1;");
    let out = repl.expect("(1 rows)");
    assert!(
        out.contains(" id | name\n----+-------\n  1 | Alice\n"),
        "{out}"
    );
    repl.expect("widerow> ");
    // Several statements on one line run in order.
    repl.line("EXPAND; TRACING");
    repl.expect("Expanded output is currently disabled. Use EXPAND ON to enable.\n");
    repl.expect("Tracing is currently disabled. Use TRACING ON to enable.\n");
    // A string left open keeps the statement open across lines.
    repl.line("SELECT id FROM ks.users WHERE g = 0 AND name = 'a;");
    repl.expect("     ... ");
    repl.send("\x04");
    repl.expect("Incomplete statement at end of file");
    assert_eq!(repl.wait(), 0);
}

#[test]
fn ctrl_c_drops_the_statement_being_typed() {
    let mut repl = Repl::start("ctrl_c", &["--no-color"]);
    repl.expect("widerow> ");
    repl.line("SELECT nonsense");
    repl.expect("     ... ");
    repl.send("\x03");
    repl.expect("widerow> ");
    repl.line(QUERY_ROW);
    let out = repl.expect("(1 rows)");
    assert!(!out.contains("nonsense") || !out.contains("Error"), "{out}");
    repl.expect("widerow> ");
    // Ctrl-D on an empty line leaves.
    repl.send("\x04");
    assert_eq!(repl.wait(), 0);
}

#[test]
fn history_recalls_a_multi_line_statement_as_one_entry() {
    let mut repl = Repl::start("history", &["--no-color"]);
    repl.expect("widerow> ");
    repl.line("SELECT id, name FROM ks.users");
    repl.expect("... ");
    repl.line("WHERE g = 0 AND id = 2;");
    repl.expect("(1 rows)");
    repl.expect("widerow> ");
    // Up arrow: the whole statement, its line break made a space.
    repl.send("\x1b[A");
    repl.expect("SELECT id, name FROM ks.users WHERE g = 0 AND id = 2;");
    repl.send("\r");
    let out = repl.expect("(1 rows)");
    assert!(out.contains("  2 |  Bob"), "{out}");
    repl.expect("widerow> ");
    repl.line("HISTORY");
    let listed = repl.expect("widerow> ");
    assert!(
        listed.contains("SELECT id, name FROM ks.users WHERE g = 0 AND id = 2;\n"),
        "{listed}"
    );
    repl.line("quit");
    assert_eq!(repl.wait(), 0);
    let file = std::fs::read_to_string(repl.dir.join("history")).expect("history file");
    assert!(
        file.contains("SELECT id, name FROM ks.users WHERE g = 0 AND id = 2;"),
        "{file}"
    );
}

#[test]
fn tab_completes_from_the_grammar_and_the_schema() {
    let mut repl = Repl::start("complete", &["--no-color"]);
    repl.expect("widerow> ");
    // `FROM `, then the one keyspace starting with `k` (the system
    // keyspaces are there too, as against a node): cqlsh extends a unique
    // completion while there is one way on.
    repl.send("SELECT * F\t");
    repl.expect("SELECT * FROM ");
    repl.send("k\t");
    repl.expect("SELECT * FROM ks.");
    repl.send("u\t");
    repl.expect("ks.users ");
    repl.send("WHERE g = 0 AND id = 3;\r");
    let out = repl.expect("(1 rows)");
    assert!(out.contains("Carol"), "{out}");
    repl.expect("widerow> ");
    // A table created now completes at once.
    repl.line("CREATE TABLE ks.orders (id int PRIMARY KEY);");
    repl.expect("widerow> ");
    repl.send("INSERT INTO ks.o\t");
    repl.expect("INSERT INTO ks.orders ");
    repl.send("\x03");
    repl.expect("widerow> ");
    // Two tabs list the candidates.
    repl.line(
        "CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};",
    );
    repl.expect("widerow> ");
    repl.send("USE \t\t");
    let listed = repl.expect("widerow> USE ");
    assert!(listed.contains("ks") && listed.contains("shop"), "{listed}");
    repl.send("\x03");
    repl.expect("widerow> ");
    repl.line("exit");
    assert_eq!(repl.wait(), 0);
}

#[test]
fn expand_and_paging() {
    let mut repl = Repl::start("expand_paging", &["--no-color"]);
    repl.expect("widerow> ");
    repl.line("EXPAND ON");
    repl.expect("Now Expanded output is enabled");
    repl.line(QUERY_ROW);
    let out = repl.expect("(1 rows)");
    assert!(
        out.contains("@ Row 1\n------+-------\n id   | 1\n name | Alice\n"),
        "{out}"
    );
    repl.line("EXPAND OFF");
    repl.expect("Disabled Expanded output.");
    repl.line("PAGING 2");
    repl.expect("Page size: 2");
    repl.line("SELECT id FROM ks.users WHERE g = 0;");
    let first = repl.expect("---MORE---");
    assert!(first.contains("  1\n  2\n"), "{first}");
    assert!(!first.contains("  3\n"), "{first}");
    repl.send("\r");
    let rest = repl.expect("(3 rows)");
    // cqlsh.md §3.1: every page repeats the header interactively.
    assert!(rest.contains(" id\n----\n  3\n"), "{rest}");
    repl.line("PAGING OFF");
    repl.expect("Disabled Query paging.");
    repl.line("SELECT id FROM ks.users WHERE g = 0;");
    let all = repl.expect("(3 rows)");
    assert!(!all.contains("---MORE---"), "{all}");
    repl.line("exit");
    assert_eq!(repl.wait(), 0);
}

#[test]
fn source_runs_a_file() {
    let mut repl = Repl::start("source", &["--no-color"]);
    let script = repl.dir.join("more.cql");
    std::fs::write(
        &script,
        "INSERT INTO ks.users (g, id, name) VALUES (1, 9, 'Zed');\nEXPAND ON\n\
         SELECT id, name FROM ks.users WHERE g = 1;\nSELECT * FROM ks.nope;\n",
    )
    .expect("script");
    repl.expect("widerow> ");
    repl.line("SOURCE 'more.cql'");
    let out = repl.expect("(1 rows)");
    assert!(out.contains("@ Row 1"), "{out}");
    // Errors inside carry the file's name and line, as in batch mode.
    repl.expect("more.cql:4:InvalidRequest:");
    repl.expect("widerow> ");
    repl.line("SOURCE 'missing.cql'");
    repl.expect("Could not open 'missing.cql': [Errno 2] No such file or directory: 'missing.cql'");
    repl.line("exit");
    assert_eq!(repl.wait(), 0);
}

#[test]
fn colour_highlights_the_input() {
    let mut repl = Repl::start("colour", &["-C"]);
    repl.expect("widerow> ");
    repl.send("SELECT 'x'");
    repl.expect("SELECT 'x'");
    let raw = String::from_utf8_lossy(&repl.raw).into_owned();
    assert!(raw.contains("\x1b[0;1;34mSELECT\x1b[0m"), "{raw:?}");
    assert!(raw.contains("\x1b[0;1;33m'x'\x1b[0m"), "{raw:?}");
    repl.send("\x03");
    repl.expect("widerow> ");
    repl.line("exit");
    assert_eq!(repl.wait(), 0);
}

#[test]
fn no_color_turns_highlighting_off_unless_forced() {
    for (args, coloured) in [(&[][..], false), (&["-C"][..], true)] {
        let mut repl = Repl::start_with("no_color", args, &[("NO_COLOR", "1")]);
        repl.expect("widerow> ");
        repl.send("SELECT 1");
        repl.expect("SELECT 1");
        let raw = String::from_utf8_lossy(&repl.raw).into_owned();
        assert_eq!(
            raw.contains("\x1b[0;1;34mSELECT"),
            coloured,
            "{args:?}: {raw:?}"
        );
        repl.send("\x03");
        repl.expect("widerow> ");
        repl.line("exit");
        assert_eq!(repl.wait(), 0);
    }
}

#[test]
fn version_names_what_widerow_emulates() {
    for flag in ["-v", "--version"] {
        let out = Command::new(env!("CARGO_BIN_EXE_widerow"))
            .arg(flag)
            .output()
            .expect("run widerow");
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).expect("UTF-8");
        assert_eq!(
            text,
            format!(
                "widerow {} (emulates Cassandra 5.0, CQL spec 3.4.7, cqlsh 6.2)\n",
                env!("CARGO_PKG_VERSION")
            )
        );
    }
}

#[test]
fn machine_formats_print_no_banner() {
    let mut repl = Repl::start("json_repl", &["--format", "json"]);
    repl.expect("widerow> ");
    repl.line(QUERY_ROW);
    let out = repl.expect("widerow> ");
    assert!(out.contains("\"kind\":\"rows\""), "{out}");
    repl.line("exit");
    assert_eq!(repl.wait(), 0);
    let screen = String::from_utf8_lossy(&repl.raw).into_owned();
    assert!(!screen.contains("Use HELP for help."), "{screen}");
}

/// A result that fits one page is printed with its trace and no
/// `---MORE---`: cqlsh pauses only while the driver says more pages follow
/// (`print_result` in cqlshlib/cqlshmain.py: `input("---MORE---")` under
/// `result.has_more_pages`, pages of `default_page_size = 100` rows), and
/// the trace is printed after the result (`perform_statement`), not as a
/// page. So a line typed next is a statement, not an answer to a pager.
#[test]
fn a_traced_one_page_result_does_not_pause() {
    let mut repl = Repl::start("trace_no_more", &["--no-color"]);
    repl.expect("widerow> ");
    repl.line("TRACING ON");
    repl.expect("widerow> ");
    repl.line(QUERY_ROW);
    repl.expect("(1 rows)");
    let trace = repl.expect("widerow> ");
    assert!(trace.contains("METRICS"), "{trace}");
    assert!(!trace.contains("---MORE---"), "{trace}");
    repl.line("TRACING OFF;");
    repl.expect("widerow> ");
    repl.line(QUERY_ROW);
    let after = repl.expect("widerow> ");
    assert!(after.contains("(1 rows)"), "{after}");
    assert!(!after.contains("METRICS"), "tracing is still on: {after}");
    repl.line("exit");
    assert_eq!(repl.wait(), 0);
}

/// Bytes that are not UTF-8 are an error on the line they were typed on;
/// the session, and the data in it, go on. (cqlsh itself dies there with a
/// `UnicodeDecodeError` traceback: `cmdloop` in cqlshlib/cqlshmain.py
/// catches only `EOFError`, `CQL_ERRORS` and `KeyboardInterrupt` around
/// `get_input_line` — a divergence listed in docs/divergences.md.)
#[test]
fn a_line_that_is_not_utf8_is_an_error_and_the_session_lives_on() {
    let mut repl = Repl::start("not_utf8", &["--no-color"]);
    repl.expect("widerow> ");
    repl.line("INSERT INTO ks.users (g, id, name) VALUES (7, 1, 'kept');");
    repl.expect("widerow> ");
    // Each in one write: the line editor drops what it had read ahead of
    // the bad byte with it. `e2 82` is cut short by the Enter after it.
    for bad in [
        &b"SELECT \xff"[..],
        b"SELECT \xc3\x28",
        b"SELECT \xe2\x82\r",
    ] {
        repl.send_bytes(bad);
        repl.expect("not valid UTF-8");
        repl.expect("widerow> ");
    }
    repl.line("SELECT name FROM ks.users WHERE g = 7;");
    let out = repl.expect("(1 rows)");
    assert!(out.contains("kept"), "{out}");
    repl.line("exit");
    assert_eq!(repl.wait(), 0);
}

/// A 200 KB line typed (or pasted into a terminal without bracketed paste)
/// a character at a time, in colour, on an 80-column terminal, is taken at
/// a bounded cost per character: each keystroke used to lex and repaint the
/// whole line, and the line editor still redraws all of its buffer at every
/// terminal row the line fills, so 200 KB never ended. The work is counted,
/// not timed: what the terminal receives stays a few dozen bytes per
/// character typed (a redraw of at most 4 KB per terminal row, and in colour
/// a repaint at each of a buffer's first 512 keystrokes; it was the line's
/// length per row: 250 MB here).
#[test]
fn a_long_typed_line_finishes() {
    const LONG_LINE: usize = 200_000;
    let mut repl = Repl::start_sized("long_line", &["-C"], &[], 80);
    repl.expect("widerow> ");
    let before = repl.received;
    let mut line = b"SELECT * FROM ks.users WHERE g = 0 AND name = '".to_vec();
    line.resize(LONG_LINE, b'x');
    line.extend_from_slice(b"' ALLOW FILTERING;\r");
    let deadline = Instant::now() + Duration::from_secs(60);
    repl.send_reading(&line, deadline);
    while !repl.seen.contains("(0 rows)") {
        assert!(Instant::now() < deadline, "the long line did not finish");
        let keep = repl.seen.len().saturating_sub(64);
        repl.seen.drain(..keep);
        repl.read(Duration::from_millis(100));
    }
    let written = repl.received - before;
    assert!(
        written < 128 * LONG_LINE,
        "the terminal received {written} bytes for a {LONG_LINE}-byte line"
    );
    repl.raw.clear();
    repl.line("exit");
    assert_eq!(repl.wait(), 0);
}

/// A line cut into parts while it is typed (past 4,096 bytes, see
/// `long_line.rs`) reaches the statement whole: no character lost, no line
/// break added inside the string it spans.
#[test]
fn a_cut_line_is_joined_whole() {
    const NAME: usize = 10_000;
    let mut repl = Repl::start_sized("cut_line", &[], &[], 80);
    repl.expect("widerow> ");
    let mut line = b"INSERT INTO ks.users (g, id, name) VALUES (7, 1, '".to_vec();
    line.resize(line.len() + NAME, b'x');
    line.extend_from_slice(b"END');\r");
    let deadline = Instant::now() + Duration::from_secs(30);
    repl.send_reading(&line, deadline);
    repl.line("SELECT name FROM ks.users WHERE g = 7;");
    while !repl.seen.contains("(1 rows)") {
        assert!(
            Instant::now() < deadline,
            "the statement did not finish: {}",
            &repl.seen[repl.seen.len().saturating_sub(600)..]
        );
        repl.read(Duration::from_millis(100));
    }
    let out = repl.expect("(1 rows)");
    let name = format!("{}END", "x".repeat(NAME));
    assert!(
        out.lines().any(|l| l.trim() == name),
        "no row holds the whole name: {}",
        &out[out.len().saturating_sub(300)..]
    );
    repl.line("exit");
    assert_eq!(repl.wait(), 0);
}
