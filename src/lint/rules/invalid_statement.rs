//! E002 `invalid-statement`.

use super::super::{Level, Rule};

/// A statement Cassandra refuses for a reason no other rule explains (an
/// unknown table, a bad primary key, an ORDER BY Cassandra does not
/// support…). The driver reports it with Cassandra's message.
pub struct InvalidStatement;

impl Rule for InvalidStatement {
    fn name(&self) -> &'static str {
        "invalid-statement"
    }
    fn code(&self) -> &'static str {
        "E002"
    }
    fn default_level(&self) -> Level {
        Level::Error
    }
    fn summary(&self) -> &'static str {
        "Cassandra refuses the statement"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\nReports a statement that parses but that Cassandra refuses, with Cassandra's exception and message.\n\n\
         ## Why it matters on a cluster\n\nThe statement fails every time it runs.\n\n\
         ## Example\n\n```cql\nSELECT * FROM t WHERE k = 1 ORDER BY v;\n```\n\n\
         ## Instead\n\nFollow the message: here, order only by clustering columns.\n\n\
         ## Options\n\nNone.\n\n## References\n\n`restrictions.md` §5.3, §6.\n"
    }
}
