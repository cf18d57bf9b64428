//! S001 `unused-suppression`.

use super::super::{Level, Rule};

/// A `-- widerow: ignore[…]` comment that silences no finding.
pub struct UnusedSuppression;

impl Rule for UnusedSuppression {
    fn name(&self) -> &'static str {
        "unused-suppression"
    }
    fn code(&self) -> &'static str {
        "S001"
    }
    fn default_level(&self) -> Level {
        Level::Warning
    }
    fn summary(&self) -> &'static str {
        "a suppression comment silences nothing"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\nReports `-- widerow: ignore[rule]` and `-- widerow: ignore-file[rule]` comments that silence no finding, or that name no known rule.\n\n\
         ## Why it matters on a cluster\n\nA stale suppression would hide the next real problem in that statement.\n\n\
         ## Example\n\n```cql\n-- widerow: ignore[allow-filtering] reviewed\nSELECT * FROM users WHERE user_id = ?;\n```\n\n\
         ## Instead\n\nRemove the comment.\n\n## Options\n\nNone.\n\n## References\n\nThe suppression syntax in the README.\n"
    }
}
