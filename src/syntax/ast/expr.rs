//! Names, literals, terms, types and selectors: the pieces every statement is
//! built from.

use super::super::span::Span;

/// A name after Cassandra's normalisation: unquoted names and unreserved
/// keywords are folded to lower case, quoted names are kept exactly.
/// `MyTable`, `mytable` and `"mytable"` are the same identifier.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Ident {
    /// The normalised name.
    pub name: String,
    /// Where it was written.
    pub span: Span,
}

impl Ident {
    /// An identifier with no position (for ASTs built in code).
    pub fn new(name: impl Into<String>) -> Ident {
        Ident {
            name: name.into(),
            span: Span::default(),
        }
    }
}

/// A possibly keyspace-qualified name: `ks.table`, `table`, `ks.index`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct QualifiedName {
    /// The keyspace, when written.
    pub keyspace: Option<Ident>,
    /// The object's own name.
    pub name: Ident,
    /// The whole name.
    pub span: Span,
}

/// A constant as written. Numbers keep their text so that no precision is
/// lost before a column type decides what they mean (a `varint` may exceed
/// every machine integer; `1.10` and `1.1` are different decimals).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Literal {
    /// `'…'` or `$$…$$`, with quotes removed and `''` unescaped.
    String(String),
    /// Integer text, sign included: `-5`.
    Integer(String),
    /// Float text: `1.5`, `-2e3`, `NaN`, `Infinity`, `-Infinity`.
    Float(String),
    /// `true` / `false`.
    Boolean(bool),
    /// Duration text as written: `1h30m`, `P1D`.
    Duration(String),
    /// An unquoted UUID, in lower case.
    Uuid(String),
    /// Blob hex digits after `0x`, in lower case.
    Hex(String),
    /// `NULL`.
    Null,
}

/// A bind marker: a value supplied when a prepared statement is executed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum BindMarker {
    /// `?`
    Anonymous,
    /// `:name`
    Named(Ident),
}

/// A function name, possibly keyspace-qualified: `token`, `system.now`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FunctionName {
    /// The keyspace, when written.
    pub keyspace: Option<Ident>,
    /// The function's name (normalised like any identifier).
    pub name: Ident,
}

/// Arithmetic operators on terms and selectors (Cassandra 4.0+).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArithmeticOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
}

impl ArithmeticOp {
    /// `* / %` bind tighter than `+ -`.
    pub fn precedence(self) -> u8 {
        match self {
            ArithmeticOp::Add | ArithmeticOp::Sub => 1,
            ArithmeticOp::Mul | ArithmeticOp::Div | ArithmeticOp::Rem => 2,
        }
    }

    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            ArithmeticOp::Add => "+",
            ArithmeticOp::Sub => "-",
            ArithmeticOp::Mul => "*",
            ArithmeticOp::Div => "/",
            ArithmeticOp::Rem => "%",
        }
    }

    /// The system function Cassandra turns the operator into
    /// (`OperationFcts`, whose subtraction is spelt `_substract`): what its
    /// overloads are named and how its messages print the operation.
    pub fn function_name(self) -> &'static str {
        match self {
            ArithmeticOp::Add => "_add",
            ArithmeticOp::Sub => "_substract",
            ArithmeticOp::Mul => "_multiply",
            ArithmeticOp::Div => "_divide",
            ArithmeticOp::Rem => "_modulo",
        }
    }
}

/// A value expression: what goes on the right of `=`, in VALUES, in IN lists.
#[derive(Debug, Clone, Eq)]
pub struct Term {
    /// What the term is.
    pub kind: TermKind,
    /// Where it was written.
    pub span: Span,
}

/// Terms are equal when they are written alike, wherever they are (the
/// span, like every span, is left out); each comparison is counted in
/// debug builds (see [`crate::work`]).
impl PartialEq for Term {
    fn eq(&self, other: &Term) -> bool {
        crate::work::count_comparison();
        self.kind == other.kind
    }
}

