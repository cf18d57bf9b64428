//! The catalog: every keyspace, table, index and type a session knows.

use super::keyspace::Keyspace;
use super::table::Table;
use crate::error::Error;
use crate::syntax::ast::QualifiedName;
use crate::types::{DataType, UdtLookup};

/// All schema objects, keyspaces in creation order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Catalog {
    pub(crate) keyspaces: super::NameMap<Keyspace>,
    pub(crate) settings: SchemaSettings,
}

/// The `cassandra.yaml` settings that decide which schema statements a node
/// accepts, with stock Cassandra 5.0's defaults, so a schema that a stock
/// node refuses is refused here too. `[cassandra]` in `widerow.toml` (keys
/// as [`SchemaSettings::CONFIG_KEYS`] lists them) or a flag changes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaSettings {
    /// `materialized_views_enabled`, `false` as stock 5.0 ships it: CREATE
    /// MATERIALIZED VIEW then fails with `Materialized views are disabled.
    /// Enable in cassandra.yaml to use.`
    pub materialized_views_enabled: bool,
    /// `sasi_indexes_enabled`, `false` as stock 5.0 ships it.
    pub sasi_indexes_enabled: bool,
    /// Refuse a NetworkTopologyStrategy keyspace naming a data centre the
    /// ring lacks, as Cassandra does. Off by default: the ring grows to fit
    /// (a note says so), so a production schema pastes in as is
    /// (`docs/divergences.md`).
    pub strict_datacenters: bool,
    /// The data centres of the simulated cluster: the only names
    /// NetworkTopologyStrategy accepts, and where `replication_factor`
    /// expands to.
    pub datacenters: Vec<String>,
    /// `default_keyspace_rf`: the factor used when a replication map gives
    /// none (Cassandra 4.1+).
    pub default_keyspace_rf: u32,
}

impl Default for SchemaSettings {
    fn default() -> SchemaSettings {
        SchemaSettings {
            materialized_views_enabled: false,
            sasi_indexes_enabled: false,
            strict_datacenters: false,
            datacenters: vec!["datacenter1".to_string()],
            default_keyspace_rf: 1,
        }
    }
}

impl SchemaSettings {
    /// The keys of `[cassandra]` in `widerow.toml`, each with what it
    /// switches; every one is a boolean.
    pub const CONFIG_KEYS: [(&'static str, &'static str); 3] = [
        (
            "materialized_views_enabled",
            "accept CREATE MATERIALIZED VIEW (cassandra.yaml; stock: false)",
        ),
        (
            "sasi_indexes_enabled",
            "accept SASI indexes (cassandra.yaml; stock: false)",
        ),
        (
            "strict_datacenters",
            "refuse a data centre the ring lacks instead of adding it (default: false)",
        ),
    ];

    /// Sets the switch named `key` (a `[cassandra]` key).
    pub fn set(&mut self, key: &str, on: bool) -> Result<(), String> {
        let slot = match key {
            "materialized_views_enabled" => &mut self.materialized_views_enabled,
            "sasi_indexes_enabled" => &mut self.sasi_indexes_enabled,
            "strict_datacenters" => &mut self.strict_datacenters,
            other => {
                let known: Vec<&str> = Self::CONFIG_KEYS.iter().map(|(k, _)| *k).collect();
                return Err(format!(
                    "unknown key `{other}` in [cassandra] (expected one of: {})",
                    known.join(", ")
                ));
            }
        };
        *slot = on;
        Ok(())
    }

    /// The settings of a `[cassandra]` table over the defaults; every value
    /// must be a boolean.
    pub fn from_table(table: &toml::Table) -> Result<SchemaSettings, String> {
        let mut settings = SchemaSettings::default();
        for (key, value) in table {
            let on = value
                .as_bool()
                .ok_or_else(|| format!("[cassandra] {key} must be true or false"))?;
            settings.set(key, on)?;
        }
        Ok(settings)
    }

