//! CQL keywords: the reserved ones must be double-quoted to serve as names,
//! the unreserved ones are ordinary identifiers wherever a name is expected.
//!
//! Generated from the keyword lists of Cassandra 5.0 (`Lexer.g`); the list of
//! reserved words is the one cqlsh 6.2 ships in `cqlhandling.py`.

/// Every keyword the lexer knows. `COLUMNFAMILY`, `COLUMNFAMILIES` and `SCHEMA`
/// are spellings of `TABLE`, `TABLES` and `KEYSPACE` and lex to those variants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Keyword {
    Add,
    Allow,
    Alter,
    And,
    Apply,
    Asc,
    Authorize,
    Batch,
    Begin,
    By,
    Create,
    Delete,
    Desc,
    Describe,
    Drop,
    Entries,
    Execute,
    From,
    Full,
    Grant,
    If,
    In,
    Index,
    Infinity,
    Insert,
    Into,
    Is,
    Keyspace,
    Limit,
    Materialized,
    Modify,
    Nan,
    Norecursive,
    Not,
    Null,
    Of,
    On,
    Or,
    Order,
    Primary,
    Rename,
    Revoke,
    Select,
    Set,
    Table,
    To,
    Token,
    Truncate,
    Unlogged,
    Update,
    Use,
    Using,
    View,
    Where,
    With,
    Access,
    Aggregate,
    Aggregates,
    All,
    Ann,
    As,
    Ascii,
    Between,
    Bigint,
    Blob,
    Boolean,
    Called,
    Cast,
    Cidrs,
    Cluster,
    Clustering,
    Compact,
    Contains,
    Count,
    Counter,
    Custom,
    Datacenters,
    Date,
    Decimal,
    Default,
    Distinct,
    Double,
    Duration,
    Exists,
    Filtering,
    Finalfunc,
    Float,
    Frozen,
    Function,
    Functions,
    Generated,
    Group,
    Hashed,
    Identity,
    Indexes,
    Inet,
    Initcond,
    Input,
    Int,
    Internals,
    Json,
    Key,
    Keys,
    Keyspaces,
    Language,
    Like,
    List,
    Login,
    Map,
    Masked,
    Maxwritetime,
    Mbean,
    Mbeans,
    Nologin,
    Nosuperuser,
    Only,
    Options,
    Partition,
    Password,
    Per,
    Permission,
    Permissions,
    Replace,
    Returns,
    Role,
    Roles,
    SelectMasked,
    Sfunc,
    Smallint,
    Static,
    Storage,
    Stype,
    Superuser,
    Superusers,
    Tables,
    Text,
    Time,
    Timestamp,
    Timeuuid,
    Tinyint,
    Trigger,
    Ttl,
    Tuple,
    Type,
    Types,
    Unmask,
    Unset,
    User,
    Users,
    Uuid,
    Values,
    Varchar,
    Varint,
    Vector,
    Writetime,
}

