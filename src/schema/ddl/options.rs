//! `WITH` properties as Cassandra's `PropertyDefinitions` sees them: every
//! value is either a string (the raw text of a constant) or a map of
//! strings, looked up by name, with SyntaxExceptions for values of the wrong
//! shape. And the table options of Cassandra 5.0: their names, defaults, and
//! the checks `TableAttributes` and `TableParams` make.

use indexmap::IndexMap;

use crate::error::Error;
use crate::syntax::ast::{Literal, Property, PropertyValue};

use super::{config, java_double, java_parse_double, java_parse_int};

/// The table options of Cassandra 5.0 in the order DESCRIBE prints them
/// (`TableParams.appendCqlTo`).
pub const TABLE_OPTIONS: [&str; 19] = [
    "additional_write_policy",
    "allow_auto_snapshot",
    "bloom_filter_fp_chance",
    "caching",
    "cdc",
    "comment",
    "compaction",
    "compression",
    "memtable",
    "crc_check_chance",
    "default_time_to_live",
    "extensions",
    "gc_grace_seconds",
    "incremental_backups",
    "max_index_interval",
    "memtable_flush_period_in_ms",
    "min_index_interval",
    "read_repair",
    "speculative_retry",
];

/// `Attributes.MAX_TTL`: twenty years in seconds.
const MAX_TTL: i64 = 20 * 365 * 24 * 60 * 60;

/// `BloomCalculations.minSupportedBloomFilterFpChance()`.
const MIN_BLOOM_FILTER_FP_CHANCE: f64 = 6.71e-5;

fn string(text: &str) -> PropertyValue {
    PropertyValue::Constant(Literal::String(text.to_string()))
}

fn map(entries: &[(&str, &str)]) -> PropertyValue {
    PropertyValue::Map(
        entries
            .iter()
            .map(|(k, v)| {
                (
                    Literal::String(k.to_string()),
                    Literal::String(v.to_string()),
                )
            })
            .collect(),
    )
}

/// Cassandra 5.0's default for a table option (`None` if `name` is not one).
pub fn table_option_default(name: &str) -> Option<PropertyValue> {
    let integer = |text: &str| PropertyValue::Constant(Literal::Integer(text.to_string()));
    let float = |text: &str| PropertyValue::Constant(Literal::Float(text.to_string()));
    let boolean = |b: bool| PropertyValue::Constant(Literal::Boolean(b));
    Some(match name {
        "additional_write_policy" | "speculative_retry" => string("99p"),
        "allow_auto_snapshot" | "incremental_backups" => boolean(true),
        "bloom_filter_fp_chance" => float("0.01"),
        "caching" => map(&[("keys", "ALL"), ("rows_per_partition", "NONE")]),
        "cdc" => boolean(false),
        "comment" => string(""),
        "compaction" => map(&[
            (
                "class",
                "org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy",
            ),
            ("max_threshold", "32"),
            ("min_threshold", "4"),
        ]),
        "compression" => map(&[
            ("chunk_length_in_kb", "16"),
            ("class", "org.apache.cassandra.io.compress.LZ4Compressor"),
        ]),
        "memtable" => string("default"),
        "crc_check_chance" => float("1.0"),
        "default_time_to_live" | "memtable_flush_period_in_ms" => integer("0"),
        "extensions" => PropertyValue::Map(Vec::new()),
        "gc_grace_seconds" => integer("864000"),
        "max_index_interval" => integer("2048"),
        "min_index_interval" => integer("128"),
        "read_repair" => string("BLOCKING"),
        _ => return None,
    })
}

/// A property value as Cassandra holds it: the raw text of a constant, or
/// a map of raw texts.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum RawValue {
    /// A constant or bare word.
    Text(String),
    /// `{k: v, …}`, later keys replacing earlier ones as in a Java map.
    Map(IndexMap<String, String>),
}

/// A constant's text as `Constants.Literal.getRawText()` gives it.
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

