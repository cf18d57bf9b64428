//! CREATE / ALTER / DROP KEYSPACE and USE, with replication read the way
//! `ReplicationParams`, the strategies' `prepareOptions` and their
//! validation read it in Cassandra 5.0.

use indexmap::IndexMap;

use crate::error::{Error, ErrorKind};
use crate::syntax::ast::{AlterKeyspace, CreateKeyspace, Drop, Use};
use crate::syntax::span::Span;

use super::super::catalog::{Catalog, SchemaSettings};
use super::super::keyspace::{Keyspace, Replication};
use super::options::Props;
use super::{check_modifiable, config, ire, java_parse_int, SchemaChange, SchemaObject};

/// The properties a keyspace takes (`KeyspaceParams.Option`).
const KEYSPACE_PROPERTIES: [&str; 2] = ["durable_writes", "replication"];

const LOCATOR: &str = "org.apache.cassandra.locator.";

impl Replication {
    /// The strategy options as Cassandra stores them (everything but
    /// `class`), factors as strings.
    pub fn options(&self) -> IndexMap<String, String> {
        match self {
            Replication::Simple { factor } => {
                IndexMap::from([("replication_factor".to_string(), factor.to_string())])
            }
            Replication::NetworkTopology { factors } => factors
                .iter()
                .map(|(dc, n)| (dc.clone(), n.to_string()))
                .collect(),
            Replication::Local => IndexMap::new(),
        }
    }
}

/// The strategies a replication map may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Strategy {
    Simple,
    NetworkTopology,
    Local,
}

/// `AbstractReplicationStrategy.getClass`: short names live in
/// `org.apache.cassandra.locator`; class names are case-sensitive.
fn strategy_class(class: &str) -> Result<Strategy, Error> {
    let full = if class.contains('.') {
        class.to_string()
    } else {
        format!("{LOCATOR}{class}")
    };
    match full.strip_prefix(LOCATOR) {
        Some("SimpleStrategy") => Ok(Strategy::Simple),
        Some("NetworkTopologyStrategy") => Ok(Strategy::NetworkTopology),
        Some("LocalStrategy") => Ok(Strategy::Local),
        Some("OldNetworkTopologyStrategy") => Err(config(
            "The support for the OldNetworkTopologyStrategy has been removed in C* version 4.0. The keyspace strategy should be switch to NetworkTopologyStrategy",
        )),
        _ => Err(config(format!(
            "Unable to find replication strategy class '{full}'"
        ))),
    }
}

/// `ReplicationFactor.fromString` and its checks: the number of replicas,
/// or the message of the exception Cassandra turns into a
/// ConfigurationException. Transient replication (`3/1`) is disabled, as in
/// a stock 5.0 node.
fn replication_factor(text: &str) -> Result<u32, String> {
    let total = if text.contains('/') {
        let mut parts: Vec<&str> = text.split('/').collect();
        while parts.last() == Some(&"") {
            parts.pop();
        }
        if parts.len() != 2 {
            return Err("Replication factor format is <replicas> or <replicas>/<transient>".into());
        }
        let total = java_parse_int(parts[0])?;
        let transient = java_parse_int(parts[1])?;
        if transient != 0 {
            return Err("Transient replication is not enabled on this node".into());
        }
        total
    } else {
        java_parse_int(text)?
    };
    u32::try_from(total)
        .map_err(|_| format!("Replication factor must be non-negative, found {total}"))
}

/// The strategy's `prepareOptions`: fills in the default factor and, for
/// NetworkTopologyStrategy, expands `replication_factor` to every data
/// centre and drops data centres given 0.
fn prepare_options(
    strategy: Strategy,
    options: &mut IndexMap<String, String>,
    previous: &IndexMap<String, String>,
    settings: &SchemaSettings,
) {
    let default_rf = || {
        previous
            .get("replication_factor")
            .cloned()
            .unwrap_or_else(|| settings.default_keyspace_rf.to_string())
    };
    match strategy {
        Strategy::Simple => {
            if !options.contains_key("replication_factor") {
                options.insert("replication_factor".to_string(), default_rf());
            }
        }
        Strategy::NetworkTopology => {
            if options.is_empty() {
                options.insert("replication_factor".to_string(), default_rf());
            }
            let mut replication = options.shift_remove("replication_factor");
            if replication.is_none() && options.is_empty() {
                replication = previous.get("replication_factor").cloned();
            } else if replication.is_some() {
                for (dc, rf) in previous {
                    if dc != "replication_factor" && !options.contains_key(dc) {
                        options.insert(dc.clone(), rf.clone());
                    }
                }
            }
            if let Some(replication) = replication {
                // Cassandra calls this hook by reflection and swallows its
                // exceptions: a bad factor here simply expands to nothing.
                let Ok(rf) = replication_factor(&replication) else {
                    return;
                };
                for dc in &settings.datacenters {
                    if !options.contains_key(dc) {
                        options.insert(dc.clone(), rf.to_string());
                    }
                }
            }
            options.retain(|_, rf| rf != "0");
        }
        Strategy::Local => {}
    }
}