impl Keyword {
    /// All keywords, in declaration order; used by completion and by "did you mean" help.
    pub const ALL: &'static [Keyword] = &[
        Keyword::Add,
        Keyword::Allow,
        Keyword::Alter,
        Keyword::And,
        Keyword::Apply,
        Keyword::Asc,
        Keyword::Authorize,
        Keyword::Batch,
        Keyword::Begin,
        Keyword::By,
        Keyword::Create,
        Keyword::Delete,
        Keyword::Desc,
        Keyword::Describe,
        Keyword::Drop,
        Keyword::Entries,
        Keyword::Execute,
        Keyword::From,
        Keyword::Full,
        Keyword::Grant,
        Keyword::If,
        Keyword::In,
        Keyword::Index,
        Keyword::Infinity,
        Keyword::Insert,
        Keyword::Into,
        Keyword::Is,
        Keyword::Keyspace,
        Keyword::Limit,
        Keyword::Materialized,
        Keyword::Modify,
        Keyword::Nan,
        Keyword::Norecursive,
        Keyword::Not,
        Keyword::Null,
        Keyword::Of,
        Keyword::On,
        Keyword::Or,
        Keyword::Order,
        Keyword::Primary,
        Keyword::Rename,
        Keyword::Revoke,
        Keyword::Select,
        Keyword::Set,
        Keyword::Table,
        Keyword::To,
        Keyword::Token,
        Keyword::Truncate,
        Keyword::Unlogged,
        Keyword::Update,
        Keyword::Use,
        Keyword::Using,
        Keyword::View,
        Keyword::Where,
        Keyword::With,
        Keyword::Access,
        Keyword::Aggregate,
        Keyword::Aggregates,
        Keyword::All,
        Keyword::Ann,
        Keyword::As,
        Keyword::Ascii,
        Keyword::Between,
        Keyword::Bigint,
        Keyword::Blob,
        Keyword::Boolean,
        Keyword::Called,
        Keyword::Cast,
        Keyword::Cidrs,
        Keyword::Cluster,
        Keyword::Clustering,
        Keyword::Compact,
        Keyword::Contains,
        Keyword::Count,
        Keyword::Counter,
        Keyword::Custom,
        Keyword::Datacenters,
        Keyword::Date,
        Keyword::Decimal,
        Keyword::Default,
        Keyword::Distinct,
        Keyword::Double,
        Keyword::Duration,
        Keyword::Exists,
        Keyword::Filtering,
        Keyword::Finalfunc,
        Keyword::Float,
        Keyword::Frozen,
        Keyword::Function,
        Keyword::Functions,
        Keyword::Generated,
        Keyword::Group,
        Keyword::Hashed,
        Keyword::Identity,
        Keyword::Indexes,
        Keyword::Inet,
        Keyword::Initcond,
        Keyword::Input,
        Keyword::Int,
        Keyword::Internals,
        Keyword::Json,
        Keyword::Key,
        Keyword::Keys,
        Keyword::Keyspaces,
        Keyword::Language,
        Keyword::Like,
        Keyword::List,
        Keyword::Login,
        Keyword::Map,
        Keyword::Masked,
        Keyword::Maxwritetime,
        Keyword::Mbean,
        Keyword::Mbeans,
        Keyword::Nologin,
        Keyword::Nosuperuser,
        Keyword::Only,
        Keyword::Options,
        Keyword::Partition,
        Keyword::Password,
        Keyword::Per,
        Keyword::Permission,
        Keyword::Permissions,
        Keyword::Replace,
        Keyword::Returns,
        Keyword::Role,
        Keyword::Roles,
        Keyword::SelectMasked,
        Keyword::Sfunc,
        Keyword::Smallint,
        Keyword::Static,
        Keyword::Storage,
        Keyword::Stype,
        Keyword::Superuser,
        Keyword::Superusers,
        Keyword::Tables,
        Keyword::Text,
        Keyword::Time,
        Keyword::Timestamp,
        Keyword::Timeuuid,
        Keyword::Tinyint,
        Keyword::Trigger,
        Keyword::Ttl,
        Keyword::Tuple,
        Keyword::Type,
        Keyword::Types,
        Keyword::Unmask,
        Keyword::Unset,
        Keyword::User,
        Keyword::Users,
        Keyword::Uuid,
        Keyword::Values,
        Keyword::Varchar,
        Keyword::Varint,
        Keyword::Vector,
        Keyword::Writetime,
    ];

    /// The keyword's canonical upper-case spelling, as printed in canonical CQL.
    pub fn as_str(self) -> &'static str {
        match self {
            Keyword::Add => "ADD",
            Keyword::Allow => "ALLOW",
            Keyword::Alter => "ALTER",
            Keyword::And => "AND",
            Keyword::Apply => "APPLY",
            Keyword::Asc => "ASC",
            Keyword::Authorize => "AUTHORIZE",
            Keyword::Batch => "BATCH",
            Keyword::Begin => "BEGIN",
            Keyword::By => "BY",
            Keyword::Create => "CREATE",
            Keyword::Delete => "DELETE",
            Keyword::Desc => "DESC",
            Keyword::Describe => "DESCRIBE",
            Keyword::Drop => "DROP",
            Keyword::Entries => "ENTRIES",
            Keyword::Execute => "EXECUTE",
            Keyword::From => "FROM",
            Keyword::Full => "FULL",
            Keyword::Grant => "GRANT",
            Keyword::If => "IF",
            Keyword::In => "IN",
            Keyword::Index => "INDEX",
            Keyword::Infinity => "INFINITY",
            Keyword::Insert => "INSERT",
            Keyword::Into => "INTO",
            Keyword::Is => "IS",
            Keyword::Keyspace => "KEYSPACE",
            Keyword::Limit => "LIMIT",
            Keyword::Materialized => "MATERIALIZED",
            Keyword::Modify => "MODIFY",
            Keyword::Nan => "NAN",
            Keyword::Norecursive => "NORECURSIVE",
            Keyword::Not => "NOT",
            Keyword::Null => "NULL",
            Keyword::Of => "OF",
            Keyword::On => "ON",
            Keyword::Or => "OR",
            Keyword::Order => "ORDER",
            Keyword::Primary => "PRIMARY",
            Keyword::Rename => "RENAME",
            Keyword::Revoke => "REVOKE",
            Keyword::Select => "SELECT",
            Keyword::Set => "SET",
            Keyword::Table => "TABLE",
            Keyword::To => "TO",
            Keyword::Token => "TOKEN",
            Keyword::Truncate => "TRUNCATE",
            Keyword::Unlogged => "UNLOGGED",
            Keyword::Update => "UPDATE",
            Keyword::Use => "USE",
            Keyword::Using => "USING",
            Keyword::View => "VIEW",
            Keyword::Where => "WHERE",
            Keyword::With => "WITH",
            Keyword::Access => "ACCESS",
            Keyword::Aggregate => "AGGREGATE",
            Keyword::Aggregates => "AGGREGATES",
            Keyword::All => "ALL",
            Keyword::Ann => "ANN",
            Keyword::As => "AS",
            Keyword::Ascii => "ASCII",
            Keyword::Between => "BETWEEN",
            Keyword::Bigint => "BIGINT",
            Keyword::Blob => "BLOB",
            Keyword::Boolean => "BOOLEAN",
            Keyword::Called => "CALLED",
            Keyword::Cast => "CAST",
            Keyword::Cidrs => "CIDRS",
            Keyword::Cluster => "CLUSTER",
            Keyword::Clustering => "CLUSTERING",
            Keyword::Compact => "COMPACT",
            Keyword::Contains => "CONTAINS",
            Keyword::Count => "COUNT",
            Keyword::Counter => "COUNTER",
            Keyword::Custom => "CUSTOM",
            Keyword::Datacenters => "DATACENTERS",
            Keyword::Date => "DATE",
            Keyword::Decimal => "DECIMAL",
            Keyword::Default => "DEFAULT",
            Keyword::Distinct => "DISTINCT",
            Keyword::Double => "DOUBLE",
            Keyword::Duration => "DURATION",
            Keyword::Exists => "EXISTS",
            Keyword::Filtering => "FILTERING",
            Keyword::Finalfunc => "FINALFUNC",
            Keyword::Float => "FLOAT",
            Keyword::Frozen => "FROZEN",
            Keyword::Function => "FUNCTION",
            Keyword::Functions => "FUNCTIONS",
            Keyword::Generated => "GENERATED",
            Keyword::Group => "GROUP",
            Keyword::Hashed => "HASHED",
            Keyword::Identity => "IDENTITY",
            Keyword::Indexes => "INDEXES",
            Keyword::Inet => "INET",
            Keyword::Initcond => "INITCOND",
            Keyword::Input => "INPUT",
            Keyword::Int => "INT",
            Keyword::Internals => "INTERNALS",
            Keyword::Json => "JSON",
            Keyword::Key => "KEY",
            Keyword::Keys => "KEYS",
            Keyword::Keyspaces => "KEYSPACES",
            Keyword::Language => "LANGUAGE",
            Keyword::Like => "LIKE",
            Keyword::List => "LIST",
            Keyword::Login => "LOGIN",
            Keyword::Map => "MAP",
            Keyword::Masked => "MASKED",
            Keyword::Maxwritetime => "MAXWRITETIME",
            Keyword::Mbean => "MBEAN",
            Keyword::Mbeans => "MBEANS",
            Keyword::Nologin => "NOLOGIN",
            Keyword::Nosuperuser => "NOSUPERUSER",
            Keyword::Only => "ONLY",
            Keyword::Options => "OPTIONS",
            Keyword::Partition => "PARTITION",
            Keyword::Password => "PASSWORD",
            Keyword::Per => "PER",
            Keyword::Permission => "PERMISSION",
            Keyword::Permissions => "PERMISSIONS",
            Keyword::Replace => "REPLACE",
            Keyword::Returns => "RETURNS",
            Keyword::Role => "ROLE",
            Keyword::Roles => "ROLES",
            Keyword::SelectMasked => "SELECT_MASKED",
            Keyword::Sfunc => "SFUNC",
            Keyword::Smallint => "SMALLINT",
            Keyword::Static => "STATIC",
            Keyword::Storage => "STORAGE",
            Keyword::Stype => "STYPE",
            Keyword::Superuser => "SUPERUSER",
            Keyword::Superusers => "SUPERUSERS",
            Keyword::Tables => "TABLES",
            Keyword::Text => "TEXT",
            Keyword::Time => "TIME",
            Keyword::Timestamp => "TIMESTAMP",
            Keyword::Timeuuid => "TIMEUUID",
            Keyword::Tinyint => "TINYINT",
            Keyword::Trigger => "TRIGGER",
            Keyword::Ttl => "TTL",
            Keyword::Tuple => "TUPLE",
            Keyword::Type => "TYPE",
            Keyword::Types => "TYPES",
            Keyword::Unmask => "UNMASK",
            Keyword::Unset => "UNSET",
            Keyword::User => "USER",
            Keyword::Users => "USERS",
            Keyword::Uuid => "UUID",
            Keyword::Values => "VALUES",
            Keyword::Varchar => "VARCHAR",
            Keyword::Varint => "VARINT",
            Keyword::Vector => "VECTOR",
            Keyword::Writetime => "WRITETIME",
        }
    }

    /// Whether the word must be quoted to be used as a name (Cassandra 5.0's reserved list).
    pub fn is_reserved(self) -> bool {
        matches!(
            self,
            Keyword::Add
                | Keyword::Allow
                | Keyword::Alter
                | Keyword::And
                | Keyword::Apply
                | Keyword::Asc
                | Keyword::Authorize
                | Keyword::Batch
                | Keyword::Begin
                | Keyword::By
                | Keyword::Create
                | Keyword::Delete
                | Keyword::Desc
                | Keyword::Describe
                | Keyword::Drop
                | Keyword::Entries
                | Keyword::Execute
                | Keyword::From
                | Keyword::Full
                | Keyword::Grant
                | Keyword::If
                | Keyword::In
                | Keyword::Index
                | Keyword::Infinity
                | Keyword::Insert
                | Keyword::Into
                | Keyword::Is
                | Keyword::Keyspace
                | Keyword::Limit
                | Keyword::Materialized
                | Keyword::Modify
                | Keyword::Nan
                | Keyword::Norecursive
                | Keyword::Not
                | Keyword::Null
                | Keyword::Of
                | Keyword::On
                | Keyword::Or
                | Keyword::Order
                | Keyword::Primary
                | Keyword::Rename
                | Keyword::Revoke
                | Keyword::Select
                | Keyword::Set
                | Keyword::Table
                | Keyword::To
                | Keyword::Token
                | Keyword::Truncate
                | Keyword::Unlogged
                | Keyword::Update
                | Keyword::Use
                | Keyword::Using
                | Keyword::View
                | Keyword::Where
                | Keyword::With
        )
    }

    /// Looks a word up case-insensitively; `None` when it is not a keyword.
    pub fn lookup(word: &str) -> Option<Keyword> {
        let bytes = word.as_bytes();
        if bytes.is_empty() || bytes.len() > LONGEST_SPELLING {
            return None;
        }
        let mut slot = spelling_hash(bytes);
        loop {
            let (spelling, keyword) = *SPELLINGS.get(usize::from(SPELLING_TABLE[slot]))?;
            if spelling.eq_ignore_ascii_case(word) {
                return Some(keyword);
            }
            slot = (slot + 1) % TABLE_SLOTS;
        }
    }
}

