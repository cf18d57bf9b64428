"""Random CQL sequences for the differential harness.

A sequence is one keyspace (named `{ks}` in the text, filled in per run so a
minimisation trial gets a fresh one), a few schema statements, then many data
statements: writes (always `USING TIMESTAMP`, except where Cassandra refuses
a custom timestamp: LWTs and counters), reads of every class, and statements
Cassandra refuses.  Everything is drawn from one `random.Random(seed)`, so a
seed reproduces a sequence exactly.

Nothing here calls `now()` or `uuid()`: every value is a literal.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field


# --------------------------------------------------------------------------
# Types


@dataclass(frozen=True)
class T:
    """A CQL type. `kind` is scalar/list/set/map/tuple/udt/vector/counter."""

    kind: str
    name: str = ""  # scalar name or UDT name
    args: tuple = ()
    frozen: bool = False

    def cql(self) -> str:
        if self.kind in ("scalar", "counter"):
            return self.name
        if self.kind == "udt":
            return f"frozen<{self.name}>" if self.frozen else self.name
        if self.kind == "tuple":
            inner = f"tuple<{', '.join(a.cql() for a in self.args)}>"
            return f"frozen<{inner}>" if self.frozen else inner
        if self.kind == "vector":
            return f"vector<{self.args[0].cql()}, {self.args[1]}>"
        inner = f"{self.kind}<{', '.join(a.cql() for a in self.args)}>"
        return f"frozen<{inner}>" if self.frozen else inner

    @property
    def multicell(self) -> bool:
        return self.kind in ("list", "set", "map") and not self.frozen or (
            self.kind == "udt" and not self.frozen)

    @property
    def numeric(self) -> bool:
        return self.kind == "scalar" and self.name in NUMERIC

    @property
    def orderable(self) -> bool:
        """Usable in a slice/comparison (not a multi-cell value)."""
        return not self.multicell and self.kind not in ("vector", "counter") and not (
            self.kind == "scalar" and self.name == "duration")


def S(name: str) -> T:
    return T("scalar", name)


NUMERIC = {"int", "bigint", "smallint", "tinyint", "varint", "decimal", "float", "double"}
SCALARS = ["ascii", "bigint", "blob", "boolean", "date", "decimal", "double", "duration",
           "float", "inet", "int", "smallint", "text", "time", "timestamp", "timeuuid",
           "tinyint", "uuid", "varint"]
# Scalars allowed in a primary key (duration is not).
KEY_SCALARS = [s for s in SCALARS if s != "duration"]

UDT = "ut"  # CREATE TYPE ut (a int, b text)
UDT_FIELDS = (("a", S("int")), ("b", S("text")))

# Literal pools; the first entries are the "core" drawn most often, so that
# writes collide on the same keys and reads find them.
POOLS = {
    "ascii": ["'a'", "'b'", "'ab'", "''", "'it''s'", "'Z'"],
    "bigint": ["0", "1", "-1", "2", "9000000000", "-9223372036854775808", "9223372036854775807"],
    "blob": ["0x01", "0x00", "0xff", "0x", "0x0102", "0x80"],
    "boolean": ["true", "false"],
    "date": ["'2025-06-01'", "'1970-01-01'", "'2000-02-29'", "'1969-12-31'", "'9999-12-31'"],
    "decimal": ["0", "1.5", "-2.25", "1.50", "100", "0.001", "-0.0", "1E+3", "123456789.123456789"],
    "double": ["0.0", "1.5", "-2.5", "2.0", "1e10", "1.0E-5", "0.1", "-0.0", "1.7976931348623157E308"],
    "duration": ["1h", "2d3h", "-1mo", "1y2mo3w4d5h6m7s8ms9us10ns", "0s", "P1D", "30m"],
    "float": ["0.0", "1.5", "-2.25", "2.0", "0.1", "3.4028235E38", "1.0E-7", "-0.0"],
    "inet": ["'127.0.0.1'", "'10.0.0.255'", "'::1'", "'2001:db8::1'", "'0.0.0.0'"],
    "int": ["0", "1", "2", "-1", "3", "7", "2147483647", "-2147483648"],
    "smallint": ["0", "1", "-1", "2", "32767", "-32768"],
    "text": ["'a'", "'b'", "'B'", "'é'", "''", "'ab'", "'it''s'", "'𝄞'", "'a b'", "'\ufffd'"],
    "time": ["'08:00:00'", "'00:00:00'", "'23:59:59.999999999'", "'12:34:56.789'", "'00:00:00.000000001'"],
    "timestamp": ["0", "1000", "-1000", "'2025-06-01 08:00:00+0000'", "1700000000000",
                  "'2025-06-01T08:00:00.123Z'"],
    "timeuuid": ["d2177dd0-eaa2-11de-a572-001b779c76e3", "50554d6e-29bb-11e5-b345-feff819cdc9f",
                 "00000000-0000-1000-8080-808080808080", "e6a3e3b0-3e3f-11f0-8000-000000000001"],
    "tinyint": ["0", "1", "-1", "2", "127", "-128"],
    "uuid": ["00000000-0000-0000-0000-000000000000", "f47ac10b-58cc-4372-a567-0e02b2c3d479",
             "ffffffff-ffff-ffff-ffff-ffffffffffff", "123e4567-e89b-12d3-a456-426614174000"],
    "varint": ["0", "1", "-1", "123456789012345678901234567890", "-98765432109876543210"],
}

# Literals of the wrong type for a column of each scalar (for refusals).
WRONG = {"int": "'x'", "text": "42", "ascii": "0x01", "boolean": "1", "blob": "'zz'",
         "uuid": "'not-a-uuid'", "timestamp": "true", "date": "'2025-13-45'", "inet": "'300.1.1.1'",
         "double": "'nan?'", "bigint": "1.5", "smallint": "100000", "tinyint": "1000",
         "float": "'1'", "decimal": "'d'", "varint": "1.5", "time": "'25:00:00'",
         "timeuuid": "00000000-0000-0000-0000-000000000000", "duration": "'1h'"}

# Regular-column types: every scalar, collections frozen and not, UDTs,
# tuples, vectors.
COLLECTION_TYPES = [
    T("list", args=(S("int"),)),
    T("list", args=(S("text"),)),
    T("set", args=(S("text"),)),
    T("set", args=(S("int"),)),
    T("set", args=(S("timeuuid"),)),
    T("map", args=(S("text"), S("int"))),
    T("map", args=(S("int"), S("text"))),
    T("list", args=(S("int"),), frozen=True),
    T("set", args=(S("text"),), frozen=True),
    T("map", args=(S("int"), S("text")), frozen=True),
    T("list", args=(T("set", args=(S("int"),), frozen=True),)),
    T("map", args=(S("text"), T("list", args=(S("int"),), frozen=True))),
    T("tuple", args=(S("int"), S("text"))),
    T("tuple", args=(S("bigint"), S("boolean"), S("double"))),
    T("udt", UDT, frozen=True),
    T("udt", UDT, frozen=False),
    T("vector", args=(S("float"), 3)),
    T("set", args=(T("tuple", args=(S("int"), S("text"))),)),
]
KEY_COMPOUND = [
    T("list", args=(S("int"),), frozen=True),
    T("set", args=(S("text"),), frozen=True),
    T("tuple", args=(S("int"), S("text"))),
    T("udt", UDT, frozen=True),
]


def lit(rng: random.Random, t: T, core: bool = False) -> str:
    """A literal of type t; `core` prefers the first few pool entries."""
    if t.kind == "scalar":
        pool = POOLS[t.name]
        if core or rng.random() < 0.6:
            return pool[rng.randrange(min(3, len(pool)))]
        return rng.choice(pool)
    if t.kind == "list":
        return "[" + ", ".join(lit(rng, t.args[0]) for _ in range(rng.randrange(4))) + "]"
    if t.kind == "set":
        return "{" + ", ".join(sorted({lit(rng, t.args[0]) for _ in range(rng.randrange(4))})) + "}"
    if t.kind == "map":
        keys = sorted({lit(rng, t.args[0]) for _ in range(rng.randrange(4))})
        return "{" + ", ".join(f"{k}: {lit(rng, t.args[1])}" for k in keys) + "}"
    if t.kind == "tuple":
        return "(" + ", ".join(lit(rng, a, core) for a in t.args) + ")"
    if t.kind == "udt":
        parts = [f"{n}: {lit(rng, ft, core)}" for n, ft in UDT_FIELDS if core or rng.random() < 0.8]
        return "{" + ", ".join(parts) + "}"
    if t.kind == "vector":
        return "[" + ", ".join(lit(rng, t.args[0]) for _ in range(t.args[1])) + "]"
    raise ValueError(t)


# --------------------------------------------------------------------------
# Statements and sequences


@dataclass
class Stmt:
    text: str            # CQL, one line, `{ks}` for the keyspace name
    role: str            # ks, use, type, table, index, view, data
    feature: str         # e.g. "insert", "select.slice", "bad.filtering"
    unordered: bool = False  # rows compared as a multiset
    lwt: bool = False

    @property
    def schema(self) -> bool:
        return self.role != "data"


@dataclass
class Column:
    name: str
    t: T
    role: str  # pk, ck, static, regular
    desc: bool = False


@dataclass
class Table:
    name: str
    cols: list[Column]
    counter: bool = False
    indexed: list[str] = field(default_factory=list)
    sai: list[str] = field(default_factory=list)
    view: tuple | None = None  # (view name, view key column)

    def by_role(self, role: str) -> list[Column]:
        return [c for c in self.cols if c.role == role]

    @property
    def pk(self):
        return self.by_role("pk")

    @property
    def ck(self):
        return self.by_role("ck")

    @property
    def statics(self):
        return self.by_role("static")

    @property
    def regulars(self):
        return self.by_role("regular")

    def col(self, name):
        return next(c for c in self.cols if c.name == name)

    def create(self) -> str:
        defs = ", ".join(f"{c.name} {c.t.cql()}{' static' if c.role == 'static' else ''}"
                         for c in self.cols)
        pk = ", ".join(c.name for c in self.pk)
        if len(self.pk) > 1:
            pk = f"({pk})"
        key = ", ".join([pk] + [c.name for c in self.ck])
        text = f"CREATE TABLE {self.name} ({defs}, PRIMARY KEY ({key}))"
        if self.ck:
            order = ", ".join(f"{c.name} {'DESC' if c.desc else 'ASC'}" for c in self.ck)
            text += f" WITH CLUSTERING ORDER BY ({order})"
        return text


class Gen:
    """Draws one sequence of statements."""

    def __init__(self, seed: int, n_data: int, force_desc: bool = False):
        self.rng = random.Random(seed)
        self.force_desc = force_desc  # the self-test wants a DESC clustering column
        self.n_data = n_data
        self.ts = 1000
        self.keys: dict[str, list[list[str]]] = {}  # table -> written primary keys
        self.stmts: list[Stmt] = []
        self.tables: list[Table] = []

    # ---- helpers
    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, xs):
        return self.rng.choice(xs)

    def timestamp(self) -> int:
        # Mostly increasing; sometimes a tie or an older write, to test
        # last-write-wins and its tie-breaking.
        r = self.rng.random()
        if r < 0.08:
            return self.ts
        if r < 0.15:
            return self.ts - self.rng.randrange(1, 50)
        self.ts += self.rng.randrange(1, 10)
        return self.ts

    def using(self, ttl_ok=True) -> str:
        s = f" USING TIMESTAMP {self.timestamp()}"
        if ttl_ok and self.chance(0.15):
            s += f" AND TTL {self.pick([86400, 100000, 604800, 3000000])}"
        return s

    def emit(self, text, role="data", feature="", **kw):
        self.stmts.append(Stmt(text, role, feature, **kw))

    # ---- schema
    def key_type(self) -> T:
        if self.chance(0.12):
            return self.pick(KEY_COMPOUND)
        return S(self.pick(KEY_SCALARS))

    def make_table(self) -> Table:
        rng = self.rng
        cols = []
        npk = 1 if self.chance(0.6) else 2
        nck = self.pick([0, 1, 1, 2, 2, 3])
        for i in range(npk):
            cols.append(Column(f"k{i}", self.key_type() if i else self.pick(
                [S("int"), S("text"), S("bigint"), S("uuid"), S("blob"), S("timestamp")]
                if self.chance(0.6) else [self.key_type()]), "pk"))
        if self.force_desc:
            nck = max(nck, 1)
        for i in range(nck):
            desc = self.chance(0.45) or (self.force_desc and i == 0)
            cols.append(Column(f"c{i}", self.key_type(), "ck", desc=desc))
        if nck:
            for i in range(self.pick([0, 0, 1, 2])):
                cols.append(Column(f"s{i}", self.pick([S("int"), S("text"), T("set", args=(S("int"),)),
                                                     S(self.pick(SCALARS))]), "static"))
        # Regular columns: a handful of scalars, a handful of compound types.
        regs = rng.sample(SCALARS, rng.randrange(2, 7)) + [None] * 0
        types = [S(s) for s in regs] + rng.sample(COLLECTION_TYPES, rng.randrange(1, 5))
        # An int and a text column, always: the indexes, views and
        # filters lean on them.
        types = [S("int"), S("text")] + types
        for i, t in enumerate(types):
            cols.append(Column(f"v{i}", t, "regular"))
        return Table("t", cols)

    def schema(self):
        self.emit("CREATE KEYSPACE {ks} WITH replication = {'class': 'SimpleStrategy', "
                  "'replication_factor': 1}", "ks", "schema.keyspace")
        self.emit("USE {ks}", "use", "schema.use")
        t = self.make_table()
        uses_udt = any("ut" in c.t.cql() for c in t.cols)
        if uses_udt:
            self.emit(f"CREATE TYPE {UDT} (a int, b text)", "type", "schema.type")
        self.emit(t.create(), "table", "schema.table")
        self.tables.append(t)
        if self.chance(0.35):
            c = Table("ct", [Column("k", S("int"), "pk"), Column("c", S("text"), "ck"),
                             Column("n", T("counter", "counter"), "regular"),
                             Column("m", T("counter", "counter"), "regular")], counter=True)
            self.emit(c.create(), "table", "schema.counter_table")
            self.tables.append(c)
        # Indexes: legacy 2i or SAI on a regular scalar column.
        scal = [c for c in t.regulars if c.t.kind == "scalar" and c.t.name != "duration"]
        r = self.rng.random()
        if r < 0.3:
            c = self.pick(scal)
            self.emit(f"CREATE INDEX t_{c.name}_idx ON t ({c.name})", "index", "schema.index")
            t.indexed.append(c.name)
        elif r < 0.55:
            cands = [c for c in scal if c.t.name not in ("duration", "boolean", "blob")] or scal
            for c in self.rng.sample(cands, min(len(cands), self.pick([1, 2]))):
                self.emit(f"CREATE INDEX t_{c.name}_sai ON t ({c.name}) USING 'StorageAttachedIndex'",
                          "index", "schema.sai")
                t.sai.append(c.name)
        elif r < 0.62:
            colls = [c for c in t.regulars if c.t.kind in ("set", "list", "map") and not c.t.frozen]
            if colls:
                c = self.pick(colls)
                how = "keys" if c.t.kind == "map" and self.chance(0.5) else "values"
                self.emit(f"CREATE INDEX t_{c.name}_cidx ON t ({how}({c.name}))", "index",
                          "schema.index.collection")
                t.indexed.append(f"{how}:{c.name}")
        # A materialized view keyed by v0 (int) then the base key.
        if not t.statics and self.chance(0.3):
            base = [c.name for c in t.pk + t.ck]
            where = " AND ".join(f"{n} IS NOT NULL" for n in ["v0"] + base)
            key = ", ".join(["v0"] + base)
            self.emit(f"CREATE MATERIALIZED VIEW mv AS SELECT * FROM t WHERE {where} "
                      f"PRIMARY KEY ({key})", "view", "schema.view")
            t.view = ("mv", "v0")

    # ---- keys
    def key_values(self, t: Table, fresh_p=0.3) -> dict[str, str]:
        known = self.keys.get(t.name, [])
        if known and not self.chance(fresh_p):
            k = self.pick(known)
            vals = dict(zip([c.name for c in t.pk + t.ck], k))
            if t.ck and self.chance(0.3):  # same partition, another row
                for c in t.ck:
                    vals[c.name] = lit(self.rng, c.t, core=True)
            return vals
        vals = {c.name: lit(self.rng, c.t, core=True) for c in t.pk + t.ck}
        return vals

    def remember(self, t: Table, vals: dict[str, str]):
        k = [vals[c.name] for c in t.pk + t.ck]
        lst = self.keys.setdefault(t.name, [])
        if k not in lst:
            lst.append(k)

    def pk_where(self, t: Table, vals) -> list[str]:
        return [f"{c.name} = {vals[c.name]}" for c in t.pk]

    def full_where(self, t: Table, vals) -> list[str]:
        return [f"{c.name} = {vals[c.name]}" for c in t.pk + t.ck]

    def table(self) -> Table:
        return self.tables[0] if len(self.tables) == 1 or self.chance(0.75) else self.tables[1]

    # ---- writes
    def insert(self, t: Table):
        vals = self.key_values(t)
        cols = [c.name for c in t.pk + t.ck]
        lits = [vals[c] for c in cols]
        for c in t.statics + t.regulars:
            if self.chance(0.55):
                cols.append(c.name)
                lits.append("null" if self.chance(0.06) else lit(self.rng, c.t))
        if self.chance(0.12):
            self.remember(t, vals)
            self.emit(f"INSERT INTO {t.name} ({', '.join(cols)}) VALUES ({', '.join(lits)}) IF NOT EXISTS",
                      feature="lwt.insert_if_not_exists", lwt=True)
            return
        self.remember(t, vals)
        self.emit(f"INSERT INTO {t.name} ({', '.join(cols)}) VALUES ({', '.join(lits)}){self.using()}",
                  feature="insert")

    def assignment(self, c: Column) -> str:
        t, n, rng = c.t, c.name, self.rng
        if t.kind == "list" and not t.frozen:
            r = rng.random()
            if r < 0.25:
                return f"{n} = {n} + {lit(rng, t)}"
            if r < 0.4:
                return f"{n} = {lit(rng, t)} + {n}"
            if r < 0.55:
                return f"{n} = {n} - {lit(rng, t)}"
            if r < 0.65:
                return f"{n}[{rng.randrange(3)}] = {lit(rng, t.args[0])}"
        if t.kind == "set" and not t.frozen:
            r = rng.random()
            if r < 0.35:
                return f"{n} = {n} + {lit(rng, t)}"
            if r < 0.6:
                return f"{n} = {n} - {lit(rng, t)}"
        if t.kind == "map" and not t.frozen:
            r = rng.random()
            if r < 0.3:
                return f"{n} = {n} + {lit(rng, t)}"
            if r < 0.55:
                return f"{n}[{lit(rng, t.args[0])}] = {lit(rng, t.args[1])}"
            if r < 0.7:
                return f"{n} = {n} - {{{lit(rng, t.args[0])}}}"
        if t.kind == "udt" and not t.frozen and rng.random() < 0.5:
            f, ft = rng.choice(UDT_FIELDS)
            return f"{n}.{f} = {lit(rng, ft)}"
        return f"{n} = {lit(rng, t)}"

    def update(self, t: Table):
        if t.counter:
            vals = self.key_values(t)
            self.remember(t, vals)
            sets = ", ".join(f"{c} = {c} {self.pick(['+', '-'])} {self.pick([1, 2, 5, 100])}"
                             for c in self.rng.sample(["n", "m"], self.pick([1, 2])))
            self.emit(f"UPDATE ct SET {sets} WHERE {' AND '.join(self.full_where(t, vals))}",
                      feature="update.counter")
            return
        vals = self.key_values(t)
        static_only = t.statics and self.chance(0.15)
        targets = t.statics if static_only else t.statics + t.regulars
        cols = self.rng.sample(targets, min(len(targets), self.pick([1, 1, 2, 3])))
        sets = ", ".join(self.assignment(c) for c in cols)
        where = self.pk_where(t, vals) if static_only else self.full_where(t, vals)
        feature = "update.static" if static_only else "update"
        if not static_only and t.ck and self.chance(0.12):
            c = t.ck[-1]
            ins = sorted({lit(self.rng, c.t, core=True) for _ in range(self.pick([1, 2, 3]))})
            where = where[:-1] + [f"{c.name} IN ({', '.join(ins)})"]
            feature = "update.in"
        if self.chance(0.15):  # LWT
            cond = self.condition(t, static_only)
            self.emit(f"UPDATE {t.name} SET {sets} WHERE {' AND '.join(where)} IF {cond}",
                      feature="lwt.update", lwt=True)
            return
        if feature != "update.in":
            self.remember(t, vals)
        self.emit(f"UPDATE {t.name}{self.using()} SET {sets} WHERE {' AND '.join(where)}",
                  feature=feature)

    def condition(self, t: Table, static_only=False) -> str:
        if self.chance(0.3):
            return "EXISTS"
        cands = [c for c in (t.statics if static_only else t.statics + t.regulars)
                 if c.t.kind == "scalar" and c.t.name != "duration"]
        if not cands:
            return "EXISTS"
        parts = []
        for c in self.rng.sample(cands, min(len(cands), self.pick([1, 1, 2]))):
            op = self.pick(["=", "=", "!=", ">", "<=", "IN"])
            if op == "IN":
                parts.append(f"{c.name} IN ({lit(self.rng, c.t)}, {lit(self.rng, c.t)})")
            elif self.chance(0.1):
                parts.append(f"{c.name} {'=' if op == '=' else '!='} null")
            else:
                parts.append(f"{c.name} {op} {lit(self.rng, c.t, core=True)}")
        return " AND ".join(parts)

    def delete(self, t: Table):
        vals = self.key_values(t, fresh_p=0.1)
        r = self.rng.random()
        if t.counter:
            return self.update(t)  # counter deletes are permanent; skip them
        if r < 0.15:
            self.emit(f"DELETE FROM t{self.using(False)} WHERE {' AND '.join(self.pk_where(t, vals))}",
                      feature="delete.partition")
        elif r < 0.35 and t.ck:
            # A range: a prefix by = and a slice on the next column.
            n = self.rng.randrange(len(t.ck))
            where = self.pk_where(t, vals) + [f"{c.name} = {vals[c.name]}" for c in t.ck[:n]]
            c = t.ck[n]
            op = self.pick([">", ">=", "<", "<="])
            where.append(f"{c.name} {op} {lit(self.rng, c.t, core=True)}")
            if self.chance(0.3):
                op2 = "<" if op.startswith(">") else ">"
                where.append(f"{c.name} {op2} {lit(self.rng, c.t)}")
            self.emit(f"DELETE FROM t{self.using(False)} WHERE {' AND '.join(where)}",
                      feature="delete.range")
        elif r < 0.55:
            cols = self.rng.sample(t.regulars + t.statics, self.pick([1, 2]))
            names = []
            for c in cols:
                if c.t.kind == "map" and not c.t.frozen and self.chance(0.5):
                    names.append(f"{c.name}[{lit(self.rng, c.t.args[0])}]")
                elif c.t.kind == "list" and not c.t.frozen and self.chance(0.3):
                    names.append(f"{c.name}[{self.rng.randrange(3)}]")
                elif c.t.kind == "set" and not c.t.frozen and self.chance(0.4):
                    names.append(f"{c.name}[{lit(self.rng, c.t.args[0])}]")
                elif c.t.kind == "udt" and not c.t.frozen and self.chance(0.5):
                    names.append(f"{c.name}.a")
                else:
                    names.append(c.name)
            feature = "delete.element" if any("[" in n or "." in n for n in names) else "delete.columns"
            self.emit(f"DELETE {', '.join(names)} FROM t{self.using(False)} WHERE "
                      f"{' AND '.join(self.full_where(t, vals))}", feature=feature)
        elif r < 0.65:
            cond = self.condition(t)
            self.emit(f"DELETE FROM t WHERE {' AND '.join(self.full_where(t, vals))} IF {cond}",
                      feature="lwt.delete", lwt=True)
        elif r < 0.72 and len(t.ck) >= 1:
            c = t.ck[0]
            ins = sorted({lit(self.rng, c.t, core=True) for _ in range(self.pick([0, 1, 2]))})
            where = self.pk_where(t, vals) + [f"{c.name} IN ({', '.join(ins)})"]
            self.emit(f"DELETE FROM t{self.using(False)} WHERE {' AND '.join(where)}",
                      feature="delete.in" if ins else "delete.in_empty")
        else:
            self.emit(f"DELETE FROM t{self.using(False)} WHERE {' AND '.join(self.full_where(t, vals))}",
                      feature="delete.row")

    def batch(self):
        t = self.tables[0]
        if len(self.tables) > 1 and self.chance(0.3):
            ct = self.tables[1]
            parts = []
            for _ in range(self.pick([1, 2, 3])):
                vals = self.key_values(ct)
                self.remember(ct, vals)
                parts.append(f"UPDATE ct SET n = n + {self.pick([1, 3])} WHERE "
                             f"{' AND '.join(self.full_where(ct, vals))}")
            self.emit("BEGIN COUNTER BATCH " + "; ".join(parts) + "; APPLY BATCH",
                      feature="batch.counter")
            return
        if self.chance(0.15):  # conditional batch on one partition
            vals = self.key_values(t)
            parts = []
            for _ in range(self.pick([1, 2])):
                v2 = dict(vals)
                for c in t.ck:
                    if self.chance(0.5):
                        v2[c.name] = lit(self.rng, c.t, core=True)
                c = self.pick(t.regulars)
                parts.append(f"UPDATE t SET {c.name} = {lit(self.rng, c.t)} WHERE "
                             f"{' AND '.join(self.full_where(t, v2))}")
            cond = self.condition(t)
            parts[0] += f" IF {cond}"
            self.emit("BEGIN BATCH " + "; ".join(parts) + "; APPLY BATCH", feature="lwt.batch",
                      lwt=True)
            return
        kind = self.pick(["BEGIN BATCH", "BEGIN UNLOGGED BATCH"])
        parts = []
        for _ in range(self.pick([1, 2, 3, 4])):
            vals = self.key_values(t)
            r = self.rng.random()
            if r < 0.5:
                self.remember(t, vals)
                cols = [c.name for c in t.pk + t.ck]
                lits = [vals[c] for c in cols]
                c = self.pick(t.regulars + t.statics)
                cols.append(c.name)
                lits.append(lit(self.rng, c.t))
                parts.append(f"INSERT INTO t ({', '.join(cols)}) VALUES ({', '.join(lits)})")
            elif r < 0.8:
                c = self.pick(t.regulars)
                parts.append(f"UPDATE t SET {self.assignment(c)} WHERE {' AND '.join(self.full_where(t, vals))}")
            else:
                parts.append(f"DELETE FROM t WHERE {' AND '.join(self.full_where(t, vals))}")
        self.emit(f"{kind}{self.using(False)} " + "; ".join(parts) + "; APPLY BATCH",
                  feature="batch.unlogged" if "UNLOGGED" in kind else "batch.logged")

    # ---- reads
    def selection(self, t: Table, allow_fns=True) -> tuple[str, str]:
        r = self.rng.random()
        if r < 0.4:
            return "*", "star"
        cols = self.rng.sample(t.cols, min(len(t.cols), self.pick([1, 2, 3])))
        sels = []
        tag = "columns"
        for c in cols:
            if allow_fns and c.role in ("regular", "static") and not t.counter and self.chance(0.25):
                fn = self.pick(["writetime", "ttl", "writetime", "maxwritetime"] if not c.t.multicell
                               else ["writetime", "ttl"])
                sels.append(f"{fn}({c.name})")
                tag = "writetime_ttl"
            elif allow_fns and self.chance(0.05) and c.t.kind == "scalar" and c.t.name in NUMERIC:
                sels.append(f"CAST({c.name} AS text)")
                tag = "cast"
            elif allow_fns and self.chance(0.04) and c.role == "pk" and len(t.pk) == 1:
                sels.append(f"token({c.name})")
                tag = "token_selector"
            else:
                sels.append(c.name)
        return ", ".join(sels), tag

    def ck_relation(self, t: Table, vals) -> tuple[list[str], str]:
        """Restrictions on the clustering columns, and a feature tag."""
        if not t.ck:
            return [], ""
        rng = self.rng
        r = rng.random()
        n = rng.randrange(len(t.ck))
        prefix = [f"{c.name} = {vals[c.name]}" for c in t.ck[:n]]
        c = t.ck[n]
        if r < 0.25:
            return [f"{c.name} = {vals[c.name]}" for c in t.ck[:n + 1]], "eq"
        if r < 0.55:
            op = self.pick([">", ">=", "<", "<="])
            rel = prefix + [f"{c.name} {op} {lit(rng, c.t, core=True)}"]
            if self.chance(0.4):
                op2 = self.pick(["<", "<="]) if op.startswith(">") else self.pick([">", ">="])
                rel.append(f"{c.name} {op2} {lit(rng, c.t, core=True)}")
            return rel, "slice"
        if r < 0.72:
            k = self.pick([0, 1, 2, 3])
            ins = sorted({lit(rng, c.t, core=True) for _ in range(k)})
            if self.chance(0.2) and ins:
                ins = ins + [ins[0]]  # a duplicate
            return prefix + [f"{c.name} IN ({', '.join(ins)})"], "in_empty" if not ins else "in"
        if r < 0.85 and len(t.ck) - n >= 2:
            cs = t.ck[n:n + 2]
            tup = ", ".join(lit(rng, x.t, core=True) for x in cs)
            op = self.pick([">", ">=", "<", "<=", "="])
            return prefix + [f"({', '.join(x.name for x in cs)}) {op} ({tup})"], "multi_column"
        if r < 0.92 and len(t.ck) - n >= 2:
            cs = t.ck[n:n + 2]
            tups = [f"({', '.join(lit(rng, x.t, core=True) for x in cs)})" for _ in range(self.pick([0, 1, 2]))]
            return prefix + [f"({', '.join(x.name for x in cs)}) IN ({', '.join(tups)})"], "multi_in"
        return prefix, "prefix"

    def select(self, t: Table):
        rng = self.rng
        vals = self.key_values(t, fresh_p=0.15)
        sel, stag = self.selection(t)
        r = rng.random()
        tail = ""
        unordered = False
        if r < 0.22:  # one partition, clustering relations
            rel, tag = self.ck_relation(t, vals)
            where = self.pk_where(t, vals) + rel
            feat = f"select.partition.{tag or 'all'}"
            if t.ck and self.chance(0.2):
                tail += f" ORDER BY {t.ck[0].name} {self.pick(['ASC', 'DESC'])}"
                feat += "+order"
        elif r < 0.3:  # point read
            where = self.full_where(t, vals)
            feat = "select.point"
        elif r < 0.42:  # IN on the partition key
            c = t.pk[-1]
            ins = sorted({lit(rng, c.t, core=True) for _ in range(self.pick([0, 1, 2, 3]))})
            where = [f"{x.name} = {vals[x.name]}" for x in t.pk[:-1]] + [f"{c.name} IN ({', '.join(ins)})"]
            feat = "select.in_pk" + ("_empty" if not ins else "")
            if self.chance(0.3):
                rel, tag = self.ck_relation(t, vals)
                where += rel
                feat += f".{tag}"
            if t.ck and self.chance(0.25):
                tail += f" ORDER BY {t.ck[0].name} {self.pick(['ASC', 'DESC'])}"
                feat += "+order"
        elif r < 0.52:  # whole table
            where = []
            feat = "select.scan"
        elif r < 0.58:  # token range
            if len(t.pk) == 1 or True:
                names = ", ".join(c.name for c in t.pk)
                tok = self.pick(["0", "-4611686018427387904", "4611686018427387904", "-9223372036854775808"])
                op = self.pick([">", ">=", "<", "<="])
                where = [f"token({names}) {op} {tok}"]
                if self.chance(0.3):
                    where.append(f"token({names}) <= {self.pick(['5000000000000000000', '0'])}")
                feat = "select.token"
        elif r < 0.64:
            cols = [c.name for c in t.pk] + ([c.name for c in t.statics] if self.chance(0.4) else [])
            sel = ", ".join(cols)
            where = []
            if self.chance(0.3):
                c = t.pk[-1]
                ins = sorted({lit(rng, c.t, core=True) for _ in range(self.pick([0, 2]))})
                where = [f"{x.name} = {vals[x.name]}" for x in t.pk[:-1]] + [f"{c.name} IN ({', '.join(ins)})"]
            self.emit(f"SELECT DISTINCT {sel} FROM {t.name}{self.where(where)}"
                      f"{' LIMIT 2' if self.chance(0.2) else ''}", feature="select.distinct")
            return
        elif r < 0.72:
            return self.aggregate(t, vals)
        elif r < 0.84:
            return self.filtering(t, vals)
        else:
            if t.view and self.chance(0.4):
                return self.view_read(t)
            where = self.pk_where(t, vals)
            feat = "select.partition.limit"
        if self.chance(0.2) and t.ck and not feat.startswith("select.point"):
            tail += f" PER PARTITION LIMIT {self.pick([1, 2])}"
            feat += "+ppl"
        if self.chance(0.25):
            tail += f" LIMIT {self.pick([1, 2, 3, 10])}"
            feat += "+limit"
        self.emit(f"SELECT {sel} FROM {t.name}{self.where(where)}{tail}", feature=feat + f"/{stag}",
                  unordered=unordered)

    def where(self, rel):
        return (" WHERE " + " AND ".join(rel)) if rel else ""

    def aggregate(self, t: Table, vals):
        nums = [c for c in t.regulars if c.t.numeric or (t.counter and c.t.kind == "counter")]
        aggs = ["count(*)"]
        for c in t.regulars[:6]:
            if c.t.orderable and not c.t.multicell:
                aggs.append(f"{self.pick(['min', 'max', 'count'])}({c.name})")
        for c in nums:
            aggs.append(f"{self.pick(['sum', 'avg'])}({c.name})")
        sel = ", ".join(self.rng.sample(aggs, min(len(aggs), self.pick([1, 2]))))
        r = self.rng.random()
        if r < 0.35:
            where = self.pk_where(t, vals)
            self.emit(f"SELECT {sel} FROM {t.name}{self.where(where)}", feature="select.aggregate.partition")
        elif r < 0.55:
            self.emit(f"SELECT {sel} FROM {t.name}", feature="select.aggregate.scan")
        else:
            n = self.rng.randrange(1, len(t.pk) + len(t.ck) + 1)
            group = [c.name for c in (t.pk + t.ck)[:n]]
            where = self.pk_where(t, vals) if self.chance(0.4) else []
            lead = ", ".join(group)
            tail = f" LIMIT {self.pick([1, 2])}" if self.chance(0.2) else ""
            self.emit(f"SELECT {lead}, {sel} FROM {t.name}{self.where(where)} GROUP BY {', '.join(group)}{tail}",
                      feature="select.group_by")

    def filtering(self, t: Table, vals):
        rng = self.rng
        if t.counter:
            t = self.tables[0]
            vals = self.key_values(t)
        cands = [c for c in t.regulars + t.statics if c.t.orderable]
        c = self.pick(cands)
        feat = "select.filter"
        if c.name in t.indexed or c.name in t.sai:
            feat = "select.index" if c.name in t.indexed else "select.sai"
        op = self.pick(["=", "=", ">", "<=", "!="]) if feat != "select.index" else "="
        if c.t.kind == "scalar" and c.t.name == "boolean" or not c.t.orderable:
            op = "="
        rel = [f"{c.name} {op} {lit(rng, c.t, core=True)}"]
        colls = [x for x in t.regulars if x.t.kind in ("set", "list", "map") and not x.t.frozen]
        if colls and self.chance(0.2):
            x = self.pick(colls)
            if x.t.kind == "map" and self.chance(0.5):
                rel = [f"{x.name} CONTAINS KEY {lit(rng, x.t.args[0], core=True)}"]
            else:
                elem = x.t.args[1] if x.t.kind == "map" else x.t.args[0]
                rel = [f"{x.name} CONTAINS {lit(rng, elem, core=True)}"]
            feat = "select.filter.contains"
            for ix in t.indexed:
                if ix.endswith(":" + x.name):
                    feat = "select.index.collection"
        if self.chance(0.3):
            rel = self.pk_where(t, vals) + rel
            feat += ".in_partition"
        sel, stag = self.selection(t, allow_fns=False)
        needs_af = not (feat.startswith("select.index") or feat.startswith("select.sai")) or self.chance(0.3)
        af = " ALLOW FILTERING" if needs_af and self.chance(0.93) else ""
        if needs_af and not af:
            feat = "bad.missing_allow_filtering"
        unordered = feat.startswith("select.index") or feat.startswith("select.sai")
        self.emit(f"SELECT {sel} FROM {t.name} WHERE {' AND '.join(rel)}{af}", feature=feat,
                  unordered=unordered)

    def view_read(self, t: Table):
        name, key = t.view
        v = lit(self.rng, S("int"), core=True)
        if self.chance(0.5):
            self.emit(f"SELECT * FROM {name} WHERE {key} = {v}", feature="select.view.partition")
        else:
            self.emit(f"SELECT * FROM {name}", feature="select.view.scan")

    # ---- refusals
    def bad(self, t: Table):
        rng = self.rng
        vals = self.key_values(t)
        r = rng.random()
        if r < 0.15:
            self.emit(f"SELECT * FROM {t.name} WHERE nosuch = 1", feature="bad.unknown_column")
        elif r < 0.3:
            c = self.pick([c for c in t.pk + t.ck + t.regulars if c.t.kind == "scalar"])
            wrong = WRONG.get(c.t.name, "'x'")
            cols = [x.name for x in t.pk + t.ck]
            lits = [vals[x] for x in cols]
            if c.name in cols:
                lits[cols.index(c.name)] = wrong
            else:
                cols.append(c.name)
                lits.append(wrong)
            self.emit(f"INSERT INTO {t.name} ({', '.join(cols)}) VALUES ({', '.join(lits)}) USING TIMESTAMP {self.timestamp()}",
                      feature="bad.type")
        elif r < 0.42 and t.ck:
            c = t.ck[-1]
            self.emit(f"SELECT * FROM {t.name} WHERE {c.name} = {lit(rng, c.t, core=True)}",
                      feature="bad.missing_allow_filtering")
        elif r < 0.52:
            key = t.pk + t.ck if self.chance(0.5) else t.pk  # half the time a clustering key is missing too
            self.emit(f"INSERT INTO {t.name} ({', '.join(c.name for c in key)}) VALUES "
                      f"({', '.join(vals[c.name] for c in key)}) IF NOT EXISTS USING TIMESTAMP 5",
                      feature="bad.lwt_timestamp")
        elif r < 0.6 and t.ck:
            self.emit(f"SELECT * FROM {t.name} ORDER BY {t.ck[0].name} DESC", feature="bad.order_by")
        elif r < 0.68:
            self.emit(f"UPDATE {t.name} USING TIMESTAMP {self.timestamp()} SET {t.pk[0].name} = "
                      f"{vals[t.pk[0].name]} WHERE {' AND '.join(self.full_where(t, vals))}",
                      feature="bad.update_key")
        elif r < 0.76 and len(self.tables) > 1:
            self.emit("UPDATE ct USING TIMESTAMP 10 SET n = n + 1 WHERE k = 1 AND c = 'a'",
                      feature="bad.counter_timestamp")
        elif r < 0.84 and t.ck:
            c = t.ck[-1]
            self.emit(f"SELECT * FROM {t.name} WHERE {' AND '.join(self.pk_where(t, vals))} AND "
                      f"{c.name} > {lit(rng, c.t)} AND {c.name} = {lit(rng, c.t)}",
                      feature="bad.slice_and_eq")
        elif r < 0.9:
            self.emit(f"SELECT * FROM {t.name} WHERE {' AND '.join(self.pk_where(t, vals))} "
                      f"GROUP BY {self.pick(t.regulars).name}", feature="bad.group_by")
        else:
            self.emit(f"DELETE FROM {t.name} WHERE {t.regulars[0].name} = 1", feature="bad.delete_regular")

    # ---- the sequence
    def sequence(self) -> list[Stmt]:
        self.schema()
        steps = [(self.insert, 30), (self.update, 16), (self.delete, 10), (self.batch, 5),
                 (self.select, 34), (self.bad, 5)]
        fns = [f for f, w in steps for _ in range(w)]
        for _ in range(self.n_data):
            f = self.pick(fns)
            if f == self.batch:
                f()
                continue
            t = self.table()
            if t.counter and f in (self.insert, self.delete):
                f = self.update
            if t.counter and f == self.bad:
                t = self.tables[0]
            f(t)
        return self.stmts


def sequence(seed: int, n_data: int) -> list[Stmt]:
    return Gen(seed, n_data).sequence()


if __name__ == "__main__":
    import sys
    for s in sequence(int(sys.argv[1]) if len(sys.argv) > 1 else 1, 40):
        print(s.text.replace("{ks}", "ks") + ";", "--", s.feature)
