//! The page's requests, answered: its embedded assets, and a JSON API over
//! one [`Session`] per tab. Every answer is computed by the engine — the
//! plan, the result, the TRACING facts, the linter — and only arranged
//! here. A request the page would not send (another origin, a wrong host,
//! a body that is not the JSON expected) gets a JSON error and changes
//! nothing.

use std::str::FromStr;

use serde_json::{json, Value as Json};

use crate::cluster::ConsistencyLevel;
use crate::error::{Error, ErrorKind};
use crate::exec::ResultSet;
use crate::session::Session;
use crate::syntax::ast::Statement;

use super::http::{Request, Response};
use super::tabs::{lock, Tab, TabError, Tabs};
use super::{assets, hbase, presets};

/// Most statements one request may run.
pub const MAX_STATEMENTS: usize = 500;

/// Most result rows an answer carries (the page shows fewer; the count
/// says how many there were).
pub const MAX_ROWS: usize = 200;

/// Most nodes per data centre the node-count control accepts.
pub const MAX_NODES: usize = 12;

/// The second data centre's name, when the control adds it.
pub const SECOND_DC: &str = "dc2";

/// What requests are answered against.
#[derive(Debug)]
pub struct State {
    /// The tabs.
    pub tabs: Tabs,
    /// `Host` values the page may arrive with (`127.0.0.1:8080`, …).
    pub hosts: Vec<String>,
    /// Whether any IP literal is a fine host too (bound to every address:
    /// the page is then reached by the machine's addresses; names are
    /// still refused, which is what DNS rebinding needs).
    pub any_ip_host: bool,
}

/// Answers one request.
pub fn handle(state: &State, request: &Request) -> Response {
    if let Err(refusal) = check_host(state, request) {
        return refusal;
    }
    match (request.method.as_str(), request.path.as_str()) {
        ("GET", path) if !path.starts_with("/api/") => match assets::find(path) {
            Some((content_type, body)) => Response {
                status: 200,
                content_type,
                body: body.to_vec(),
            },
            None => Response::error(404, format!("no such page: {path}")),
        },
        ("GET", "/api/presets") => Response::json(200, &presets_json()),
        ("POST", path) if path.starts_with("/api/") => {
            if let Err(refusal) = check_post(state, request) {
                return refusal;
            }
            let body: Json = match serde_json::from_slice(&request.body) {
                Ok(body @ Json::Object(_)) => body,
                Ok(_) => return Response::error(400, "the request body must be a JSON object"),
                Err(e) => {
                    return Response::error(400, format!("the request body is not JSON: {e}"))
                }
            };
            post(state, path, &body).unwrap_or_else(|refusal| refusal)
        }
        (_, path) if path.starts_with("/api/") => {
            Response::error(405, format!("{} is not accepted on {path}", request.method))
        }
        _ => Response::error(405, "only GET is accepted for pages"),
    }
}

/// Refuses a `Host` the server does not answer to (DNS rebinding: another
/// site's name pointed at 127.0.0.1).
fn check_host(state: &State, request: &Request) -> Result<(), Response> {
    let Some(host) = request.header("host") else {
        return Err(Response::error(400, "the request has no Host header"));
    };
    if host_allowed(state, host) {
        Ok(())
    } else {
        Err(Response::error(
            421,
            format!("this server does not answer to the host {host:?}"),
        ))
    }
}

fn host_allowed(state: &State, host: &str) -> bool {
    if state.hosts.iter().any(|h| h.eq_ignore_ascii_case(host)) {
        return true;
    }
    if !state.any_ip_host {
        return false;
    }
    let name = host
        .rsplit_once(':')
        .filter(|(_, port)| port.bytes().all(|b| b.is_ascii_digit()))
        .map_or(host, |(name, _)| name);
    let name = name.trim_start_matches('[').trim_end_matches(']');
    name.parse::<std::net::IpAddr>().is_ok()
}

