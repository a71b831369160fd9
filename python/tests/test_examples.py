"""Every example runs (each checks its own physics with asserts) and writes its figures."""
import subprocess
import sys

import pytest

from conftest import ROOT

EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
OUTPUTS = {
    "quickstart.py": ["quickstart-energy.csv", "quickstart-energy.png"],
    "bouncing_sphere.py": ["bouncing-energy.csv", "bouncing-energy.png"],
    "deposition.py": ["deposition-energy.csv", "deposition-energy.png", "deposition-packing.png"],
    "law_test_idealelpl.py": ["law-idealelpl.csv", "law-idealelpl-dofs.png", "law-idealelpl-cone.png"],
    "law_test_linel6.py": ["law-linel6.csv", "law-linel6-dofs.png", "law-linel6-cone.png"],
    "law_test_kuhn.py": ["law-kuhn.csv", "law-kuhn-turn.png", "law-kuhn-dofs.png", "law-kuhn-cone.png"],
    "hopper.py": ["hopper-energy.csv", "hopper-energy.png", "hopper-side.png", "hopper-vtk/particles.pvd",
                  "hopper-vtk/shapes.pvd"],
    "periodic_shear.py": ["periodic-shear.csv", "periodic-shear.png"],
    "concrete_law_test.py": ["concrete-yield-surface.png", "concrete-cycles.png", "concrete-cycles.csv"],
    "chung_ooi.py": ["chung-ooi.png", "chung-ooi.csv"],
    "heap_rolling.py": ["heap-rolling.png", "heap-rolling.csv"],
    "silo_beverloo.py": ["silo-beverloo.csv", "silo-beverloo.png"],
}
# examples whose full run is a study of minutes: the test runs their quick check
ARGS = {"silo_beverloo.py": ["--small"]}


def test_every_example_is_listed():
    assert sorted(p.name for p in EXAMPLES) == sorted(OUTPUTS)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_example_runs(example, tmp_path, env_with_grit):
    out = tmp_path / "out"  # quickstart writes to ./out, the others take the directory as argument
    r = subprocess.run([sys.executable, str(example), str(out)] + ARGS.get(example.name, []), cwd=tmp_path, env=env_with_grit,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    for name in OUTPUTS[example.name]:
        assert (out / name).stat().st_size > 0, name


def test_quickstart_is_short_and_shown_in_the_docs():
    script = (ROOT / "examples" / "quickstart.py").read_text()
    assert len(script.splitlines()) <= 20
    doc = (ROOT / "docs" / "python.md").read_text()
    shown = doc.split("`examples/quickstart.py`, the whole script:\n\n```python\n", 1)[1].split("```", 1)[0]
    assert shown == script
