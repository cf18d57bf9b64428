//! cqlsh's table layout (EXPAND OFF), byte for byte: `cqlsh.py`'s `print_result`,
//! `print_static_result` and `print_formatted_result` (reference: cqlsh.md §3.1, §3.3,
//! §3.4).
//!
//! The page driver here (`render_pages`) is shared with the expanded layout, because
//! everything around the rows — the leading blank line, paging, the `(N rows)` footer,
//! its absence for a conditional write, the warnings — is the same in both.

use crate::exec::{ResultKind, ResultSet};

use super::cells::{dashes, Cells};

/// cqlsh's default page size (`PAGING ON` fetches 100 rows at a time), so batch output
/// matches cqlsh's per-page column widths without configuration.
pub const DEFAULT_PAGE_SIZE: usize = 100;

/// How cqlsh would print a result: the mode it runs in and its paging. Shared by the
/// table and expanded layouts, which differ between modes in the same places.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableOptions {
    /// Interactive (a terminal) rather than batch (`-f`, `-e`, piped input): repeats the
    /// header on every page, ends each page with a blank line, and puts one blank line
    /// rather than two before `(0 rows)`.
    pub interactive: bool,
    /// Rows per page (cqlsh computes column widths per page); `None` is `PAGING OFF`,
    /// one page however many rows there are.
    pub page_size: Option<usize>,
}

impl TableOptions {
    /// Batch mode with cqlsh's default paging: what `widerow -f` prints.
    pub fn batch() -> TableOptions {
        TableOptions {
            interactive: false,
            page_size: Some(DEFAULT_PAGE_SIZE),
        }
    }

    /// Interactive mode with cqlsh's default paging: what the REPL prints.
    pub fn interactive() -> TableOptions {
        TableOptions {
            interactive: true,
            ..TableOptions::batch()
        }
    }

    /// The same options with another page size (`None`: `PAGING OFF`), for `PAGING n`.
    pub fn with_page_size(self, page_size: Option<usize>) -> TableOptions {
        TableOptions { page_size, ..self }
    }
}

impl Default for TableOptions {
    /// Batch mode, as the command line prints.
    fn default() -> TableOptions {
        TableOptions::batch()
    }
}

/// The whole table output of `result`, as cqlsh prints it with `options` (the pages
/// joined without a pause, as cqlsh does in batch mode or while capturing).
pub fn table(result: &ResultSet, options: &TableOptions) -> String {
    table_pages(result, options).concat()
}

/// The table output of `result` in chunks: an interactive shell prints a chunk, then
/// pauses with cqlsh's `---MORE---` prompt before the next one. Joined, the chunks are
/// [`table`]'s output. A statement that prints nothing gives no chunk.
pub fn table_pages(result: &ResultSet, options: &TableOptions) -> Vec<String> {
    render_pages(result, options, table_page)
}

/// Whether `result` is a conditional (LWT) write's answer, whose first column is
/// `[applied]`: cqlsh prints it without the `(N rows)` footer (cqlsh.md §3.3).
pub fn is_conditional(result: &ResultSet) -> bool {
    result.kind == ResultKind::Rows
        && result
            .columns
            .first()
            .is_some_and(|c| c.name == "[applied]")
}

/// cqlsh's warnings block (cqlsh.md §3.4): a blank line, `Warnings :`, then each
/// warning followed by a blank line; nothing without warnings. Public so a caller that
/// prints results another way (CSV) can still show the warnings as cqlsh does.
pub fn warnings_block(warnings: &[String]) -> String {
    titled_block("Warnings :", warnings)
}

/// widerow's own notes (large or hot partitions, data centres added to the
/// ring), printed after cqlsh's warnings block in the same shape under
/// `Notes :`, so they are never mistaken for what Cassandra said.
pub fn notes_block(notes: &[String]) -> String {
    titled_block("Notes :", notes)
}

/// The warnings, then the notes, of a result.
fn advice(result: &ResultSet) -> String {
    warnings_block(&result.warnings) + &notes_block(&result.notes)
}

fn titled_block(title: &str, lines: &[String]) -> String {
    if lines.is_empty() {
        return String::new();
    }
    let mut out = format!("\n{title}\n");
    for line in lines {
        out.push_str(line);
        out.push_str("\n\n");
    }
    out
}

/// Where a page sits in the output, for the page printer.
pub(crate) struct PageContext {
    /// Print the header (first page, every page interactively, a conditional write).
    pub(crate) with_header: bool,
    /// Interactive mode.
    pub(crate) interactive: bool,
    /// Rows printed by earlier pages (the expanded layout numbers rows across pages).
    pub(crate) row_offset: usize,
}

/// Prints one non-empty page of formatted rows under the column names.
pub(crate) type PagePrinter = fn(&Cells, &Cells, &PageContext, &mut String);

