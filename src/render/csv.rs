//! `--format csv` (DESIGN.md, "Contracts other tools rely on"): a header row, values as
//! cqlsh displays them, null as an empty field, RFC 4180 quoting. One block per
//! statement; the caller separates blocks with a blank line.
//!
//! Lines end with `\n`, like every other line widerow writes to standard output; a field
//! holding a line break is quoted, so readers still split records correctly.

use std::borrow::Cow;

use crate::exec::{ResultKind, ResultSet};
use crate::types::Value;

/// The CSV block of `result`: the header row and one line per row, each ending with
/// `\n`. A statement without rows ([`ResultKind::Ok`]) has no block: the result is empty,
/// and the caller writes no separator for it. Warnings are not part of CSV; print them
/// apart (e.g. with [`super::warnings_block`] on standard error).
pub fn csv(result: &ResultSet) -> String {
    if result.kind == ResultKind::Ok {
        return String::new();
    }
    let mut out = String::new();
    for (i, column) in result.columns.iter().enumerate() {
        push_separator(i, &mut out);
        push_field(&column.name, &mut out);
    }
    out.push('\n');
    // Each value is formatted into one reused buffer, then quoted into the block.
    let mut field = String::new();
    for row in &result.rows {
        for (i, (value, column)) in row.iter().zip(result.columns.iter()).enumerate() {
            push_separator(i, &mut out);
            if !matches!(value, Value::Null) {
                field.clear();
                value.push_cqlsh_display(&column.data_type, &mut field);
                push_field(&field, &mut out);
            }
        }
        out.push('\n');
    }
    out
}

/// One field as RFC 4180 writes it: quoted when it holds `,`, `"`, CR or LF, with its
/// quotes doubled; as is otherwise. Public for other CSV writers of the project.
pub fn csv_field(field: &str) -> Cow<'_, str> {
    if needs_quotes(field) {
        let mut quoted = String::with_capacity(field.len() + 2);
        push_field(field, &mut quoted);
        Cow::Owned(quoted)
    } else {
        Cow::Borrowed(field)
    }
}

fn needs_quotes(field: &str) -> bool {
    field.contains([',', '"', '\r', '\n'])
}

/// [`csv_field`] appended to `out`.
fn push_field(field: &str, out: &mut String) {
    if !needs_quotes(field) {
        return out.push_str(field);
    }
    out.push('"');
    for (i, part) in field.split('"').enumerate() {
        if i > 0 {
            out.push_str("\"\"");
        }
        out.push_str(part);
    }
    out.push('"');
}

/// The `,` before every field but a record's first.
fn push_separator(index: usize, out: &mut String) {
    if index > 0 {
        out.push(',');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::samples::*;
    use crate::syntax::ast::NativeType;

    #[test]
    fn quoting_follows_rfc_4180() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field(""), "");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("two\nlines"), "\"two\nlines\"");
        assert_eq!(csv_field("cr\r"), "\"cr\r\"");
        assert_eq!(csv_field(" spaced '"), " spaced '");
    }

    #[test]
    fn three_rows() {
        let out = csv(&super::super::samples::three_rows());
        assert_eq!(
            out,
            "id,name,score\n1,Alice,3.5\n42,Bob,\n-7,O'Hara ünï,1.2346e+06\n"
        );
    }

    /// Values are cqlsh's display text (collections quoted as cqlsh shows them), null empty.
    #[test]
    fn wide_rows_use_cqlsh_display() {
        let out = csv(&wide());
        insta::assert_snapshot!("wide_csv", out);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "id,name,ts,ok,data,tags,attrs,nums,score,uid");
        assert_eq!(
            lines[1],
            "1,Alice,2025-06-01 08:00:00.000000+0000,True,0xcafe,\"{'x', 'y'}\",\"{'a': 1, 'b': 2}\",\"[1, 2]\",3.5,123e4567-e89b-12d3-a456-426614174000"
        );
        assert_eq!(lines[2], "2,O'Brien,,False,0x,,,,0.1,");
    }

    #[test]
    fn empty_and_ok_results() {
        assert_eq!(csv(&empty()), "k,v\n");
        assert_eq!(csv(&crate::exec::ResultSet::ok()), "");
        let header = result(&[("a,b", native(NativeType::Int))], Vec::new());
        assert_eq!(csv(&header), "\"a,b\"\n");
    }
}
