//! The one error type of widerow.
//!
//! Its kinds mirror the exceptions a Cassandra server raises, so a script
//! moved to a real cluster fails in the same way, and the message is the
//! server's own text. An error may also carry the span of the offending text,
//! a label and a help line; with its source attached it renders as a miette
//! diagnostic with the text underlined.

use std::fmt;
use std::sync::Arc;

use miette::{
    Diagnostic, LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents,
};

use crate::syntax::span::Span;

/// Which exception Cassandra would raise. The names are the ones drivers and
/// cqlsh print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum ErrorKind {
    /// The text does not parse (protocol code 0x2000).
    SyntaxException,
    /// The statement parses but is not valid for the schema (0x2200).
    InvalidRequest,
    /// The user may not do this (0x2100): schema changes to the system
    /// keyspaces, which even a superuser may not make.
    Unauthorized,
    /// CREATE of something that exists, without IF NOT EXISTS (0x2400).
    AlreadyExists,
    /// A schema change Cassandra's configuration refuses (0x2300).
    ConfigurationException,
    /// Too few live replicas for the consistency level (0x1000).
    Unavailable,
    /// A read passed its time limit (`read_request_timeout` or
    /// `range_request_timeout`) and was stopped (0x1200).
    ReadTimeout,
    /// Something went wrong inside widerow itself (0x0000).
    ServerError,
    /// A login refused (0x0100, the protocol's BAD_CREDENTIALS): a wrong
    /// password, an unknown role, a role that may not log in.
    AuthenticationError,
    /// A write that passed its time limit on a real cluster (0x1100); only
    /// connect mode meets it, as widerow's own writes have no replicas to
    /// wait for.
    WriteTimeout,
    /// A real cluster's coordinator refusing work it has no room for
    /// (0x1001); met in connect mode.
    Overloaded,
    /// No node of a real cluster could be reached (connect mode): the
    /// driver's error, never a server's, so it has no protocol code of its
    /// own and none goes on the wire.
    NoHostAvailable,
}

impl ErrorKind {
    /// The exception's name as cqlsh prints it.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::SyntaxException => "SyntaxException",
            ErrorKind::InvalidRequest => "InvalidRequest",
            ErrorKind::Unauthorized => "Unauthorized",
            ErrorKind::AlreadyExists => "AlreadyExists",
            ErrorKind::ConfigurationException => "ConfigurationException",
            ErrorKind::Unavailable => "Unavailable",
            ErrorKind::ReadTimeout => "ReadTimeout",
            ErrorKind::ServerError => "ServerError",
            // The Python driver's exception for a refused login.
            ErrorKind::AuthenticationError => "AuthenticationFailed",
            ErrorKind::WriteTimeout => "WriteTimeout",
            // The Python driver raises the message class itself.
            ErrorKind::Overloaded => "OverloadedErrorMessage",
            ErrorKind::NoHostAvailable => "NoHostAvailable",
        }
    }

    /// The native protocol error code.
    pub fn code(self) -> u16 {
        match self {
            ErrorKind::SyntaxException => 0x2000,
            ErrorKind::InvalidRequest => 0x2200,
            ErrorKind::Unauthorized => 0x2100,
            ErrorKind::AlreadyExists => 0x2400,
            ErrorKind::ConfigurationException => 0x2300,
            ErrorKind::Unavailable => 0x1000,
            ErrorKind::ReadTimeout => 0x1200,
            ErrorKind::ServerError => 0x0000,
            ErrorKind::AuthenticationError => 0x0100,
            ErrorKind::WriteTimeout => 0x1100,
            ErrorKind::Overloaded => 0x1001,
            ErrorKind::NoHostAvailable => 0x0000,
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An error with Cassandra's kind and message, and where it points.
#[derive(Debug, Clone)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    span: Option<Span>,
    label: Option<String>,
    help: Option<String>,
    // Boxed: rare, and keeps `Error` (and so every `Result`) small.
    info: Option<Box<ErrorInfo>>,
    source: Option<Arc<StatementSource>>,
    refusal: bool,
}

/// The extra fields some server errors carry besides their message: the
/// `info` map drivers expose and cqlsh prints after the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorInfo {
    /// Cassandra's `UnavailableException`: the consistency level asked for,
    /// the replicas it needs and the replicas that were alive.
    Unavailable {
        /// The level, upper case as Cassandra names it (`QUORUM`).
        consistency: String,
        /// Acknowledgements the level needs (`required_replicas`).
        required_replicas: u32,
        /// Live replicas the coordinator could count on (`alive_replicas`).
        alive_replicas: u32,
    },
    /// Cassandra's `ReadTimeoutException`: the level, the responses it
    /// got and needed, and whether the data replica answered.
    ReadTimeout {
        /// The level, upper case (`ONE`).
        consistency: String,
        /// Responses received before the deadline.
        received_responses: u32,
        /// Responses the level needs.
        required_responses: u32,
        /// Whether the replica asked for the data answered.
        data_retrieved: bool,
    },
    /// Cassandra's `WriteTimeoutException`: the level, the
    /// acknowledgements it got and needed, and what kind of write it was
    /// (which decides whether a driver's retry policy may retry it).
    WriteTimeout {
        /// The level, upper case (`ONE`; `SERIAL` for a CAS write that
        /// timed out in its Paxos round).
        consistency: String,
        /// Acknowledgements received before the deadline.
        received_responses: u32,
        /// Acknowledgements the level needs.
        required_responses: u32,
        /// The kind of write.
        write_type: WriteType,
    },
}