/// Every spelling the lexer reads as a keyword, in upper case, with the
/// keyword it stands for (`COLUMNFAMILY` is `TABLE`).
const SPELLINGS: [(&str, Keyword); 158] = [
    ("ADD", Keyword::Add),
    ("ALLOW", Keyword::Allow),
    ("ALTER", Keyword::Alter),
    ("AND", Keyword::And),
    ("APPLY", Keyword::Apply),
    ("ASC", Keyword::Asc),
    ("AUTHORIZE", Keyword::Authorize),
    ("BATCH", Keyword::Batch),
    ("BEGIN", Keyword::Begin),
    ("BY", Keyword::By),
    ("COLUMNFAMILY", Keyword::Table),
    ("CREATE", Keyword::Create),
    ("DELETE", Keyword::Delete),
    ("DESC", Keyword::Desc),
    ("DESCRIBE", Keyword::Describe),
    ("DROP", Keyword::Drop),
    ("ENTRIES", Keyword::Entries),
    ("EXECUTE", Keyword::Execute),
    ("FROM", Keyword::From),
    ("FULL", Keyword::Full),
    ("GRANT", Keyword::Grant),
    ("IF", Keyword::If),
    ("IN", Keyword::In),
    ("INDEX", Keyword::Index),
    ("INFINITY", Keyword::Infinity),
    ("INSERT", Keyword::Insert),
    ("INTO", Keyword::Into),
    ("IS", Keyword::Is),
    ("KEYSPACE", Keyword::Keyspace),
    ("LIMIT", Keyword::Limit),
    ("MATERIALIZED", Keyword::Materialized),
    ("MODIFY", Keyword::Modify),
    ("NAN", Keyword::Nan),
    ("NORECURSIVE", Keyword::Norecursive),
    ("NOT", Keyword::Not),
    ("NULL", Keyword::Null),
    ("OF", Keyword::Of),
    ("ON", Keyword::On),
    ("OR", Keyword::Or),
    ("ORDER", Keyword::Order),
    ("PRIMARY", Keyword::Primary),
    ("RENAME", Keyword::Rename),
    ("REVOKE", Keyword::Revoke),
    ("SCHEMA", Keyword::Keyspace),
    ("SELECT", Keyword::Select),
    ("SET", Keyword::Set),
    ("TABLE", Keyword::Table),
    ("TO", Keyword::To),
    ("TOKEN", Keyword::Token),
    ("TRUNCATE", Keyword::Truncate),
    ("UNLOGGED", Keyword::Unlogged),
    ("UPDATE", Keyword::Update),
    ("USE", Keyword::Use),
    ("USING", Keyword::Using),
    ("VIEW", Keyword::View),
    ("WHERE", Keyword::Where),
    ("WITH", Keyword::With),
    ("ACCESS", Keyword::Access),
    ("AGGREGATE", Keyword::Aggregate),
    ("AGGREGATES", Keyword::Aggregates),
    ("ALL", Keyword::All),
    ("ANN", Keyword::Ann),
    ("AS", Keyword::As),
    ("ASCII", Keyword::Ascii),
    ("BETWEEN", Keyword::Between),
    ("BIGINT", Keyword::Bigint),
    ("BLOB", Keyword::Blob),
    ("BOOLEAN", Keyword::Boolean),
    ("CALLED", Keyword::Called),
    ("CAST", Keyword::Cast),
    ("CIDRS", Keyword::Cidrs),
    ("CLUSTER", Keyword::Cluster),
    ("CLUSTERING", Keyword::Clustering),
    ("COLUMNFAMILIES", Keyword::Tables),
    ("COMPACT", Keyword::Compact),
    ("CONTAINS", Keyword::Contains),
    ("COUNT", Keyword::Count),
    ("COUNTER", Keyword::Counter),
    ("CUSTOM", Keyword::Custom),
    ("DATACENTERS", Keyword::Datacenters),
    ("DATE", Keyword::Date),
    ("DECIMAL", Keyword::Decimal),
    ("DEFAULT", Keyword::Default),
    ("DISTINCT", Keyword::Distinct),
    ("DOUBLE", Keyword::Double),
    ("DURATION", Keyword::Duration),
    ("EXISTS", Keyword::Exists),
    ("FILTERING", Keyword::Filtering),
    ("FINALFUNC", Keyword::Finalfunc),
    ("FLOAT", Keyword::Float),
    ("FROZEN", Keyword::Frozen),
    ("FUNCTION", Keyword::Function),
    ("FUNCTIONS", Keyword::Functions),
    ("GENERATED", Keyword::Generated),
    ("GROUP", Keyword::Group),
    ("HASHED", Keyword::Hashed),
    ("IDENTITY", Keyword::Identity),
    ("INDEXES", Keyword::Indexes),
    ("INET", Keyword::Inet),
    ("INITCOND", Keyword::Initcond),
    ("INPUT", Keyword::Input),
    ("INT", Keyword::Int),
    ("INTERNALS", Keyword::Internals),
    ("JSON", Keyword::Json),
    ("KEY", Keyword::Key),
    ("KEYS", Keyword::Keys),
    ("KEYSPACES", Keyword::Keyspaces),
    ("LANGUAGE", Keyword::Language),
    ("LIKE", Keyword::Like),
    ("LIST", Keyword::List),
    ("LOGIN", Keyword::Login),
    ("MAP", Keyword::Map),
    ("MASKED", Keyword::Masked),
    ("MAXWRITETIME", Keyword::Maxwritetime),
    ("MBEAN", Keyword::Mbean),
    ("MBEANS", Keyword::Mbeans),
    ("NOLOGIN", Keyword::Nologin),
    ("NOSUPERUSER", Keyword::Nosuperuser),
    ("ONLY", Keyword::Only),
    ("OPTIONS", Keyword::Options),
    ("PARTITION", Keyword::Partition),
    ("PASSWORD", Keyword::Password),
    ("PER", Keyword::Per),
    ("PERMISSION", Keyword::Permission),
    ("PERMISSIONS", Keyword::Permissions),
    ("REPLACE", Keyword::Replace),
    ("RETURNS", Keyword::Returns),
    ("ROLE", Keyword::Role),
    ("ROLES", Keyword::Roles),
    ("SELECT_MASKED", Keyword::SelectMasked),
    ("SFUNC", Keyword::Sfunc),
    ("SMALLINT", Keyword::Smallint),
    ("STATIC", Keyword::Static),
    ("STORAGE", Keyword::Storage),
    ("STYPE", Keyword::Stype),
    ("SUPERUSER", Keyword::Superuser),
    ("SUPERUSERS", Keyword::Superusers),
    ("TABLES", Keyword::Tables),
    ("TEXT", Keyword::Text),
    ("TIME", Keyword::Time),
    ("TIMESTAMP", Keyword::Timestamp),
    ("TIMEUUID", Keyword::Timeuuid),
    ("TINYINT", Keyword::Tinyint),
    ("TRIGGER", Keyword::Trigger),
    ("TTL", Keyword::Ttl),
    ("TUPLE", Keyword::Tuple),
    ("TYPE", Keyword::Type),
    ("TYPES", Keyword::Types),
    ("UNMASK", Keyword::Unmask),
    ("UNSET", Keyword::Unset),
    ("USER", Keyword::User),
    ("USERS", Keyword::Users),
    ("UUID", Keyword::Uuid),
    ("VALUES", Keyword::Values),
    ("VARCHAR", Keyword::Varchar),
    ("VARINT", Keyword::Varint),
    ("VECTOR", Keyword::Vector),
    ("WRITETIME", Keyword::Writetime),
];

