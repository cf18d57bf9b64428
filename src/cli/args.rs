//! The command line, as the contracts in the design map fix it: cqlsh's
//! letters where cqlsh has them, positional arguments always files, and a
//! statement on the command line always behind `-e`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// widerow — an in-memory CQL interpreter that plans queries the way a
/// Cassandra coordinator would.
///
/// With no command and no -f/-e it opens an interactive session; statements
/// piped on standard input are read as a script.
#[derive(Debug, Parser)]
#[command(name = "widerow", version, disable_version_flag = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Run the statements of FILE, then exit.
    #[arg(
        short = 'f',
        long = "file",
        value_name = "FILE",
        conflicts_with = "execute"
    )]
    pub file: Option<PathBuf>,

    /// Run STATEMENTS (separated by ';'), then exit.
    #[arg(short = 'e', long = "execute", value_name = "STATEMENTS")]
    pub execute: Option<String>,

    /// What to do after a statement fails in a script.
    #[arg(long, value_enum, default_value_t = OnError::Continue, global = true)]
    pub on_error: OnError,

    #[command(flatten)]
    pub output: OutputArgs,

    #[command(flatten)]
    pub cluster: ClusterArgs,

    #[command(flatten)]
    pub connect: ConnectArgs,

    /// Read the configuration from FILE instead of the `widerow.toml` found
    /// in the current directory or above it.
    #[arg(long, value_name = "FILE", global = true)]
    pub config: Option<PathBuf>,

    /// Print the version (and what widerow emulates) and exit.
    #[arg(short = 'v', long = "version")]
    pub version: bool,
}

/// Flags that shape output, accepted by every mode.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Output format. Running statements: `table` (cqlsh's layout, the
    /// default; `text` is the same), `expanded`, `json` (JSON Lines) or
    /// `csv`. `parse`, `explain` and `rules`: `text` or `json`. `lint`:
    /// `human` (= `text`, the default), `concise`, `json`, `sarif` or
    /// `github`.
    #[arg(id = "format", long = "format", value_enum, global = true)]
    pub format_arg: Option<FormatArg>,

    /// The format of the modes that know only `text` and `json`, and whether
    /// a run's output is for people (`Text`) or tools (`Json`): set from
    /// `--format` once the mode is known (see `cli::resolve_format`).
    #[arg(skip = Format::Text)]
    pub format: Format,

    /// The format results are printed in when statements run (`-f`, `-e`,
    /// standard input, the interactive session): set with `format`.
    #[arg(skip = RunFormat::Table)]
    pub run_format: RunFormat,

    /// Always colour the output.
    #[arg(
        short = 'C',
        long = "color",
        global = true,
        conflicts_with = "no_color"
    )]
    pub color: bool,

    /// Never colour the output (also: the NO_COLOR environment variable).
    #[arg(long = "no-color", global = true)]
    pub no_color: bool,
}

/// The simulated cluster and session, accepted by every mode that plans.
#[derive(Debug, Args)]
pub struct ClusterArgs {
    /// Start in KEYSPACE, as after `USE KEYSPACE`.
    #[arg(short = 'k', long = "keyspace", value_name = "KEYSPACE", global = true)]
    pub keyspace: Option<String>,

    /// Run the statements of FILE first, with their output suppressed.
    #[arg(long, value_name = "FILE", global = true)]
    pub schema: Option<PathBuf>,

    /// Number of nodes in a one-data-centre ring.
    #[arg(long, value_name = "N", global = true, conflicts_with = "datacenters")]
    pub nodes: Option<usize>,

    /// Data centres and their node counts, e.g. `dc1:3,dc2:3`.
    #[arg(long, value_name = "DC:N,…", global = true)]
    pub datacenters: Option<String>,

    /// Consistency level statements run at (cqlsh's default is ONE).
    #[arg(long, value_name = "LEVEL", global = true)]
    pub consistency: Option<String>,

