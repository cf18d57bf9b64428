//! Table options in the form the server holds them (`TableParams`), for
//! DESCRIBE (`TableParams.appendCqlTo`) and for the rows of
//! `system_schema.tables`: every Cassandra 5.0 option in its fixed order,
//! with its default when it was never written — compaction and compression
//! classes with their package, default sub-options filled in, maps sorted
//! by key, numbers and booleans as Java prints them.

use std::collections::BTreeMap;

use super::ddl::{java_double, java_parse_double, java_parse_int, TABLE_OPTIONS};
use super::Table;
use crate::syntax::ast::{Literal, PropertyValue};

/// A string as a CQL literal: single quotes, `'` doubled.
pub fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// `name = value` for every option of `table`, in DESCRIBE's order; a view
/// has no `default_time_to_live`.
pub fn option_lines(table: &Table) -> Vec<String> {
    TABLE_OPTIONS
        .iter()
        .filter(|name| !(table.is_view() && **name == "default_time_to_live"))
        .filter_map(|name| {
            let value = effective_option(table, name)?;
            Some(format!("{name} = {}", option_value(name, &value)))
        })
        .collect()
}

/// An option's value: the one written, else its default — which for
/// `bloom_filter_fp_chance` depends on the compaction strategy (0.1 under
/// LeveledCompactionStrategy, `TableParams.Builder`), else Cassandra 5.0's.
pub(crate) fn effective_option(table: &Table, name: &str) -> Option<PropertyValue> {
    if name == "bloom_filter_fp_chance" && !table.options.contains_key(name) {
        let leveled = table.options.get("compaction").is_some_and(|c| {
            as_map(c)
                .get("class")
                .is_some_and(|class| class.rsplit('.').next() == Some("LeveledCompactionStrategy"))
        });
        if leveled {
            return Some(PropertyValue::Constant(Literal::Float("0.1".to_string())));
        }
    }
    table.option_or_default(name)
}

/// One option's value as the server prints it.
fn option_value(name: &str, value: &PropertyValue) -> String {
    match name {
        "caching" => map_text(&caching(&as_map(value))),
        "compaction" => map_text(&compaction(&as_map(value))),
        "compression" => map_text(&compression(&as_map(value))),
        "extensions" => map_text(&as_map(value)),
        _ => scalar_value(name, &as_text(value)),
    }
}

/// A non-map option's value.
fn scalar_value(name: &str, text: &str) -> String {
    match name {
        "additional_write_policy" | "speculative_retry" => quoted(&speculative_retry(text)),
        "allow_auto_snapshot" | "cdc" | "incremental_backups" => boolean(text),
        "bloom_filter_fp_chance" | "crc_check_chance" => {
            java_parse_double(text).map_or_else(|| text.to_string(), java_double)
        }
        "default_time_to_live"
        | "gc_grace_seconds"
        | "max_index_interval"
        | "memtable_flush_period_in_ms"
        | "min_index_interval" => {
            java_parse_int(text).map_or_else(|_| text.to_string(), |n| n.to_string())
        }
        "read_repair" => quoted(&text.to_uppercase()),
        _ => quoted(text),
    }
}

/// `PropertyDefinitions.parseBoolean`, printed as Java prints a boolean.
pub(crate) fn boolean(text: &str) -> String {
    match text.to_lowercase().as_str() {
        "1" | "true" | "yes" => "true".to_string(),
        "0" | "false" | "no" => "false".to_string(),
        _ => text.to_string(),
    }
}

/// A constant's text as Cassandra reads it (`getRawText`).
pub(crate) fn literal_text(literal: &Literal) -> String {
    match literal {
        Literal::String(s) => s.clone(),
        Literal::Integer(t) | Literal::Float(t) | Literal::Duration(t) | Literal::Uuid(t) => {
            t.clone()
        }
        Literal::Boolean(b) => b.to_string(),
        Literal::Hex(h) => format!("0x{h}"),
        Literal::Null => "null".to_string(),
    }
}

pub(crate) fn as_text(value: &PropertyValue) -> String {
    match value {
        PropertyValue::Constant(l) => literal_text(l),
        PropertyValue::Name(i) => i.name.clone(),
        PropertyValue::Map(_) => String::new(),
    }
}

