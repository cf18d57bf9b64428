#!/usr/bin/env python3
"""Writes the seed corpora fuzz/corpus/<target>/ of every fuzz target.

* parse: one statement per file, from the example scripts (examples/*.cql)
  and the `(* example: ... *)` lines of grammar/cql.ebnf.
* plan: a schema selector byte (the index of a script in SCHEMA_SOURCES,
  the order of `fuzz_targets/common/mod.rs`) and one data statement of that
  script.
* exec: a schema selector byte and a few consecutive data statements of
  that script (with its `-- @advance` lines); also whole script openings
  with their own schema on an empty session.
* split: scripts (whole or cut at statement ends) behind an options byte,
  and a few hand-written tricky ones.
* lint: scripts cut at blank lines into pieces of at most MAX_LEN bytes,
  some behind a `widerow.toml` and a NUL byte.
* exec_ops: a few fixed pseudo-random inputs (the target decodes any bytes).
* complete: a schema selector byte (0 none, 1 the fixed schema of
  `common/complete.rs`, then the example scripts, then SCHEMA_SOURCES), a
  cursor byte (200: the end) and a partial line: the lines
  tests/shell_complete.rs completes, on the fixed schema, and the example
  scripts' statements cut after their second and middle words, on their
  own schema, and some whole, spread over lines, the cursor inside.

Run from anywhere; existing seeds are replaced. libFuzzer grows its own
corpus in fuzz/work/<target>/ (not committed) and reads these as a second
corpus directory.
"""
import pathlib
import random
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEEDS = ROOT / "fuzz" / "corpus"
OUT = SEEDS / "parse"
# libFuzzer's -max_len in fuzz/README.md: longer seeds would be cut.
MAX_LEN = 4096


def split_script(text, keep_advance=False):
    """Splits a script at `;` outside comments, strings, quoted names and
    `$$` bodies, keeping `BEGIN ... APPLY BATCH;` whole. Comments are dropped
    so that a seed is the statement alone (with keep_advance, `-- @advance`
    lines are kept, on a line of their own)."""
    statements, current, i = [], [], 0
    while i < len(text):
        c, rest = text[i], text[i:]
        if rest.startswith("--") or rest.startswith("//"):
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            if keep_advance and rest.startswith("-- @advance"):
                current.append(text[i:end] + "\n")
            i = end
        elif rest.startswith("/*"):
            end = text.find("*/", i + 2)
            i = len(text) if end < 0 else end + 2
        elif rest.startswith("$$"):
            end = text.find("$$", i + 2)
            end = len(text) if end < 0 else end + 2
            current.append(text[i:end])
            i = end
        elif c in "'\"":
            j = i + 1
            while j < len(text):
                if text[j] == c:
                    if text[j + 1 : j + 2] == c:
                        j += 2
                        continue
                    break
                j += 1
            current.append(text[i : j + 1])
            i = j + 1
        elif c == ";":
            statement = "".join(current).strip()
            in_batch = re.match(r"(?i)begin\b", statement) and not re.search(
                r"(?i)\bapply\s+batch$", statement
            )
            if in_batch:
                current.append(";")
            else:
                statements.append(statement + ";")
                current = []
            i += 1
        else:
            current.append(c)
            i += 1
    return [s for s in statements if s != ";"]


def write_seeds(target, seeds):
    """Replaces fuzz/corpus/<target>/ with `seeds` (bytes), deduplicated and
    at most MAX_LEN long."""
    out = SEEDS / target
    out.mkdir(parents=True, exist_ok=True)
    for old in out.iterdir():
        old.unlink()
    seen = []
    for seed in seeds:
        seed = seed[:MAX_LEN]
        if seed and seed not in seen:
            seen.append(seed)
    for n, seed in enumerate(seen, 1):
        (out / f"{n:04}.seed").write_bytes(seed)
    print(f"{len(seen)} seeds in {out}")