    /// The coordinating node (`node2`, `127.0.0.2`) or `token-aware`.
    #[arg(long, value_name = "NODE|token-aware", global = true)]
    pub coordinator: Option<String>,

    /// Longest statement, in bytes (`[limits] statement_size`).
    #[arg(long, value_name = "BYTES", global = true)]
    pub max_statement_size: Option<usize>,

    /// Deepest nesting of brackets (`[limits] nesting_depth`, at most 48).
    #[arg(long, value_name = "N", global = true)]
    pub max_nesting_depth: Option<usize>,

    /// Most values in one IN list (`[limits] in_list_length`).
    #[arg(long, value_name = "N", global = true)]
    pub max_in_list_length: Option<usize>,

    /// Most keys the IN lists of one statement name together
    /// (`[limits] in_select_cartesian_product`).
    #[arg(long, value_name = "N", global = true)]
    pub in_select_cartesian_product: Option<usize>,

    /// Batch size that draws Cassandra's warning (`[limits] batch_size_warn_threshold`).
    #[arg(long, value_name = "BYTES", global = true)]
    pub batch_size_warn_threshold: Option<usize>,

    /// Batch size refused as too large (`[limits] batch_size_fail_threshold`).
    #[arg(long, value_name = "BYTES", global = true)]
    pub batch_size_fail_threshold: Option<usize>,

    /// Most elements in one collection value (`[limits] collection_size`).
    #[arg(long, value_name = "N", global = true)]
    pub max_collection_size: Option<usize>,

    /// Accept materialized views, as `materialized_views_enabled: true` in
    /// cassandra.yaml (`[cassandra] materialized_views_enabled`).
    #[arg(long, global = true)]
    pub materialized_views: bool,

    /// Accept SASI indexes, as `sasi_indexes_enabled: true` in
    /// cassandra.yaml (`[cassandra] sasi_indexes_enabled`).
    #[arg(long, global = true)]
    pub sasi_indexes: bool,

    /// Refuse a data centre the simulated ring lacks, as Cassandra does,
    /// instead of adding it (`[cassandra] strict_datacenters`).
    #[arg(long, global = true)]
    pub strict_datacenters: bool,
}

impl ClusterArgs {
    /// The `[cassandra]` switches the flags turn on, by key.
    pub fn cassandra_flags(&self) -> Vec<&'static str> {
        [
            ("materialized_views_enabled", self.materialized_views),
            ("sasi_indexes_enabled", self.sasi_indexes),
            ("strict_datacenters", self.strict_datacenters),
        ]
        .into_iter()
        .filter_map(|(key, on)| on.then_some(key))
        .collect()
    }

    /// The limit flags given, by `[limits]` key.
    pub fn limit_flags(&self) -> Vec<(&'static str, usize)> {
        [
            ("statement_size", self.max_statement_size),
            ("nesting_depth", self.max_nesting_depth),
            ("in_list_length", self.max_in_list_length),
            (
                "in_select_cartesian_product",
                self.in_select_cartesian_product,
            ),
            ("batch_size_warn_threshold", self.batch_size_warn_threshold),
            ("batch_size_fail_threshold", self.batch_size_fail_threshold),
            ("collection_size", self.max_collection_size),
        ]
        .into_iter()
        .filter_map(|(key, value)| value.map(|v| (key, v)))
        .collect()
    }
}

/// Connect mode: the shell in front of a real cluster, with cqlsh's flags.
#[derive(Debug, Args)]
pub struct ConnectArgs {
    /// Send statements to the cluster at HOST[:PORT] (9042 unless given);
    /// widerow explains and lints them on a mirror of its schema and ring.
    #[arg(long, value_name = "HOST[:PORT]", global = true)]
    pub connect: Option<String>,

