#!/usr/bin/env python3
"""The naming rule of the C API (docs/c-api.md, "Names"), checked on the public headers and the library.

    python3 tests/api/check_names.py INCLUDE_DIR LIBGRIT_SO [NM]

INCLUDE_DIR is include/grit, LIBGRIT_SO the built shared library, NM the nm program (default: nm). Prints
every breach of the rule, one a line, and exits 1 if there is any; ctest runs it as `api_names`. The rules,
numbered as in the docs:

  1. spelling: functions, types and tables grit_lower_case, macros and enum constants GRIT_UPPER_CASE;
  2. subject first: a function on an object (a type with a destroy, free or close function) whose first
     parameter is that object is named after it, grit_<object>_<verb>; so is a function that makes one;
  3. the scene: its functions are named verb first with one of the scene verbs, or after a part of the scene;
  4. life cycle: create pairs with destroy, open with close;
  5. defaults: every grit_X_def and grit_X_opts struct has grit_X grit_default_X(void), and every
     grit_default_X returns a grit_X;
  6. parameter tables: every grit_G_param_table has its definition struct grit_G_def;
  7. exports: libgrit.so exports exactly the functions and tables the headers declare.
"""
import pathlib
import re
import subprocess
import sys

# Rule 3: what the name of a function on the scene may start with.
SCENE_VERBS = {"add", "get", "set", "impose", "step", "save", "load", "is", "check"}
SCENE_PARTS = {"scene", "particle", "material", "pair", "law", "contact", "contacts", "cell", "energy", "stress",
               "inlet", "outlet", "array", "shape", "tester", "kuhn", "concrete", "vtk", "io", "last", "warning", "dt", "time",
               "critical", "functor", "brute", "potential", "threads", "unbalanced", "mpi"}
# headers of functions another library exports: grit/mpi.h's are in libgrit_mpi (apart, so that libgrit needs no MPI)
OTHER_LIBRARY = {"mpi.h"}
# value types: a pointer to one is an array of values, not an object
VALUE_TYPES = {"vec3", "quat", "mat3", "param_info", "param_table", "uniax_specimen"}
# verbs that make an object (rule 2: named after what they make)
MAKERS = {"create", "load", "open", "read", "continue", "predicate"}