/// The kind of write a WriteTimeout reports, as the protocol names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteType {
    /// A write outside a batch, not to counters, without conditions.
    Simple,
    /// A logged batch whose batch log was written (a cluster's: widerow's
    /// logged batches time out before anything of them is written).
    Batch,
    /// An unlogged batch.
    UnloggedBatch,
    /// A write to counters, batched or not.
    Counter,
    /// A conditional write (lightweight transaction).
    Cas,
    /// The batch log's write, before a logged batch's own: where a logged
    /// batch of several partitions times out, nothing of it applied.
    BatchLog,
    /// A write held up updating a materialized view (a cluster's).
    View,
    /// A write to a table tracked by CDC, past CDC's space (a cluster's).
    Cdc,
}

impl WriteType {
    /// The name on the wire and in drivers (`UNLOGGED_BATCH`).
    pub fn name(self) -> &'static str {
        match self {
            WriteType::Simple => "SIMPLE",
            WriteType::Batch => "BATCH",
            WriteType::UnloggedBatch => "UNLOGGED_BATCH",
            WriteType::Counter => "COUNTER",
            WriteType::Cas => "CAS",
            WriteType::BatchLog => "BATCH_LOG",
            WriteType::View => "VIEW",
            WriteType::Cdc => "CDC",
        }
    }
}

impl ErrorInfo {
    /// The map as the Python driver renders it and cqlsh prints it, e.g.
    /// `{'consistency': 'QUORUM', 'required_replicas': 2, 'alive_replicas': 1}`
    /// (the driver's `recv_error_info` builds the dict in that key order).
    pub fn cqlsh_text(&self) -> String {
        match self {
            ErrorInfo::Unavailable {
                consistency,
                required_replicas,
                alive_replicas,
            } => format!(
                "{{'consistency': '{consistency}', 'required_replicas': {required_replicas}, \
                 'alive_replicas': {alive_replicas}}}"
            ),
            // The driver's Timeout exceptions rebuild the map: the level,
            // then required before received; a ReadTimeout keeps
            // `data_retrieved` out of it, a WriteTimeout adds its type.
            ErrorInfo::ReadTimeout {
                consistency,
                received_responses,
                required_responses,
                ..
            } => format!(
                "{{'consistency': '{consistency}', 'required_responses': {required_responses}, \
                 'received_responses': {received_responses}}}"
            ),
            ErrorInfo::WriteTimeout {
                consistency,
                received_responses,
                required_responses,
                write_type,
            } => format!(
                "{{'consistency': '{consistency}', 'required_responses': {required_responses}, \
                 'received_responses': {received_responses}, 'write_type': '{}'}}",
                write_type.name()
            ),
        }
    }
}

