//! K002 `minimum-replication-factor`.

use super::super::{Finding, Level, Rule, StatementContext};
use super::finding;
use super::simple_strategy::replication_property;
use crate::schema::Replication;

/// A keyspace with fewer replicas than a cluster needs to survive a node
/// loss at QUORUM.
pub struct MinimumReplicationFactor;

/// The default minimum: three replicas, so QUORUM survives one node down.
const DEFAULT_MINIMUM: u64 = 3;

impl Rule for MinimumReplicationFactor {
    fn name(&self) -> &'static str {
        "minimum-replication-factor"
    }
    fn code(&self) -> &'static str {
        "K002"
    }
    fn default_level(&self) -> Level {
        Level::Warning
    }
    fn summary(&self) -> &'static str {
        "a replication factor below the minimum (3 by default), per data centre"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\nReports CREATE KEYSPACE and ALTER KEYSPACE whose replication factor is below a minimum \
         (3 by default): the factor of `SimpleStrategy`, or the factor of each data centre of \
         `NetworkTopologyStrategy` (a data centre given 0 replicas is deliberately left out, and not reported).\n\n\
         ## Why it matters on a cluster\n\nWith one replica, a node down makes its data unavailable and a lost disk \
         loses it. With two, `QUORUM` (2 of 2) fails as soon as one replica is down, so reads and writes that need \
         consistency stop during every rolling restart. Three replicas let `QUORUM` / `LOCAL_QUORUM` survive one \
         node down per data centre. Cassandra 5.0 has the same check as guardrails \
         `minimum_replication_factor_warn_threshold` and `minimum_replication_factor_fail_threshold`.\n\n\
         ## Example\n\n```cql\nCREATE KEYSPACE shop\n  WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc2': 1};\n```\n\n\
         ## Instead\n\n```cql\nCREATE KEYSPACE shop\n  WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc2': 3};\n```\n\n\
         ## Options\n\n```toml\n[lint.options.minimum-replication-factor]\nminimum = 3  # the smallest factor accepted per data centre\n```\n\n\
         ## References\n\nCassandra documentation, *Data replication*; Cassandra 5.0 guardrails \
         `minimum_replication_factor_warn_threshold` / `_fail_threshold` (CASSANDRA-17500).\n"
    }
    fn check_statement(&self, cx: &StatementContext<'_>, out: &mut Vec<Finding>) {
        let Some((keyspace, property)) = replication_property(cx) else {
            return;
        };
        if keyspace.name.starts_with("system") {
            return;
        }
        let Some(ks) = cx.planner.catalog.keyspace(&keyspace.name) else {
            return;
        };
        let minimum = cx
            .config
            .option_u64(self.name(), "minimum", DEFAULT_MINIMUM);
        let low: Vec<(Option<&str>, u32)> = match &ks.replication {
            Replication::Simple { factor } => vec![(None, *factor)],
            Replication::NetworkTopology { factors } => factors
                .iter()
                .filter(|(_, f)| **f > 0)
                .map(|(dc, f)| (Some(dc.as_str()), *f))
                .collect(),
            Replication::Local => Vec::new(),
        };
        let low: Vec<String> = low
            .into_iter()
            .filter(|(_, f)| u64::from(*f) < minimum)
            .map(|(dc, f)| match dc {
                Some(dc) => format!("{f} in {dc}"),
                None => format!("{f}"),
            })
            .collect();
        if low.is_empty() {
            return;
        }
        let mut f = finding(
            self,
            cx,
            property.span,
            format!(
                "keyspace {} has replication factor {}, below the minimum of {minimum}",
                ks.name,
                low.join(", ")
            ),
        );
        f.help = Some(format!(
            "give every data centre at least {minimum} replicas, so that QUORUM survives a node down"
        ));
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::{Finding, Level, LintConfig, Linter};

    fn lint_with(config: LintConfig, text: &str) -> Vec<Finding> {
        let mut linter = Linter::new(config);
        let mut findings = linter.lint_str("t.cql", text);
        findings.extend(linter.finish());
        findings
    }

    fn lint(text: &str) -> Vec<Finding> {
        lint_with(
            LintConfig {
                select: vec!["K002".into()],
                ..Default::default()
            },
            text,
        )
    }

    #[test]
    fn simple_factor_one() {
        let f = lint("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};");
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].name, "minimum-replication-factor");
        assert_eq!(f[0].code, "K002");
        assert_eq!(f[0].level, Level::Warning);
        assert_eq!((f[0].location.line, f[0].location.column), (1, 25));
        assert_eq!(
            f[0].message,
            "keyspace ks has replication factor 1, below the minimum of 3"
        );
    }

    #[test]
    fn per_datacentre() {
        let f = lint(
            "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc2': 2, 'dc3': 0};",
        );
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(
            f[0].message,
            "keyspace ks has replication factor 2 in dc2, below the minimum of 3"
        );
        let f = lint("CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3};");
        assert!(f.is_empty(), "{f:?}");
    }

    #[test]
    fn minimum_option() {
        let mut config = LintConfig {
            select: vec!["K002".into()],
            ..Default::default()
        };
        let mut options = serde_json::Map::new();
        options.insert("minimum".into(), serde_json::json!(2));
        config
            .options
            .insert("minimum-replication-factor".into(), options);
        let text = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2};";
        assert!(lint_with(config, text).is_empty());
        assert_eq!(lint(text).len(), 1);
    }
}
