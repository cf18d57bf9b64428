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
    selector == rule.name()
        || (!selector.is_empty()
            && rule
                .code()
                .to_ascii_uppercase()
                .starts_with(&selector.to_ascii_uppercase()))
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