impl Error {
    /// An error of `kind` with the server's `message`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            span: None,
            label: None,
            help: None,
            info: None,
            source: None,
            refusal: false,
        }
    }

    /// Marks the error as the planner's refusal of the statement — raised
    /// before any data is touched — which machine output reports with
    /// `"class": "rejected"`. Unavailable is never a refusal: it depends on
    /// the cluster's state, not on the statement.
    pub fn as_refusal(mut self) -> Error {
        self.refusal =
            self.kind != ErrorKind::Unavailable && self.kind != ErrorKind::SyntaxException;
        self
    }

    /// Whether the planner refused the statement (see [`Error::as_refusal`]).
    pub fn is_refusal(&self) -> bool {
        self.refusal
    }

    /// A `SyntaxException`.
    pub fn syntax(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::SyntaxException, message)
    }

    /// An `InvalidRequest`.
    pub fn invalid(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::InvalidRequest, message)
    }

    /// Points the error at `span` of its source text.
    pub fn with_span(mut self, span: Span) -> Error {
        self.span = Some(span);
        self
    }

    /// Says, under the underlined text, what is wrong there.
    pub fn with_label(mut self, label: impl Into<String>) -> Error {
        self.label = Some(label.into());
        self
    }

    /// Adds a help line (a suggestion or a "did you mean").
    pub fn with_help(mut self, help: impl Into<String>) -> Error {
        self.help = Some(help.into());
        self
    }

    /// Attaches the server's `info` fields (see [`ErrorInfo`]).
    pub fn with_info(mut self, info: ErrorInfo) -> Error {
        self.info = Some(Box::new(info));
        self
    }

    /// Attaches the text the span points into, named `name` (a file name, or
    /// `<stdin>`), so the error renders with the text underlined.
    pub fn with_source(self, name: impl AsRef<str>, text: impl Into<String>) -> Error {
        self.with_statement_source(name, text, 1, 1)
    }

    /// Attaches the text of one statement that starts at `line` and `column`
    /// (both from 1) of the file `name`. The span stays relative to the
    /// statement, but the rendering shows the file's own line numbers, so a
    /// script's error can be shown without holding the whole script.
    pub fn with_statement_source(
        mut self,
        name: impl AsRef<str>,
        text: impl Into<String>,
        line: usize,
        column: usize,
    ) -> Error {
        self.source = Some(Arc::new(StatementSource {
            name: name.as_ref().to_string(),
            text: text.into(),
            line: line.max(1),
            column: column.max(1),
        }));
        self
    }

    /// Moves the span `by` bytes, for an error found in a statement that
    /// sits at offset `by` of a larger text.
    pub fn shifted(mut self, by: usize) -> Error {
        self.span = self.span.map(|s| s.shifted(by));
        self
    }

    /// Which exception this is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The server's message text.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Where the error points, if anywhere.
    pub fn span(&self) -> Option<Span> {
        self.span
    }

    /// The label under the underlined text.
    pub fn label(&self) -> Option<&str> {
        self.label.as_deref()
    }

    /// The help line.
    pub fn help_text(&self) -> Option<&str> {
        self.help.as_deref()
    }

    /// The server's `info` fields, if the error carries any.
    pub fn info(&self) -> Option<&ErrorInfo> {
        self.info.as_deref()
    }

    /// The error as cqlsh prints it, e.g.
    /// `InvalidRequest: Error from server: code=2200 [Invalid query] message="…"`,
    /// followed by ` info={…}` when the error carries [`ErrorInfo`].
    pub fn cqlsh_text(&self) -> String {
        let summary = match self.kind {
            ErrorKind::AlreadyExists => {
                return format!(
                    "{}: {}",
                    self.kind.name(),
                    already_exists_text(&self.message)
                );
            }
            ErrorKind::SyntaxException => {
                return format!("{}: {}", self.kind.name(), self.message);
            }
            ErrorKind::ConfigurationException
            | ErrorKind::ServerError
            | ErrorKind::NoHostAvailable => {
                return format!("{}: {}", self.kind.name(), self.message);
            }
            ErrorKind::InvalidRequest => "Invalid query",
            ErrorKind::Unauthorized => "Unauthorized",
            ErrorKind::Unavailable => "Unavailable exception",
            ErrorKind::ReadTimeout => {
                "Coordinator node timed out waiting for replica nodes' responses"
            }
            ErrorKind::AuthenticationError => "Bad credentials",
            ErrorKind::WriteTimeout => {
                "Coordinator node timed out waiting for replica nodes' responses"
            }
            ErrorKind::Overloaded => "Coordinator node overloaded",
        };
        let mut text = format!(
            "{}: Error from server: code={:04x} [{}] message=\"{}\"",
            self.kind.name(),
            self.kind.code(),
            summary,
            self.message
        );
        if let Some(info) = self.info() {
            text.push_str(" info=");
            text.push_str(&info.cqlsh_text());
        }
        text
    }
}

