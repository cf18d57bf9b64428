//! JSON Lines records of results and errors, the machine output every mode shares
//! (DESIGN.md, "Contracts other tools rely on": one object per statement, in statement
//! order, errors included).
//!
//! Keys are written in the contract's order (`serde_json` keeps insertion order here), and
//! records are compact (`{"line":3,"kind":"rows",…}`), as the rest of the project writes
//! them.

use serde_json::{json, Map, Value as Json};

use crate::error::Error;
use crate::exec::{ResultKind, ResultSet};

/// The record of a statement's result as a JSON object, for callers that add fields or
/// embed it: `file` (when given), `line`, `kind` (`rows` or `ok`), `class` (for a planned
/// statement), then for rows `columns`, `types` and `rows`, then `warnings` (Cassandra's
/// client warnings), then `notes` (widerow's own, only when there are some), then
/// `metrics` when `include_metrics` is set (tests and golden files leave it out when
/// they compare only the data).
pub fn result_json(
    file: Option<&str>,
    line: usize,
    result: &ResultSet,
    include_metrics: bool,
) -> Json {
    record(file, line, result, include_metrics)
}

/// Every row as a JSON array of its values.
fn rows_tree(result: &ResultSet) -> Json {
    let rows = result.rows.iter().map(|row| {
        let values = row.iter().zip(result.columns.iter());
        Json::Array(values.map(|(v, c)| v.to_json(&c.data_type)).collect())
    });
    Json::Array(rows.collect())
}

fn record(file: Option<&str>, line: usize, result: &ResultSet, include_metrics: bool) -> Json {
    let mut object = head(file, line);
    let kind = match result.kind {
        ResultKind::Rows => "rows",
        ResultKind::Ok => "ok",
    };
    object.insert("kind".into(), json!(kind));
    if let Some(class) = result.class {
        object.insert("class".into(), json!(class.as_str()));
    }
    if result.kind == ResultKind::Rows {
        let names: Vec<&str> = result.column_names();
        let types: Vec<String> = result
            .columns
            .iter()
            .map(|c| c.data_type.to_string())
            .collect();
        object.insert("columns".into(), json!(names));
        object.insert("types".into(), json!(types));
        object.insert("rows".into(), rows_tree(result));
    }
    object.insert("warnings".into(), json!(result.warnings));
    if !result.notes.is_empty() {
        object.insert("notes".into(), json!(result.notes));
    }
    if include_metrics {
        let metrics = &result.metrics;
        object.insert(
            "metrics".into(),
            json!({
                "partitions_touched": metrics.partitions_touched,
                "rows_scanned": metrics.rows_scanned,
                "rows_returned": metrics.rows_returned,
                "nodes_contacted": result.nodes_contacted(),
            }),
        );
    }
    Json::Object(object)
}

/// The JSON Lines record (one line, no newline) of a statement's result; see
/// [`result_json`] for the fields.
pub fn result_record(
    file: Option<&str>,
    line: usize,
    result: &ResultSet,
    include_metrics: bool,
) -> String {
    // The object `result_json` builds, written as it goes: a script prints one
    // record per statement and rows by the million, and building the tree first
    // cost more than writing it.
    let mut out = Vec::with_capacity(128 + 64 * result.rows.len());
    let mut fields = Fields::new(&mut out);
    if let Some(file) = file {
        fields.value("file", file);
    }
    fields.value("line", &line);
    match result.kind {
        ResultKind::Rows => fields.value("kind", "rows"),
        ResultKind::Ok => fields.value("kind", "ok"),
    }
    if let Some(class) = result.class {
        fields.value("class", class.as_str());
    }
    if result.kind == ResultKind::Rows {
        fields.value("columns", &result.column_names());
        let types: Vec<String> = result
            .columns
            .iter()
            .map(|c| c.data_type.to_string())
            .collect();
        fields.value("types", &types);
        push_rows(result, fields.key("rows"));
    }
    fields.value("warnings", &result.warnings);
    if !result.notes.is_empty() {
        fields.value("notes", &result.notes);
    }
    if include_metrics {
        push_metrics(result, fields.key("metrics"));
    }
    out.push(b'}');
    String::from_utf8(out).unwrap_or_default()
}