    /// The user to log in as (cqlsh's `-u`); also from cqlshrc.
    #[arg(
        short = 'u',
        long,
        value_name = "USERNAME",
        requires = "connect",
        global = true
    )]
    pub username: Option<String>,

    /// The password (cqlsh's `-p`); also from cqlshrc.
    #[arg(
        short = 'p',
        long,
        value_name = "PASSWORD",
        requires = "connect",
        global = true
    )]
    pub password: Option<String>,

    /// Seconds the first connection may take (cqlsh's default, 5).
    #[arg(long, value_name = "SECONDS", requires = "connect", global = true)]
    pub connect_timeout: Option<f64>,

    /// Seconds one request may take (cqlsh's default, 10).
    #[arg(long, value_name = "SECONDS", requires = "connect", global = true)]
    pub request_timeout: Option<f64>,

    /// Connect over TLS, as cqlsh's `--ssl`: the server's certificate is
    /// checked against `SSL_CERTFILE` or cqlshrc's `[ssl] certfile`
    /// unless `SSL_VALIDATE` / `validate` is false.
    #[arg(long, requires = "connect", global = true)]
    pub ssl: bool,

    /// The native protocol version; the driver speaks v4 only.
    #[arg(long, value_name = "VERSION", requires = "connect", global = true)]
    pub protocol_version: Option<u8>,

    /// Print the linter's findings before a scatter-gather or ALLOW
    /// FILTERING query is sent.
    #[arg(long = "lint", global = true)]
    pub lint: bool,

    /// Refuse to send a query of this class (`scatter-gather`): an error
    /// naming the rule, and exit status 2 in scripts.
    #[arg(long, value_enum, value_name = "CLASS", global = true)]
    pub refuse: Option<RefuseClass>,

    /// Where cqlsh's configuration is read for credentials (default
    /// `~/.cassandra/cqlshrc`).
    #[arg(long, value_name = "FILE", requires = "connect", global = true)]
    pub cqlshrc: Option<PathBuf>,
}

/// The query classes `--refuse` can keep from being sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RefuseClass {
    /// Queries without a partition key, which read every node.
    ScatterGather,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Parse CQL files and print each statement in canonical form, or its
    /// syntax error.
    Parse(ParseArgs),
    /// Plan statements without running them: the query class, partitions
    /// and tokens, replicas and nodes — or Cassandra's refusal.
    Explain(ExplainArgs),
    /// Lint CQL files (or directories of `*.cql` files): schema and queries
    /// judged as a Cassandra cluster would run them.
    Lint(LintArgs),
    /// List every lint rule: code, name, level and summary.
    Rules,
    /// Print a lint rule's documentation.
    Rule(RuleArgs),
    /// Serve the CQL native protocol (v4, v5) so drivers, cqlsh and
    /// applications connect: each simulated node on its own loopback
    /// address, the same port.
    Serve(ServeArgs),
    /// Serve the interactive demo page: pick a data model and a query, see
    /// the wide row, the ring, the plan and the metrics.
    Web(WebArgs),
}

/// `widerow web`
#[derive(Debug, Args)]
pub struct WebArgs {
    /// The address to listen on.
    #[arg(long, value_name = "ADDRESS", default_value = "127.0.0.1")]
    pub host: std::net::IpAddr,
    /// The port (0 picks a free one).
    #[arg(long, value_name = "PORT", default_value_t = 8080)]
    pub port: u16,
}

