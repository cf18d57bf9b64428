//! Building the planning context from the cluster flags, and the session
//! statements run in: `--schema` run first, `-k` as a `USE`.

use std::io::IsTerminal;

use widerow::cluster::{ConsistencyLevel, Coordinator, Ring};
use widerow::planner::PlanContext;
use widerow::shell::{Format, Settings};
use widerow::{Error, Session};

use super::args::{Cli, ClusterArgs, RunFormat};
use super::inputs::Input;

/// `dc1:3,dc2:2` as data centre names and node counts.
fn parse_datacenters(text: &str) -> Result<Vec<(String, usize)>, String> {
    text.split(',')
        .map(|part| {
            let (name, count) = part
                .split_once(':')
                .ok_or_else(|| format!("--datacenters: expected NAME:COUNT, got '{part}'"))?;
            let count = count
                .trim()
                .parse::<usize>()
                .map_err(|_| format!("--datacenters: '{count}' is not a node count"))?;
            Ok((name.trim().to_string(), count))
        })
        .collect()
}

/// The context the flags describe, before any schema is loaded.
pub fn context(args: &ClusterArgs) -> Result<PlanContext, String> {
    let mut ctx = PlanContext::new();
    let message = |e: Error| e.message().to_string();
    if let Some(n) = args.nodes {
        ctx.ring = Ring::with_nodes(n).map_err(message)?;
    }
    if let Some(text) = &args.datacenters {
        let dcs = parse_datacenters(text)?;
        ctx.ring = Ring::with_datacenters(&dcs).map_err(message)?;
    }
    if let Some(level) = &args.consistency {
        ctx.consistency = level
            .parse::<ConsistencyLevel>()
            .map_err(|e: Error| format!("--consistency: {}", e.message()))?;
    }
    if let Some(node) = &args.coordinator {
        ctx.coordinator = Coordinator::parse(node, &ctx.ring).map_err(message)?;
    }
    Ok(ctx)
}

/// Runs the `--schema` file into `ctx`; its failures are reported on
/// standard error and returned as a count.
pub fn load_schema(ctx: &mut PlanContext, args: &ClusterArgs) -> Result<usize, String> {
    let mut failures = 0;
    if let Some(path) = &args.schema {
        let input = Input::open(path)?;
        let name = input.name.clone();
        for statement in input.statements() {
            let statement = statement.map_err(|e| format!("{name}: {e}"))?;
            let result = widerow::parse_statement(&statement.text)
                .and_then(|parsed| ctx.apply_schema(&parsed).map(|_| ()));
            if let Err(error) = result {
                failures += 1;
                eprint!(
                    "{}",
                    super::report::human_error(&name, &statement, &error, false, false)
                );
            }
        }
    }
    if let Some(keyspace) = &args.keyspace {
        let use_ks = format!("USE {keyspace}");
        let parsed = widerow::parse_statement(&use_ks).map_err(|e| e.message().to_string())?;
        ctx.apply_schema(&parsed)
            .map_err(|e| format!("-k {keyspace}: {}", e.message()))?;
    }
    Ok(failures)
}

/// The session the flags describe, for running statements: the cluster
/// flags' context, then the `--schema` file's statements run in it (output
/// suppressed, failures reported on standard error as `FILE:LINE:` and
/// cqlsh's text, and counted), then `-k KEYSPACE` as `USE KEYSPACE`.
/// With `stop_on_error` the schema file stops at its first failure (and
/// `-k` is not tried: nothing more runs).
///
/// An `Err` is "could not start": a bad flag, an unreadable schema file, a
/// keyspace that does not exist.
pub fn start_session(
    args: &ClusterArgs,
    config: Option<&std::path::Path>,
    stop_on_error: bool,
) -> Result<(Session, usize), String> {
    let mut ctx = context(args)?;
    *ctx.catalog.settings_mut() = schema_settings(args, config)?;
    let mut session = Session::new().with_context(ctx);
    session.set_limits(limits(args, config)?);
    let mut failures = 0;
    if let Some(path) = &args.schema {
        let input = Input::open(path)?;
        let name = input.name.clone();
        for statement in input.statements() {
            let statement = statement.map_err(|e| format!("{name}: {e}"))?;
            let failed = if !statement.terminated {
                // Cut off by the end of the file: not run, as in a script.
                eprintln!(
                    "{name}:{}:Incomplete statement at end of file",
                    statement.line
                );
                true
            } else if let Err(error) = session.execute(&statement.text) {
                eprint!(
                    "{}",
                    super::report::human_error(&name, &statement, &error, false, false)
                );
                true
            } else {
                false
            };
            if failed {
                failures += 1;
                if stop_on_error {
                    return Ok((session, failures));
                }
            }
        }
    }
    if let Some(keyspace) = &args.keyspace {
        session
            .execute(&format!("USE {keyspace}"))
            .map_err(|e| format!("-k {keyspace}: {}", e.message()))?;
    }
    Ok((session, failures))
}

/// The cassandra.yaml switches of `[cassandra]` in the configuration file
/// in effect, with the flags on top (a flag turns a switch on).
pub fn schema_settings(
    args: &ClusterArgs,
    config: Option<&std::path::Path>,
) -> Result<widerow::schema::SchemaSettings, String> {
    let (file, path) = super::lint::load_config(config)?;
    let mut settings =
        widerow::schema::SchemaSettings::from_table(&file.cassandra).map_err(|e| match &path {
            Some(path) => format!("{}: {e}", path.display()),
            None => e,
        })?;
    for key in args.cassandra_flags() {
        settings.set(key, true)?;
    }
    Ok(settings)
}

/// The limits of `[limits]` in the configuration file in effect, with the
/// flags on top (flags beat the file).
pub fn limits(
    args: &ClusterArgs,
    config: Option<&std::path::Path>,
) -> Result<widerow::limits::Limits, String> {
    let (file, path) = super::lint::load_config(config)?;
    let mut limits =
        widerow::limits::Limits::from_table(&file.limits).map_err(|e| match &path {
            Some(path) => format!("{}: {e}", path.display()),
            None => e,
        })?;
    for (key, value) in args.limit_flags() {
        if value == 0 {
            return Err(format!(
                "--{}: a limit must be positive",
                key.replace('_', "-")
            ));
        }
        limits.set(key, value)?;
    }
    if limits.nesting_depth > widerow::syntax::MAX_NESTING {
        return Err(format!(
            "--max-nesting-depth cannot exceed {}",
            widerow::syntax::MAX_NESTING
        ));
    }
    Ok(limits)
}

/// The shell's settings from the flags: the format, and colour as cqlsh
/// decides it (`-C` forces it; `--no-color`, a non-empty `NO_COLOR`, the
/// machine formats and `-f` scripts never have it; otherwise only a colour
/// terminal on standard output gets it).
pub fn settings(cli: &Cli, interactive: bool, file: bool) -> Settings {
    let format = match cli.output.run_format {
        RunFormat::Table => Format::Table,
        RunFormat::Expanded => Format::Expanded,
        RunFormat::Json => Format::Json,
        RunFormat::Csv => Format::Csv,
    };
    let terminal = std::io::stdout().is_terminal() && !file;
    Settings {
        format,
        color: cli.output.use_color(terminal),
        interactive,
        lint_before_send: cli.connect.lint,
        refuse_scatter_gather: cli.connect.refuse == Some(super::args::RefuseClass::ScatterGather),
        ..Settings::default()
    }
}