/// Hashes what equality compares: the kind.
impl std::hash::Hash for Term {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.kind.hash(state);
    }
}

/// The shapes a term can take.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TermKind {
    /// A constant or `NULL`.
    Literal(Literal),
    /// `?` or `:name`.
    Marker(BindMarker),
    /// `[a, b]` — a list or a vector.
    List(Vec<Term>),
    /// `{a, b}`; `{}` is an empty set, which a map column also accepts.
    Set(Vec<Term>),
    /// `{k: v, …}`
    Map(Vec<(Term, Term)>),
    /// `(a, b)` — a tuple (one element is still a tuple).
    Tuple(Vec<Term>),
    /// `{field: v, …}` — a user-defined type value.
    Udt(Vec<(Ident, Term)>),
    /// `f(a, b)`
    FunctionCall {
        /// The function; boxed, as a qualified name is twice the size of
        /// any other term, and terms are moved around by value while parsing.
        name: Box<FunctionName>,
        /// Its arguments.
        args: Vec<Term>,
    },
    /// `(type) term`, telling a bind marker or literal its type.
    TypeHint {
        /// The hinted type.
        ty: CqlType,
        /// The term it applies to.
        term: Box<Term>,
    },
    /// `CAST(term AS type)`
    Cast {
        /// The term converted.
        term: Box<Term>,
        /// The target type.
        ty: CqlType,
    },
    /// `-term` where the term is not a numeric literal (those carry their sign).
    Negate(Box<Term>),
    /// `a + b`, `a * b`, …
    Binary {
        /// The operator.
        op: ArithmeticOp,
        /// Left operand.
        left: Box<Term>,
        /// Right operand.
        right: Box<Term>,
    },
}

/// Native CQL types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NativeType {
    Ascii,
    Bigint,
    Blob,
    Boolean,
    Counter,
    Date,
    Decimal,
    Double,
    Duration,
    Float,
    Inet,
    Int,
    Smallint,
    Text,
    Time,
    Timestamp,
    Timeuuid,
    Tinyint,
    Uuid,
    Varchar,
    Varint,
}

impl NativeType {
    /// Every native type, for completion, generators and lookups.
    pub const ALL: [NativeType; 21] = [
        NativeType::Ascii,
        NativeType::Bigint,
        NativeType::Blob,
        NativeType::Boolean,
        NativeType::Counter,
        NativeType::Date,
        NativeType::Decimal,
        NativeType::Double,
        NativeType::Duration,
        NativeType::Float,
        NativeType::Inet,
        NativeType::Int,
        NativeType::Smallint,
        NativeType::Text,
        NativeType::Time,
        NativeType::Timestamp,
        NativeType::Timeuuid,
        NativeType::Tinyint,
        NativeType::Uuid,
        NativeType::Varchar,
        NativeType::Varint,
    ];

    /// The type's name in lower case, as DESCRIBE prints it (`varchar` stays
    /// `varchar` here; the catalog folds it to `text`).
    pub fn name(self) -> &'static str {
        match self {
            NativeType::Ascii => "ascii",
            NativeType::Bigint => "bigint",
            NativeType::Blob => "blob",
            NativeType::Boolean => "boolean",
            NativeType::Counter => "counter",
            NativeType::Date => "date",
            NativeType::Decimal => "decimal",
            NativeType::Double => "double",
            NativeType::Duration => "duration",
            NativeType::Float => "float",
            NativeType::Inet => "inet",
            NativeType::Int => "int",
            NativeType::Smallint => "smallint",
            NativeType::Text => "text",
            NativeType::Time => "time",
            NativeType::Timestamp => "timestamp",
            NativeType::Timeuuid => "timeuuid",
            NativeType::Tinyint => "tinyint",
            NativeType::Uuid => "uuid",
            NativeType::Varchar => "varchar",
            NativeType::Varint => "varint",
        }
    }

    /// Looks a type name up (case-insensitive).
    pub fn from_name(name: &str) -> Option<NativeType> {
        NativeType::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(name))
    }
}