def schema_sources():
    """The scripts of SCHEMA_SOURCES in fuzz_targets/common/mod.rs, in its
    order: the planner corpus, the conformance corpus, the examples."""
    files = []
    for folder in ("tests/planner", "tests/conformance", "examples"):
        files += sorted((ROOT / folder).glob("*.cql"))
    return files


SCHEMA_WORDS = ("create", "alter", "drop", "use", "truncate")


def is_schema(statement):
    return statement.lstrip().split(None, 1)[0].lower() in SCHEMA_WORDS


def plan_seeds():
    seeds = []
    for index, script in enumerate(schema_sources()):
        for statement in split_script(script.read_text()):
            if not is_schema(statement):
                seeds.append(bytes([index]) + statement.encode())
    return seeds


def strip_advance(statement):
    return "\n".join(l for l in statement.split("\n") if not l.startswith("-- @advance"))


def exec_seeds():
    sources = schema_sources()
    empty = len(sources)  # one past the schemas: an empty session
    seeds = []
    for index, script in enumerate(sources):
        statements = split_script(script.read_text(), keep_advance=True)
        data = [s for s in statements if not is_schema(strip_advance(s))]
        for start in range(0, len(data), 6):
            seeds.append(bytes([index]) + "\n".join(data[start : start + 6]).encode())
        # The script's opening, schema included, on an empty session.
        opening = "\n".join(statements[:24]).encode()
        seeds.append(bytes([empty]) + opening)
    return seeds


SPLIT_EXTRAS = [
    "SELECT 'a;b' FROM t; -- c;\nINSERT INTO t (k) VALUES ($$x;y$$);\n/* ; */ USE ks;",
    "INSERT INTO t (k, v) VALUES (1, 'line one;\nline two');\nSELECT * FROM t;\n",
    "BEGIN BATCH\n INSERT INTO t (k) VALUES (1);\n UPDATE t SET v = 1 WHERE k = 2;\nAPPLY BATCH;\nSELECT * FROM t;",
    "\n  \u00e9; SELECT 1;\n\n   USE x;",
    "SELECT 1; SELECT\n2;\nSELECT \"a\nb\" FROM t; /* open\n comment */ x; $$ body\n $$;",
    "DESCRIBE TABLES\nSELECT * FROM t;\nCONSISTENCY QUORUM\nEXPAND ON;\n? \nSELECT 1",
    "BEGIN UNLOGGED BATCH USING TIMESTAMP 1\nDELETE FROM t WHERE k = 1;\nAPPLY BATCH;;;\n  -- trailing\n",
]


def split_seeds():
    seeds = []
    for script in schema_sources():
        text = script.read_text()
        seeds.append(b"\x00" + text.encode())
        # The tail too: -max_len cuts only the end.
        seeds.append(b"\x03" + text[-MAX_LEN + 1 :].encode())
    for n, extra in enumerate(SPLIT_EXTRAS):
        for options in (0, 1, 2 * n + 1):
            seeds.append(bytes([options]) + extra.encode())
    return seeds


LINT_CONFIG = """[lint]
select = ["Q", "S", "D"]
ignore = ["scatter-gather"]
[lint.per-file-ignores]
"tests/*" = ["allow-filtering"]
[lint.options.unbounded-partition]
max-rows = 10
"""


def pieces(text, limit):
    """`text` cut at blank lines into pieces of at most `limit` bytes."""
    out, current = [], ""
    for block in re.split(r"\n\s*\n", text):
        if current and len(current) + len(block) + 2 > limit:
            out.append(current)
            current = ""
        current += block + "\n\n"
    if current.strip():
        out.append(current)
    return out


def lint_seeds():
    seeds = []
    for script in schema_sources():
        for n, piece in enumerate(pieces(script.read_text(), MAX_LEN - 400)):
            seeds.append(piece.encode())
            if n == 0:
                seeds.append((LINT_CONFIG + "\0" + piece).encode())
    return seeds


def exec_ops_seeds():
    rng = random.Random(20250601)
    return [bytes(rng.randrange(256) for _ in range(size)) for size in (64, 256, 1024) * 4]


