//! Which rules run, at which level, with which options. Read from the
//! `[lint]` table of `widerow.toml` (see [`LintConfig::from_toml`]); flags
//! on the command line override it.

use indexmap::IndexMap;
use serde::Serialize;

use super::Rule;

/// The linter's configuration.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LintConfig {
    /// Rules to run: codes, code prefixes (`Q`, `Q00`) or names. Empty: all.
    pub select: Vec<String>,
    /// Rules never to run.
    pub ignore: Vec<String>,
    /// Rules to run in addition to `select`.
    pub extend_select: Vec<String>,
    /// Per file pattern (a glob on the path), rules to ignore there.
    pub per_file_ignores: IndexMap<String, Vec<String>>,
    /// Per rule name, its options (thresholds), as written.
    pub options: IndexMap<String, serde_json::Map<String, serde_json::Value>>,
    /// The Cassandra version the rules judge against.
    pub target: String,
}

impl Default for LintConfig {
    fn default() -> LintConfig {
        LintConfig {
            select: Vec::new(),
            ignore: Vec::new(),
            extend_select: Vec::new(),
            per_file_ignores: IndexMap::new(),
            options: IndexMap::new(),
            target: "cassandra-5".into(),
        }
    }
}

/// Whether a selector (code, code prefix or name) names `rule`.
pub fn selector_matches(selector: &str, rule: &dyn Rule) -> bool {
    let code = rule.code();
    selector == rule.name()
        || (!selector.is_empty()
            && code.len() >= selector.len()
            && code.is_char_boundary(selector.len())
            && code[..selector.len()].eq_ignore_ascii_case(selector))
}

/// A minimal glob: `*` matches any run of characters except `/`, `**`
/// any run including `/`, `?` one character.
pub fn glob_matches(pattern: &str, path: &str) -> bool {
    fn go(p: &[u8], s: &[u8]) -> bool {
        match p.first() {
            None => s.is_empty(),
            Some(b'*') if p.get(1) == Some(&b'*') => {
                let rest = p[2..].strip_prefix(b"/").unwrap_or(&p[2..]);
                (0..=s.len()).any(|i| go(rest, &s[i..]))
            }
            Some(b'*') => (0..=s.len())
                .take_while(|&i| i == 0 || s[i - 1] != b'/')
                .any(|i| go(&p[1..], &s[i..])),
            Some(b'?') => !s.is_empty() && go(&p[1..], &s[1..]),
            Some(c) => s.first() == Some(c) && go(&p[1..], &s[1..]),
        }
    }
    go(pattern.as_bytes(), path.as_bytes()) || path.ends_with(&format!("/{pattern}"))
}

impl LintConfig {
    /// Whether `rule` runs on `file`.
    pub fn is_enabled(&self, rule: &dyn Rule, file: &str) -> bool {
        let selected = self.select.is_empty()
            || self.select.iter().any(|s| selector_matches(s, rule))
            || self.extend_select.iter().any(|s| selector_matches(s, rule));
        let ignored = self.ignore.iter().any(|s| selector_matches(s, rule))
            || self.per_file_ignores.iter().any(|(pattern, rules)| {
                glob_matches(pattern, file) && rules.iter().any(|s| selector_matches(s, rule))
            });
        selected && !ignored
    }

    /// A numeric option of a rule, or `default`.
    pub fn option_u64(&self, rule: &str, key: &str, default: u64) -> u64 {
        self.options
            .get(rule)
            .and_then(|o| o.get(key))
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(default)
    }

    /// A list-of-words option of a rule, if set.
    pub fn option_words(&self, rule: &str, key: &str) -> Option<Vec<String>> {
        let list = self.options.get(rule)?.get(key)?.as_array()?;
        Some(
            list.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
        )
    }
}

/// The keys `[lint]` accepts in `widerow.toml`.
const LINT_KEYS: &[&str] = &[
    "select",
    "ignore",
    "extend-select",
    "per-file-ignores",
    "options",
    "target",
];

/// The Cassandra versions the rules can judge against.
pub const TARGETS: &[&str] = &["cassandra-5"];

/// The name of the configuration file.
pub const CONFIG_FILE_NAME: &str = "widerow.toml";

/// A whole `widerow.toml`: the linter's `[lint]` table and the `[limits]`
/// table every mode reads (kept as written; its keys belong to the modes
/// that use them).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ConfigFile {
    /// `[lint]`.
    pub lint: LintConfig,
    /// `[limits]`, as written.
    pub limits: toml::Table,
    /// `[cassandra]`, as written: the cassandra.yaml switches
    /// (`SchemaSettings::CONFIG_KEYS`).
    pub cassandra: toml::Table,
}