/// A property value's raw form.
pub(crate) fn raw_value(value: &PropertyValue) -> RawValue {
    match value {
        PropertyValue::Constant(l) => RawValue::Text(literal_text(l)),
        PropertyValue::Name(i) => RawValue::Text(i.name.clone()),
        PropertyValue::Map(entries) => RawValue::Map(
            entries
                .iter()
                .map(|(k, v)| (literal_text(k), literal_text(v)))
                .collect(),
        ),
    }
}

/// An option's value as the text Cassandra reads it from (`None` for a
/// map), e.g. `60` for both `60` and `'60'`.
pub fn option_text(value: &PropertyValue) -> Option<String> {
    match raw_value(value) {
        RawValue::Text(text) => Some(text),
        RawValue::Map(_) => None,
    }
}

/// [`option_text`] borrowed, for the options every write reads, where the
/// value is a string, a number or a name; `None` for anything else.
pub(crate) fn option_str(value: &PropertyValue) -> Option<&str> {
    match value {
        PropertyValue::Constant(
            Literal::String(t)
            | Literal::Integer(t)
            | Literal::Float(t)
            | Literal::Duration(t)
            | Literal::Uuid(t),
        ) => Some(t),
        PropertyValue::Name(i) => Some(&i.name),
        _ => None,
    }
}

/// The properties of one WITH clause, in the order written.
pub(crate) struct Props<'a> {
    entries: Vec<&'a Property>,
}

impl<'a> Props<'a> {
    /// The properties (duplicates were refused by the parser).
    pub fn new(properties: impl IntoIterator<Item = &'a Property>) -> Props<'a> {
        Props {
            entries: properties.into_iter().collect(),
        }
    }

    fn find(&self, name: &str) -> Option<&'a Property> {
        self.entries.iter().copied().find(|p| p.name.name == name)
    }

    /// Whether `name` was given.
    pub fn has(&self, name: &str) -> bool {
        self.find(name).is_some()
    }

    /// The properties, in order.
    pub fn iter(&self) -> impl Iterator<Item = &'a Property> + '_ {
        self.entries.iter().copied()
    }

    /// `PropertyDefinitions.validate`: the first name that is not one of
    /// `known` is a SyntaxException.
    pub fn check_known(&self, known: &[&str]) -> Result<(), Error> {
        match self.iter().find(|p| !known.contains(&p.name.name.as_str())) {
            Some(p) => {
                Err(Error::syntax(format!("Unknown property '{}'", p.name.name))
                    .with_span(p.name.span))
            }
            None => Ok(()),
        }
    }

    /// A string-valued property.
    pub fn text(&self, name: &str) -> Result<Option<String>, Error> {
        let Some(p) = self.find(name) else {
            return Ok(None);
        };
        match raw_value(&p.value) {
            RawValue::Text(t) => Ok(Some(t)),
            RawValue::Map(_) => Err(Error::syntax(format!(
                "Invalid value for property '{name}'. It should be a string"
            ))
            .with_span(p.span)),
        }
    }

    /// A map-valued property.
    pub fn map(&self, name: &str) -> Result<Option<IndexMap<String, String>>, Error> {
        let Some(p) = self.find(name) else {
            return Ok(None);
        };
        match raw_value(&p.value) {
            RawValue::Map(m) => Ok(Some(m)),
            RawValue::Text(_) => Err(Error::syntax(format!(
                "Invalid value for property '{name}'. It should be a map."
            ))
            .with_span(p.span)),
        }
    }

    /// A boolean property (`PropertyDefinitions.parseBoolean`).
    pub fn boolean(&self, name: &str) -> Result<Option<bool>, Error> {
        let Some(text) = self.text(name)? else {
            return Ok(None);
        };
        match text.to_lowercase().as_str() {
            "1" | "true" | "yes" => Ok(Some(true)),
            "0" | "false" | "no" => Ok(Some(false)),
            _ => Err(self.located(
                name,
                Error::syntax(format!(
                    "Invalid boolean value {text} for '{name}'. Positive values can be '1', 'true' or 'yes'. Negative values can be '0', 'false' or 'no'."
                )),
            )),
        }
    }

