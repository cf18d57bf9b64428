//! The texts of `HELP <shell command>`, one per command, written for what
//! widerow's shell does (cqlsh's layout: the command and its kind on the
//! first line, each form followed by an indented explanation).

/// The shell commands `HELP` lists, lower case: cqlsh's documented ones
/// (DESC and CLS are aliases listed on their own, QUIT is hidden as in
/// cqlsh) plus widerow's SAVE and CLUSTER.
pub const SHELL_TOPICS: &[&str] = &[
    "capture",
    "clear",
    "cls",
    "cluster",
    "consistency",
    "copy",
    "desc",
    "describe",
    "exit",
    "expand",
    "help",
    "history",
    "login",
    "paging",
    "save",
    "serial",
    "show",
    "source",
    "tracing",
    "unicode",
];

/// The text for a shell command (lower case), if it has one. EXPLAIN has a
/// text but is not in the list: it prefixes a statement rather than
/// standing alone.
pub fn shell_help(topic: &str) -> Option<&'static str> {
    Some(match topic {
        "capture" => CAPTURE,
        "clear" | "cls" => CLEAR,
        "cluster" => CLUSTER,
        "consistency" => CONSISTENCY,
        "copy" => COPY,
        "desc" | "describe" => DESCRIBE,
        "exit" => EXIT,
        "expand" => EXPAND,
        "explain" => EXPLAIN,
        "help" => HELP,
        "history" => HISTORY,
        "login" => LOGIN,
        "paging" => PAGING,
        "save" => SAVE,
        "serial" => SERIAL,
        "show" => SHOW,
        "source" => SOURCE,
        "tracing" => TRACING,
        "unicode" => UNICODE,
        _ => return None,
    })
}

const CAPTURE: &str = "CAPTURE [cqlsh only]

Appends what the shell prints from now on to a file as well.

  CAPTURE '<file>';
  CAPTURE OFF;
  CAPTURE;

The file name is a string literal; '~/' stands for $HOME. Output still
appears on screen; errors are not captured. CAPTURE OFF stops capturing;
CAPTURE alone tells where output is going.";

const CLEAR: &str = "CLEAR/CLS [cqlsh only]

Clears the terminal.";

const CLUSTER: &str = "CLUSTER [widerow only]

  Shows or changes the simulated cluster statements are planned against.

CLUSTER

  Shows the ring: every node with its address, data centre, rack, state
  and tokens, and each keyspace's replication.

CLUSTER NODES <n>
CLUSTER NODES <dc1>:<n>,<dc2>:<m>

  Rebuilds the ring with n nodes (or n per data centre); refused when a
  keyspace would lose a data centre it places replicas in.

CLUSTER DOWN <node>
CLUSTER UP <node>

  Marks a node (by name, e.g. node2, or address) down or up again;
  consistency levels that need a down node then fail as Unavailable.

CLUSTER SNAPSHOT <name>
CLUSTER RESTORE <name>
CLUSTER RESET

  Keeps the schema and data as they are under a name, goes back to them,
  or goes back to what the shell started with; nodes stay up or down.

CLUSTER CLOCK
CLUSTER CLOCK SET '<timestamp>'
CLUSTER CLOCK ADVANCE <duration>

  Shows, sets or moves the clock (seconds or a CQL duration such as
  1h30m), so TTLs expire without waiting.";

const CONSISTENCY: &str = "CONSISTENCY [cqlsh only]

  Shows or sets the consistency level of the following statements
  (ONE unless changed).

CONSISTENCY <level>

  Sets the level: ANY, ONE, TWO, THREE, QUORUM, ALL, LOCAL_ONE,
  LOCAL_QUORUM, EACH_QUORUM, SERIAL, LOCAL_SERIAL or NODE_LOCAL.

CONSISTENCY

  Shows the current level.";

const COPY: &str = "COPY [cqlsh only]

  Imports rows from CSV, or exports a table as CSV.

COPY <table> [(<column>, ...)] FROM ('<file>' | STDIN) [WITH <option> = <value> [AND ...]];
COPY <table> [(<column>, ...)] TO ('<file>' | STDOUT) [WITH <option> = <value> [AND ...]];

  Common options: DELIMITER, QUOTE, ESCAPE, HEADER, NULL, DATETIMEFORMAT.";

const DESCRIBE: &str = "DESCRIBE [cqlsh only]