/// A CQL type as written in DDL, a type hint or a CAST.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum CqlType {
    /// `int`, `text`, …
    Native(NativeType),
    /// `list<T>`
    List(Box<CqlType>),
    /// `set<T>`
    Set(Box<CqlType>),
    /// `map<K, V>`
    Map(Box<CqlType>, Box<CqlType>),
    /// `tuple<A, B, …>`
    Tuple(Vec<CqlType>),
    /// `frozen<T>`
    Frozen(Box<CqlType>),
    /// `vector<T, n>`, as written: a dimension below 1 is refused when the
    /// type is resolved, as Cassandra refuses it.
    Vector(Box<CqlType>, i32),
    /// A user-defined type, possibly keyspace-qualified. Boxed: the name is
    /// three times the size of every other variant, and types sit inside
    /// terms, selectors and column definitions, which it would all widen.
    Udt(Box<QualifiedName>),
    /// `'org.example.MyType'` — a custom type class.
    Custom(String),
}

/// Sub-selection of a collection or UDT value in a selector or condition.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SubSelection {
    /// `[term]` — one element.
    Element(Term),
    /// `[from..to]` — a slice; either end may be open. The bounds are
    /// boxed so that the common `[term]` sets the size of the enum.
    Slice(Option<Box<Term>>, Option<Box<Term>>),
    /// `.field` — a UDT field.
    Field(Ident),
}

/// One expression in a SELECT clause.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Selector {
    /// What is selected.
    pub kind: SelectorKind,
    /// Where it was written.
    pub span: Span,
}

/// The shapes of a selector.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SelectorKind {
    /// A column.
    Column(Ident),
    /// A constant, `NULL` or bind marker.
    Term(Term),
    /// `COUNT(*)`
    CountStar,
    /// `WRITETIME(col)`, `MAXWRITETIME(col)`, `TTL(col)`.
    Metadata {
        /// Which metadata function.
        function: MetadataFunction,
        /// The column.
        column: Ident,
        /// An element or field of the column.
        sub: Option<Box<SubSelection>>,
    },
    /// `CAST(selector AS type)`
    Cast {
        /// What is converted.
        selector: Box<Selector>,
        /// The target type.
        ty: CqlType,
    },
    /// `f(a, b)` — including `token(k)` and `count(col)`.
    Function {
        /// The function; boxed for the same reason as in
        /// [`TermKind::FunctionCall`].
        name: Box<FunctionName>,
        /// Its arguments.
        args: Vec<Selector>,
    },
    /// `a + b`, …
    Binary {
        /// The operator.
        op: ArithmeticOp,
        /// Left operand.
        left: Box<Selector>,
        /// Right operand.
        right: Box<Selector>,
    },
    /// `-selector`
    Negate(Box<Selector>),
    /// `selector[…]` or `selector.field`.
    Sub {
        /// What is sub-selected.
        selector: Box<Selector>,
        /// The element, slice or field.
        sub: SubSelection,
    },
    /// `(type) selector`
    TypeHint {
        /// The hinted type.
        ty: CqlType,
        /// The selector.
        selector: Box<Selector>,
    },
    /// `(a, b)` of selectors.
    Tuple(Vec<Selector>),
    /// `[a, b]` of selectors.
    List(Vec<Selector>),
    /// `{a, b}` of selectors.
    Set(Vec<Selector>),
    /// `{k: v}` of selectors.
    Map(Vec<(Selector, Selector)>),
}

/// The cell-metadata selector functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MetadataFunction {
    /// `WRITETIME(col)`
    WriteTime,
    /// `MAXWRITETIME(col)`
    MaxWriteTime,
    /// `TTL(col)`
    Ttl,
}