    /// An integer property (`PropertyDefinitions.parseInt`).
    pub fn int(&self, name: &str) -> Result<Option<i64>, Error> {
        let Some(text) = self.text(name)? else {
            return Ok(None);
        };
        match java_parse_int(&text) {
            Ok(n) => Ok(Some(i64::from(n))),
            Err(_) => Err(self.located(
                name,
                Error::syntax(format!("Invalid integer value {text} for '{name}'")),
            )),
        }
    }

    /// A double property (`PropertyDefinitions.parseDouble`).
    pub fn double(&self, name: &str) -> Result<Option<f64>, Error> {
        let Some(text) = self.text(name)? else {
            return Ok(None);
        };
        match java_parse_double(&text) {
            Some(v) => Ok(Some(v)),
            None => Err(self.located(
                name,
                Error::syntax(format!("Invalid double value {text} for '{name}'")),
            )),
        }
    }

    /// Points `error` at the property `name`.
    pub fn located(&self, name: &str, error: Error) -> Error {
        match self.find(name) {
            Some(p) => error.with_span(p.span),
            None => error,
        }
    }
}

/// The table parameters Cassandra checks or that change behaviour, parsed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TableParams {
    /// `bloom_filter_fp_chance`; `None` until given, when the compaction
    /// strategy decides it (0.1 for LCS, else 0.01).
    pub bloom_filter_fp_chance: Option<f64>,
    pub crc_check_chance: f64,
    pub default_time_to_live: i64,
    pub gc_grace_seconds: i64,
    pub min_index_interval: i64,
    pub max_index_interval: i64,
    pub memtable_flush_period_in_ms: i64,
    /// The compaction class's short name.
    pub compaction_class: String,
}

impl Default for TableParams {
    fn default() -> TableParams {
        TableParams {
            bloom_filter_fp_chance: None,
            crc_check_chance: 1.0,
            default_time_to_live: 0,
            gc_grace_seconds: 864_000,
            min_index_interval: 128,
            max_index_interval: 2048,
            memtable_flush_period_in_ms: 0,
            compaction_class: "SizeTieredCompactionStrategy".to_string(),
        }
    }
}

/// The names `TableAttributes` accepts: the options plus `id`.
pub(crate) fn check_table_properties(props: &Props<'_>) -> Result<(), Error> {
    let mut known: Vec<&str> = TABLE_OPTIONS.to_vec();
    known.push("id");
    props.check_known(&known)
}

/// The compaction strategies of Cassandra 5.0, by short name.
const COMPACTION_STRATEGIES: [&str; 4] = [
    "SizeTieredCompactionStrategy",
    "LeveledCompactionStrategy",
    "TimeWindowCompactionStrategy",
    "UnifiedCompactionStrategy",
];

/// `CompactionParams.fromMap`: the class is required and must exist.
fn compaction_class(options: &IndexMap<String, String>) -> Result<String, Error> {
    let Some(class) = options.get("class") else {
        return Err(config(
            "Missing sub-option 'class' for the 'compaction' option",
        ));
    };
    let full = if class.contains('.') {
        class.clone()
    } else {
        format!("org.apache.cassandra.db.compaction.{class}")
    };
    COMPACTION_STRATEGIES
        .iter()
        .find(|s| full == format!("org.apache.cassandra.db.compaction.{s}"))
        .map(|s| s.to_string())
        .ok_or_else(|| config(format!("Unable to find compaction strategy class '{full}'")))
}