    /// Both features a stock node refuses turned on: what the linter and
    /// test suites that model views and SASI want.
    pub fn permissive() -> SchemaSettings {
        SchemaSettings {
            materialized_views_enabled: true,
            sasi_indexes_enabled: true,
            ..SchemaSettings::default()
        }
    }
}

impl Catalog {
    /// An empty catalog.
    pub fn new() -> Catalog {
        Catalog::default()
    }

    /// An empty catalog with the given settings.
    pub fn with_settings(settings: SchemaSettings) -> Catalog {
        Catalog {
            keyspaces: super::NameMap::default(),
            settings,
        }
    }

    /// The settings schema statements are checked against.
    pub fn settings(&self) -> &SchemaSettings {
        &self.settings
    }

    /// Changes the settings (e.g. to refuse views like a stock 5.0 node).
    pub fn settings_mut(&mut self) -> &mut SchemaSettings {
        &mut self.settings
    }

    /// A keyspace by name.
    pub fn keyspace(&self, name: &str) -> Option<&Keyspace> {
        self.keyspaces.get(name)
    }

    /// All keyspaces, in creation order.
    pub fn keyspaces(&self) -> impl Iterator<Item = &Keyspace> + '_ {
        self.keyspaces.values()
    }

    /// A table (or materialized view) by keyspace and name.
    pub fn table(&self, keyspace: &str, name: &str) -> Option<&Table> {
        self.keyspaces.get(keyspace)?.tables.get(name)
    }

    /// Where table `name` of `keyspace` is: its keyspace's place and its
    /// own, for [`Catalog::table_hinted`].
    pub fn table_place(&self, keyspace: &str, name: &str) -> Option<(usize, usize)> {
        let (k, _, found) = self.keyspaces.get_full(keyspace)?;
        Some((k, found.tables.get_index_of(name)?))
    }

    /// [`Catalog::table`], tried first at `place` (from
    /// [`Catalog::table_place`]): a compiled statement finds its table
    /// there without hashing two names, as long as the schema has not
    /// changed, and by name otherwise.
    pub fn table_hinted(
        &self,
        keyspace: &str,
        name: &str,
        place: (usize, usize),
    ) -> Option<&Table> {
        let hinted = self
            .keyspaces
            .get_index(place.0)
            .and_then(|(_, found)| found.tables.get_index(place.1))
            .map(|(_, table)| table);
        match hinted {
            Some(table) if table.name == name && table.keyspace == keyspace => Some(table),
            _ => self.table(keyspace, name),
        }
    }

    /// The keyspace a possibly unqualified name lives in, with Cassandra's
    /// message when there is none.
    pub fn keyspace_of<'a>(
        current: Option<&'a str>,
        name: &'a QualifiedName,
    ) -> Result<&'a str, Error> {
        match (&name.keyspace, current) {
            (Some(ks), _) => Ok(ks.name.as_str()),
            (None, Some(ks)) => Ok(ks),
            (None, None) => Err(Error::invalid(
                "No keyspace has been specified. USE a keyspace, or explicitly specify keyspace.tablename",
            )
            .with_span(name.span)),
        }
    }

    /// Resolves a table name as a statement writes it, with Cassandra 5.0's
    /// messages for a missing keyspace or table.
    pub fn resolve_table(
        &self,
        current: Option<&str>,
        name: &QualifiedName,
    ) -> Result<&Table, Error> {
        let keyspace = Catalog::keyspace_of(current, name)?;
        let Some(ks) = self.keyspaces.get(keyspace) else {
            return Err(
                Error::invalid(format!("keyspace {keyspace} does not exist")).with_span(name.span),
            );
        };
        ks.tables.get(&name.name.name).ok_or_else(|| {
            Error::invalid(format!("table {} does not exist", name.name.name)).with_span(name.span)
        })
    }
}

impl UdtLookup for Catalog {
    fn udt_fields(&self, keyspace: &str, name: &str) -> Option<Vec<(String, DataType)>> {
        let ty = self.keyspaces.get(keyspace)?.types.get(name)?;
        Some(ty.fields.clone())
    }
}