impl ConfigFile {
    /// Reads the text of a `widerow.toml`. Unknown tables and keys are
    /// refused with a message naming them.
    pub fn from_toml(text: &str) -> Result<ConfigFile, String> {
        let table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| format!("invalid TOML: {}", e.message().trim_end()))?;
        let mut config = ConfigFile::default();
        for (key, value) in table {
            match key.as_str() {
                "lint" => {
                    let lint = as_table(&value, "lint")?;
                    config.lint = LintConfig::from_lint_table(lint)?;
                }
                "limits" => config.limits = as_table(&value, "limits")?.clone(),
                "cassandra" => {
                    let cassandra = as_table(&value, "cassandra")?;
                    crate::schema::SchemaSettings::from_table(cassandra)?;
                    config.cassandra = cassandra.clone();
                }
                other => {
                    return Err(format!(
                        "unknown table `{other}` (expected `lint`, `limits` or `cassandra`)"
                    ))
                }
            }
        }
        Ok(config)
    }

    /// The configuration as `widerow.toml` text.
    pub fn to_toml(&self) -> String {
        let mut table = toml::Table::new();
        table.insert("lint".into(), toml::Value::Table(self.lint.to_toml_table()));
        table.insert("limits".into(), toml::Value::Table(self.limits.clone()));
        if !self.cassandra.is_empty() {
            let cassandra = toml::Value::Table(self.cassandra.clone());
            table.insert("cassandra".into(), cassandra);
        }
        toml::to_string(&table).unwrap_or_default()
    }
}

/// The `widerow.toml` that applies in `start`: the first one found there or
/// in a directory above it.
pub fn find_config_file(start: &std::path::Path) -> Option<std::path::PathBuf> {
    start
        .ancestors()
        .map(|dir| dir.join(CONFIG_FILE_NAME))
        .find(|candidate| candidate.is_file())
}

fn as_table<'a>(value: &'a toml::Value, key: &str) -> Result<&'a toml::Table, String> {
    value
        .as_table()
        .ok_or_else(|| format!("`{key}` must be a table, not {}", value.type_str()))
}

fn string_list(value: &toml::Value, key: &str) -> Result<Vec<String>, String> {
    let items = value.as_array().ok_or_else(|| {
        format!(
            "`{key}` must be a list of rule codes or names, not {}",
            value.type_str()
        )
    })?;
    items
        .iter()
        .map(|item| {
            item.as_str().map(str::to_string).ok_or_else(|| {
                format!(
                    "`{key}` must be a list of strings; found {}",
                    item.type_str()
                )
            })
        })
        .collect()
}

/// A TOML value as JSON (TOML has no null, so every value converts).
fn toml_to_json(value: &toml::Value) -> serde_json::Value {
    match value {
        toml::Value::String(s) => serde_json::Value::String(s.clone()),
        toml::Value::Integer(i) => serde_json::Value::from(*i),
        toml::Value::Float(f) => serde_json::Number::from_f64(*f)
            .map_or_else(|| serde_json::Value::String(f.to_string()), Into::into),
        toml::Value::Boolean(b) => serde_json::Value::Bool(*b),
        toml::Value::Datetime(d) => serde_json::Value::String(d.to_string()),
        toml::Value::Array(items) => items.iter().map(toml_to_json).collect(),
        toml::Value::Table(table) => serde_json::Value::Object(
            table
                .iter()
                .map(|(k, v)| (k.clone(), toml_to_json(v)))
                .collect(),
        ),
    }
}

/// A JSON value as TOML; `null` (which TOML lacks) becomes an empty string.
fn json_to_toml(value: &serde_json::Value) -> toml::Value {
    match value {
        serde_json::Value::Null => toml::Value::String(String::new()),
        serde_json::Value::Bool(b) => toml::Value::Boolean(*b),
        serde_json::Value::Number(n) => n
            .as_i64()
            .map(toml::Value::Integer)
            .or_else(|| n.as_f64().map(toml::Value::Float))
            .unwrap_or_else(|| toml::Value::String(n.to_string())),
        serde_json::Value::String(s) => toml::Value::String(s.clone()),
        serde_json::Value::Array(items) => {
            toml::Value::Array(items.iter().map(json_to_toml).collect())
        }
        serde_json::Value::Object(map) => toml::Value::Table(
            map.iter()
                .map(|(k, v)| (k.clone(), json_to_toml(v)))
                .collect(),
        ),
    }
}

fn words(list: &[String]) -> toml::Value {
    toml::Value::Array(list.iter().cloned().map(toml::Value::String).collect())
}