/// `CachingParams.fromMap`: `keys` is ALL or NONE, `rows_per_partition`
/// ALL, NONE or digits (digits beyond an int escape as Java's
/// NumberFormatException, a server error), and nothing else is allowed.
fn check_caching(map: &IndexMap<String, String>) -> Result<(), Error> {
    let word = |v: &str| v.eq_ignore_ascii_case("ALL") || v.eq_ignore_ascii_case("NONE");
    if let Some(keys) = map.get("keys").filter(|k| !word(k)) {
        return Err(config(format!(
            "Invalid value '{keys}' for caching sub-option 'keys': only 'ALL' and 'NONE' are allowed"
        )));
    }
    if let Some(rows) = map.get("rows_per_partition").filter(|r| !word(r)) {
        if rows.is_empty() || !rows.bytes().all(|b| b.is_ascii_digit()) {
            return Err(config(format!(
                "Invalid value '{rows}' for caching sub-option 'rows_per_partition': only 'ALL', 'NONE', and integer values are allowed"
            )));
        }
        if java_parse_int(rows).is_err() {
            return Err(server_error(&format!(
                "java.lang.NumberFormatException: For input string: \"{rows}\""
            )));
        }
    }
    let unknown: Vec<String> = map
        .keys()
        .filter(|k| *k != "keys" && *k != "rows_per_partition")
        .cloned()
        .collect();
    if !unknown.is_empty() {
        let unknown = crate::types::java_map_copy_order(unknown, map.len());
        return Err(config(format!(
            "Invalid caching sub-options [{}]: only 'keys' and 'rows_per_partition' are allowed",
            unknown.join(", ")
        )));
    }
    Ok(())
}

/// `CompressionParams.fromMap` (5.0): a class unless `enabled` is false
/// (then nothing else), `chunk_length_in_kb` an int, `min_compress_ratio`
/// a double, a compressor Cassandra has and only the options it takes,
/// then the chunk length positive and a power of two.
fn check_compression(map: &IndexMap<String, String>) -> Result<(), Error> {
    if map.is_empty() {
        // No class: compression off.
        return Ok(());
    }
    let enabled = map
        .get("enabled")
        .is_none_or(|e| e.eq_ignore_ascii_case("true"));
    if enabled && !map.contains_key("class") {
        return Err(config(
            "Missing sub-option 'class' for the 'compression' option.",
        ));
    }
    let mut rest = map.clone();
    rest.shift_remove("enabled");
    if !enabled {
        if rest.is_empty() {
            return Ok(());
        }
        return Err(config(
            "If the 'enabled' option is set to false no other options must be specified",
        ));
    }
    let class = rest.shift_remove("class").unwrap_or_default();
    let chunk = match rest.shift_remove("chunk_length_in_kb") {
        Some(kb) => {
            Some(java_parse_int(&kb).map_err(|_| config("Invalid value for chunk_length_in_kb"))?)
        }
        None => None,
    };
    if let Some(ratio) = rest.shift_remove("min_compress_ratio") {
        if java_parse_double(&ratio).is_none() {
            return Err(server_error(&format!(
                "java.lang.NumberFormatException: For input string: \"{ratio}\""
            )));
        }
    }
    let full = if class.contains('.') {
        class
    } else {
        format!("org.apache.cassandra.io.compress.{class}")
    };
    let takes: &[&str] = match full.strip_prefix("org.apache.cassandra.io.compress.") {
        Some("LZ4Compressor") => &["lz4_compressor_type", "lz4_high_compressor_level"],
        Some("ZstdCompressor") => &["compression_level"],
        Some("SnappyCompressor" | "DeflateCompressor" | "NoopCompressor") => &[],
        _ => {
            return Err(config(format!(
                "Could not create Compression for type {full}"
            )))
        }
    };
    let unknown: Vec<String> = rest
        .keys()
        .filter(|k| !takes.contains(&k.as_str()))
        .cloned()
        .collect();
    if let Some(first) = crate::types::java_map_copy_order(unknown, map.len()).first() {
        return Err(config(format!("Unknown compression options {first}")));
    }
    match chunk {
        Some(kb) if kb <= 0 => Err(config("Invalid negative or null chunk_length_in_kb")),
        Some(kb) if kb & (kb - 1) != 0 => Err(config("chunk_length_in_kb must be a power of 2")),
        _ => Ok(()),
    }
}