/// A POST must come from the page itself: same origin, JSON content type
/// (which a cross-site form cannot send without the browser asking first).
fn check_post(state: &State, request: &Request) -> Result<(), Response> {
    if let Some(origin) = request.header("origin") {
        let same = origin
            .strip_prefix("http://")
            .is_some_and(|host| host_allowed(state, host));
        if !same {
            return Err(Response::error(
                403,
                format!("requests from the origin {origin:?} are not accepted"),
            ));
        }
    }
    if request
        .header("sec-fetch-site")
        .is_some_and(|site| site == "cross-site" || site == "same-site")
    {
        return Err(Response::error(403, "cross-site requests are not accepted"));
    }
    let json_type = request
        .header("content-type")
        .and_then(|t| t.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"));
    if !json_type {
        return Err(Response::error(
            415,
            "the request body must be sent as application/json",
        ));
    }
    Ok(())
}

fn post(state: &State, path: &str, body: &Json) -> Result<Response, Response> {
    match path {
        "/api/tab" => {
            let id = state.tabs.open().map_err(tab_error)?;
            let tab = state.tabs.get(&id).map_err(tab_error)?;
            let tab = lock(&tab);
            Ok(Response::json(
                200,
                &json!({ "tab": id, "cluster": cluster_json(&tab) }),
            ))
        }
        "/api/highlight" => {
            let cql = text_field(body, "cql")?;
            Ok(Response::json(200, &json!({ "spans": highlight(cql) })))
        }
        "/api/run" => with_tab(state, body, |tab| run(tab, text_field(body, "cql")?)),
        "/api/reset" => with_tab(state, body, |tab| {
            *tab = state.tabs.fresh_tab();
            Ok(json!({ "cluster": cluster_json(tab) }))
        }),
        "/api/controls" => with_tab(state, body, |tab| controls(tab, body)),
        "/api/hbase" => with_tab(state, body, |tab| {
            let table = text_field(body, "table")?;
            if let Some(split) = body.get("split_rows") {
                let split = split
                    .as_u64()
                    .filter(|n| (hbase::MIN_SPLIT_ROWS..=hbase::MAX_SPLIT_ROWS).contains(n))
                    .ok_or_else(|| {
                        bad(format!(
                            "split_rows must be a whole number from {} to {}",
                            hbase::MIN_SPLIT_ROWS,
                            hbase::MAX_SPLIT_ROWS
                        ))
                    })?;
                tab.split_rows = split as usize;
            }
            let cql = body.get("cql").and_then(Json::as_str);
            hbase::view(&tab.session, table, cql, tab.split_rows).map_err(bad)
        }),
        _ => Err(Response::error(404, format!("no such API: {path}"))),
    }
}

fn with_tab(
    state: &State,
    body: &Json,
    f: impl FnOnce(&mut Tab) -> Result<Json, Response>,
) -> Result<Response, Response> {
    let id = text_field(body, "tab")?;
    let tab = state.tabs.get(id).map_err(tab_error)?;
    let mut tab = lock(&tab);
    f(&mut tab).map(|answer| Response::json(200, &answer))
}

fn tab_error(error: TabError) -> Response {
    match error {
        TabError::Unknown => Response::error(
            400,
            "no such tab (it expired after sitting idle): reload the page",
        ),
        TabError::Full => Response::error(
            503,
            "too many tabs are open: close one, or wait for an idle one to expire",
        ),
    }
}

fn bad(message: impl Into<String>) -> Response {
    Response::error(400, message)
}

fn text_field<'a>(body: &'a Json, name: &str) -> Result<&'a str, Response> {
    body.get(name)
        .and_then(Json::as_str)
        .ok_or_else(|| bad(format!("the request needs \"{name}\" as a string")))
}

/// The models and queries, and the consistency levels a read can take.
pub fn presets_json() -> Json {
    json!({
        "models": presets::models(),
        "consistency_levels": ["ONE", "TWO", "THREE", "QUORUM", "ALL", "LOCAL_ONE", "LOCAL_QUORUM", "EACH_QUORUM"],
        "max_statements": MAX_STATEMENTS,
        "max_nodes": MAX_NODES,
    })
}

