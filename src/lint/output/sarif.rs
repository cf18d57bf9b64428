//! SARIF 2.1.0: one log with one run of the tool `widerow`, its rules (id =
//! code, with their documentation in Markdown) and a result per finding.
//! Columns count Unicode code points (`"columnKind": "unicodeCodePoints"`),
//! as every position widerow writes does. Suppressed findings are omitted.

use serde_json::{json, Map, Value};

use crate::lint::{Finding, Level, Rule};

/// The schema the log declares: the OASIS errata 01 schema of 2.1.0.
pub const SCHEMA_URI: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// SARIF's name for a level.
pub fn level(level: Level) -> &'static str {
    match level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Info => "note",
    }
}

/// A file name as a URI reference: relative paths stay relative (with `/`
/// separators), absolute ones become `file://` URIs; characters a URI
/// cannot hold are percent-encoded.
pub fn uri(path: &str) -> String {
    let path = path.replace('\\', "/");
    let mut out = String::new();
    let absolute = path.starts_with('/');
    let windows_drive = path.as_bytes().get(1) == Some(&b':')
        && path.as_bytes().first().is_some_and(u8::is_ascii_alphabetic);
    if absolute {
        out.push_str("file://");
    } else if windows_drive {
        out.push_str("file:///");
    }
    for (i, byte) in path.bytes().enumerate() {
        let keep = byte.is_ascii_alphanumeric()
            || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/')
            || (windows_drive && i == 1 && byte == b':');
        if keep {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The `reportingDescriptor` of a rule.
pub fn rule_descriptor(rule: &dyn Rule) -> Value {
    let documentation = rule.documentation();
    json!({
        "id": rule.code(),
        "name": rule.name(),
        "shortDescription": { "text": rule.summary() },
        "fullDescription": { "text": documentation, "markdown": documentation },
        "help": { "text": documentation, "markdown": documentation },
        "defaultConfiguration": { "level": level(rule.default_level()) },
    })
}

/// The `result` of a finding; `rule_index` is its rule's place in the
/// driver's rules, when it is there.
pub fn result(finding: &Finding, rule_index: Option<usize>) -> Value {
    let l = &finding.location;
    let mut result = Map::new();
    result.insert("ruleId".into(), json!(finding.code));
    if let Some(index) = rule_index {
        result.insert("ruleIndex".into(), json!(index));
    }
    result.insert("level".into(), json!(level(finding.level)));
    result.insert("message".into(), json!({ "text": finding.message }));
    result.insert(
        "locations".into(),
        json!([{
            "physicalLocation": {
                "artifactLocation": { "uri": uri(&l.file) },
                "region": {
                    "startLine": l.line.max(1),
                    "startColumn": l.column.max(1),
                    "endLine": l.end_line.max(l.line).max(1),
                    "endColumn": l.end_column.max(1),
                },
            },
        }]),
    );
    let mut properties = Map::new();
    if let Some(help) = &finding.help {
        properties.insert("help".into(), json!(help));
    }
    if let Some(suggestion) = &finding.suggestion {
        properties.insert("suggestion".into(), json!(suggestion));
    }
    if !properties.is_empty() {
        result.insert("properties".into(), Value::Object(properties));
    }
    Value::Object(result)
}

/// The whole log.
pub fn log(findings: &[Finding], rules: &[Box<dyn Rule>]) -> Value {
    let descriptors: Vec<Value> = rules.iter().map(|r| rule_descriptor(r.as_ref())).collect();
    let results: Vec<Value> = super::in_file_order(findings)
        .into_iter()
        .map(|f| {
            let index = rules.iter().position(|r| r.code() == f.code);
            result(f, index)
        })
        .collect();
    json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "widerow",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": descriptors,
                },
            },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    })
}

/// The whole log as pretty-printed JSON, with a final newline.
pub fn render(findings: &[Finding], rules: &[Box<dyn Rule>]) -> String {
    let mut text = serde_json::to_string_pretty(&log(findings, rules)).unwrap_or_default();
    text.push('\n');
    text
}
