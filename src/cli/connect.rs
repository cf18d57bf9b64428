//! `--connect HOST[:PORT]`: the shell built in front of a real cluster,
//! from cqlsh's flags (`-u`, `-p`, `--connect-timeout`, `--request-timeout`,
//! `--protocol-version`, `--ssl`, `-k`, `--consistency`) and cqlsh's `cqlshrc` for
//! what the flags leave out. The flags that shape widerow's own cluster
//! (`--schema`, `--nodes`, `--datacenters`, `--coordinator`) are refused:
//! the cluster is real.

use std::path::{Path, PathBuf};
use std::time::Duration;

use widerow::connect::tls::{ClientIdentity, TlsOptions};
use widerow::connect::{mirror, Cluster, ConnectOptions, Request};
use widerow::planner::PlanContext;
use widerow::shell::{Settings, Shell};
use widerow::Session;

use super::args::Cli;

/// The shell, connected; an `Err` is "could not start" (exit 1).
pub fn open_shell(cli: &Cli, target: &str, settings: Settings) -> Result<Shell, String> {
    let (cluster, mirror) = open(cli, target)?;
    Ok(Shell::connected(mirror, settings, Box::new(cluster)))
}

/// The planning context of the live cluster (its schema and ring, `-k`
/// and `--consistency` applied), for `widerow explain --connect`.
pub fn live_context(cli: &Cli, target: &str) -> Result<PlanContext, String> {
    open(cli, target).map(|(_, mirror)| mirror.context().clone())
}

/// The live cluster's schema as CQL, and an empty context on its ring, for
/// `widerow lint --connect`: the linter reads the schema as it reads a
/// schema file, judging each statement as it applies it.
pub fn live_schema(cli: &Cli, target: &str) -> Result<(String, PlanContext), String> {
    let (cluster, mirror) = open(cli, target)?;
    let text = mirror::schema_text(&cluster)
        .map_err(|e| format!("cannot read the cluster's schema: {}", e.message()))?;
    let mut ctx = PlanContext::new();
    ctx.ring = mirror.context().ring.clone();
    ctx.coordinator = mirror.context().coordinator;
    Ok((text, ctx))
}

/// Connects and mirrors, with `-k` and `--consistency` applied to both.
fn open(cli: &Cli, target: &str) -> Result<(Cluster, Session), String> {
    refuse_in_memory_flags(cli)?;
    let options = options(cli, target)?;
    let cluster = Cluster::open(&options)
        .map_err(|e| format!("Connection error: {} ({})", e.message(), e.kind().name()))?;
    let (mut mirror, gaps) = mirror::mirror(&cluster)
        .map_err(|e| format!("cannot read the cluster's schema: {}", e.message()))?;
    for gap in gaps {
        eprintln!("widerow: not mirrored, so not explained or linted: {gap}");
    }
    if let Some(level) = &cli.cluster.consistency {
        let level = level
            .parse()
            .map_err(|e: widerow::Error| format!("--consistency: {}", e.message()))?;
        mirror.set_consistency(level);
    }
    if let Some(keyspace) = &cli.cluster.keyspace {
        let use_ks = format!("USE {keyspace}");
        let request = Request {
            consistency: mirror.context().consistency,
            serial_consistency: mirror.context().serial_consistency,
            page_size: None,
            tracing: false,
        };
        cluster
            .execute(&use_ks, &request)
            .map_err(|e| format!("-k {keyspace}: {}", e.message()))?;
        mirror
            .execute(&use_ks)
            .map_err(|e| format!("-k {keyspace}: {}", e.message()))?;
    }
    Ok((cluster, mirror))
}