/// The length of the longest spelling: no longer word needs looking up.
const LONGEST_SPELLING: usize = longest_spelling();

const fn longest_spelling() -> usize {
    let mut longest = 0;
    let mut i = 0;
    while i < SPELLINGS.len() {
        if SPELLINGS[i].0.len() > longest {
            longest = SPELLINGS[i].0.len();
        }
        i += 1;
    }
    longest
}

/// Slots in [`SPELLING_TABLE`]: about three per spelling, so that most
/// probes end at the first slot.
const TABLE_SLOTS: usize = 512;

/// An open-addressing table of indexes into [`SPELLINGS`] (an index past
/// its end marks a free slot), built at compile time: a lookup hashes the
/// word and usually compares it with one spelling at most, where a `match`
/// on the upper-cased word compared it with every spelling of its length.
const SPELLING_TABLE: [u8; TABLE_SLOTS] = spelling_table();

/// A hash of a word that ignores ASCII case: its length and its first,
/// second and last bytes with the case bit cleared, which tells the
/// keywords apart well enough for linear probing. `bytes` is not empty.
const fn spelling_hash(bytes: &[u8]) -> usize {
    const CASE_BIT: u8 = 0x20;
    let first = (bytes[0] & !CASE_BIT) as usize;
    let second = if bytes.len() > 1 {
        (bytes[1] & !CASE_BIT) as usize
    } else {
        0
    };
    let last = (bytes[bytes.len() - 1] & !CASE_BIT) as usize;
    let mixed = bytes.len().wrapping_mul(0x9e37)
        ^ first.wrapping_mul(0x2d1b)
        ^ second.wrapping_mul(0x85eb)
        ^ last.wrapping_mul(0xc2b2);
    (mixed ^ (mixed >> 9)) % TABLE_SLOTS
}

