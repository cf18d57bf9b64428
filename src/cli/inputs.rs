//! Where statements come from: files, standard input, or `-e` text. Each
//! is read as a stream of statements, never held whole.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor};
use std::path::Path;

use widerow::syntax::encoding::open_script;
use widerow::StatementSplitter;

/// A named source of CQL text.
pub struct Input {
    /// How messages name it: the path, or `<stdin>`.
    pub name: String,
    /// A file on disk, not standard input or `-e` text: nothing waits for the
    /// answer to one statement before sending the next.
    pub is_file: bool,
    reader: Box<dyn BufRead>,
}

impl Input {
    /// Opens `path`; `-` is standard input. A directory or a missing file is
    /// an error naming the path.
    pub fn open(path: &Path) -> Result<Input, String> {
        if path == Path::new("-") {
            return Ok(Input::stdin());
        }
        let name = path.display().to_string();
        if path.is_dir() {
            return Err(format!("{name}: is a directory"));
        }
        let reason = |e: io::Error| format!("{name}: {}", io_reason(&e));
        let file = File::open(path).map_err(reason)?;
        let reader = open_script(file).map_err(reason)?;
        Ok(Input {
            name,
            is_file: true,
            reader,
        })
    }

    /// Standard input.
    pub fn stdin() -> Input {
        Input {
            name: "<stdin>".into(),
            is_file: false,
            reader: Box::new(BufReader::new(io::stdin())),
        }
    }

    /// Statements given with `-e`.
    pub fn text(text: &str) -> Input {
        Input {
            name: "<stdin>".into(),
            is_file: false,
            reader: Box::new(Cursor::new(text.as_bytes().to_vec())),
        }
    }

    /// The statements, one at a time.
    pub fn statements(self) -> StatementSplitter<Box<dyn BufRead>> {
        StatementSplitter::new(self.reader)
    }
}

/// The operating system's reason without Rust's "(os error 2)" suffix.
fn io_reason(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::NotFound => "No such file or directory".into(),
        io::ErrorKind::PermissionDenied => "Permission denied".into(),
        _ => error.to_string(),
    }
}