/// The replication a keyspace gets from a `replication` map (`class`
/// present), checked as `KeyspaceParams.validate` checks it.
fn replication_from_map(
    keyspace: &str,
    map: &IndexMap<String, String>,
    previous: Option<&Replication>,
    settings: &SchemaSettings,
) -> Result<Replication, Error> {
    let mut options = map.clone();
    let class = options.shift_remove("class").unwrap_or_default();
    let strategy = strategy_class(&class)?;
    let previous_options = previous.map(Replication::options).unwrap_or_default();
    prepare_options(strategy, &mut options, &previous_options, settings);
    let factor = |text: &String| replication_factor(text).map_err(config);
    match strategy {
        Strategy::Local => Err(ire(
            "Unable to use given strategy class: LocalStrategy is reserved for internal use.",
        )),
        Strategy::Simple => {
            let Some(rf) = options.get("replication_factor") else {
                return Err(config(
                    "SimpleStrategy requires a replication_factor strategy option.",
                ));
            };
            let factor = factor(rf)?;
            if let Some(other) = options.keys().find(|k| *k != "replication_factor") {
                return Err(config(format!(
                    "Unrecognized strategy option {{{other}}} passed to SimpleStrategy for keyspace {keyspace}"
                )));
            }
            Ok(Replication::Simple { factor })
        }
        Strategy::NetworkTopology => {
            let mut factors = IndexMap::new();
            for (dc, rf) in &options {
                if dc.eq_ignore_ascii_case("replication_factor") {
                    return Err(config(
                        "replication_factor should not appear as an option at construction time for NetworkTopologyStrategy",
                    ));
                }
                factors.insert(dc.clone(), factor(rf)?);
            }
            if factors.is_empty() {
                return Err(config(
                    "Configuration for at least one datacenter must be present",
                ));
            }
            if let Some(dc) = factors.keys().find(|dc| !settings.datacenters.contains(dc)) {
                return Err(config(format!(
                    "Unrecognized strategy option {{{dc}}} passed to NetworkTopologyStrategy for keyspace {keyspace}"
                )));
            }
            Ok(Replication::NetworkTopology { factors })
        }
    }
}

/// `KeyspaceAttributes.validate`: known names only, and a replication map,
/// when given and not empty, must name its class.
fn validate_attributes(props: &Props<'_>) -> Result<Option<IndexMap<String, String>>, Error> {
    props.check_known(&KEYSPACE_PROPERTIES)?;
    let replication = props.map("replication")?;
    if let Some(map) = &replication {
        if !map.contains_key("class") {
            return Err(props.located("replication", config("Missing replication strategy class")));
        }
    }
    Ok(replication)
}

impl Catalog {
    /// `CREATE KEYSPACE`.
    pub(super) fn create_keyspace(&mut self, s: &CreateKeyspace) -> Result<SchemaChange, Error> {
        let name = s.name.name.as_str();
        check_modifiable(name, s.name.span)?;
        let props = Props::new(&s.properties);
        let Some(replication) = validate_attributes(&props)? else {
            return Err(ire("Missing mandatory option 'replication'").with_span(s.span));
        };
        if self.keyspaces.contains_key(name) {
            if s.if_not_exists {
                return Ok(SchemaChange::NoOp);
            }
            return Err(Error::new(
                ErrorKind::AlreadyExists,
                format!("Cannot add existing keyspace \"{name}\""),
            )
            .with_span(s.name.span));
        }
        let durable_writes = props.boolean("durable_writes")?.unwrap_or(true);
        let replication = replication_from_map(name, &replication, None, &self.settings)
            .map_err(|e| props.located("replication", e))?;
        self.keyspaces.insert(
            name.to_string(),
            Keyspace {
                name: name.to_string(),
                replication,
                durable_writes,
                tables: crate::schema::NameMap::default(),
                types: IndexMap::new(),
            },
        );
        Ok(SchemaChange::Created(SchemaObject::Keyspace(
            name.to_string(),
        )))
    }

