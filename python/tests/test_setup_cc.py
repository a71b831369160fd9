"""setup.py reconfigures its CMake folder when CC names another compiler than the one the folder was
configured with (CMake would keep the first one, and pip would build silently with it)."""
import ast
import os
import re
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))


def compiler_mismatch():
    """setup.py's compiler_mismatch, taken from its source (importing setup.py would run setup())."""
    src = open(os.path.join(HERE, "..", "..", "setup.py")).read()
    fn = next(n for n in ast.parse(src).body if isinstance(n, ast.FunctionDef) and n.name == "compiler_mismatch")
    ns = {"os": os, "re": re, "shutil": shutil}
    exec(compile(ast.Module([fn], []), "setup.py", "exec"), ns)
    return ns["compiler_mismatch"]


def test_compiler_mismatch(tmp_path):
    f = compiler_mismatch()
    gcc, clang = tmp_path / "gcc-12", tmp_path / "clang-14"
    for p in (gcc, clang):
        p.write_text("#!/bin/sh\n")
        p.chmod(0o755)
    (tmp_path / "cc").symlink_to(gcc)
    cache = f"FOO:BOOL=ON\nCMAKE_C_COMPILER:FILEPATH={gcc}\nBAR:STRING=x\n"
    assert f(cache, None) is None and f(cache, "") is None  # no CC: keep the folder
    assert f(cache, str(gcc)) is None
    assert f(cache, str(tmp_path / "cc")) is None  # the same compiler through a link
    assert f(cache, str(clang)) == str(gcc)
    assert f(cache, f"{clang} -m64") == str(gcc)  # CC with flags: its first word
    assert f("CMAKE_C_COMPILER:FILEPATH=\n", str(clang)) is None  # nothing cached: nothing to compare
    assert f("OTHER:BOOL=ON\n", str(clang)) is None