/// What the Python driver's `AlreadyExists` says, as cqlsh prints it: it
/// keeps only the keyspace and table of the server's error, so
/// `Cannot add already existing table "t" to keyspace "ks"` reads
/// `Table 'ks.t' already exists` and `Cannot add existing keyspace "ks"`
/// reads `Keyspace 'ks' already exists`. Other texts are kept.
fn already_exists_text(message: &str) -> String {
    match already_exists_parts(message) {
        Some((keyspace, "")) => format!("Keyspace '{keyspace}' already exists"),
        Some((keyspace, table)) => format!("Table '{keyspace}.{table}' already exists"),
        None => message.to_string(),
    }
}

/// The keyspace and table (empty for a keyspace) an `AlreadyExists`
/// message names: what Cassandra's `AlreadyExistsException` carries, and
/// the native protocol sends after the message.
pub fn already_exists_parts(message: &str) -> Option<(&str, &str)> {
    let quoted: Vec<&str> = message.split('"').skip(1).step_by(2).collect();
    match quoted.as_slice() {
        [table, keyspace] if message.starts_with("Cannot add already existing table") => {
            Some((keyspace, table))
        }
        [keyspace] if message.starts_with("Cannot add existing keyspace") => Some((keyspace, "")),
        _ => None,
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl Diagnostic for Error {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.kind.name()))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_deref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_deref().map(|s| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let span = self.span?;
        self.source.as_ref()?;
        let label = LabeledSpan::new_with_span(self.label.clone(), span);
        Some(Box::new(std::iter::once(label)))
    }
}

/// A statement's text and where it sits in its file, so spans relative to
/// the statement render with the file's line and column numbers (columns in
/// characters, as every position widerow prints).
#[derive(Debug)]
pub(crate) struct StatementSource {
    pub(crate) name: String,
    pub(crate) text: String,
    pub(crate) line: usize,
    pub(crate) column: usize,
}

impl SourceCode for StatementSource {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self.text.read_span(span, before, after)?;
        // miette counts the column in bytes; positions count characters.
        let column = match self.text.get(..span.offset()) {
            Some(prefix) if before == 0 => {
                let line_start = prefix.rfind(['\n', '\r']).map_or(0, |i| i + 1);
                prefix[line_start..].chars().count()
            }
            _ => inner.column(),
        };
        let column = if inner.line() == 0 {
            column + self.column - 1
        } else {
            column
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line() + self.line - 1,
            column,
            inner.line_count(),
        )))
    }
}

/// Results whose error is a widerow [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