// A slot holds a spelling's index in a byte, with one value left for "free".
const _: () = assert!(SPELLINGS.len() < u8::MAX as usize && SPELLINGS.len() < TABLE_SLOTS);

const fn spelling_table() -> [u8; TABLE_SLOTS] {
    let mut table = [SPELLINGS.len() as u8; TABLE_SLOTS];
    let mut i = 0;
    while i < SPELLINGS.len() {
        let mut slot = spelling_hash(SPELLINGS[i].0.as_bytes());
        while (table[slot] as usize) < SPELLINGS.len() {
            slot = (slot + 1) % TABLE_SLOTS;
        }
        table[slot] = i as u8;
        i += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_is_found_in_any_case() {
        for (spelling, keyword) in SPELLINGS {
            let lower = spelling.to_ascii_lowercase();
            let mixed: String = spelling
                .chars()
                .enumerate()
                .map(|(i, c)| {
                    if i % 2 == 0 {
                        c
                    } else {
                        c.to_ascii_lowercase()
                    }
                })
                .collect();
            for word in [spelling, lower.as_str(), mixed.as_str()] {
                assert_eq!(Keyword::lookup(word), Some(keyword), "{word}");
            }
        }
    }

    #[test]
    fn other_words_are_not_keywords() {
        for (spelling, _) in SPELLINGS {
            for word in [&spelling[..spelling.len() - 1], &format!("{spelling}S")] {
                let expected = SPELLINGS
                    .iter()
                    .find(|(s, _)| s.eq_ignore_ascii_case(word))
                    .map(|(_, k)| *k);
                assert_eq!(Keyword::lookup(word), expected, "{word}");
            }
        }
        for word in ["", "user_id", "select_", "SELECT1", "materializedview", "é"] {
            assert_eq!(Keyword::lookup(word), None, "{word}");
        }
    }

    #[test]
    fn every_keyword_is_found_by_its_name() {
        for keyword in Keyword::ALL {
            assert_eq!(Keyword::lookup(keyword.as_str()), Some(*keyword));
        }
    }
}