impl LintConfig {
    /// Reads the `[lint]` table of a `widerow.toml` (the whole file's text;
    /// its `[limits]` table is accepted and left to [`ConfigFile`]).
    /// Unknown keys, and targets other than those in [`TARGETS`], are
    /// refused with a message naming them.
    pub fn from_toml(text: &str) -> Result<LintConfig, String> {
        ConfigFile::from_toml(text).map(|file| file.lint)
    }

    /// Reads the contents of a `[lint]` table.
    fn from_lint_table(table: &toml::Table) -> Result<LintConfig, String> {
        let mut config = LintConfig::default();
        for (key, value) in table {
            let path = format!("lint.{key}");
            match key.as_str() {
                "select" => config.select = string_list(value, &path)?,
                "ignore" => config.ignore = string_list(value, &path)?,
                "extend-select" => config.extend_select = string_list(value, &path)?,
                "per-file-ignores" => {
                    for (pattern, rules) in as_table(value, &path)? {
                        let rules = string_list(rules, &format!("{path}.\"{pattern}\""))?;
                        config.per_file_ignores.insert(pattern.clone(), rules);
                    }
                }
                "options" => {
                    for (rule, options) in as_table(value, &path)? {
                        let options = as_table(options, &format!("{path}.{rule}"))?;
                        let map = options
                            .iter()
                            .map(|(k, v)| (k.clone(), toml_to_json(v)))
                            .collect();
                        config.options.insert(rule.clone(), map);
                    }
                }
                "target" => {
                    let target = value.as_str().ok_or_else(|| {
                        format!("`{path}` must be a string, not {}", value.type_str())
                    })?;
                    if !TARGETS.contains(&target) {
                        return Err(format!(
                            "unsupported target `{target}` in `{path}` (supported: {})",
                            TARGETS.join(", ")
                        ));
                    }
                    config.target = target.to_string();
                }
                other => {
                    return Err(format!(
                        "unknown key `{other}` in [lint] (expected one of: {})",
                        LINT_KEYS.join(", ")
                    ))
                }
            }
        }
        Ok(config)
    }

    /// The configuration as the contents of a `[lint]` table.
    pub fn to_toml_table(&self) -> toml::Table {
        let mut table = toml::Table::new();
        table.insert("select".into(), words(&self.select));
        table.insert("ignore".into(), words(&self.ignore));
        table.insert("extend-select".into(), words(&self.extend_select));
        table.insert("target".into(), toml::Value::String(self.target.clone()));
        let per_file: toml::Table = self
            .per_file_ignores
            .iter()
            .map(|(pattern, rules)| (pattern.clone(), words(rules)))
            .collect();
        table.insert("per-file-ignores".into(), toml::Value::Table(per_file));
        let options: toml::Table = self
            .options
            .iter()
            .map(|(rule, map)| {
                let map: toml::Table = map
                    .iter()
                    .map(|(k, v)| (k.clone(), json_to_toml(v)))
                    .collect();
                (rule.clone(), toml::Value::Table(map))
            })
            .collect();
        table.insert("options".into(), toml::Value::Table(options));
        table
    }

    /// Checks the selectors and option tables against `rules`: a selector
    /// must name a rule, or be a code prefix of a known category letter
    /// (rules of a category may be added later); an option table must
    /// name a rule.
    pub fn check_rules(&self, rules: &[Box<dyn Rule>]) -> Result<(), String> {
        let lists = [
            ("select", &self.select),
            ("ignore", &self.ignore),
            ("extend-select", &self.extend_select),
        ];
        let per_file = self
            .per_file_ignores
            .values()
            .map(|list| ("per-file-ignores", list));
        for (key, list) in lists.into_iter().chain(per_file) {
            for selector in list {
                if !selector_is_known(selector, rules) {
                    return Err(format!(
                        "unknown rule `{selector}` in `{key}` (see `widerow rules`)"
                    ));
                }
            }
        }
        for rule in self.options.keys() {
            if !rules.iter().any(|r| r.name() == rule) {
                return Err(format!(
                    "options for unknown rule `{rule}` in [lint.options] (use the rule's name, see `widerow rules`)"
                ));
            }
        }
        Ok(())
    }
}

/// Whether `selector` names a rule of `rules` or is a code prefix (a
/// category letter, then digits).
fn selector_is_known(selector: &str, rules: &[Box<dyn Rule>]) -> bool {
    if rules.iter().any(|r| selector_matches(selector, r.as_ref())) {
        return true;
    }
    let mut chars = selector.chars();
    matches!(
        chars.next().map(|c| c.to_ascii_uppercase()),
        Some('E' | 'Q' | 'M' | 'K' | 'W' | 'S')
    ) && chars.as_str().len() < 3
        && chars.all(|c| c.is_ascii_digit())
}
