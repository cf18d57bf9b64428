//! Data statements: SELECT, INSERT, UPDATE, DELETE, BATCH, and the WHERE and
//! IF clauses they share.

use super::super::span::Span;
use super::ddl::Order;
use super::expr::{Ident, QualifiedName, Selector, Term};

/// A comparison operator in a relation or condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Operator {
    /// `=`
    Eq,
    /// `!=` (only meaningful in IF conditions)
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl Operator {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            Operator::Eq => "=",
            Operator::Ne => "!=",
            Operator::Lt => "<",
            Operator::Le => "<=",
            Operator::Gt => ">",
            Operator::Ge => ">=",
        }
    }

    /// Whether this is a slice bound (`<`, `<=`, `>`, `>=`).
    pub fn is_slice(self) -> bool {
        matches!(
            self,
            Operator::Lt | Operator::Le | Operator::Gt | Operator::Ge
        )
    }
}

/// The right-hand side of IN.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum InValues {
    /// `IN (a, b, …)` (possibly empty).
    List(Vec<Term>),
    /// `IN ?` — the whole list bound at execution: a marker term, so it
    /// has a position like every other marker.
    Marker(Term),
}

/// One restriction of a WHERE clause.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Relation {
    /// What the restriction is.
    pub kind: RelationKind,
    /// The whole relation.
    pub span: Span,
}

/// The forms a WHERE restriction takes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RelationKind {
    /// `col op term`
    Compare {
        /// The column.
        column: Ident,
        /// The operator.
        op: Operator,
        /// The value.
        value: Term,
    },
    /// `col IN (…)`
    In {
        /// The column.
        column: Ident,
        /// The values.
        values: InValues,
    },
    /// `col CONTAINS term` / `col CONTAINS KEY term`
    Contains {
        /// The collection column.
        column: Ident,
        /// `CONTAINS KEY`
        key: bool,
        /// The value looked for.
        value: Term,
    },
    /// `m[key] op term` (map entry; needs an ENTRIES index).
    MapEntry {
        /// The map column.
        column: Ident,
        /// The key; boxed, so that this rare form is no bigger than the
        /// common `col op term`, which sets the size of every relation.
        key: Box<Term>,
        /// The operator.
        op: Operator,
        /// The value.
        value: Term,
    },
    /// `(a, b) op (1, 2)` or `(a, b) op ?`
    MultiCompare {
        /// The clustering columns.
        columns: Vec<Ident>,
        /// The operator.
        op: Operator,
        /// A tuple literal or a marker.
        value: Term,
    },
    /// `(a, b) IN ((1, 2), …)` or `(a, b) IN ?`
    MultiIn {
        /// The clustering columns.
        columns: Vec<Ident>,
        /// Tuples, markers, or one marker for the whole list.
        values: InValues,
    },
    /// `TOKEN(a, b) op term`
    Token {
        /// The partition key columns.
        columns: Vec<Ident>,
        /// The operator.
        op: Operator,
        /// The bound (often `token(…)` of literals).
        value: Term,
    },
    /// `col LIKE term` (SASI/SAI).
    Like {
        /// The column.
        column: Ident,
        /// The pattern.
        value: Term,
    },
    /// `col IS NOT NULL` (materialized views).
    IsNotNull {
        /// The column.
        column: Ident,
    },
}

/// The selection of a SELECT: `*` or a list of selectors.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SelectClause {
    /// `*`
    Star,
    /// `a, f(b) AS x, …`
    Items(Vec<SelectItem>),
}

/// One selector with its optional alias.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SelectItem {
    /// The expression.
    pub selector: Selector,
    /// `AS alias`
    pub alias: Option<Ident>,
}

/// One ORDER BY item.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Ordering {
    /// The clustering column.
    pub column: Ident,
    /// `ASC` / `DESC`; `None` when not written (ascending).
    pub order: Option<Order>,
}

/// `SELECT …`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Select {
    /// `SELECT JSON`
    pub json: bool,
    /// `SELECT DISTINCT`
    pub distinct: bool,
    /// What is selected.
    pub selection: SelectClause,
    /// The table.
    pub from: QualifiedName,
    /// WHERE restrictions, in the order written (order matters for which
    /// error Cassandra reports first).
    pub where_clause: Vec<Relation>,
    /// GROUP BY items (columns, or a function of the last one).
    pub group_by: Vec<Selector>,
    /// ORDER BY items.
    pub order_by: Vec<Ordering>,
    /// `PER PARTITION LIMIT n` — an integer literal or a marker.
    pub per_partition_limit: Option<Term>,
    /// `LIMIT n` — an integer literal or a marker.
    pub limit: Option<Term>,
    /// `ALLOW FILTERING`
    pub allow_filtering: bool,
    /// The whole statement.
    pub span: Span,
}

/// One `USING` item.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum UsingItem {
    /// `TTL n` (seconds) — integer literal or marker.
    Ttl(Term),
    /// `TIMESTAMP n` (microseconds) — integer literal or marker.
    Timestamp(Term),
}

/// What INSERT writes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum InsertSource {
    /// `(a, b) VALUES (1, 2)`
    Values {
        /// The columns.
        columns: Vec<Ident>,
        /// One value per column.
        values: Vec<Term>,
    },
    /// `JSON '…' [DEFAULT NULL | DEFAULT UNSET]`
    Json {
        /// A string or a marker.
        value: Term,
        /// `DEFAULT UNSET` leaves unnamed columns untouched.
        default: Option<JsonDefault>,
    },
}

