//! K001 `simple-strategy`.

use super::super::{Finding, Level, Rule, StatementContext};
use super::finding;
use crate::syntax::ast::{Ident, Literal, Property, PropertyValue, Statement};

/// A keyspace replicated with `SimpleStrategy`.
pub struct SimpleStrategy;

/// The keyspace name and `replication` property of a CREATE / ALTER
/// KEYSPACE statement.
pub(super) fn replication_property<'a>(
    cx: &'a StatementContext<'_>,
) -> Option<(&'a Ident, &'a Property)> {
    let (name, properties) = match cx.statement {
        Statement::CreateKeyspace(k) => (&k.name, &k.properties),
        Statement::AlterKeyspace(k) => (&k.name, &k.properties),
        _ => return None,
    };
    let property = properties.iter().find(|p| p.name.name == "replication")?;
    Some((name, property))
}

/// The `class` of a replication map, as written.
fn replication_class(property: &Property) -> Option<&str> {
    let PropertyValue::Map(entries) = &property.value else {
        return None;
    };
    entries.iter().find_map(|(k, v)| match (k, v) {
        (Literal::String(k), Literal::String(v)) if k == "class" => Some(v.as_str()),
        _ => None,
    })
}

impl Rule for SimpleStrategy {
    fn name(&self) -> &'static str {
        "simple-strategy"
    }
    fn code(&self) -> &'static str {
        "K001"
    }
    fn default_level(&self) -> Level {
        Level::Warning
    }
    fn summary(&self) -> &'static str {
        "SimpleStrategy ignores data centres and racks"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\nReports CREATE KEYSPACE and ALTER KEYSPACE with `'class': 'SimpleStrategy'`.\n\n\
         ## Why it matters on a cluster\n\n`SimpleStrategy` places replicas on the next nodes of the ring, blind to \
         racks and data centres: all replicas of a partition can sit in one rack (one failure domain), and adding a \
         second data centre later means changing the strategy, running a full repair, and rewriting every client's \
         consistency levels. `LOCAL_QUORUM` and per-data-centre factors have no meaning with it. Cassandra 5.0 can \
         refuse it outright through the guardrail `simplestrategy_enabled: false`.\n\n\
         ## Example\n\n```cql\nCREATE KEYSPACE shop\n  WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};\n```\n\n\
         ## Instead\n\n```cql\nCREATE KEYSPACE shop\n  WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};\n```\n\n\
         ## Options\n\nNone.\n\n## References\n\nCassandra documentation, *Replication: NetworkTopologyStrategy*; \
         Cassandra 5.0 guardrail `simplestrategy_enabled` (CASSANDRA-17647).\n"
    }
    fn check_statement(&self, cx: &StatementContext<'_>, out: &mut Vec<Finding>) {
        let Some((keyspace, property)) = replication_property(cx) else {
            return;
        };
        let Some(class) = replication_class(property) else {
            return;
        };
        if class != "SimpleStrategy" && class != "org.apache.cassandra.locator.SimpleStrategy" {
            return;
        }
        let mut f = finding(
            self,
            cx,
            property.span,
            format!(
                "keyspace {} uses SimpleStrategy, which ignores racks and data centres",
                keyspace.name
            ),
        );
        let dc = cx
            .planner
            .ring
            .datacenters()
            .first()
            .cloned()
            .unwrap_or_else(|| "datacenter1".into());
        f.help = Some(format!(
            "use NetworkTopologyStrategy: replication = {{'class': 'NetworkTopologyStrategy', '{dc}': 3}}"
        ));
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::{Finding, Level, LintConfig, Linter};

    fn lint(text: &str) -> Vec<Finding> {
        let mut linter = Linter::new(LintConfig {
            select: vec!["K001".into()],
            ..Default::default()
        });
        let mut findings = linter.lint_str("t.cql", text);
        findings.extend(linter.finish());
        findings
    }

    #[test]
    fn simple_strategy_is_reported() {
        let f = lint(
            "CREATE KEYSPACE ks\n  WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};\n\
             ALTER KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};",
        );
        assert_eq!(f.len(), 2, "{f:?}");
        assert_eq!(f[0].name, "simple-strategy");
        assert_eq!(f[0].code, "K001");
        assert_eq!(f[0].level, Level::Warning);
        assert_eq!((f[0].location.line, f[0].location.column), (2, 8));
        assert_eq!(f[1].location.line, 3);
        assert!(f[0].message.contains("keyspace ks"));
        assert!(f[0]
            .help
            .as_deref()
            .unwrap_or("")
            .contains("'datacenter1': 3"));
    }

    #[test]
    fn network_topology_is_quiet() {
        let f = lint(
            "CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3};\n\
             ALTER KEYSPACE ks WITH durable_writes = true;",
        );
        assert!(f.is_empty(), "{f:?}");
    }
}