/// The ring and the settings the controls show.
pub fn cluster_json(tab: &Tab) -> Json {
    let ctx = tab.session.context();
    let nodes: Vec<Json> = ctx
        .ring
        .nodes()
        .iter()
        .map(|n| {
            json!({
                "id": n.id,
                "address": n.address.to_string(),
                "datacenter": n.datacenter,
                "tokens": n.tokens.iter().map(i64::to_string).collect::<Vec<_>>(),
                "up": n.up,
            })
        })
        .collect();
    json!({
        "nodes": nodes,
        "consistency": ctx.consistency.name(),
        "coordinator": ctx.coordinator.describe(&ctx.ring),
        "rf": tab.rf,
        "second_dc": tab.second_dc,
        "nodes_per_dc": ctx.ring.datacenter_size("datacenter1"),
        "split_rows": tab.split_rows,
    })
}

/// Runs the statements of `cql` in order and answers with a line for
/// each and the full view of the one to look at: the last statement, or
/// the last one with a plan (schema statements have none).
fn run(tab: &mut Tab, cql: &str) -> Result<Json, Response> {
    let statements = crate::split_statements(cql);
    if statements.is_empty() {
        return Err(bad("there is no statement to run"));
    }
    if statements.len() > MAX_STATEMENTS {
        return Err(bad(format!(
            "{} statements in one request; at most {MAX_STATEMENTS} are run at a time",
            statements.len()
        )));
    }
    let mut lines = Vec::with_capacity(statements.len());
    let mut focus: Option<(usize, Result<ResultSet, Error>)> = None;
    let last = statements.len() - 1;
    for (i, statement) in statements.iter().enumerate() {
        let outcome = tab.session.execute(&statement.text);
        lines.push(summary(statement.line, &statement.text, &outcome));
        let planned = matches!(&outcome, Ok(r) if r.plan.is_some()) || outcome.is_err();
        if planned || (i == last && focus.is_none()) {
            focus = Some((i, outcome));
        }
    }
    let focus = focus.map(|(i, outcome)| {
        let statement = &statements[i];
        focus_json(&tab.session, statement.line, &statement.text, outcome)
    });
    Ok(json!({
        "statements": lines,
        "focus": focus,
        "cluster": cluster_json(tab),
    }))
}

/// One statement's line in the run's log.
fn summary(line: usize, text: &str, outcome: &Result<ResultSet, Error>) -> Json {
    let clipped: String = text.chars().take(160).collect();
    match outcome {
        Ok(result) => json!({
            "line": line,
            "cql": clipped,
            "kind": if result.plan.is_some() || !result.rows.is_empty() { "rows" } else { "ok" },
            "class": result.class.map(|c| c.as_str()),
            "rows": result.rows.len(),
        }),
        Err(e) => json!({
            "line": line,
            "cql": clipped,
            "kind": "error",
            "error": e.kind().name(),
            "message": e.message(),
        }),
    }
}

/// Everything the page shows about one statement.
fn focus_json(
    session: &Session,
    line: usize,
    cql: &str,
    outcome: Result<ResultSet, Error>,
) -> Json {
    let mut record = match &outcome {
        Ok(result) => {
            let mut record = crate::render::json::result_json(None, line, result, true);
            if let Some(rows) = record.get_mut("rows").and_then(Json::as_array_mut) {
                let total = rows.len();
                rows.truncate(MAX_ROWS);
                record["rows_total"] = json!(total);
            }
            record["plan"] = json!(result.plan.as_deref());
            record["facts"] = json!(crate::shell::trace::facts::facts(session, cql, result));
            record
        }
        Err(error) => {
            let mut record = crate::render::json::error_json(None, line, error, error.is_refusal());
            record["underline"] = json!(error.span().map(|s| utf16_range(cql, s.start, s.end)));
            let partial = session.explain(cql).err().and_then(|e| e.partial);
            record["partial"] = json!(partial);
            record
        }
    };
    let table = match &outcome {
        Ok(result) => result.plan.as_ref().map(|p| p.table.clone()),
        Err(_) => record["partial"]["table"].as_str().map(str::to_string),
    };
    record["cql"] = json!(cql);
    record["lint"] = lint_json(session, cql, table.as_deref().filter(|t| !t.contains(", ")));
    record["suggestion"] = suggestion_json(session, cql, &outcome);
    record
}

