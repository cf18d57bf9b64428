//! CSV as Python 3's `csv` module writes and reads it with the dialect cqlsh builds from
//! DELIMITER, QUOTE and ESCAPE: minimal quoting, `\r\n` after every row, the escape
//! character before a quote inside a field (or doubled quotes when QUOTE equals ESCAPE),
//! and a reader that is not strict (a stray quote inside a field is kept as text).

/// The writer and reader settings (`csv.Dialect`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Dialect {
    /// DELIMITER.
    pub delimiter: char,
    /// QUOTE.
    pub quote: char,
    /// ESCAPE, unless it equals QUOTE (then quotes are doubled instead).
    pub escape: Option<char>,
}

/// Python's `csv.field_size_limit()` default: a longer field fails the whole read.
const FIELD_LIMIT: usize = 131_072;

impl Dialect {
    /// Appends one row, with Python's `\r\n` line terminator.
    pub(super) fn write_row<S: AsRef<str>>(&self, fields: &[S], out: &mut String) {
        let start = out.len();
        for (i, field) in fields.iter().enumerate() {
            if i > 0 {
                out.push(self.delimiter);
            }
            self.write_field(field.as_ref(), out);
        }
        if out.len() == start && !fields.is_empty() {
            // A row of one empty field is written `""` so it reads back as a field.
            out.push(self.quote);
            out.push(self.quote);
        }
        out.push_str("\r\n");
    }

    /// One field, quoted when it holds the delimiter, the quote or a line break.
    fn write_field(&self, field: &str, out: &mut String) {
        let mut quoted = false;
        let mut body = String::with_capacity(field.len());
        for c in field.chars() {
            let special = c == self.delimiter
                || c == self.quote
                || Some(c) == self.escape
                || c == '\r'
                || c == '\n';
            if special {
                let escape = (c == self.quote || Some(c) == self.escape)
                    .then_some(self.escape)
                    .flatten();
                match escape {
                    Some(e) => body.push(e),
                    None if c == self.quote => {
                        body.push(c);
                        quoted = true;
                    }
                    None => quoted = true,
                }
            }
            body.push(c);
        }
        if quoted {
            out.push(self.quote);
            out.push_str(&body);
            out.push(self.quote);
        } else {
            out.push_str(&body);
        }
    }

    /// Reads the records of `lines` (each with its `\n`, as Python iterates a file opened
    /// in text mode). A quoted field may span lines; an empty line is a record with no
    /// fields. Fails, as Python does, on a field longer than 131072 characters.
    pub(super) fn read_records<S: AsRef<str>>(
        &self,
        lines: &[S],
    ) -> Result<Vec<Vec<String>>, String> {
        let mut parser = Parser::new(self);
        let mut records = Vec::with_capacity(lines.len());
        for line in lines {
            for c in line.as_ref().chars() {
                parser.char(c)?;
            }
            parser.end_of_line();
            if parser.state == State::StartRecord {
                records.push(std::mem::take(&mut parser.fields));
            }
        }
        // At the end of input a record still open is kept only if a field is pending.
        if !parser.field.is_empty() || parser.state == State::InQuotedField {
            parser.save_field();
            records.push(parser.fields);
        }
        Ok(records)
    }
}

/// The states of CPython's `_csv.c` reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    StartRecord,
    StartField,
    EscapedChar,
    /// After an escaped line break: the record goes on past the end of the line.
    AfterEscapedCrnl,
    InField,
    InQuotedField,
    EscapeInQuotedField,
    QuoteInQuotedField,
    EatCrnl,
}

struct Parser<'a> {
    dialect: &'a Dialect,
    state: State,
    field: String,
    field_len: usize,
    fields: Vec<String>,
}