/// A map option, later keys replacing earlier ones, sorted as the server's
/// `TreeMap` prints them.
pub(crate) fn as_map(value: &PropertyValue) -> BTreeMap<String, String> {
    match value {
        PropertyValue::Map(entries) => entries
            .iter()
            .map(|(k, v)| (literal_text(k), literal_text(v)))
            .collect(),
        _ => BTreeMap::new(),
    }
}

/// `{'k': 'v', …}`.
fn map_text(map: &BTreeMap<String, String>) -> String {
    let entries: Vec<String> = map
        .iter()
        .map(|(k, v)| format!("{}: {}", quoted(k), quoted(v)))
        .collect();
    format!("{{{}}}", entries.join(", "))
}

/// `CachingParams.asMap`: both keys, `ALL`/`NONE` upper case; a map
/// without `keys` caches none (`CachingParams.fromMap`).
pub(crate) fn caching(map: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    let word = |text: &str| {
        if text.eq_ignore_ascii_case("all") || text.eq_ignore_ascii_case("none") {
            text.to_uppercase()
        } else {
            java_parse_int(text).map_or_else(|_| text.to_string(), |n| n.to_string())
        }
    };
    let keys = map.get("keys").map_or("NONE".to_string(), |k| word(k));
    let rows = map
        .get("rows_per_partition")
        .map_or("NONE".to_string(), |r| word(r));
    BTreeMap::from([
        ("keys".to_string(), keys),
        ("rows_per_partition".to_string(), rows),
    ])
}

/// `CompactionParams.asMap`: the class with its package, and the default
/// thresholds for the strategies that take them.
pub(crate) fn compaction(map: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    let mut out = map.clone();
    if let Some(class) = map.get("class") {
        let short = class.rsplit('.').next().unwrap_or(class);
        if !class.contains('.') {
            out.insert(
                "class".to_string(),
                format!("org.apache.cassandra.db.compaction.{class}"),
            );
        }
        let thresholds = [
            "SizeTieredCompactionStrategy",
            "LeveledCompactionStrategy",
            "TimeWindowCompactionStrategy",
        ];
        if thresholds.contains(&short) {
            out.entry("max_threshold".to_string())
                .or_insert_with(|| "32".to_string());
            out.entry("min_threshold".to_string())
                .or_insert_with(|| "4".to_string());
        }
    }
    out
}

/// `CompressionParams.asMap`: `{'enabled': 'false'}` when off (`enabled`
/// not true, or no options at all), else the class with its package and
/// `chunk_length_in_kb` (16 unless given).
pub(crate) fn compression(map: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    if map.is_empty()
        || map
            .get("enabled")
            .is_some_and(|e| !e.eq_ignore_ascii_case("true"))
    {
        return BTreeMap::from([("enabled".to_string(), "false".to_string())]);
    }
    let mut out = map.clone();
    out.remove("enabled");
    if let Some(class) = out.remove("sstable_compression") {
        out.entry("class".to_string()).or_insert(class);
    }
    if let Some(class) = out.get("class").filter(|c| !c.contains('.')).cloned() {
        out.insert(
            "class".to_string(),
            format!("org.apache.cassandra.io.compress.{class}"),
        );
    }
    if let Some(kb) = out.remove("chunk_length_kb") {
        out.entry("chunk_length_in_kb".to_string()).or_insert(kb);
    }
    out.entry("chunk_length_in_kb".to_string())
        .or_insert_with(|| "16".to_string());
    out
}

/// `SpeculativeRetryPolicy.fromString(text).toString()`: `99p`, `50ms`,
/// `ALWAYS`, `NEVER`, `MIN(99p,50ms)`; text it cannot read is kept.
pub(crate) fn speculative_retry(text: &str) -> String {
    let upper = text.trim().to_uppercase();
    if upper == "ALWAYS" {
        return upper;
    }
    if upper == "NEVER" || upper == "NONE" {
        return "NEVER".to_string();
    }
    if let Some(hybrid) = hybrid(&upper) {
        return hybrid;
    }
    percentile(&upper)
        .or_else(|| fixed(&upper))
        .unwrap_or_else(|| text.to_string())
}

