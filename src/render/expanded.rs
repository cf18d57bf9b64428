//! cqlsh's expanded layout (EXPAND ON), byte for byte: `print_formatted_result_vertically`
//! inside the same page driver as the table (reference: cqlsh.md §3.2).
//!
//! Each row is a block: `@ Row n` (numbered across pages), a separator as wide as the
//! widest column name and the widest value of the page, then one `name | value` line per
//! column, then a blank line. A result without rows prints the table's header instead.

use std::fmt::Write;

use crate::exec::ResultSet;

use super::cells::{dashes, Cells};
use super::table::{render_pages, PageContext, TableOptions};

/// The whole expanded output of `result`, as cqlsh prints it with `EXPAND ON` and
/// `options` (pages joined without a pause).
pub fn expanded(result: &ResultSet, options: &TableOptions) -> String {
    expanded_pages(result, options).concat()
}

/// The expanded output of `result` in chunks, an interactive shell pausing with
/// `---MORE---` between them (see [`super::table_pages`]).
pub fn expanded_pages(result: &ResultSet, options: &TableOptions) -> Vec<String> {
    render_pages(result, options, vertical_page)
}

/// One page of row blocks; the widths are the page's, the numbering continues.
fn vertical_page(names: &Cells, rows: &Cells, context: &PageContext, out: &mut String) {
    let name_width = names.max_width();
    let mut separator = String::from("-");
    dashes(name_width, &mut separator);
    separator.push_str("-+-");
    dashes(rows.max_width(), &mut separator);
    separator.push_str("-\n");
    let columns = names.columns();
    for row in 0..rows.rows() {
        let _ = writeln!(out, "@ Row {}", context.row_offset + row + 1);
        out.push_str(&separator);
        for column in 0..columns {
            out.push(' ');
            names.ljust(0, column, name_width, out);
            out.push_str(" | ");
            out.push_str(rows.text(row, column));
            out.push('\n');
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::samples::*;
    use crate::syntax::ast::NativeType;

    fn batch(result: &ResultSet) -> String {
        expanded(result, &TableOptions::batch())
    }

    /// cqlsh.md §3.2's sample (batch), both rows in full: the reference elides the
    /// second row's tail, which follows the same rule.
    #[test]
    fn wide_rows_match_the_reference() {
        let out = batch(&wide());
        let first = concat!(
            "\n",
            "@ Row 1\n",
            "-------+--------------------------------------\n",
            " id    | 1\n",
            " name  | Alice\n",
            " ts    | 2025-06-01 08:00:00.000000+0000\n",
            " ok    | True\n",
            " data  | 0xcafe\n",
            " tags  | {'x', 'y'}\n",
            " attrs | {'a': 1, 'b': 2}\n",
            " nums  | [1, 2]\n",
            " score | 3.5\n",
            " uid   | 123e4567-e89b-12d3-a456-426614174000\n",
            "\n",
            "@ Row 2\n",
            "-------+--------------------------------------\n",
            " id    | 2\n",
            " name  | O'Brien\n",
            " ts    | null\n",
        );
        assert!(out.starts_with(first), "{out}");
        assert!(out.ends_with(" uid   | null\n\n\n(2 rows)\n"), "{out}");
        insta::assert_snapshot!("wide_batch", marked(&out));
    }

    /// Interactive mode prints `(N rows)` right after the last block.
    #[test]
    fn interactive_has_one_blank_line_before_the_footer() {
        let out = expanded(&three_rows(), &TableOptions::interactive());
        assert!(out.ends_with(" score | 1.2346e+06\n\n(3 rows)\n"), "{out}");
        insta::assert_snapshot!("three_rows_interactive", marked(&out));
    }

    /// With zero rows the horizontal header is printed (cqlsh.md §3.2).
    #[test]
    fn empty_result_prints_the_horizontal_header() {
        assert_eq!(batch(&empty()), "\n k | v\n---+---\n\n\n(0 rows)\n");
        let interactive = expanded(&empty(), &TableOptions::interactive());
        assert_eq!(interactive, "\n k | v\n---+---\n\n(0 rows)\n");
    }

    /// Rows are numbered across pages; each page has its own value width.
    #[test]
    fn pages_number_rows_continuously() {
        let options = TableOptions::batch().with_page_size(Some(2));
        let out = expanded(&numbered(3), &options);
        let expected = concat!(
            "\n@ Row 1\n---+----\n k | 1\n v | v\n\n",
            "@ Row 2\n---+----\n k | 2\n v | vv\n\n",
            "@ Row 3\n---+-----\n k | 3\n v | vvv\n\n",
            "\n(3 rows)\n",
        );
        assert_eq!(out, expected);
        assert_eq!(expanded_pages(&numbered(3), &options).len(), 2);
    }

    /// A conditional write has no footer; its warnings still follow.
    #[test]
    fn conditional_writes_and_warnings() {
        let mut lwt = lwt_applied();
        lwt.warnings = vec!["w".into()];
        assert_eq!(
            batch(&lwt),
            "\n@ Row 1\n-----------+------\n [applied] | True\n\n\nWarnings :\nw\n\n"
        );
        let count = batch(&count_with_warning());
        assert!(count.starts_with("\n@ Row 1\n-------+---\n count | 3\n\n\n(1 rows)\n"));
    }

    /// Values are left-aligned and not padded, an empty value leaving `| ` at the end.
    #[test]
    fn values_are_not_padded() {
        let r = result(
            &[
                ("a", native(NativeType::Text)),
                ("bb", native(NativeType::Text)),
            ],
            vec![vec![text(""), text("日本")]],
        );
        assert_eq!(
            batch(&r),
            "\n@ Row 1\n----+------\n a  | \n bb | 日本\n\n\n(1 rows)\n"
        );
    }
}