/// The fields of a JSON object being written: `{` before the first, `,` between.
struct Fields<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl<'a> Fields<'a> {
    fn new(out: &'a mut Vec<u8>) -> Fields<'a> {
        Fields { out, first: true }
    }

    /// Writes `"key":` and hands back the buffer for the value.
    fn key(&mut self, key: &str) -> &mut Vec<u8> {
        self.out.push(if self.first { b'{' } else { b',' });
        self.first = false;
        let _ = serde_json::to_writer(&mut *self.out, key);
        self.out.push(b':');
        self.out
    }

    /// Writes `"key":value`.
    fn value<T: serde::Serialize + ?Sized>(&mut self, key: &str, value: &T) {
        let out = self.key(key);
        let _ = serde_json::to_writer(out, value);
    }
}

/// The `metrics` object, in [`result_json`]'s key order.
fn push_metrics(result: &ResultSet, out: &mut Vec<u8>) {
    let metrics = &result.metrics;
    let mut fields = Fields::new(out);
    fields.value("partitions_touched", &metrics.partitions_touched);
    fields.value("rows_scanned", &metrics.rows_scanned);
    fields.value("rows_returned", &metrics.rows_returned);
    fields.value("nodes_contacted", result.nodes_contacted());
    out.push(b'}');
}

/// The `rows` array, each row an array of its values' JSON.
fn push_rows(result: &ResultSet, out: &mut Vec<u8>) {
    out.push(b'[');
    for (i, row) in result.rows.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.push(b'[');
        for (j, (value, column)) in row.iter().zip(result.columns.iter()).enumerate() {
            if j > 0 {
                out.push(b',');
            }
            value.push_json(&column.data_type, out);
        }
        out.push(b']');
    }
    out.push(b']');
}

/// The record of a failed statement as a JSON object: `file` (when given), `line`,
/// `kind: "error"`, `error` (Cassandra's exception name), `message` (the server's text,
/// not cqlsh's wrapper), and `class: "rejected"` when the planner refused the statement
/// (errors raised while executing carry no class, per the contract).
pub fn error_json(file: Option<&str>, line: usize, error: &Error, rejected: bool) -> Json {
    let mut object = head(file, line);
    object.insert("kind".into(), json!("error"));
    object.insert("error".into(), json!(error.kind().name()));
    object.insert("message".into(), json!(error.message()));
    if rejected {
        object.insert("class".into(), json!("rejected"));
    }
    Json::Object(object)
}

/// The JSON Lines record (one line, no newline) of a failed statement; see
/// [`error_json`] for the fields.
pub fn error_record(file: Option<&str>, line: usize, error: &Error, rejected: bool) -> String {
    error_json(file, line, error, rejected).to_string()
}

/// The record of a shell command's text (DESCRIBE, CONSISTENCY, COPY's
/// progress …): `kind: "output"` and the `text` cqlsh would print, so the
/// command keeps its place among the statements' records.
pub fn output_record(file: Option<&str>, line: usize, text: &str) -> String {
    let mut object = head(file, line);
    object.insert("kind".into(), json!("output"));
    object.insert("text".into(), json!(text));
    Json::Object(object).to_string()
}

/// The record of a shell command that failed in cqlsh's own words (no
/// server exception to name): `error: "ShellError"` and the `message`
/// cqlsh prints.
pub fn shell_error_record(file: Option<&str>, line: usize, message: &str) -> String {
    let mut object = head(file, line);
    object.insert("kind".into(), json!("error"));
    object.insert("error".into(), json!("ShellError"));
    object.insert("message".into(), json!(message));
    Json::Object(object).to_string()
}