/// The linter's findings on the statement and on the design it reads: the
/// tab's schema is linted with it, and the findings kept are those on the
/// statement, its table (and that table's indexes) and its keyspace — so
/// the `status`-keyed table is called a hot partition where it is queried.
fn lint_json(session: &Session, cql: &str, table: Option<&str>) -> Json {
    let Some((keyspace, _)) = table.and_then(|t| t.split_once('.')) else {
        let mut linter =
            crate::lint::Linter::with_context(session.context().clone(), Default::default());
        return findings_json(&linter.lint_str("query.cql", cql));
    };
    let table = table.unwrap_or_default();
    let schema = crate::shell::describe::schema_statements(&session.context().catalog);
    let mut text = schema.join("\n");
    let query_line = text.lines().count() + 2;
    text.push_str("\n\n");
    text.push_str(cql);
    let mut linter = crate::lint::Linter::new(Default::default());
    let findings: Vec<crate::lint::Finding> = linter
        .lint_str("query.cql", &text)
        .into_iter()
        .filter(|f| {
            let Some(source) = &f.source else {
                return false;
            };
            let head: String = source.text.split_whitespace().collect::<Vec<_>>().join(" ");
            source.line >= query_line
                || head.starts_with(&format!("CREATE TABLE {table} ("))
                || (head.starts_with("CREATE") && head.contains(&format!(" ON {table} ")))
                || head.starts_with(&format!("CREATE KEYSPACE {keyspace} "))
        })
        .collect();
    findings_json(&findings)
}

fn findings_json(findings: &[crate::lint::Finding]) -> Json {
    let findings: Vec<Json> = findings
        .iter()
        .map(|f| {
            json!({
                "rule": f.name,
                "code": f.code,
                "level": f.level.as_str(),
                "message": f.message,
                "help": f.help,
            })
        })
        .collect();
    Json::Array(findings)
}

/// The query table the linter proposes for a refused or scattering read.
fn suggestion_json(session: &Session, cql: &str, outcome: &Result<ResultSet, Error>) -> Json {
    let wanted = match outcome {
        Err(e) => e.is_refusal(),
        Ok(r) => r.class == Some(crate::planner::QueryClass::ScatterGather),
    };
    if !wanted {
        return Json::Null;
    }
    let Ok(Statement::Select(select)) = crate::parse_statement(cql) else {
        return Json::Null;
    };
    match crate::lint::suggest::suggest_query_table(session.context(), &select) {
        Some(s) => json!({
            "table": s.table_name,
            "help": s.help,
            "create_table": s.create_table,
            "query": s.rewritten_query,
        }),
        None => Json::Null,
    }
}

/// A byte range of `text` as UTF-16 offsets, what the page's strings count.
fn utf16_range(text: &str, start: usize, end: usize) -> Json {
    let at = |byte: usize| {
        let byte = byte.min(text.len());
        let cut = (0..=byte)
            .rev()
            .find(|b| text.is_char_boundary(*b))
            .unwrap_or(0);
        text[..cut].encode_utf16().count()
    };
    json!({ "start": at(start), "end": at(end) })
}

