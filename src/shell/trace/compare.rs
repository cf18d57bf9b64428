//! TRACING ON in connect mode: the cluster's own trace of a request (from
//! `system_traces`), then widerow's prediction for the same statement beside
//! what the trace shows — the coordinator, and the nodes that worked on it
//! — and where the two differ. The prediction is the plan made on the
//! mirror of the cluster's schema and ring before the statement was sent.

use std::fmt::Write;

use crate::exec::{ColumnSpec, ResultSet, Rows};
use crate::planner::Plan;
use crate::render::{table_pages, TableOptions};
use crate::shell::remote::ClusterTrace;
use crate::syntax::ast::NativeType;
use crate::types::{DataType, Value};

/// The trace's events as a table, then the comparison.
pub fn compare(trace: &ClusterTrace, plan: Option<&Plan>) -> String {
    let mut out = format!("\nTracing session: {}\n", trace.session_id);
    out.push_str(&events_table(trace));
    let traced = trace.nodes();
    let _ = writeln!(out, "widerow's prediction beside the cluster's trace");
    let Some(plan) = plan else {
        let _ = writeln!(
            out,
            "  traced         coordinator {} · nodes {}",
            trace.coordinator,
            traced.join(", ")
        );
        let _ = writeln!(
            out,
            "  predicted      nothing: widerow could not plan this statement"
        );
        return out;
    };
    let mut predicted: Vec<&str> = vec![plan.coordinator.as_str()];
    for node in plan.nodes.iter() {
        if !predicted.contains(&node.as_str()) {
            predicted.push(node);
        }
    }
    let _ = writeln!(
        out,
        "  coordinator    predicted {} · traced {}",
        plan.coordinator, trace.coordinator
    );
    let _ = writeln!(
        out,
        "  nodes          predicted {} · traced {}",
        predicted.join(", "),
        traced.join(", ")
    );
    let _ = writeln!(out, "  {}", verdict(plan, &predicted, trace, &traced));
    out
}

/// `agree`, or each difference in a few words.
fn verdict(plan: &Plan, predicted: &[&str], trace: &ClusterTrace, traced: &[&str]) -> String {
    let mut differences = Vec::new();
    if plan.coordinator != trace.coordinator {
        differences.push(format!(
            "the cluster's coordinator was {}, not {}",
            trace.coordinator, plan.coordinator
        ));
    }
    let unpredicted = missing_from(traced, predicted);
    if !unpredicted.is_empty() {
        differences.push(format!(
            "the cluster also involved {}",
            unpredicted.join(", ")
        ));
    }
    let untouched = missing_from(predicted, traced);
    if !untouched.is_empty() {
        differences.push(format!(
            "the trace shows nothing from {}",
            untouched.join(", ")
        ));
    }
    match differences.is_empty() {
        true => "agree: the cluster did what widerow predicted".to_string(),
        false => format!("differ: {}", differences.join("; ")),
    }
}

/// The nodes of `nodes` that `others` lacks, in `nodes`' order.
fn missing_from<'a>(nodes: &[&'a str], others: &[&str]) -> Vec<&'a str> {
    nodes
        .iter()
        .filter(|n| !others.contains(n))
        .copied()
        .collect()
}

fn events_table(trace: &ClusterTrace) -> String {
    let text = || DataType::Native(NativeType::Text);
    let columns = vec![
        ColumnSpec {
            name: "activity".into(),
            data_type: text(),
        },
        ColumnSpec {
            name: "source".into(),
            data_type: text(),
        },
        ColumnSpec {
            name: "source_elapsed".into(),
            data_type: DataType::Native(NativeType::Int),
        },
    ];
    let mut rows = Rows::with_capacity(3, trace.events.len());
    for event in &trace.events {
        rows.push([
            Value::Text(event.activity.clone()),
            Value::Text(event.source.clone()),
            event.source_elapsed.map_or(Value::Null, Value::Int),
        ]);
    }
    let options = TableOptions {
        interactive: false,
        page_size: None,
    };
    table_pages(&ResultSet::rows(columns, rows), &options).concat()
}