/// `file` (when given) and `line`, the keys every record starts with.
fn head(file: Option<&str>, line: usize) -> Map<String, Json> {
    let mut object = Map::new();
    if let Some(file) = file {
        object.insert("file".into(), json!(file));
    }
    object.insert("line".into(), json!(line));
    object
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;
    use crate::exec::Metrics;
    use crate::planner::QueryClass;
    use crate::render::samples::*;
    use crate::syntax::ast::NativeType;
    use crate::types::{DataType, Value};

    #[test]
    fn rows_record_has_the_contract_keys_in_order() {
        let mut result = three_rows();
        result.class = Some(QueryClass::PartitionScan);
        result.metrics = Metrics {
            partitions_touched: 1,
            rows_scanned: 3,
            rows_returned: 3,
        };
        result.plan = Some(std::sync::Arc::new(crate::planner::Plan {
            class: QueryClass::PartitionScan,
            statement: crate::planner::StatementKind::Select,
            table: "ks.t".into(),
            partitions: crate::planner::Partitions::All,
            clustering: Vec::new(),
            filters: Vec::new(),
            index: None,
            order: crate::planner::Direction::Forward,
            limit: None,
            per_partition_limit: None,
            allow_filtering: false,
            consistency: "ONE".into(),
            coordinator: "node1".into(),
            nodes: vec!["node1".to_string()].into(),
            warnings: Vec::new(),
        }));
        let record = result_record(None, 3, &result, true);
        assert_eq!(
            record,
            concat!(
                r#"{"line":3,"kind":"rows","class":"partition-scan","columns":["id","name","score"],"#,
                r#""types":["int","text","double"],"rows":[[1,"Alice",3.5],[42,"Bob",null],"#,
                r#"[-7,"O'Hara ünï",1234567.0]],"warnings":[],"metrics":{"partitions_touched":1,"#,
                r#""rows_scanned":3,"rows_returned":3,"nodes_contacted":["node1"]}}"#,
            )
        );
        insta::assert_snapshot!("three_rows_record", record);
    }

    /// The streamed record is the tree's text, for every sample and option.
    #[test]
    fn records_are_the_tree_written_out() {
        let mut with_notes = count_with_warning();
        with_notes.notes = vec!["n".into()];
        with_notes.class = Some(QueryClass::PointLookup);
        for result in [
            three_rows(),
            wide(),
            empty(),
            lwt_not_applied(),
            with_notes,
            ResultSet::ok(),
        ] {
            for (file, metrics) in [(None, false), (Some("a \"b\".cql"), true)] {
                assert_eq!(
                    result_record(file, 7, &result, metrics),
                    result_json(file, 7, &result, metrics).to_string()
                );
            }
        }
    }

    #[test]
    fn ok_record_without_class_or_metrics() {
        let mut ok = ResultSet::ok();
        ok.warnings = vec!["w".into()];
        assert_eq!(
            result_record(Some("a.cql"), 4, &ok, false),
            r#"{"file":"a.cql","line":4,"kind":"ok","warnings":["w"]}"#
        );
        let with_metrics = result_record(None, 1, &ResultSet::ok(), true);
        assert_eq!(
            with_metrics,
            r#"{"line":1,"kind":"ok","warnings":[],"metrics":{"partitions_touched":0,"rows_scanned":0,"rows_returned":0,"nodes_contacted":[]}}"#
        );
    }

    /// Types print as DESCRIBE writes them; values as `toJson()` does, with NaN as a string.
    #[test]
    fn types_and_values() {
        let frozen_set = DataType::Set {
            element: Box::new(native(NativeType::Text)),
            frozen: true,
        };
        let map = DataType::Map {
            key: Box::new(native(NativeType::Int)),
            value: Box::new(native(NativeType::Text)),
            frozen: false,
        };
        let r = result(
            &[
                ("s", frozen_set),
                ("m", map),
                ("f", native(NativeType::Float)),
                ("t", native(NativeType::Timestamp)),
            ],
            vec![vec![
                Value::Set(vec![text("a")]),
                Value::Map(vec![(Value::Int(1), text("x"))]),
                Value::Float(f32::NAN),
                Value::Timestamp(1_748_764_800_000),
            ]],
        );
        let json = result_json(None, 1, &r, false);
        assert_eq!(
            json["types"],
            json!(["frozen<set<text>>", "map<int, text>", "float", "timestamp"])
        );
        assert_eq!(
            json["rows"],
            json!([[["a"], {"1": "x"}, "NaN", "2025-06-01 08:00:00.000Z"]])
        );
    }

    #[test]
    fn error_records() {
        let error = Error::invalid("Undefined column name x");
        assert_eq!(
            error_record(None, 5, &error, true),
            r#"{"line":5,"kind":"error","error":"InvalidRequest","message":"Undefined column name x","class":"rejected"}"#
        );
        let unavailable = Error::new(
            ErrorKind::Unavailable,
            "Cannot achieve consistency level QUORUM",
        );
        assert_eq!(
            error_record(Some("b.cql"), 2, &unavailable, false),
            r#"{"file":"b.cql","line":2,"kind":"error","error":"Unavailable","message":"Cannot achieve consistency level QUORUM"}"#
        );
    }
}
