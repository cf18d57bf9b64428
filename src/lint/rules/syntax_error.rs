//! E001 `syntax-error`.

use super::super::{Level, Rule};

/// A statement that does not parse. The driver reports it; this type gives
/// it a name, a code and documentation.
pub struct SyntaxError;

impl Rule for SyntaxError {
    fn name(&self) -> &'static str {
        "syntax-error"
    }
    fn code(&self) -> &'static str {
        "E001"
    }
    fn default_level(&self) -> Level {
        Level::Error
    }
    fn summary(&self) -> &'static str {
        "the statement is not valid CQL"
    }
    fn documentation(&self) -> &'static str {
        "## What it does\n\nReports a statement that does not parse, with Cassandra's `SyntaxException` text.\n\n\
         ## Why it matters on a cluster\n\nCassandra refuses the statement before anything runs.\n\n\
         ## Example\n\n```cql\nSELET * FROM users;\n```\n\n\
         ## Instead\n\n```cql\nSELECT * FROM users;\n```\n\n\
         ## Options\n\nNone.\n\n## References\n\nCassandra's CQL grammar (`Parser.g`); `grammar/cql.ebnf`.\n"
    }
}