/// How INSERT JSON treats columns the JSON object leaves out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JsonDefault {
    /// `DEFAULT NULL` (the default): they become null.
    Null,
    /// `DEFAULT UNSET`: they are left as they are.
    Unset,
}

/// `INSERT INTO t … [IF NOT EXISTS] [USING …]`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Insert {
    /// The table.
    pub table: QualifiedName,
    /// What is written.
    pub source: InsertSource,
    /// `IF NOT EXISTS`
    pub if_not_exists: bool,
    /// `USING TTL … AND TIMESTAMP …`
    pub using: Vec<UsingItem>,
    /// The whole statement.
    pub span: Span,
}

/// The column an assignment or condition is about, with an optional element
/// or field: `c`, `c[term]`, `c.field`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ColumnRef {
    /// The whole column.
    Column(Ident),
    /// `c[term]` — a list index or map key; boxed, as the term would
    /// double the size of the whole-column form that nearly every
    /// assignment and condition uses.
    Element(Ident, Box<Term>),
    /// `c.field` — a UDT field.
    Field(Ident, Ident),
}

impl ColumnRef {
    /// The column the reference is about.
    pub fn column(&self) -> &Ident {
        match self {
            ColumnRef::Column(c) | ColumnRef::Element(c, _) | ColumnRef::Field(c, _) => c,
        }
    }
}

/// One `SET` item of UPDATE.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Assignment {
    /// What the assignment does.
    pub kind: AssignmentKind,
    /// The whole assignment.
    pub span: Span,
}

/// The assignment forms of UPDATE.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AssignmentKind {
    /// `c = t`, `c[k] = t`, `c.f = t`
    Set {
        /// What is assigned.
        target: ColumnRef,
        /// The new value.
        value: Term,
    },
    /// `c = c + t` (`append`), `c = c - t`, and the `c += t` / `c -= t`
    /// shorthands, which mean the same.
    Apply {
        /// The column (both sides name it).
        column: Ident,
        /// `+` or `-`.
        op: ArithmeticSign,
        /// The operand.
        value: Term,
        /// Written as `c += t` rather than `c = c + t`.
        shorthand: bool,
    },
    /// `c = t + c` — list prepend.
    Prepend {
        /// The list column.
        column: Ident,
        /// The prepended value.
        value: Term,
    },
}

/// `+` or `-` in a counter or collection update.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArithmeticSign {
    /// `+`
    Plus,
    /// `-`
    Minus,
}

/// One condition of an `IF` clause.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Condition {
    /// What is tested.
    pub kind: ConditionKind,
    /// The whole condition.
    pub span: Span,
}

/// The forms of an LWT condition.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ConditionKind {
    /// `c op t`, `c[k] op t`, `c.f op t`
    Compare {
        /// The column (or element or field).
        target: ColumnRef,
        /// The operator.
        op: Operator,
        /// The value.
        value: Term,
    },
    /// `c IN (…)`
    In {
        /// The column (or element or field).
        target: ColumnRef,
        /// The values.
        values: InValues,
    },
    /// `c CONTAINS [KEY] t`
    Contains {
        /// The collection column.
        column: Ident,
        /// `CONTAINS KEY`
        key: bool,
        /// The value looked for.
        value: Term,
    },
}

/// The `IF` clause of UPDATE and DELETE.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum IfClause {
    /// `IF EXISTS`
    Exists,
    /// `IF cond AND cond …`
    Conditions(Vec<Condition>),
}

/// `UPDATE t [USING …] SET … WHERE … [IF …]`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Update {
    /// The table.
    pub table: QualifiedName,
    /// `USING TTL … AND TIMESTAMP …`
    pub using: Vec<UsingItem>,
    /// The assignments.
    pub assignments: Vec<Assignment>,
    /// The rows written.
    pub where_clause: Vec<Relation>,
    /// `IF EXISTS` or conditions.
    pub if_clause: Option<IfClause>,
    /// The whole statement.
    pub span: Span,
}

/// `DELETE [targets] FROM t [USING TIMESTAMP n] WHERE … [IF …]`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Delete {
    /// Columns, elements or fields to delete; empty deletes whole rows.
    pub targets: Vec<ColumnRef>,
    /// The table.
    pub table: QualifiedName,
    /// `USING TIMESTAMP n` (the grammar takes any USING item; the binder
    /// refuses TTL with Cassandra's message).
    pub using: Vec<UsingItem>,
    /// The rows deleted.
    pub where_clause: Vec<Relation>,
    /// `IF EXISTS` or conditions.
    pub if_clause: Option<IfClause>,
    /// The whole statement.
    pub span: Span,
}

/// The kinds of batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BatchKind {
    /// `BEGIN BATCH` — logged.
    Logged,
    /// `BEGIN UNLOGGED BATCH`
    Unlogged,
    /// `BEGIN COUNTER BATCH`
    Counter,
}

/// A statement that may appear inside a batch.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum BatchStatement {
    /// INSERT
    Insert(Insert),
    /// UPDATE
    Update(Update),
    /// DELETE
    Delete(Delete),
}

/// `BEGIN [UNLOGGED | COUNTER] BATCH [USING …] … APPLY BATCH`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Batch {
    /// Logged, unlogged or counter.
    pub kind: BatchKind,
    /// Batch-level `USING` items.
    pub using: Vec<UsingItem>,
    /// The statements, in order.
    pub statements: Vec<BatchStatement>,
    /// The whole statement.
    pub span: Span,
}
