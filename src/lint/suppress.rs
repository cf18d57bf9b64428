//! Inline suppressions: `-- widerow: ignore[rule-name] reason` silences a
//! rule for the next statement, `-- widerow: ignore-file[rule-name]` for the
//! whole file. A suppression that silences nothing is itself reported
//! (`unused-suppression`), so stale ones do not pile up.

use crate::syntax::lexer::{Lexer, TokenKind};

/// One suppression comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suppression {
    /// The file it is in.
    pub file: String,
    /// Rule names or codes it names.
    pub rules: Vec<String>,
    /// Whether it covers the whole file.
    pub whole_file: bool,
    /// Line of the comment.
    pub line: usize,
    /// Byte range of the comment in the file.
    pub span: (usize, usize),
    /// First line of the statement it covers (for `ignore`).
    pub statement_line: Option<usize>,
    /// Whether it silenced at least one finding.
    pub used: bool,
}

/// All suppressions read so far.
#[derive(Debug, Clone, Default)]
pub struct Suppressions {
    items: Vec<Suppression>,
}

const PREFIX: &str = "widerow:";

/// Parses `ignore[a, b] reason` / `ignore-file[a]` after `widerow:`.
fn parse_directive(body: &str) -> Option<(bool, Vec<String>)> {
    let body = body.trim();
    let (whole_file, rest) = if let Some(rest) = body.strip_prefix("ignore-file[") {
        (true, rest)
    } else if let Some(rest) = body.strip_prefix("ignore[") {
        (false, rest)
    } else {
        return None;
    };
    let (list, _reason) = rest.split_once(']')?;
    let rules = list
        .split(',')
        .map(|r| r.trim().to_string())
        .filter(|r| !r.is_empty())
        .collect();
    Some((whole_file, rules))
}

impl Suppressions {
    /// Reads the suppression comments of `text` (file `file`); each
    /// `ignore` covers the first statement that starts after it, given as
    /// `statement_starts` (line, byte offset) in file order.
    pub fn read(&mut self, file: &str, text: &str, statement_starts: &[(usize, usize)]) {
        if !text.contains(PREFIX) {
            return;
        }
        for token in Lexer::new(text).filter(|t| t.kind == TokenKind::LineComment) {
            let comment = token.text(text);
            let body = comment.trim_start_matches(['-', '/']).trim_start();
            let Some(directive) = body.strip_prefix(PREFIX) else {
                continue;
            };
            let Some((whole_file, rules)) = parse_directive(directive) else {
                continue;
            };
            let line = text[..token.span.start]
                .bytes()
                .filter(|&b| b == b'\n')
                .count()
                + 1;
            let statement_line = statement_starts
                .iter()
                .find(|(_, offset)| *offset > token.span.start)
                .map(|(line, _)| *line);
            self.items.push(Suppression {
                file: file.to_string(),
                rules,
                whole_file,
                line,
                span: (token.span.start, token.span.end),
                statement_line,
                used: false,
            });
        }
    }

    /// Whether a finding of `rule` (name or code) on the statement starting
    /// at `statement_line` of `file` is silenced; marks the suppression used.
    pub fn silences(&mut self, file: &str, statement_line: usize, name: &str, code: &str) -> bool {
        let mut silenced = false;
        for s in &mut self.items {
            let names_it = s
                .rules
                .iter()
                .any(|r| r == name || r.eq_ignore_ascii_case(code));
            let covers =
                s.file == file && (s.whole_file || s.statement_line == Some(statement_line));
            if names_it && covers {
                s.used = true;
                silenced = true;
            }
        }
        silenced
    }

    /// Suppressions that silenced nothing.
    pub fn unused(&self) -> impl Iterator<Item = &Suppression> + '_ {
        self.items.iter().filter(|s| !s.used)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_forms_and_tracks_use() {
        let text = "-- widerow: ignore-file[q1]\n-- widerow: ignore[allow-filtering, Q002] a reason\nSELECT 1 FROM t;\n";
        let mut s = Suppressions::default();
        s.read("f.cql", text, &[(3, text.find("SELECT").unwrap_or(0))]);
        assert!(s.silences("f.cql", 3, "allow-filtering", "Q003"));
        assert!(s.silences("f.cql", 9, "x", "Q1"));
        assert!(!s.silences("g.cql", 3, "allow-filtering", "Q003"));
        assert_eq!(s.unused().count(), 0);
    }
}