(DESC may be used as a shorthand.)

  Prints the schema as CQL, or lists schema objects.

DESCRIBE KEYSPACES

  The names of all keyspaces.

DESCRIBE [ONLY] KEYSPACE [<keyspace>]

  The CQL that recreates a keyspace (the current one if none is named)
  and, unless ONLY, its types, tables, indexes and views.

DESCRIBE TABLES | TYPES

  The names of the tables (or types) of the current keyspace, or of
  every keyspace when none is in use.

DESCRIBE TABLE [<keyspace>.]<table>
DESCRIBE INDEX [<keyspace>.]<index>
DESCRIBE MATERIALIZED VIEW [<keyspace>.]<view>
DESCRIBE TYPE [<keyspace>.]<type>

  The CQL that recreates one object (a table with its indexes).

DESCRIBE [FULL] SCHEMA

  The CQL that recreates every keyspace.

DESCRIBE CLUSTER

  The cluster name, partitioner and snitch; with a keyspace in use, also
  which nodes own each token range.

DESCRIBE <name>

  A keyspace, else a table, else an index, else a materialized view of
  that name.";

const EXIT: &str = "EXIT/QUIT [cqlsh only]

Leaves the shell.";

const EXPAND: &str = "EXPAND [cqlsh]

  Shows or switches expanded (vertical) output of rows.

EXPAND ON

  Prints each row as a block of column | value lines.

EXPAND OFF

  Prints rows as a table.

EXPAND

  Shows whether expanded output is on.";

const EXPLAIN: &str = "EXPLAIN [widerow only]

  Shows how a coordinator would run a statement, without running it.

EXPLAIN <statement>;

  The plan: the replicas contacted, the partitions and ranges read, the
  consistency level's requirements and any warnings.";

const HELP: &str = "HELP [cqlsh only]

Tells about the shell's commands and CQL. HELP alone lists the topics;
HELP <topic> tells about one.";

const HISTORY: &str = "HISTORY [cqlsh only]

   Shows the most recent lines entered in the shell.

HISTORY <n>

   Shows the last n lines, and shows n from then on (50 until set).";

const LOGIN: &str = "LOGIN [cqlsh only]

   Changes the user of the session without restarting.

LOGIN <username> ['<password>']

   widerow has no users or authentication: the command is not available.";

const PAGING: &str = "PAGING [cqlsh]

  Shows or switches paging of query results.

PAGING ON

  Pauses after every page of rows (100 rows unless set).

PAGING <n>

  Turns paging on with pages of n rows.

PAGING OFF

  Prints all rows at once.

PAGING

  Shows whether paging is on, and the page size.";

const SAVE: &str = "SAVE [widerow only]

  Writes the session to a CQL script that recreates it.

SAVE '<file>';

  The file holds the schema as DESCRIBE SCHEMA prints it, then every row
  of every table as INSERT and UPDATE statements that keep each cell's
  write time and remaining TTL. Running it in a fresh session (widerow -f
  <file>) restores the data; materialized views are rebuilt from their
  base tables. Deletions are not saved.";

const SERIAL: &str = "SERIAL CONSISTENCY [cqlsh only]

   Shows or sets the serial consistency level of conditional updates
   (SERIAL unless changed).

SERIAL CONSISTENCY <level>

   Sets the level: SERIAL or LOCAL_SERIAL.

SERIAL CONSISTENCY

   Shows the current level.";

const SHOW: &str = "SHOW [cqlsh only]

  Shows information about the session.

SHOW VERSION

  The versions of widerow and of the Cassandra and CQL it emulates.

SHOW HOST

  The simulated node the shell is connected to.

SHOW SESSION <trace id>

  A recorded trace; widerow keeps none, so it reports the session as not
  found.";

const SOURCE: &str = "SOURCE [cqlsh only]

Runs the statements of a file, printing their output and errors in turn.
An error does not stop the file.

  SOURCE '<file>';

The file name is a string literal, relative to the current directory;
'~/' stands for $HOME. See also the -f option.";

const TRACING: &str = "TRACING [cqlsh]

  Shows or switches tracing of statements.

TRACING ON

  Follows every statement's result with how it was served.

TRACING OFF

  Stops tracing.

TRACING

  Shows whether tracing is on.";

const UNICODE: &str = "Textual input/output

Text and ascii values are printed as they are, except control characters,
which are shown as backslash escapes. Text is read and written as UTF-8.";