/// `widerow serve`
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address node1 answers on; on 127.0.0.1 node2 answers on
    /// 127.0.0.2 and so on.
    #[arg(long, value_name = "ADDRESS", default_value = "127.0.0.1")]
    pub host: std::net::IpAddr,
    /// The port every node answers on (0 picks a free one).
    #[arg(long, value_name = "PORT", default_value_t = 9042)]
    pub port: u16,
    /// The largest frame body accepted, in bytes (Cassandra's
    /// `native_transport_max_frame_size`).
    #[arg(long, value_name = "BYTES", default_value_t = widerow::server::DEFAULT_MAX_FRAME)]
    pub max_frame_size: u32,
    /// How long a read of named partitions may run before it stops with
    /// ReadTimeout, in milliseconds (Cassandra's `read_request_timeout`).
    #[arg(long, value_name = "MS", default_value_t = 5_000)]
    pub read_request_timeout: u64,
    /// How long a scan of token ranges may run, in milliseconds
    /// (Cassandra's `range_request_timeout`).
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub range_request_timeout: u64,
    /// How long a write may take before it fails with WriteTimeout,
    /// unapplied, in milliseconds (Cassandra's `write_request_timeout`).
    #[arg(long, value_name = "MS", default_value_t = 2_000)]
    pub write_request_timeout: u64,
    /// Require a login, as a node with Cassandra's PasswordAuthenticator:
    /// clients authenticate with SASL PLAIN; the default superuser is
    /// `cassandra` with password `cassandra`.
    #[arg(long)]
    pub auth: bool,
    /// The bytes of requests the server holds in flight before it refuses
    /// more (Cassandra's `native_transport_max_request_data_in_flight`):
    /// a client whose STARTUP asked for THROW_ON_OVERLOAD gets Overloaded,
    /// any other waits.
    #[arg(long, value_name = "BYTES", default_value_t = widerow::server::inflight::DEFAULT_LIMITS.total)]
    pub max_request_data_in_flight: u64,
    /// The same for each client address
    /// (`native_transport_max_request_data_in_flight_per_ip`).
    #[arg(long, value_name = "BYTES", default_value_t = widerow::server::inflight::DEFAULT_LIMITS.per_ip)]
    pub max_request_data_in_flight_per_ip: u64,
    /// Serve TLS with this certificate chain (PEM, the server's first), as
    /// a node with `client_encryption_options` enabled.
    #[arg(long, value_name = "FILE", requires = "ssl_key")]
    pub ssl_cert: Option<PathBuf>,
    /// The private key of `--ssl-cert` (PEM).
    #[arg(long, value_name = "FILE", requires = "ssl_cert")]
    pub ssl_key: Option<PathBuf>,
    /// Accept plain connections beside TLS ones (`optional: true`).
    #[arg(long, requires = "ssl_cert")]
    pub ssl_optional: bool,
    /// Require client certificates signed by one of these (PEM), as
    /// `require_client_auth` with a truststore.
    #[arg(long, value_name = "FILE", requires = "ssl_cert")]
    pub ssl_client_ca: Option<PathBuf>,
}

/// `widerow lint PATH…`
#[derive(Debug, Args)]
pub struct LintArgs {
    /// Files or directories to lint (directories are searched for `*.cql`
    /// files; `-` is standard input).
    #[arg(value_name = "PATH", required_unless_present = "show_config")]
    pub paths: Vec<PathBuf>,

    /// Exit 1 when a finding is at this level or above.
    #[arg(long, value_enum, value_name = "LEVEL", default_value_t = FailOn::Error)]
    pub fail_on: FailOn,

    /// Rules to run (codes, code prefixes or names, comma-separated);
    /// replaces `select` of the configuration.
    #[arg(long, value_name = "RULES", value_delimiter = ',')]
    pub select: Option<Vec<String>>,

    /// Rules not to run; replaces `ignore` of the configuration.
    #[arg(long, value_name = "RULES", value_delimiter = ',')]
    pub ignore: Option<Vec<String>>,

    /// Rules to run besides the selected ones; replaces `extend-select` of
    /// the configuration.
    #[arg(long, value_name = "RULES", value_delimiter = ',')]
    pub extend_select: Option<Vec<String>>,

    /// Print the configuration in effect, as TOML, and exit.
    #[arg(long)]
    pub show_config: bool,

    /// Print the suggested fixes (complete CREATE TABLE statements and
    /// rewritten queries) as a CQL script instead of the findings.
    #[arg(long)]
    pub suggest: bool,
}