/// A Java exception that escapes Cassandra's option parsing: a server error.
fn server_error(message: &str) -> Error {
    Error::new(crate::error::ErrorKind::ServerError, message)
}

/// `TableAttributes.build`: the given options parsed over `base`, in the
/// order Cassandra reads them, with its errors for values of the wrong form.
pub(crate) fn build_params(props: &Props<'_>, base: &TableParams) -> Result<TableParams, Error> {
    let mut params = base.clone();
    props.boolean("allow_auto_snapshot")?;
    if let Some(v) = props.double("bloom_filter_fp_chance")? {
        params.bloom_filter_fp_chance = Some(v);
    }
    if let Some(caching) = props.map("caching")? {
        check_caching(&caching).map_err(|e| props.located("caching", e))?;
    }
    props.text("comment")?;
    if let Some(options) = props.map("compaction")? {
        params.compaction_class =
            compaction_class(&options).map_err(|e| props.located("compaction", e))?;
    }
    if let Some(compression) = props.map("compression")? {
        check_compression(&compression).map_err(|e| props.located("compression", e))?;
    }
    if let Some(memtable) = props.text("memtable")? {
        if memtable != "default" {
            return Err(props.located(
                "memtable",
                config(format!("Memtable configuration \"{memtable}\" not found.")),
            ));
        }
    }
    if let Some(v) = props.int("default_time_to_live")? {
        params.default_time_to_live = v;
    }
    if let Some(v) = props.int("gc_grace_seconds")? {
        params.gc_grace_seconds = v;
    }
    props.boolean("incremental_backups")?;
    if let Some(v) = props.int("max_index_interval")? {
        params.max_index_interval = v;
    }
    if let Some(v) = props.int("memtable_flush_period_in_ms")? {
        params.memtable_flush_period_in_ms = v;
    }
    if let Some(v) = props.int("min_index_interval")? {
        params.min_index_interval = v;
    }
    for option in ["speculative_retry", "additional_write_policy"] {
        if let Some(text) = props.text(option)? {
            super::super::table_options::check_speculative_retry(&text)
                .map_err(|e| props.located(option, config(e)))?;
        }
    }
    if let Some(v) = props.double("crc_check_chance")? {
        params.crc_check_chance = v;
    }
    props.boolean("cdc")?;
    if let Some(text) = props.text("read_repair")? {
        let upper = text.to_uppercase();
        if upper != "BLOCKING" && upper != "NONE" {
            return Err(props.located(
                "read_repair",
                server_error(&format!(
                    "java.lang.IllegalArgumentException: No enum constant org.apache.cassandra.service.reads.repair.ReadRepairStrategy.{upper}"
                )),
            ));
        }
    }
    Ok(params)
}

impl TableParams {
    /// The effective `bloom_filter_fp_chance`.
    pub fn bloom(&self) -> f64 {
        self.bloom_filter_fp_chance.unwrap_or(
            if self.compaction_class == "LeveledCompactionStrategy" {
                0.1
            } else {
                0.01
            },
        )
    }