def shell_complete_lines():
    """The string literals tests/shell_complete.rs completes: `offers("…"`,
    `texts("…")`, `hints("…")` and `at_end(…, "…")`."""
    source = (ROOT / "tests" / "shell_complete.rs").read_text()
    literal = r'"((?:[^"\\]|\\.)*)"'
    found = re.findall(
        r"(?:offers\(\s*|texts\(|hints\(|at_end\(&[a-z_()]+,\s*)" + literal, source
    )
    unescape = {"n": "\n", '"': '"', "\\": "\\", "t": "\t"}
    return [re.sub(r"\\(.)", lambda m: unescape.get(m.group(1), m.group(1)), f) for f in found]


COMPLETE_EXTRAS = [
    "SELECT * FROM \"we\"\"ird\" WHERE ",
    "INSERT INTO \"we\"\"ird\" (",
    "SELECT * FROM \"Odd Space\".",
    "SELECT * FROM \"Odd Space\".\"\u00dc",
    "UPDATE ks.users SET name = 'x' WHERE id = 1 IF ",
    "CREATE INDEX ON ",
    "DESCRIBE TABLE ks.",
    "SOURCE './",
    "CAPTURE '",
    "SAVE '",
    "EXPLAIN SELECT * FROM users WHERE ",
    "BEGIN BATCH\nINSERT INTO users (id) VALUES (1);\nUPDATE users SET ",
    "SELECT 'open\nstring' FROM users WHERE id = $$ body\n$$ AND ",
    "SELECT /* comment\n */ * FROM \"MixedCase",
    "CONSISTENCY Q\nSELECT * FROM u",
    "ALTER TABLE users ALTER name TYPE ",
    "CREATE TABLE t (a map<text, frozen<list<",
]


def complete_seeds():
    examples = sorted((ROOT / "examples").glob("*.cql"))
    seeds = []
    for line in shell_complete_lines() + COMPLETE_EXTRAS:
        seeds.append(b"\x01\xc8" + line.encode())
    # The cursor inside the text: the word under it is replaced.
    for line in COMPLETE_EXTRAS[:6]:
        seeds.append(b"\x01\x50" + line.encode())
    for index, script in enumerate(examples):
        for n, statement in enumerate(split_script(script.read_text())):
            words = statement.split(" ")
            # Cut after the second word and after the middle one.
            for cut in sorted({min(2, len(words) - 1), len(words) // 2}):
                head = " ".join(words[:cut]) + " "
                seeds.append(bytes([2 + index, 200]) + head.encode())
            if n % 4 == 0:
                # The whole statement over lines, the cursor in the middle.
                seeds.append(bytes([2 + index, 64]) + "\n".join(words).encode())
    return seeds


TARGETS = {
    "plan": plan_seeds,
    "exec": exec_seeds,
    "split": split_seeds,
    "lint": lint_seeds,
    "exec_ops": exec_ops_seeds,
    "complete": complete_seeds,
}


def main():
    """`make_seeds.py [TARGET...]`: every target by default."""
    targets = [a for a in sys.argv[1:] if not a.startswith("--")] or ["parse", *TARGETS]
    for target in targets:
        if target == "parse":
            write_parse_seeds()
        else:
            write_seeds(target, TARGETS[target]())


def write_parse_seeds():
    statements = []
    for script in sorted((ROOT / "examples").glob("*.cql")):
        statements += split_script(script.read_text())
    grammar = (ROOT / "grammar" / "cql.ebnf").read_text()
    statements += re.findall(r"^\s*\(\* example: (.*;) \*\)\s*$", grammar, re.M)

    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.cql"):
        old.unlink()
    seen = set()
    for statement in statements:
        if statement in seen:
            continue
        seen.add(statement)
        (OUT / f"{len(seen):03}.cql").write_text(statement)
    print(f"{len(seen)} seeds in {OUT}")


if __name__ == "__main__":
    main()
