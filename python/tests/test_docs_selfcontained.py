"""What a user reads or runs must not need a file outside the repository.

The developers keep reference material in a folder beside the project (specifications, seed pages,
benchmark inputs); a user has only the repository. So README.md, docs/, examples/, the public
headers, the strings of app/ and src/ (help texts, error messages) and the output of `grit help`
must not cite that material: no "spec 2.4" or "spec §5", no "seed 003", no SCENES.md, no path
into shared/. They explain in their own words, cite docs/<file>.md, or cite a published work.
docs/performance.md (and bench/, not scanned) may name that folder's bench/ as where the benchmark's
inputs came from.
"""
import os
import pathlib
import re
import subprocess

import pytest

from conftest import ROOT

FORBIDDEN = [
    (re.compile(r"shared/"), "a path into the developers' shelf (shared/)"),
    (re.compile(r"\bspec\s*§", re.I), "a spec section"),
    (re.compile(r"\bspec\s+(?:section\s+)?[0-9]", re.I), "a spec section"),
    (re.compile(r"\bthe spec's\b", re.I), "the spec"),
    (re.compile(r"\bseeds?\s+0[0-9]", re.I), "a seed page"),
    (re.compile(r"\bseed's\b", re.I), "a seed page"),
    (re.compile(r"SCENES\.md"), "the benchmark's SCENES.md"),
    (re.compile(r"(?:linear-model-and-geometry|kuhn-linear-frictional|concrete-cpm|performance-notes)\.md"),
     "a spec file"),
]
# where a benchmark may say where its inputs came from
ALLOWED = {"docs/performance.md": re.compile(r"\.\./shared/bench/")}

TEXT_SUFFIXES = {".md", ".py", ".c", ".h", ".txt", ".sh"}


def hits(text, rel):
    """(line, what, line text) for every forbidden reference in text."""
    allowed = ALLOWED.get(rel)
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        scan = allowed.sub("", line) if allowed else line
        for pattern, what in FORBIDDEN:
            m = pattern.search(scan)
            if m:
                out.append((n, f"{what}: '{m.group(0)}'", line.strip()))
    return out


def c_strings(source):
    """The string literals of C source, comments skipped, adjacent literals joined:
    [(line of the first literal, text)]."""
    out, i, n, line = [], 0, len(source), 1
    cur, cur_line, after_literal = None, 0, False
    while i < n:
        c = source[i]
        if source.startswith("//", i):
            j = source.find("\n", i)
            i = n if j < 0 else j
            continue
        if source.startswith("/*", i):
            j = source.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += source.count("\n", i, j)
            i = j
            continue
        if c == "'":
            j = i + 1
            while j < n and source[j] != "'":
                j += 2 if source[j] == "\\" else 1
            i = j + 1
            continue
        if c == '"':
            j = i + 1
            while j < n and source[j] != '"':
                j += 2 if source[j] == "\\" else 1
            lit = source[i + 1:j]
            if cur is not None and after_literal:
                cur += lit
            else:
                if cur is not None:
                    out.append((cur_line, cur))
                cur, cur_line = lit, line
            after_literal = True
            i = j + 1
            continue
        if c == "\n":
            line += 1
        elif not c.isspace() and c != "\\":
            if cur is not None and after_literal:
                out.append((cur_line, cur))
                cur = None
            after_literal = False
        i += 1
    if cur is not None:
        out.append((cur_line, cur))
    return out


def user_files():
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
             *sorted((ROOT / "include" / "grit").glob("*.h"))]
    files += sorted(p for p in (ROOT / "examples").rglob("*")
                    if p.is_file() and (p.suffix in TEXT_SUFFIXES or p.name == "CMakeLists.txt"))
    return files


def c_sources():
    return sorted(p for d in ("app", "src") for p in (ROOT / d).rglob("*") if p.suffix in (".c", ".h"))


def report(found):
    return "references a user cannot read (explain it here, cite docs/<file>.md or a published work):\n" + \
        "\n".join(f"  {where}: {what}\n      {text}" for where, what, text in found)


def test_docs_examples_and_public_headers():
    found = []
    for path in user_files():
        rel = path.relative_to(ROOT).as_posix()
        for n, what, text in hits(path.read_text(errors="replace"), rel):
            found.append((f"{rel}:{n}", what, text))
    assert not found, report(found)


def test_help_texts_and_messages_in_the_c_sources():
    found = []
    for path in c_sources():
        rel = path.relative_to(ROOT).as_posix()
        for line, lit in c_strings(path.read_text(errors="replace")):
            for _, what, _ in hits(lit, rel):
                found.append((f"{rel}:{line}", what, f'"{lit}"'))
    assert not found, report(found)


def grit_cli():
    lib = os.environ.get("GRIT_LIB")
    for d in ([pathlib.Path(lib).parent] if lib else []) + [ROOT / "build"]:
        if (d / "grit").is_file():
            return d / "grit"
    pytest.skip("the grit command is not built (build/grit)")


def test_grit_help_output():
    exe = grit_cli()

    def run(*args):
        r = subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=60)
        return r.stdout + r.stderr

    outputs = {"grit help": run("help"), "grit help run": run("help", "run")}
    names = re.findall(r"^  ([a-z_]+)\s", outputs["grit help run"], re.M)
    assert "box" in names and "deposit" in names, outputs["grit help run"]
    for name in names:
        outputs[f"grit help run {name} --all"] = run("help", "run", name, "--all")
    found = [(f"`{cmd}` line {n}", what, text)
             for cmd, out in outputs.items() for n, what, text in hits(out, cmd)]
    assert not found, report(found)


def test_the_scanner_finds_what_it_must(tmp_path):
    shelf = ".." + "/" + "shared"  # spelled in pieces: this file itself names no path outside the repository
    text = f"see spec 2.4\nas in spec §5.3 and seed 003\n{shelf}/bench/SCENES.md\nthe spec's case\nfine: specimen, seed=3"
    assert [n for n, _, _ in hits(text, "docs/x.md")] == [1, 2, 2, 3, 3, 4]
    assert [n for n, _, _ in hits(f"from {shelf}/bench/scenes\n{shelf}/spec/x", "docs/performance.md")] == [2]
    src = 'f("a spec " /* spec 1 */ "2.5 rule");\n// "spec 3"\ng("ok", \'"\');\n'
    assert c_strings(src) == [(1, "a spec 2.5 rule"), (3, "ok")]