    /// `TableParams.validate`: the ranges, as ConfigurationExceptions.
    pub fn validate(&self) -> Result<(), Error> {
        let bloom = self.bloom();
        if bloom <= MIN_BLOOM_FILTER_FP_CHANCE || bloom > 1.0 {
            return Err(config(format!(
                "bloom_filter_fp_chance must be larger than {} and less than or equal to 1.0 (got {})",
                java_double(MIN_BLOOM_FILTER_FP_CHANCE),
                java_double(bloom)
            )));
        }
        if !(0.0..=1.0).contains(&self.crc_check_chance) {
            return Err(config(format!(
                "crc_check_chance must be larger than or equal to 0 and smaller than or equal to 1.0 (got {})",
                java_double(self.crc_check_chance)
            )));
        }
        let ttl = self.default_time_to_live;
        if ttl < 0 {
            return Err(config(format!(
                "default_time_to_live must be greater than or equal to 0 (got {ttl})"
            )));
        }
        if ttl > MAX_TTL {
            return Err(config(format!(
                "default_time_to_live must be less than or equal to {MAX_TTL} (got {ttl})"
            )));
        }
        if self.gc_grace_seconds < 0 {
            return Err(config(format!(
                "gc_grace_seconds must be greater than or equal to 0 (got {})",
                self.gc_grace_seconds
            )));
        }
        if self.min_index_interval < 1 {
            return Err(config(format!(
                "min_index_interval must be greater than or equal to 1 (got {})",
                self.min_index_interval
            )));
        }
        if self.max_index_interval < self.min_index_interval {
            return Err(config(format!(
                "max_index_interval must be greater than or equal to min_index_interval ({}) (got {})",
                self.min_index_interval, self.max_index_interval
            )));
        }
        if self.memtable_flush_period_in_ms < 0 {
            return Err(config(format!(
                "memtable_flush_period_in_ms must be greater than or equal to 0 (got {})",
                self.memtable_flush_period_in_ms
            )));
        }
        Ok(())
    }

    /// The parameters a table's stored options describe (they were checked
    /// when written, so anything unreadable falls back to the default).
    pub fn of_options(options: &IndexMap<String, PropertyValue>) -> TableParams {
        let properties: Vec<Property> = options
            .iter()
            .map(|(name, value)| Property {
                name: crate::syntax::ast::Ident::new(name.clone()),
                value: value.clone(),
                span: Default::default(),
            })
            .collect();
        build_params(&Props::new(&properties), &TableParams::default()).unwrap_or_default()
    }
}

/// The stored options of a table after `props`: `base` (the previous options,
/// or every default for a new table) with the written values put in, in
/// DESCRIBE order. `extensions` is accepted but, as in Cassandra, ignored;
/// `id` is not an option.
pub(crate) fn merge_options(
    base: &IndexMap<String, PropertyValue>,
    props: &Props<'_>,
) -> IndexMap<String, PropertyValue> {
    let mut merged = IndexMap::new();
    for name in TABLE_OPTIONS {
        let written = props
            .iter()
            .find(|p| p.name.name == name && name != "extensions")
            .map(|p| p.value.clone());
        if let Some(value) = written.or_else(|| base.get(name).cloned()) {
            merged.insert(name.to_string(), value);
        }
    }
    merged
}

/// Every option at its 5.0 default, the Bloom filter chance following the
/// compaction strategy as Cassandra's does (0.1 for LCS).
pub(crate) fn default_options(params: &TableParams) -> IndexMap<String, PropertyValue> {
    let mut options: IndexMap<String, PropertyValue> = TABLE_OPTIONS
        .iter()
        .filter_map(|name| table_option_default(name).map(|v| (name.to_string(), v)))
        .collect();
    if params.compaction_class == "LeveledCompactionStrategy" {
        options.insert(
            "bloom_filter_fp_chance".to_string(),
            PropertyValue::Constant(Literal::Float("0.1".to_string())),
        );
    }
    options
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_has_a_default() {
        for name in TABLE_OPTIONS {
            assert!(table_option_default(name).is_some(), "{name}");
        }
        assert!(table_option_default("nope").is_none());
    }

    #[test]
    fn lcs_changes_the_bloom_default() {
        let params = TableParams {
            compaction_class: "LeveledCompactionStrategy".into(),
            ..TableParams::default()
        };
        assert_eq!(params.bloom(), 0.1);
        assert_eq!(TableParams::default().bloom(), 0.01);
    }

    #[test]
    fn stored_options_read_back() {
        let params = TableParams::of_options(&default_options(&TableParams::default()));
        let expected = TableParams {
            bloom_filter_fp_chance: Some(0.01),
            ..TableParams::default()
        };
        assert_eq!(params, expected);
    }
}