    /// `ALTER KEYSPACE`.
    pub(super) fn alter_keyspace(&mut self, s: &AlterKeyspace) -> Result<SchemaChange, Error> {
        let name = s.name.name.as_str();
        check_modifiable(name, s.name.span)?;
        let props = Props::new(&s.properties);
        let replication = validate_attributes(&props)?;
        let Some(keyspace) = self.keyspaces.get(name) else {
            if s.if_exists {
                return Ok(SchemaChange::NoOp);
            }
            return Err(ire(format!("Keyspace '{name}' doesn't exist")).with_span(s.name.span));
        };
        let durable_writes = props
            .boolean("durable_writes")?
            .unwrap_or(keyspace.durable_writes);
        let replication = match replication {
            Some(map) => {
                replication_from_map(name, &map, Some(&keyspace.replication), &self.settings)
                    .map_err(|e| props.located("replication", e))?
            }
            None => keyspace.replication.clone(),
        };
        if replication == keyspace.replication && durable_writes == keyspace.durable_writes {
            return Ok(SchemaChange::NoOp);
        }
        if let Some(keyspace) = self.keyspaces.get_mut(name) {
            keyspace.replication = replication;
            keyspace.durable_writes = durable_writes;
        }
        Ok(SchemaChange::Altered(SchemaObject::Keyspace(
            name.to_string(),
        )))
    }

    /// `DROP KEYSPACE`.
    pub(super) fn drop_keyspace(&mut self, s: &Drop) -> Result<SchemaChange, Error> {
        let name = s.name.name.name.as_str();
        check_modifiable(name, s.name.span)?;
        if self.keyspaces.shift_remove(name).is_some() {
            return Ok(SchemaChange::Dropped(SchemaObject::Keyspace(
                name.to_string(),
            )));
        }
        if s.if_exists {
            return Ok(SchemaChange::NoOp);
        }
        Err(ire(format!("Keyspace '{name}' doesn't exist")).with_span(s.name.span))
    }

    /// `USE`: only checks that the keyspace exists.
    pub(super) fn use_keyspace(&self, s: &Use) -> Result<SchemaChange, Error> {
        let name = &s.keyspace.name;
        if self.keyspaces.contains_key(name) {
            Ok(SchemaChange::UseKeyspace(name.clone()))
        } else {
            Err(ire(format!("Keyspace '{name}' does not exist")).with_span(s.keyspace.span))
        }
    }