def strip(text):
    """Header text without comments, continuation lines or preprocessor lines (macros are read apart)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"\\\n", " ", text)
    return "\n".join(line for line in text.split("\n") if not line.lstrip().startswith("#"))


def drop_bodies(text):
    """The text with the bodies of functions (static inline helpers) removed, struct bodies kept."""
    out, depth, i = [], 0, 0
    while i < len(text):
        c = text[i]
        if c == "{":
            # a function body follows a ')'; a struct, union or enum body does not
            before = text[:i].rstrip()
            if depth == 0 and before.endswith(")"):
                j, d = i + 1, 1
                while d:
                    d += {"{": 1, "}": -1}.get(text[j], 0)
                    j += 1
                out.append(";")
                i = j
                continue
            depth += 1
        elif c == "}":
            depth -= 1
        out.append(c)
        i += 1
    return "".join(out)


class Api:
    """What the public headers declare."""

    def __init__(self, include_dir):
        self.functions = {}   # name -> (header, return type, [parameter texts], static inline?)
        self.types = set()
        self.tables = set()   # extern variables
        self.macros = {}      # name -> header
        self.enum_constants = {}
        for h in sorted(pathlib.Path(include_dir).glob("*.h")):
            raw = h.read_text()
            # the short names a program opts into (GRIT_SHORT_NAMES) are the one place of unprefixed macros
            opted = re.sub(r"#\s*ifdef\s+GRIT_SHORT_NAMES.*?#\s*endif", "", raw, flags=re.S)
            for m in re.finditer(r"^\s*#\s*define\s+(\w+)", opted, flags=re.M):
                self.macros.setdefault(m.group(1), h.name)
            text = strip(raw)
            for m in re.finditer(r"typedef\s+(?:struct|union|enum)\s*\w*\s*(\{)?", text):
                if m.group(1):
                    j, d = m.end(), 1
                    while d:
                        d += {"{": 1, "}": -1}.get(text[j], 0)
                        j += 1
                    body = text[m.end():j - 1]
                    if text[m.start():m.end()].split()[1] == "enum":
                        for c in re.finditer(r"(?:^|,)\s*(\w+)", body):
                            self.enum_constants[c.group(1)] = h.name
                    name = re.match(r"\s*(\w+)\s*;", text[j:])
                else:
                    name = re.match(r"typedef\s+(?:struct|union|enum)\s*\w*\s+(\w+)\s*;", text[m.start():])
                if name:
                    self.types.add(name.group(1))
            for m in re.finditer(r"typedef\s+[^;{}]*?\(\s*\*\s*(\w+)\s*\)", text):
                self.types.add(m.group(1))
            for m in re.finditer(r"typedef\s+[\w\s]+?\s(\w+)\s*(?:\[[^\]]*\])?\s*;", text):
                self.types.add(m.group(1))
            for m in re.finditer(r"extern\s+const\s+\w+\s+(\w+)\s*;", text):
                self.tables.add(m.group(1))
            for stmt in drop_bodies(text).split(";"):
                stmt = re.split(r"[{}]", stmt)[-1]
                m = re.match(r"\s*([\w\s\*]*?)\b(grit_\w+)\s*\(([^()]*)\)\s*$", stmt)
                if not m or "typedef" in m.group(1) or "extern" in m.group(1):
                    continue
                ret, name, params = m.groups()
                ps = [" ".join(p.split()) for p in params.split(",")] if params.strip() else []
                self.functions[name] = (h.name, " ".join(ret.replace("GRIT_API", "").split()), ps,
                                        "static" in ret)

    def exported(self):
        """The names libgrit.so must export: non-inline functions and the tables."""
        return {n for n, f in self.functions.items() if not f[3] and f[0] not in OTHER_LIBRARY} | self.tables


def first_type(params):
    """T of a first parameter `[const] grit_T *...`, or None."""
    if not params:
        return None
    m = re.match(r"(?:const\s+)?grit_(\w+)\s*\*", params[0])
    return m.group(1) if m else None


def check(api, lib_symbols):
    """Every breach of the rule, as messages naming the function, the header and the rule."""
    out = []
    fns = api.functions
    public = {n: f for n, f in fns.items() if not f[3]}
    spelled = re.compile(r"^grit_[a-z][a-z0-9]*(_[a-z0-9]+)*$")
    # 1. spelling
    for n in sorted(set(fns) | api.types | api.tables):
        if not spelled.match(n):
            out.append(f"{n}: not grit_ and lower-case words (rule 1)")
    for n, h in sorted({**api.macros, **api.enum_constants}.items()):
        # the X-macros paste a C type's name into a few (GRIT_PT_double): those keep its spelling
        if not re.match(r"^GRIT_[A-Z0-9]+(_[A-Z0-9]+)*_?$", n) and not re.match(r"^GRIT_(PT|CTYPE)_[a-z0-9]+$", n):
            out.append(f"{n} ({h}): a macro or constant is GRIT_ and upper-case words (rule 1)")
    # the objects: types with a function that ends their life
    objects = {n[len("grit_"):-len(suffix)] for n in public for suffix in ("_destroy", "_free", "_close")
               if n.endswith(suffix) and first_type(public[n][2]) == n[len("grit_"):-len(suffix)]}
    # 2. subject first
    for n, (h, ret, ps, _) in sorted(public.items()):
        t = first_type(ps)
        if t and t in objects and t != "scene" and not n.startswith(f"grit_{t}_"):
            out.append(f"{n} ({h}): works on a grit_{t}, so it is named grit_{t}_... (rule 2)")
        made = re.match(r"(?:const\s+)?grit_(\w+)\s*\*$", ret)
        verbs = set(n[len("grit_"):].split("_"))
        if made and made.group(1) in objects and verbs & MAKERS and not n.startswith(f"grit_{made.group(1)}_"):
            out.append(f"{n} ({h}): makes a grit_{made.group(1)}, so it is named grit_{made.group(1)}_... (rule 2)")
        # 3. the scene
        if t == "scene" and not any(n.startswith(f"grit_{o}_") for o in objects if o != "scene"):
            word = n[len("grit_"):].split("_")[0]
            if word not in SCENE_VERBS | SCENE_PARTS:
                out.append(f"{n} ({h}): a scene function starts with a scene verb ({', '.join(sorted(SCENE_VERBS))}) "
                           f"or a part of the scene, not '{word}' (rule 3)")
    # 4. life cycle
    for n in sorted(public):
        for a, b in (("_create", "_destroy"), ("_destroy", "_create"), ("_open", "_close"), ("_close", "_open")):
            if n.endswith(a) and n[:-len(a)] + b not in public:
                out.append(f"{n}: no {n[:-len(a)] + b} (rule 4)")
    # 5. defaults
    for t in sorted(api.types):
        if (t.endswith("_def") or t.endswith("_opts")) and t != "grit_law_defs":
            want = "grit_default_" + t[len("grit_"):]
            if want not in public:
                out.append(f"{t}: no {t} {want}(void) (rule 5)")
            elif public[want][1] != t or public[want][2] not in ([], ["void"]):
                out.append(f"{want}: must be {t} {want}(void) (rule 5)")
    for n, (h, ret, ps, _) in sorted(public.items()):
        if n.startswith("grit_default_") and ret != "grit_" + n[len("grit_default_"):]:
            out.append(f"{n} ({h}): returns {ret}, not grit_{n[len('grit_default_'):]} (rule 5)")
    # 6. parameter tables
    for tab in sorted(api.tables):
        if tab.endswith("_param_table") and tab[:-len("_param_table")] + "_def" not in api.types:
            out.append(f"{tab}: no definition struct {tab[:-len('_param_table')]}_def (rule 6)")
    # 7. exports
    want = api.exported()
    grit_syms = {s for s in lib_symbols if s.startswith("grit_")}
    for s in sorted(grit_syms - want):
        out.append(f"{s}: exported by libgrit.so but declared in no public header (rule 7)")
    for s in sorted(want - grit_syms):
        out.append(f"{s}: declared in a public header but not exported by libgrit.so (rule 7; its source file "
                   "must include the header that declares it)")
    for s in sorted(lib_symbols - grit_syms):
        if not s.startswith("_"):
            out.append(f"{s}: libgrit.so exports a name without the grit_ prefix (rule 7)")
    return out


def library_symbols(lib, nm="nm"):
    """The names of the symbols a shared library defines and exports."""
    text = subprocess.run([nm, "-D", "--defined-only", lib], check=True, capture_output=True, text=True).stdout
    return {f[2] for f in (line.split() for line in text.splitlines()) if len(f) >= 3 and f[1] in "TDRBVW"}


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    api = Api(argv[1])
    problems = check(api, library_symbols(argv[2], argv[3] if len(argv) == 4 else "nm"))
    for p in problems:
        print(p)
    n_fns = len([f for f in api.functions.values() if not f[3]])
    print(f"api_names: {n_fns} functions, {len(api.tables)} tables, {len(api.types)} types, "
          f"{len(api.macros) + len(api.enum_constants)} macros and constants checked; {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
