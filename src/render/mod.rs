//! Result renderers: cqlsh's table and expanded layouts, JSON Lines and CSV.
//! Library code, so tests and embedders print results exactly as the
//! command line does.

mod cells;
pub mod csv;
pub mod expanded;
pub mod json;
pub mod table;

pub use csv::{csv, csv_field};
pub use expanded::{expanded, expanded_pages};
pub use json::{
    error_json, error_record, output_record, result_json, result_record, shell_error_record,
};
pub use table::{
    is_conditional, notes_block, table, table_pages, warnings_block, TableOptions,
    DEFAULT_PAGE_SIZE,
};

/// Results shared by the renderers' tests: the samples of cqlsh.md §3.
#[cfg(test)]
pub(crate) mod samples {
    use crate::exec::{ColumnSpec, ResultSet};
    use crate::syntax::ast::NativeType;
    use crate::types::{DataType, Value};

    pub(crate) fn native(ty: NativeType) -> DataType {
        DataType::Native(ty)
    }

    pub(crate) fn text(s: &str) -> Value {
        Value::Text(s.to_string())
    }

    /// A result with `columns` given as `(name, type)`.
    pub(crate) fn result(columns: &[(&str, DataType)], rows: Vec<Vec<Value>>) -> ResultSet {
        let columns: Vec<ColumnSpec> = columns
            .iter()
            .map(|(name, data_type)| ColumnSpec {
                name: name.to_string(),
                data_type: data_type.clone(),
            })
            .collect();
        ResultSet::rows(columns, rows)
    }

    /// cqlsh.md §3.1's 3-row example.
    pub(crate) fn three_rows() -> ResultSet {
        result(
            &[
                ("id", native(NativeType::Int)),
                ("name", native(NativeType::Text)),
                ("score", native(NativeType::Double)),
            ],
            vec![
                vec![Value::Int(1), text("Alice"), Value::Double(3.5)],
                vec![Value::Int(42), text("Bob"), Value::Null],
                vec![
                    Value::Int(-7),
                    text("O'Hara ünï"),
                    Value::Double(1_234_567.0),
                ],
            ],
        )
    }

    /// cqlsh.md §3.1's wider example (and §3.2's expanded sample).
    pub(crate) fn wide() -> ResultSet {
        let text_type = native(NativeType::Text);
        let int_type = native(NativeType::Int);
        let uid = [
            0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66, 0x14, 0x17,
            0x40, 0x00,
        ];
        result(
            &[
                ("id", int_type.clone()),
                ("name", text_type.clone()),
                ("ts", native(NativeType::Timestamp)),
                ("ok", native(NativeType::Boolean)),
                ("data", native(NativeType::Blob)),
                (
                    "tags",
                    DataType::Set {
                        element: Box::new(text_type.clone()),
                        frozen: false,
                    },
                ),
                (
                    "attrs",
                    DataType::Map {
                        key: Box::new(text_type),
                        value: Box::new(int_type.clone()),
                        frozen: false,
                    },
                ),
                (
                    "nums",
                    DataType::List {
                        element: Box::new(int_type),
                        frozen: false,
                    },
                ),
                ("score", native(NativeType::Double)),
                ("uid", native(NativeType::Uuid)),
            ],
            vec![
                vec![
                    Value::Int(1),
                    text("Alice"),
                    Value::Timestamp(1_748_764_800_000),
                    Value::Boolean(true),
                    Value::Blob(vec![0xca, 0xfe]),
                    Value::Set(vec![text("x"), text("y")]),
                    Value::Map(vec![(text("a"), Value::Int(1)), (text("b"), Value::Int(2))]),
                    Value::List(vec![Value::Int(1), Value::Int(2)]),
                    Value::Double(3.5),
                    Value::Uuid(uid),
                ],
                vec![
                    Value::Int(2),
                    text("O'Brien"),
                    Value::Null,
                    Value::Boolean(false),
                    Value::Blob(Vec::new()),
                    Value::Null,
                    Value::Null,
                    Value::Null,
                    Value::Double(0.1),
                    Value::Null,
                ],
            ],
        )
    }

    /// `SELECT count(*)` with the warning Cassandra attaches without a partition key.
    pub(crate) fn count_with_warning() -> ResultSet {
        let mut result = result(
            &[("count", native(NativeType::Bigint))],
            vec![vec![Value::Bigint(3)]],
        );
        result.warnings = vec!["Aggregation query used without partition key".to_string()];
        result
    }

    /// `k int, v text` without rows.
    pub(crate) fn empty() -> ResultSet {
        result(
            &[
                ("k", native(NativeType::Int)),
                ("v", native(NativeType::Text)),
            ],
            Vec::new(),
        )
    }

    /// A conditional write that applied.
    pub(crate) fn lwt_applied() -> ResultSet {
        result(
            &[("[applied]", native(NativeType::Boolean))],
            vec![vec![Value::Boolean(true)]],
        )
    }

    /// A conditional write that did not apply, with the existing row.
    pub(crate) fn lwt_not_applied() -> ResultSet {
        result(
            &[
                ("[applied]", native(NativeType::Boolean)),
                ("id", native(NativeType::Int)),
                ("name", native(NativeType::Text)),
                ("score", native(NativeType::Double)),
            ],
            vec![vec![
                Value::Boolean(false),
                Value::Int(1),
                text("Alice"),
                Value::Double(3.5),
            ]],
        )
    }

    /// `n` rows of `(k int, v text)`, `v` growing with `k`, for paging.
    pub(crate) fn numbered(n: i32) -> ResultSet {
        let rows = (1..=n)
            .map(|k| vec![Value::Int(k), text(&"v".repeat(k as usize))])
            .collect();
        result(
            &[
                ("k", native(NativeType::Int)),
                ("v", native(NativeType::Text)),
            ],
            rows,
        )
    }

    /// The output with `|` at the end of every line, as cqlsh.md shows samples, so
    /// snapshots keep leading blank lines and trailing spaces visible.
    pub(crate) fn marked(output: &str) -> String {
        output
            .split_inclusive('\n')
            .map(|line| format!("{}|\n", line.strip_suffix('\n').unwrap_or(line)))
            .collect()
    }
}