/// `widerow rule NAME`
#[derive(Debug, Args)]
pub struct RuleArgs {
    /// The rule's name (`syntax-error`) or code (`E001`).
    #[arg(value_name = "NAME")]
    pub name: String,
}

/// `--fail-on`
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Only errors fail.
    Error,
    /// Warnings and errors fail.
    Warning,
    /// Every finding fails.
    Info,
}

/// The values `--format` accepts, across every mode; each mode checks the
/// ones it knows (see `cli::resolve_format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Text for people (running statements: `table`).
    Text,
    /// Running statements: results as cqlsh's table layout.
    Table,
    /// Running statements: results as cqlsh's expanded layout (EXPAND ON).
    Expanded,
    /// JSON Lines.
    Json,
    /// Running statements: results as CSV, one block per statement.
    Csv,
    /// `lint`: findings drawn with their statements (same as `text`).
    Human,
    /// `lint`: one line per finding.
    Concise,
    /// `lint`: a SARIF 2.1.0 log.
    Sarif,
    /// `lint`: GitHub Actions annotations.
    Github,
}

impl FormatArg {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            FormatArg::Text => "text",
            FormatArg::Table => "table",
            FormatArg::Expanded => "expanded",
            FormatArg::Json => "json",
            FormatArg::Csv => "csv",
            FormatArg::Human => "human",
            FormatArg::Concise => "concise",
            FormatArg::Sarif => "sarif",
            FormatArg::Github => "github",
        }
    }
}

/// `widerow explain FILE…`
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The files to plan (`-` for standard input).
    #[arg(value_name = "FILE", required_unless_present = "execute")]
    pub files: Vec<PathBuf>,

    /// Plan STATEMENTS instead of files.
    #[arg(short = 'e', long = "execute", value_name = "STATEMENTS")]
    pub execute: Option<String>,
}

/// `widerow parse FILE…`
#[derive(Debug, Args)]
pub struct ParseArgs {
    /// The files to parse (`-` for standard input).
    #[arg(value_name = "FILE", required_unless_present = "execute")]
    pub files: Vec<PathBuf>,

    /// Parse STATEMENTS instead of files.
    #[arg(short = 'e', long = "execute", value_name = "STATEMENTS")]
    pub execute: Option<String>,

    /// Show the lexer's tokens instead of the statements.
    #[arg(long, conflicts_with = "ast")]
    pub tokens: bool,

    /// Show the syntax tree instead of the statements.
    #[arg(long)]
    pub ast: bool,
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Text for people.
    Text,
    /// JSON Lines, one object per statement.
    Json,
}

/// How results are printed when statements run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunFormat {
    /// cqlsh's table layout (EXPAND OFF).
    Table,
    /// cqlsh's expanded layout (EXPAND ON).
    Expanded,
    /// JSON Lines, one object per statement, errors included.
    Json,
    /// CSV, one block per statement that returns rows.
    Csv,
}

/// `--on-error`
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OnError {
    /// Report the failure and go on, as cqlsh does.
    Continue,
    /// Stop at the first failure.
    Stop,
}

impl OutputArgs {
    /// Whether to colour: `--color` forces it, `--no-color` and `NO_COLOR`
    /// forbid it, machine formats never have it, and otherwise only a
    /// terminal gets it.
    pub fn use_color(&self, stream_is_terminal: bool) -> bool {
        let machine = matches!(self.run_format, RunFormat::Json | RunFormat::Csv);
        if self.format != Format::Text || machine || self.no_color {
            return false;
        }
        if self.color {
            return true;
        }
        std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            && stream_is_terminal
            && terminal_has_color()
    }
}

/// cqlsh's test for a colour terminal: `$TERM` set and not `dumb`.
fn terminal_has_color() -> bool {
    std::env::var("TERM").is_ok_and(|term| !term.is_empty() && term != "dumb")
}