    /// The keyspace `name`, or `Keyspace 'name' doesn't exist` pointing at
    /// `span` (the text most CREATE statements use).
    pub(super) fn existing_keyspace(&self, name: &str, span: Span) -> Result<&Keyspace, Error> {
        self.keyspaces
            .get(name)
            .ok_or_else(|| ire(format!("Keyspace '{name}' doesn't exist")).with_span(span))
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::*;

    const CONFIG: ErrorKind = ErrorKind::ConfigurationException;

    #[test]
    fn creates_simple_and_network_topology_keyspaces() {
        let mut catalog = Catalog::new();
        let change = run(
            &mut catalog,
            "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}",
        )
        .expect("created");
        assert_eq!(
            change,
            SchemaChange::Created(SchemaObject::Keyspace("ks".into()))
        );
        let ks = catalog.keyspace("ks").expect("exists");
        assert_eq!(ks.replication, Replication::Simple { factor: 3 });
        assert!(ks.durable_writes);

        run(
            &mut catalog,
            "CREATE KEYSPACE nts WITH replication = {'class': 'org.apache.cassandra.locator.NetworkTopologyStrategy', 'datacenter1': '2'} AND durable_writes = false",
        )
        .expect("created");
        let nts = catalog.keyspace("nts").expect("exists");
        assert_eq!(
            nts.replication,
            Replication::NetworkTopology {
                factors: IndexMap::from([("datacenter1".to_string(), 2)])
            }
        );
        assert!(!nts.durable_writes);
    }

    #[test]
    fn missing_factors_take_the_default() {
        let mut catalog = Catalog::new();
        setup(
            &mut catalog,
            &[
                "CREATE KEYSPACE a WITH replication = {'class': 'SimpleStrategy'}",
                "CREATE KEYSPACE b WITH replication = {'class': 'NetworkTopologyStrategy'}",
                "CREATE KEYSPACE c WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 3}",
            ],
        );
        let rf = |ks: &str| catalog.keyspace(ks).map(|k| k.replication.clone());
        assert_eq!(rf("a"), Some(Replication::Simple { factor: 1 }));
        let dc = |n| Replication::NetworkTopology {
            factors: IndexMap::from([("datacenter1".to_string(), n)]),
        };
        assert_eq!(rf("b"), Some(dc(1)));
        assert_eq!(rf("c"), Some(dc(3)));
    }

    #[test]
    fn if_not_exists_and_already_exists() {
        let mut catalog = catalog_with_ks();
        let change = run(
            &mut catalog,
            "CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2}",
        )
        .expect("no-op");
        assert_eq!(change, SchemaChange::NoOp);
        assert_eq!(
            catalog.keyspace("ks").map(|k| k.replication.clone()),
            Some(Replication::Simple { factor: 1 })
        );
        assert_error(
            &mut catalog,
            "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2}",
            ErrorKind::AlreadyExists,
            "Cannot add existing keyspace \"ks\"",
        );
    }

    #[test]
    fn replication_errors() {
        let mut catalog = catalog_with_ks();
        let create = |rest: &str| format!("CREATE KEYSPACE k2 WITH {rest}");
        assert_error(
            &mut catalog,
            &create("replication = {'replication_factor': 1}"),
            CONFIG,
            "Missing replication strategy class",
        );
        assert_error(
            &mut catalog,
            &create("replication = {}"),
            CONFIG,
            "Missing replication strategy class",
        );
        assert_invalid(
            &mut catalog,
            &create("durable_writes = true"),
            "Missing mandatory option 'replication'",
        );
        assert_error(
            &mut catalog,
            &create("replication = {'class': 'FooStrategy'}"),
            CONFIG,
            "Unable to find replication strategy class 'org.apache.cassandra.locator.FooStrategy'",
        );
        assert_error(
            &mut catalog,
            &create("replication = {'class': 'simplestrategy'}"),
            CONFIG,
            "Unable to find replication strategy class 'org.apache.cassandra.locator.simplestrategy'",
        );
        assert_error(
            &mut catalog,
            &create("replication = {'class': 'SimpleStrategy', 'replication_factor': 'three'}"),
            CONFIG,
            "For input string: \"three\"",
        );
        assert_error(
            &mut catalog,
            &create("replication = {'class': 'SimpleStrategy', 'replication_factor': -1}"),
            CONFIG,
            "Replication factor must be non-negative, found -1",
        );
        assert_error(
            &mut catalog,
            &create("replication = {'class': 'SimpleStrategy', 'replication_factor': '3/1'}"),
            CONFIG,
            "Transient replication is not enabled on this node",
        );
        assert_error(
            &mut catalog,
            &create("replication = {'class': 'SimpleStrategy', 'replication_factor': 1, 'dc1': 2}"),
            CONFIG,
            "Unrecognized strategy option {dc1} passed to SimpleStrategy for keyspace k2",
        );
        assert_error(
            &mut catalog,
            &create("replication = {'class': 'NetworkTopologyStrategy', 'dc9': 2}"),
            CONFIG,
            "Unrecognized strategy option {dc9} passed to NetworkTopologyStrategy for keyspace k2",
        );
        assert_error(
            &mut catalog,
            &create("replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 0}"),
            CONFIG,
            "Configuration for at least one datacenter must be present",
        );
        assert_error(
            &mut catalog,
            &create("replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 'x'}"),
            CONFIG,
            "For input string: \"x\"",
        );
        assert_error(
            &mut catalog,
            &create("replication = {'class': 'OldNetworkTopologyStrategy'}"),
            CONFIG,
            "The support for the OldNetworkTopologyStrategy has been removed in C* version 4.0. The keyspace strategy should be switch to NetworkTopologyStrategy",
        );
        assert_invalid(
            &mut catalog,
            &create("replication = {'class': 'LocalStrategy'}"),
            "Unable to use given strategy class: LocalStrategy is reserved for internal use.",
        );
        assert_error(
            &mut catalog,
            &create("replication = 'SimpleStrategy'"),
            ErrorKind::SyntaxException,
            "Invalid value for property 'replication'. It should be a map.",
        );
        assert_error(
            &mut catalog,
            &create("replication = {'class': 'SimpleStrategy'} AND foo = 1"),
            ErrorKind::SyntaxException,
            "Unknown property 'foo'",
        );
        assert_error(
            &mut catalog,
            &create("replication = {'class': 'SimpleStrategy'} AND durable_writes = 'maybe'"),
            ErrorKind::SyntaxException,
            "Invalid boolean value maybe for 'durable_writes'. Positive values can be '1', 'true' or 'yes'. Negative values can be '0', 'false' or 'no'.",
        );
    }

    #[test]
    fn keyspace_names_are_checked() {
        let mut catalog = Catalog::new();
        let long = "k".repeat(49);
        assert_invalid(
            &mut catalog,
            &format!("CREATE KEYSPACE {long} WITH replication = {{'class': 'SimpleStrategy'}}"),
            &format!("Keyspace name must not be more than 48 characters long (got 49 characters for \"{long}\")"),
        );
        assert_invalid(
            &mut catalog,
            "CREATE KEYSPACE \"my-ks\" WITH replication = {'class': 'SimpleStrategy'}",
            "Keyspace name must not be empty and must contain alphanumeric or underscore characters only (got \"my-ks\")",
        );
        run(
            &mut catalog,
            "CREATE KEYSPACE \"MyKs\" WITH replication = {'class': 'SimpleStrategy'}",
        )
        .expect("quoted names keep case");
        assert!(catalog.keyspace("MyKs").is_some());
    }

    #[test]
    fn alter_keyspace() {
        let mut catalog = catalog_with_ks();
        let change = run(
            &mut catalog,
            "ALTER KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}",
        )
        .expect("altered");
        assert_eq!(
            change,
            SchemaChange::Altered(SchemaObject::Keyspace("ks".into()))
        );
        run(
            &mut catalog,
            "ALTER KEYSPACE ks WITH durable_writes = false",
        )
        .expect("altered");
        let ks = catalog.keyspace("ks").expect("exists");
        assert_eq!(ks.replication, Replication::Simple { factor: 3 });
        assert!(!ks.durable_writes);
        // A class without a factor keeps the previous factor.
        run(
            &mut catalog,
            "ALTER KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy'}",
        )
        .expect("altered");
        assert_eq!(
            catalog.keyspace("ks").map(|k| k.replication.clone()),
            Some(Replication::NetworkTopology {
                factors: IndexMap::from([("datacenter1".to_string(), 3)])
            })
        );
        assert_eq!(
            run(
                &mut catalog,
                "ALTER KEYSPACE ks WITH durable_writes = false"
            ),
            Ok(SchemaChange::NoOp)
        );
        assert_invalid(
            &mut catalog,
            "ALTER KEYSPACE nope WITH durable_writes = true",
            "Keyspace 'nope' doesn't exist",
        );
        assert_eq!(
            run(
                &mut catalog,
                "ALTER KEYSPACE IF EXISTS nope WITH durable_writes = true"
            ),
            Ok(SchemaChange::NoOp)
        );
        assert_error(
            &mut catalog,
            "ALTER KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 'x'}",
            CONFIG,
            "For input string: \"x\"",
        );
    }

    #[test]
    fn drop_and_use() {
        let mut catalog = catalog_with_ks();
        assert_eq!(
            run(&mut catalog, "USE ks"),
            Ok(SchemaChange::UseKeyspace("ks".into()))
        );
        assert_invalid(&mut catalog, "USE nope", "Keyspace 'nope' does not exist");
        assert_eq!(
            run(&mut catalog, "DROP KEYSPACE ks"),
            Ok(SchemaChange::Dropped(SchemaObject::Keyspace("ks".into())))
        );
        assert_invalid(
            &mut catalog,
            "DROP KEYSPACE ks",
            "Keyspace 'ks' doesn't exist",
        );
        assert_eq!(
            run(&mut catalog, "DROP KEYSPACE IF EXISTS ks"),
            Ok(SchemaChange::NoOp)
        );
    }
}
