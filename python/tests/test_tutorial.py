"""The tutorial's scripts (examples/tutorial/, docs/tutorial.md) run in their small mode, in order, in one
folder (step 3 continues step 2's restart file), and write what the tutorial says they write."""
import re
import subprocess
import sys

import pytest

from conftest import ROOT

TUTORIAL = ROOT / "examples" / "tutorial"
STEPS = {  # script -> (files it writes into --out, a line its output must hold)
    "step1_first_scene.py": (["step1-energy.csv", "step1-energy.png"], r"after \d+ steps"),
    "step2_deposit.py": (["step2-vtk/particles.pvd", "step2-vtk/contacts.pvd", "step2-energy.csv",
                          "step2-energy.png", "step2-heights.png", "step2-deposit.grit"], r"\d+ VTK frames"),
    "step3_restart.py": (["step3-slumped.grit", "step3-vtk/particles.pvd"],
                         r"stopped and restarted half-way: the same positions to the bit"),
    "step4_periodic_shear.py": (["step4-shear.csv", "step4-shear.png"], r"stress ratio tau/sigma_n 0\.\d+"),
    "step5_concrete_uniaxial.py": (["step5-specimen.csv", "step5-curves.csv", "step5-curves.png"],
                                   r"E = \d+\.\d GPa, nu = 0\.\d+"),
}


def test_every_step_is_listed_and_in_the_tutorial():
    assert sorted(p.name for p in TUTORIAL.glob("*.py")) == sorted(STEPS)
    doc = (ROOT / "docs" / "tutorial.md").read_text()
    for name in STEPS:
        assert f"examples/tutorial/{name}" in doc, name
        for out in STEPS[name][0]:
            assert out.split("/")[0] in doc, (name, out)


@pytest.fixture(scope="module")
def outputs(tmp_path_factory, request):
    """Run every step --small in order into one folder; {script: (returncode, output)}."""
    import os
    out = tmp_path_factory.mktemp("tutorial")
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "python") + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["MPLBACKEND"] = "Agg"
    done = {}
    for name in STEPS:
        r = subprocess.run([sys.executable, str(TUTORIAL / name), "--small", "--out", str(out / "t")], cwd=out,
                           env=env, capture_output=True, text=True, timeout=120)
        done[name] = (r.returncode, r.stdout + r.stderr)
    return out / "t", done


@pytest.mark.parametrize("name", list(STEPS))
def test_step_runs(outputs, name):
    folder, done = outputs
    rc, text = done[name]
    assert rc == 0, text  # each script checks its own physics with asserts
    files, line = STEPS[name]
    assert re.search(line, text), text
    for f in files:
        assert (folder / f).stat().st_size > 0, f


def test_step3_needs_step2(tmp_path, env_with_grit):
    r = subprocess.run([sys.executable, str(TUTORIAL / "step3_restart.py"), "--out", str(tmp_path / "none")],
                       env=env_with_grit, capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "step2-deposit.grit not found: run step2_deposit.py --out" in r.stderr, r.stderr


def test_csv_units_in_the_tutorial_files(outputs):
    import grit
    folder, _ = outputs
    shear = grit.read_csv(folder / "step4-shear.csv")
    assert shear.units["s_xy"] == "Pa" and shear.units["time"] == "s" and shear.units["ratio"] == ""
    energy = grit.read_csv(folder / "step2-energy.csv")
    assert energy.units["kinetic"] == "J" and energy["time"][-1] > 0.1