/// `SpeculativeRetryPolicy.fromString`'s refusals: text that is no policy,
/// and a percentile outside (0, 100) (inside MIN/MAX, the first refusal).
pub(crate) fn check_speculative_retry(text: &str) -> Result<(), String> {
    let upper = text.trim().to_uppercase();
    let invalid = || format!("Invalid value {text} for option 'speculative_retry'");
    if matches!(upper.as_str(), "ALWAYS" | "NEVER" | "NONE") || fixed(&upper).is_some() {
        return Ok(());
    }
    if let Some(value) = percentile_value(&upper) {
        if value > 0.0 && value < 100.0 {
            return Ok(());
        }
        return Err(format!(
            "Invalid value {text} for PERCENTILE option 'speculative_retry': must be between (0.0 and 100.0)"
        ));
    }
    match hybrid_parts(&upper) {
        Some((_, p, _)) if p > 0.0 && p < 100.0 => Ok(()),
        _ => Err(invalid()),
    }
}

/// `MIN(…,…)` / `MAX(…,…)`: the percentile policy first, then the fixed one.
fn hybrid(upper: &str) -> Option<String> {
    let (function, p, f) = hybrid_parts(upper)?;
    Some(format!("{function}({},{f})", percentile_text(p)))
}

/// The function of `MIN(…,…)` / `MAX(…,…)`, its percentile and its fixed
/// policy, written in either order.
fn hybrid_parts(upper: &str) -> Option<(&str, f64, String)> {
    let function = upper.get(..3).filter(|f| *f == "MIN" || *f == "MAX")?;
    let inner = upper[3..].trim().strip_prefix('(')?.strip_suffix(')')?;
    let (a, b) = inner.split_once(',')?;
    let (a, b) = (a.trim(), b.trim());
    match (percentile_value(a), fixed(b)) {
        (Some(p), Some(f)) => Some((function, p, f)),
        _ => Some((function, percentile_value(b)?, fixed(a)?)),
    }
}

/// The number of `99p` or `99.5PERCENTILE`.
fn percentile_value(upper: &str) -> Option<f64> {
    let number = upper
        .strip_suffix("PERCENTILE")
        .or_else(|| upper.strip_suffix('P'))?;
    if number.is_empty() || !number.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return None;
    }
    number.parse().ok()
}

/// `99p`, `99.5PERCENTILE` → `99p`, `99.5p`.
fn percentile(upper: &str) -> Option<String> {
    percentile_value(upper).map(percentile_text)
}

/// A percentile as Cassandra prints it (`DecimalFormat("#.####")`, then `p`).
fn percentile_text(value: f64) -> String {
    let text = format!("{value:.4}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text}p")
}

/// `50ms` → `50ms` (whole milliseconds).
fn fixed(upper: &str) -> Option<String> {
    let number = upper.strip_suffix("MS")?;
    if number.is_empty() || !number.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return None;
    }
    let value: f64 = number.parse().ok()?;
    Some(format!("{}ms", value as i64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speculative_retry_is_normalised_like_the_server() {
        assert_eq!(speculative_retry("99PERCENTILE"), "99p");
        assert_eq!(speculative_retry("99.50p"), "99.5p");
        assert_eq!(speculative_retry("50ms"), "50ms");
        assert_eq!(speculative_retry("none"), "NEVER");
        assert_eq!(speculative_retry("always"), "ALWAYS");
        assert_eq!(speculative_retry("min(50ms, 99p)"), "MIN(99p,50ms)");
        assert_eq!(speculative_retry("odd"), "odd");
    }

    #[test]
    fn compaction_and_compression_get_their_packages_and_defaults() {
        let lcs = BTreeMap::from([("class".to_string(), "LeveledCompactionStrategy".to_string())]);
        assert_eq!(
            map_text(&compaction(&lcs)),
            "{'class': 'org.apache.cassandra.db.compaction.LeveledCompactionStrategy', \
             'max_threshold': '32', 'min_threshold': '4'}"
        );
        let zstd = BTreeMap::from([("class".to_string(), "ZstdCompressor".to_string())]);
        assert_eq!(
            map_text(&compression(&zstd)),
            "{'chunk_length_in_kb': '16', 'class': 'org.apache.cassandra.io.compress.ZstdCompressor'}"
        );
        let off = BTreeMap::from([("enabled".to_string(), "false".to_string())]);
        assert_eq!(map_text(&compression(&off)), "{'enabled': 'false'}");
    }

    #[test]
    fn caching_keeps_both_keys() {
        let rows = BTreeMap::from([("rows_per_partition".to_string(), "10".to_string())]);
        assert_eq!(
            map_text(&caching(&rows)),
            "{'keys': 'NONE', 'rows_per_partition': '10'}"
        );
    }
}
