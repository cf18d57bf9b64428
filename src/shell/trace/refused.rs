//! `EXPLAIN` of a statement the planner refused (or found Unavailable):
//! the plan as far as it got, in the labelled layout of a plan, so a
//! learner sees what was understood before reading why it stopped.

use crate::error::{Error, ErrorKind};
use crate::planner::{PartialPlan, Partitions};
use crate::session::Session;

use super::explain::{field, key_text, list, more, range_text, MAX_PARTITIONS};
use super::paint::{plural, Paint, Tone};

/// The heading and the partial plan's lines; the error itself follows
/// separately, underlined, as every error is.
pub(crate) fn block(
    session: &Session,
    partial: &PartialPlan,
    error: &Error,
    paint: Paint,
) -> String {
    let table = partial.table.as_deref().unwrap_or("an unknown table");
    let stopped = if error.kind() == ErrorKind::Unavailable {
        "unavailable"
    } else {
        "refused"
    };
    let heading = format!(
        "EXPLAIN {} on {table} ({stopped}, not run)",
        partial.statement
    );
    let mut out = paint.paint(Tone::Heading, &heading);
    out.push('\n');
    let mut lines = vec![field("class", stop_text(error))];
    lines.extend(restriction_lines(partial));
    lines.extend(partition_lines(session, partial));
    lines.push(field("consistency", &partial.consistency));
    lines.push(field("coordinator", &partial.coordinator));
    for line in lines {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn stop_text(error: &Error) -> &'static str {
    if error.kind() == ErrorKind::Unavailable {
        "unavailable (too few live replicas for the consistency level: see the error)"
    } else {
        "rejected (Cassandra refuses it: see the error)"
    }
}

fn restriction_lines(partial: &PartialPlan) -> Vec<String> {
    if partial.restrictions.is_empty() {
        return vec![field("restrictions", "none understood")];
    }
    partial
        .restrictions
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let text = format!("{} ({})", r.relation, r.restricts);
            if i == 0 {
                field("restrictions", &text)
            } else {
                more(&text)
            }
        })
        .collect()
}

fn partition_lines(session: &Session, partial: &PartialPlan) -> Vec<String> {
    let table = partial
        .table
        .as_deref()
        .and_then(|name| super::table_of(session, name));
    let partitions = match &partial.partitions {
        None => return vec![field("partitions", "not established")],
        Some(Partitions::All) => {
            return vec![field("partitions", "every token range (the whole ring)")]
        }
        Some(Partitions::TokenRange { range }) => {
            return vec![field("partitions", &range_text(range))]
        }
        Some(Partitions::Keys { partitions }) => partitions,
    };
    let label = if partitions.len() == 1 {
        "partition"
    } else {
        "partitions"
    };
    let mut out = Vec::new();
    for (i, target) in partitions.iter().take(MAX_PARTITIONS).enumerate() {
        let key = key_text(table, &target.key);
        out.push(if i == 0 {
            field(label, &key)
        } else {
            more(&key)
        });
        let mut routing = format!(
            "  token {} · replicas {}",
            target.token,
            list(&target.replicas)
        );
        if !target.down.is_empty() {
            routing.push_str(&format!(" · down {}", target.down.join(", ")));
        }
        out.push(more(&routing));
    }
    if partitions.len() > MAX_PARTITIONS {
        let hidden = partitions.len() - MAX_PARTITIONS;
        out.push(more(&format!(
            "… {} more",
            plural(hidden, "partition", "partitions")
        )));
    }
    out
}