/// Where and how to connect, from the flags, then cqlshrc, then cqlsh's
/// defaults.
fn options(cli: &Cli, target: &str) -> Result<ConnectOptions, String> {
    let args = &cli.connect;
    if let Some(version) = args.protocol_version {
        if version != 4 {
            return Err(format!(
                "--protocol-version {version}: connect mode's driver speaks native protocol v4 only"
            ));
        }
    }
    let mut options = ConnectOptions::parse(target)?;
    let rc = Cqlshrc::read(args.cqlshrc.as_deref())?;
    options.connect_timeout = seconds("--connect-timeout", args.connect_timeout)?
        .or(rc.seconds("connection", "timeout"))
        .unwrap_or(options.connect_timeout);
    options.request_timeout = seconds("--request-timeout", args.request_timeout)?
        .or(rc.seconds("connection", "request_timeout"))
        .unwrap_or(options.request_timeout);
    let username = args
        .username
        .clone()
        .or_else(|| rc.get("authentication", "username"));
    let password = args
        .password
        .clone()
        .or_else(|| rc.get("authentication", "password"));
    options.credentials = match (username, password) {
        (Some(user), Some(password)) => Some((user, password)),
        (Some(_), None) => {
            return Err("-u needs a password: give -p, or password in cqlshrc".into());
        }
        (None, Some(_)) => return Err("-p needs a user: give -u".into()),
        (None, None) => None,
    };
    let ssl = args.ssl || rc.boolean("connection", "ssl").unwrap_or(false);
    if ssl {
        options.tls = Some(ssl_settings(&options.host, &rc, |name| {
            std::env::var(name).ok()
        })?);
    }
    Ok(options)
}

/// cqlsh's SSL settings: the `SSL_VALIDATE`, `SSL_CERTFILE` and
/// `SSL_VERSION` variables over cqlshrc's `[ssl]` and `[certfiles]`
/// sections, validation on unless set to false — and, as cqlsh, a refusal
/// to validate against nothing.
fn ssl_settings(
    host: &str,
    rc: &Cqlshrc,
    env: impl Fn(&str) -> Option<String>,
) -> Result<TlsOptions, String> {
    let validate = env("SSL_VALIDATE")
        .or_else(|| rc.get("ssl", "validate"))
        .is_none_or(|v| !v.eq_ignore_ascii_case("false"));
    if env("SSL_VERSION")
        .or_else(|| rc.get("ssl", "version"))
        .is_some()
    {
        eprintln!(
            "Warning: Explicit SSL and TLS versions in the cqlshrc file or in SSL_VERSION \
             environment property are ignored as the protocol is auto-negotiated.\n"
        );
    }
    let certfile = env("SSL_CERTFILE")
        .or_else(|| rc.get("certfiles", &host.to_ascii_lowercase()))
        .or_else(|| rc.get("ssl", "certfile"));
    if validate && certfile.is_none() {
        return Err(format!(
            "Validation is enabled; SSL transport factory requires a valid certfile to be \
             specified. Please provide path to the certfile in [ssl] section as 'certfile' \
             option in {} (or use [certfiles] section) or set SSL_CERTFILE environment variable.",
            rc.path.display()
        ));
    }
    let key = rc.get("ssl", "userkey").map(|p| expand_home(&p));
    let cert = rc.get("ssl", "usercert").map(|p| expand_home(&p));
    let client = match (key, cert) {
        (Some(key), Some(cert)) => Some(ClientIdentity { key, cert }),
        (None, None) => None,
        _ => return Err("cqlshrc [ssl]: userkey and usercert go together".into()),
    };
    Ok(TlsOptions {
        certfile: certfile.map(|p| expand_home(&p)),
        validate,
        client,
    })
}

/// `~/…` as the user's home, as cqlsh's `os.path.expanduser` reads it.
fn expand_home(path: &str) -> PathBuf {
    match (path.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => PathBuf::from(path),
    }
}

fn refuse_in_memory_flags(cli: &Cli) -> Result<(), String> {
    let flags = &cli.cluster;
    let given = [
        ("--schema", flags.schema.is_some()),
        ("--nodes", flags.nodes.is_some()),
        ("--datacenters", flags.datacenters.is_some()),
        ("--coordinator", flags.coordinator.is_some()),
    ];
    match given.iter().find(|(_, on)| *on) {
        Some((flag, _)) => Err(format!(
            "{flag} shapes widerow's in-memory cluster and cannot be combined with --connect"
        )),
        None => Ok(()),
    }
}

fn seconds(flag: &str, value: Option<f64>) -> Result<Option<Duration>, String> {
    match value {
        None => Ok(None),
        Some(s) if s.is_finite() && s > 0.0 => Ok(Some(Duration::from_secs_f64(s))),
        Some(s) => Err(format!("{flag}: {s} is not a positive number of seconds")),
    }
}

/// cqlsh's configuration file: `[section]` headers and `key = value` lines.
#[derive(Debug, Default)]
struct Cqlshrc {
    /// Where it was looked for, for messages that name it as cqlsh's do.
    path: PathBuf,
    entries: Vec<(String, String, String)>,
}