impl Parser<'_> {
    fn new(dialect: &Dialect) -> Parser<'_> {
        Parser {
            dialect,
            state: State::StartRecord,
            field: String::new(),
            field_len: 0,
            fields: Vec::new(),
        }
    }

    fn add(&mut self, c: char) -> Result<(), String> {
        if self.field_len >= FIELD_LIMIT {
            return Err(format!("field larger than field limit ({FIELD_LIMIT})"));
        }
        self.field.push(c);
        self.field_len += 1;
        Ok(())
    }

    fn save_field(&mut self) {
        self.fields.push(std::mem::take(&mut self.field));
        self.field_len = 0;
    }

    /// The end of a field at a line break.
    fn end_field_at_newline(&mut self) {
        self.save_field();
        self.state = State::EatCrnl;
    }

    fn char(&mut self, c: char) -> Result<(), String> {
        let d = self.dialect;
        let newline = c == '\n' || c == '\r';
        match self.state {
            State::StartRecord if newline => self.state = State::EatCrnl,
            State::StartRecord | State::StartField => {
                self.state = State::StartField;
                if newline {
                    self.end_field_at_newline();
                } else if c == d.quote {
                    self.state = State::InQuotedField;
                } else if Some(c) == d.escape {
                    self.state = State::EscapedChar;
                } else if c == d.delimiter {
                    self.save_field();
                } else {
                    self.add(c)?;
                    self.state = State::InField;
                }
            }
            State::EscapedChar => {
                self.add(c)?;
                self.state = if newline {
                    State::AfterEscapedCrnl
                } else {
                    State::InField
                };
            }
            State::InField | State::AfterEscapedCrnl => {
                if newline {
                    self.end_field_at_newline();
                } else if Some(c) == d.escape {
                    self.state = State::EscapedChar;
                } else if c == d.delimiter {
                    self.save_field();
                    self.state = State::StartField;
                } else {
                    self.add(c)?;
                }
            }
            State::InQuotedField => {
                if Some(c) == d.escape {
                    self.state = State::EscapeInQuotedField;
                } else if c == d.quote {
                    self.state = if d.escape.is_none() {
                        State::QuoteInQuotedField
                    } else {
                        State::InField
                    };
                } else {
                    self.add(c)?;
                }
            }
            State::EscapeInQuotedField => {
                self.add(c)?;
                self.state = State::InQuotedField;
            }
            State::QuoteInQuotedField => {
                if c == d.quote {
                    self.add(c)?;
                    self.state = State::InQuotedField;
                } else if c == d.delimiter {
                    self.save_field();
                    self.state = State::StartField;
                } else if newline {
                    self.end_field_at_newline();
                } else {
                    self.add(c)?;
                    self.state = State::InField;
                }
            }
            State::EatCrnl if newline => {}
            State::EatCrnl => return Err("new-line character seen in unquoted field".into()),
        }
        Ok(())
    }

    /// The end of one line of input (CPython's `EOL` pseudo-character).
    fn end_of_line(&mut self) {
        match self.state {
            State::StartRecord | State::EatCrnl => self.state = State::StartRecord,
            State::StartField | State::InField | State::QuoteInQuotedField => {
                self.save_field();
                self.state = State::StartRecord;
            }
            State::EscapedChar => {
                self.field.push('\n');
                self.state = State::InField;
            }
            State::EscapeInQuotedField => {
                self.field.push('\n');
                self.state = State::InQuotedField;
            }
            State::InQuotedField | State::AfterEscapedCrnl => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cqlsh() -> Dialect {
        Dialect {
            delimiter: ',',
            quote: '"',
            escape: Some('\\'),
        }
    }

    fn write(dialect: &Dialect, rows: &[&[&str]]) -> String {
        let mut out = String::new();
        for row in rows {
            dialect.write_row(row, &mut out);
        }
        out
    }

    #[test]
    fn writes_as_python_does() {
        // Checked against Python 3.11's csv.writer with cqlsh's dialect.
        let text = write(
            &cqlsh(),
            &[
                &[""],
                &["a\"b"],
                &["", ""],
                &[" a", "b\rc"],
                &["x|y"],
                &["a\\b,c"],
            ],
        );
        assert_eq!(
            text,
            "\"\"\r\na\\\"b\r\n,\r\n a,\"b\rc\"\r\nx|y\r\n\"a\\\\b,c\"\r\n"
        );
        let doubled = Dialect {
            escape: None,
            ..cqlsh()
        };
        assert_eq!(write(&doubled, &[&["a\"b", "c\\d"]]), "\"a\"\"b\",c\\d\r\n");
    }

    #[test]
    fn reads_as_python_does() {
        let lines = ["a,\"b\n", "c\"d,e\n", "\n", "x\\,y,\"q\\\"z\"\n"];
        let records = cqlsh().read_records(&lines).expect("reads");
        assert_eq!(
            records,
            vec![
                vec!["a".to_string(), "b\ncd".into(), "e".into()],
                vec![],
                vec!["x,y".into(), "q\"z".into()],
            ]
        );
        let escaped_break = cqlsh().read_records(&["0,b\\\n", "1\n"]).expect("reads");
        assert_eq!(escaped_break, vec![vec!["0".to_string(), "b\n1".into()]]);
        let last = cqlsh().read_records(&["1,2"]).expect("reads");
        assert_eq!(last, vec![vec!["1".to_string(), "2".into()]]);
    }

    #[test]
    fn written_rows_read_back() {
        let fields = [
            "plain",
            "with,comma",
            "quote\"d",
            "back\\slash",
            "",
            "line\nbreak",
        ];
        let mut out = String::new();
        cqlsh().write_row(&fields, &mut out);
        let lines: Vec<String> = out.split_inclusive('\n').map(str::to_string).collect();
        let records = cqlsh().read_records(&lines).expect("reads");
        assert_eq!(records.len(), 1);
        let expected: Vec<String> = fields.iter().map(|s| s.to_string()).collect();
        assert_eq!(records[0], expected);
    }

    #[test]
    fn overlong_fields_fail() {
        let line = format!("{}\n", "x".repeat(FIELD_LIMIT + 1));
        assert_eq!(
            cqlsh().read_records(&[line]),
            Err("field larger than field limit (131072)".into())
        );
    }
}
