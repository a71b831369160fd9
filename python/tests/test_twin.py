"""The Python package and the C API give bitwise identical results for the same scene."""
import pathlib
import subprocess

import numpy as np
import pytest

import grit
import twin_scene


def twin_program():
    exe = pathlib.Path(grit.library().path).resolve().parent / "tests" / "test_python_twin"
    if not exe.exists():
        pytest.fail(f"{exe} is missing: build the C tests (cmake --build build) before running pytest")
    return exe


def test_python_and_c_are_bitwise_identical(tmp_path):
    out = tmp_path / "c.txt"
    subprocess.run([str(twin_program()), str(out)], check=True, timeout=120)
    c_text = out.read_text()
    s = twin_scene.build()
    py_text = twin_scene.dump(s)
    assert py_text == c_text
    assert int(c_text.split("contacts ")[1].split()[0]) > 0  # the scene has contacts at the end
    # and the NumPy views hold the same numbers as the by-id accessors the dump used
    pos = s.particles.get("pos")
    lines = [ln.split() for ln in c_text.splitlines() if ln.startswith("particle")]
    assert np.array_equal(pos, np.array([[float.fromhex(x) for x in ln[2:5]] for ln in lines]))


def test_hex_format_matches_c():
    assert twin_scene._hex(1.5) == "0x1.8p+0" and twin_scene._hex(-0.125) == "-0x1p-3"
    assert twin_scene._hex(0.0) == "0x0p+0" and twin_scene._hex(-0.0) == "-0x0p+0"
    assert twin_scene._hex(0.1) == "0x1.999999999999ap-4"
