//! Whether a suggested design would itself be flagged: a query table keyed
//! by a column of few values (`country`) serves its query from one
//! partition and is still a hot partition. The design is linted as a file
//! of its own, under the configuration the suggestion is for, with every
//! rule that configuration runs; a design with findings is not offered.

use crate::lint::{Finding, LintConfig, Linter};
use crate::planner::PlanContext;

/// The name the design is linted under (no configured pattern names it).
const DESIGN_FILE: &str = "<suggestion>";

/// The findings of `script` (a CREATE TABLE and the query against it) on
/// `scratch`, a schema without the new table.
pub(super) fn design_findings(
    scratch: &PlanContext,
    script: &str,
    config: &LintConfig,
) -> Vec<Finding> {
    let mut linter = Linter::with_context(scratch.clone(), config.clone());
    let mut findings = linter.lint_str(DESIGN_FILE, script);
    findings.extend(linter.finish());
    findings
}

/// The help of a query whose only design is flagged: which rules flag it,
/// and what would let a clean table serve the query.
pub(super) fn no_clean_design(partition: &str, findings: &[Finding]) -> String {
    let mut rules: Vec<String> = findings
        .iter()
        .map(|f| format!("{} ({})", f.name, f.code))
        .collect();
    rules.dedup();
    format!(
        "no query table serves this query cleanly: one partitioned by ({partition}) would draw {}; \
         restrict a column with many distinct values by equality as well, or bound the query \
         by a time range so the table can add a day bucket to its partition key",
        rules.join(" and ")
    )
}