/// cqlsh's `print_result` / CAS branch around a page printer: leading blank line,
/// pages, footer, warnings; the header alone for an empty result. Chunks as in
/// [`table_pages`].
pub(crate) fn render_pages(
    result: &ResultSet,
    options: &TableOptions,
    page: PagePrinter,
) -> Vec<String> {
    if result.kind == ResultKind::Ok {
        let warnings = advice(result);
        return if warnings.is_empty() {
            Vec::new()
        } else {
            vec![warnings]
        };
    }
    let names = Cells::headers(result.columns.iter().map(|c| c.name.as_str()));
    let mut out = String::from("\n");
    if result.rows.is_empty() {
        header_only(&names, &mut out);
    }
    let size = if is_conditional(result) {
        // The CAS branch prints the rows it has, as one page, with no footer.
        usize::MAX
    } else {
        options.page_size.unwrap_or(usize::MAX).max(1)
    };
    let mut cells = Cells::new(result.columns.len());
    let mut chunks = Vec::new();
    let mut rows = result.rows.iter().peekable();
    let mut row_offset = 0;
    while rows.peek().is_some() {
        if row_offset > 0 {
            chunks.push(std::mem::take(&mut out));
        }
        cells.clear();
        let mut taken = 0;
        for row in rows.by_ref().take(size) {
            cells.push_row(row, result.columns.iter().map(|c| &c.data_type));
            taken += 1;
        }
        let context = PageContext {
            with_header: row_offset == 0 || options.interactive || is_conditional(result),
            interactive: options.interactive,
            row_offset,
        };
        page(&names, &cells, &context, &mut out);
        row_offset += taken;
    }
    if !is_conditional(result) {
        if !options.interactive {
            out.push('\n');
        }
        out.push_str(&format!("({} rows)\n", result.rows.len()));
    }
    out.push_str(&advice(result));
    chunks.push(out);
    chunks
}

/// An empty result: header, separator and a blank line, in both layouts.
fn header_only(names: &Cells, out: &mut String) {
    header(names, &names.column_widths(), out);
    out.push('\n');
}

/// `' ' + ' | '.join(ljust)` right-stripped, then `'-' + '-+-'.join(dashes) + '-'`.
fn header(names: &Cells, widths: &[usize], out: &mut String) {
    let start = out.len();
    out.push(' ');
    for (i, &width) in widths.iter().enumerate() {
        if i > 0 {
            out.push_str(" | ");
        }
        names.ljust(0, i, width, out);
    }
    out.truncate(start + out[start..].trim_end().len());
    out.push_str("\n-");
    for (i, &width) in widths.iter().enumerate() {
        if i > 0 {
            out.push_str("-+-");
        }
        dashes(width, out);
    }
    out.push_str("-\n");
}