impl Cqlshrc {
    /// The named file (which must exist), or `~/.cassandra/cqlshrc` if it
    /// exists.
    fn read(path: Option<&Path>) -> Result<Cqlshrc, String> {
        let (path, required) = match path {
            Some(path) => (path.to_path_buf(), true),
            None => match std::env::var_os("HOME") {
                Some(home) => (PathBuf::from(home).join(".cassandra/cqlshrc"), false),
                None => return Ok(Cqlshrc::default()),
            },
        };
        let mut rc = match std::fs::read_to_string(&path) {
            Ok(text) => Cqlshrc::parse(&text),
            Err(_) if !required => Cqlshrc::default(),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        rc.path = path;
        Ok(rc)
    }

    fn parse(text: &str) -> Cqlshrc {
        let mut section = String::new();
        let mut entries = Vec::new();
        for line in text.lines().map(str::trim) {
            if line.starts_with(';') || line.starts_with('#') || line.is_empty() {
                continue;
            }
            if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                section = name.trim().to_ascii_lowercase();
            } else if let Some((key, value)) = line.split_once(['=', ':']) {
                entries.push((
                    section.clone(),
                    key.trim().to_ascii_lowercase(),
                    value.trim().to_string(),
                ));
            }
        }
        Cqlshrc {
            path: PathBuf::new(),
            entries,
        }
    }

    fn get(&self, section: &str, key: &str) -> Option<String> {
        self.entries
            .iter()
            .rev()
            .find(|(s, k, _)| s == section && k == key)
            .map(|(_, _, v)| v.clone())
    }

    /// A yes/no setting as Python's configparser reads one.
    fn boolean(&self, section: &str, key: &str) -> Option<bool> {
        match self.get(section, key)?.to_ascii_lowercase().as_str() {
            "1" | "yes" | "true" | "on" => Some(true),
            "0" | "no" | "false" | "off" => Some(false),
            _ => None,
        }
    }

    fn seconds(&self, section: &str, key: &str) -> Option<Duration> {
        let value: f64 = self.get(section, key)?.parse().ok()?;
        (value.is_finite() && value > 0.0).then(|| Duration::from_secs_f64(value))
    }
}

#[cfg(test)]
mod tests {
    use super::{ssl_settings, Cqlshrc};
    use std::path::PathBuf;

    #[test]
    fn ssl_settings_as_cqlsh_reads_them() {
        let rc =
            Cqlshrc::parse("[ssl]\ncertfile = /etc/ca.pem\n[certfiles]\n10.0.0.1 = /etc/ten.pem\n");
        let none = |_: &str| None;
        let got = ssl_settings("127.0.0.1", &rc, none).unwrap();
        assert_eq!(got.certfile, Some(PathBuf::from("/etc/ca.pem")));
        assert!(got.validate);
        let per_host = ssl_settings("10.0.0.1", &rc, none).unwrap();
        assert_eq!(per_host.certfile, Some(PathBuf::from("/etc/ten.pem")));
        let from_env = ssl_settings("10.0.0.1", &rc, |name| match name {
            "SSL_CERTFILE" => Some("/env/ca.pem".into()),
            "SSL_VALIDATE" => Some("False".into()),
            _ => None,
        })
        .unwrap();
        assert_eq!(from_env.certfile, Some(PathBuf::from("/env/ca.pem")));
        assert!(!from_env.validate);
    }

    #[test]
    fn validating_without_a_certfile_is_cqlshs_refusal() {
        let refused = ssl_settings("h", &Cqlshrc::default(), |_| None).unwrap_err();
        assert!(refused.starts_with("Validation is enabled; SSL transport factory requires"));
        let unvalidated = ssl_settings("h", &Cqlshrc::parse("[ssl]\nvalidate = false\n"), |_| None);
        assert_eq!(unvalidated.unwrap().certfile, None);
    }

    #[test]
    fn cqlshrc_sections_and_keys() {
        let rc = Cqlshrc::parse(
            "; comment\n[authentication]\nusername = app\npassword: s3cret\n\n[connection]\ntimeout = 2.5\n",
        );
        assert_eq!(rc.get("authentication", "username").as_deref(), Some("app"));
        assert_eq!(
            rc.get("authentication", "password").as_deref(),
            Some("s3cret")
        );
        assert_eq!(
            rc.seconds("connection", "timeout"),
            Some(std::time::Duration::from_millis(2500))
        );
        assert_eq!(rc.get("connection", "username"), None);
    }
}
