#!/usr/bin/env python3
"""Writes the seed corpus fuzz/seeds/parse/: one statement per file.

The statements come from the example scripts (examples/*.cql) and from the
`(* example: ... *)` lines of grammar/cql.ebnf. Run from anywhere; existing
seeds are replaced.
"""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "fuzz" / "seeds" / "parse"


def split_script(text):
    """Splits a script at `;` outside comments, strings, quoted names and
    `$$` bodies, keeping `BEGIN ... APPLY BATCH;` whole. Comments are dropped
    so that a seed is the statement alone."""
    statements, current, i = [], [], 0
    while i < len(text):
        c, rest = text[i], text[i:]
        if rest.startswith("--") or rest.startswith("//"):
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
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


def main():
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