/// `print_formatted_result`: widths from this page, every value right-justified.
fn table_page(names: &Cells, rows: &Cells, context: &PageContext, out: &mut String) {
    let mut widths = names.column_widths();
    for (width, widest) in widths.iter_mut().zip(rows.column_widths()) {
        *width = (*width).max(widest);
    }
    if context.with_header {
        header(names, &widths, out);
    }
    let line: usize = 2 + widths.iter().sum::<usize>() + 3 * widths.len().saturating_sub(1);
    // Padding never exceeds a cell's width, so this bounds the page's bytes.
    out.reserve(rows.rows() * line + rows.text_len());
    for row in 0..rows.rows() {
        out.push(' ');
        for (i, &width) in widths.iter().enumerate() {
            if i > 0 {
                out.push_str(" | ");
            }
            rows.rjust(row, i, width, out);
        }
        out.push('\n');
    }
    if context.interactive {
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::samples::*;
    use crate::syntax::ast::NativeType;
    use crate::types::{DataType, Value};

    fn batch(result: &ResultSet) -> String {
        table(result, &TableOptions::batch())
    }

    fn interactive(result: &ResultSet) -> String {
        table(result, &TableOptions::interactive())
    }

    /// cqlsh.md §3.1, the 3-row sample (batch).
    #[test]
    fn three_rows_match_the_reference() {
        let expected = "\n id | name       | score\n----+------------+------------\n  1 |      Alice |        3.5\n 42 |        Bob |       null\n -7 | O'Hara ünï | 1.2346e+06\n\n(3 rows)\n";
        assert_eq!(batch(&three_rows()), expected);
        insta::assert_snapshot!("three_rows_batch", marked(&batch(&three_rows())));
    }

    /// cqlsh.md §3.1, the wider sample: every value right-justified, rows not stripped.
    #[test]
    fn wide_rows_match_the_reference() {
        let expected = concat!(
            "\n",
            " id | name    | ts                              | ok    | data   | tags       | attrs            | nums   | score | uid\n",
            "----+---------+---------------------------------+-------+--------+------------+------------------+--------+-------+--------------------------------------\n",
            "  1 |   Alice | 2025-06-01 08:00:00.000000+0000 |  True | 0xcafe | {'x', 'y'} | {'a': 1, 'b': 2} | [1, 2] |   3.5 | 123e4567-e89b-12d3-a456-426614174000\n",
            "  2 | O'Brien |                            null | False |     0x |       null |             null |   null |   0.1 |                                 null\n",
            "\n",
            "(2 rows)\n",
        );
        assert_eq!(batch(&wide()), expected);
        insta::assert_snapshot!("wide_batch", marked(&batch(&wide())));
    }

    /// cqlsh.md §3.1 (count) and §3.4 (warnings after the result).
    #[test]
    fn count_and_warnings_match_the_reference() {
        let expected = "\n count\n-------\n     3\n\n(1 rows)\n\nWarnings :\nAggregation query used without partition key\n\n";
        assert_eq!(batch(&count_with_warning()), expected);
        insta::assert_snapshot!(
            "count_warnings_batch",
            marked(&batch(&count_with_warning()))
        );
    }

    /// cqlsh.md §3.1: two blank lines before `(0 rows)` in batch mode, one interactively.
    #[test]
    fn empty_result_prints_the_header() {
        assert_eq!(batch(&empty()), "\n k | v\n---+---\n\n\n(0 rows)\n");
        assert_eq!(interactive(&empty()), "\n k | v\n---+---\n\n(0 rows)\n");
        insta::assert_snapshot!("empty_batch", marked(&batch(&empty())));
    }

    /// cqlsh.md §3.3: no footer for a conditional write; interactive adds a blank line.
    #[test]
    fn conditional_writes_have_no_footer() {
        assert!(is_conditional(&lwt_applied()));
        assert!(!is_conditional(&three_rows()));
        assert_eq!(
            batch(&lwt_applied()),
            "\n [applied]\n-----------\n      True\n"
        );
        assert_eq!(
            interactive(&lwt_applied()),
            "\n [applied]\n-----------\n      True\n\n"
        );
        let expected = "\n [applied] | id | name  | score\n-----------+----+-------+-------\n     False |  1 | Alice |   3.5\n";
        assert_eq!(batch(&lwt_not_applied()), expected);
        insta::assert_snapshot!("lwt_batch", marked(&batch(&lwt_not_applied())));
    }

    #[test]
    fn ok_results_print_only_warnings() {
        assert_eq!(batch(&ResultSet::ok()), "");
        assert!(table_pages(&ResultSet::ok(), &TableOptions::batch()).is_empty());
        let mut ok = ResultSet::ok();
        ok.warnings = vec!["a".into(), "b".into()];
        assert_eq!(batch(&ok), "\nWarnings :\na\n\nb\n\n");
    }

    /// cqlsh.md §3.1 paging: batch prints the header once and no blank line between
    /// pages; widths are per page; `(N rows)` counts every page.
    #[test]
    fn batch_pages_share_one_header() {
        let options = TableOptions::batch().with_page_size(Some(2));
        let out = table(&numbered(3), &options);
        assert_eq!(
            out,
            "\n k | v\n---+----\n 1 |  v\n 2 | vv\n 3 | vvv\n\n(3 rows)\n"
        );
        assert_eq!(table_pages(&numbered(3), &options).len(), 2);
        let one_page = table(&numbered(3), &options.with_page_size(None));
        assert_eq!(
            one_page,
            "\n k | v\n---+-----\n 1 |   v\n 2 |  vv\n 3 | vvv\n\n(3 rows)\n"
        );
    }

    /// Interactive pages repeat the header and end with a blank line; the shell pauses
    /// between chunks.
    #[test]
    fn interactive_pages_repeat_the_header() {
        let options = TableOptions::interactive().with_page_size(Some(2));
        let pages = table_pages(&numbered(3), &options);
        assert_eq!(
            pages,
            vec![
                "\n k | v\n---+----\n 1 |  v\n 2 | vv\n\n".to_string(),
                " k | v\n---+-----\n 3 | vvv\n\n(3 rows)\n".to_string(),
            ]
        );
        insta::assert_snapshot!("paged_interactive", marked(&pages.join("---MORE---\n")));
    }

    /// Display width counts East-Asian wide characters twice; cqlsh's summed width makes
    /// an empty collection 0 wide.
    #[test]
    fn widths_follow_cqlsh() {
        let wide_text = result(
            &[("v", native(NativeType::Text))],
            vec![vec![text("日本")], vec![text("abc")]],
        );
        assert_eq!(
            batch(&wide_text),
            "\n v\n------\n 日本\n  abc\n\n(2 rows)\n"
        );
        let list = DataType::List {
            element: Box::new(native(NativeType::Int)),
            frozen: true,
        };
        let empty_list = result(&[("l", list)], vec![vec![Value::List(Vec::new())]]);
        assert_eq!(batch(&empty_list), "\n l\n---\n  []\n\n(1 rows)\n");
    }

    /// A header is escaped as cqlsh escapes text, and padded after escaping.
    #[test]
    fn headers_are_right_stripped() {
        let r = result(
            &[
                ("a", native(NativeType::Int)),
                ("b", native(NativeType::Text)),
            ],
            vec![vec![Value::Int(1), text("long value")]],
        );
        assert_eq!(
            batch(&r),
            "\n a | b\n---+------------\n 1 | long value\n\n(1 rows)\n"
        );
    }
}