/// The project's lexer's reading of `cql`, as UTF-16 ranges with a style.
fn highlight(cql: &str) -> Vec<Json> {
    use crate::shell::highlight::{spans, Style};
    spans(cql, None)
        .into_iter()
        .map(|span| {
            let style = match span.style {
                Style::Keyword => "keyword",
                Style::String => "string",
                Style::Literal => "literal",
                Style::Comment => "comment",
                Style::Error => "error",
            };
            let mut range = utf16_range(cql, span.start, span.end);
            range["style"] = json!(style);
            range
        })
        .collect()
}

/// Applies the controls in `body` to a copy of the tab, and keeps the copy
/// only if every one of them succeeded.
fn controls(tab: &mut Tab, body: &Json) -> Result<Json, Response> {
    let mut session = tab.session.clone();
    let mut rf = tab.rf;
    let mut second_dc = tab.second_dc;
    let mut notes = Vec::new();
    if let Some(level) = body.get("consistency") {
        let level = level
            .as_str()
            .and_then(|l| ConsistencyLevel::from_str(l).ok())
            .ok_or_else(|| bad("consistency must name a consistency level, such as QUORUM"))?;
        session.set_consistency(level);
    }
    let nodes = match body.get("nodes") {
        None => None,
        Some(n) => Some(
            n.as_u64()
                .filter(|n| (1..=MAX_NODES as u64).contains(n))
                .ok_or_else(|| bad(format!("nodes must be a number from 1 to {MAX_NODES}")))?
                as usize,
        ),
    };
    if let Some(r) = body.get("rf") {
        rf = r
            .as_u64()
            .filter(|r| (1..=5).contains(r))
            .ok_or_else(|| bad("rf must be a number from 1 to 5"))? as u32;
    }
    if let Some(flag) = body.get("second_dc") {
        second_dc = flag
            .as_bool()
            .ok_or_else(|| bad("second_dc must be true or false"))?;
    }
    if nodes.is_some() || rf != tab.rf || second_dc != tab.second_dc {
        let per_dc = nodes.unwrap_or_else(|| session.context().ring.datacenter_size("datacenter1"));
        let replication = presets::keyspace_replication(rf, second_dc.then_some((SECOND_DC, rf)));
        let alter = format!(
            "ALTER KEYSPACE {} WITH replication = {replication};",
            presets::KEYSPACE
        );
        let layout = if second_dc {
            format!("datacenter1:{per_dc},{SECOND_DC}:{per_dc}")
        } else {
            format!("datacenter1:{per_dc}")
        };
        // A data centre leaves the keyspace before it leaves the ring, and
        // joins the ring before the keyspace names it.
        if second_dc {
            notes.push(cluster_command(&mut session, &format!("NODES {layout}"))?);
            session.execute(&alter).map_err(engine_error)?;
        } else {
            session.execute(&alter).map_err(engine_error)?;
            notes.push(cluster_command(&mut session, &format!("NODES {layout}"))?);
        }
    }
    if let Some(node) = body.get("node") {
        let id = node
            .get("id")
            .and_then(Json::as_str)
            .ok_or_else(|| bad("node needs \"id\", a node's name"))?;
        let up = node
            .get("up")
            .and_then(Json::as_bool)
            .ok_or_else(|| bad("node needs \"up\", true or false"))?;
        if !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(bad(format!("no node is called {id:?}")));
        }
        let verb = if up { "UP" } else { "DOWN" };
        notes.push(cluster_command(&mut session, &format!("{verb} {id}"))?);
    }
    tab.session = session;
    tab.rf = rf;
    tab.second_dc = second_dc;
    Ok(json!({
        "cluster": cluster_json(tab),
        "notes": notes.iter().map(|n| n.trim()).filter(|n| !n.is_empty()).collect::<Vec<_>>(),
    }))
}

fn cluster_command(session: &mut Session, rest: &str) -> Result<String, Response> {
    crate::shell::trace::cluster(session, rest).map_err(engine_error)
}

fn engine_error(error: Error) -> Response {
    let status = if error.kind() == ErrorKind::ServerError {
        500
    } else {
        400
    };
    Response::json(
        status,
        &json!({ "error": error.message(), "kind": error.kind().name() }),
    )
}
