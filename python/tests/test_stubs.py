"""python/grit/_tables.pyi declares for type checkers what grit makes at import time from the C tables (the
parameter attributes of Scene, the material classes, the array views); it is generated and must stay true."""
import ast
import os
import subprocess
import sys

import pytest

from grit import stubgen
from grit.params import Group
from conftest import PYDIR, ROOT

STUB = PYDIR / "grit" / "_tables.pyi"


def test_stub_is_up_to_date(capsys):
    rc = stubgen.main(["--check", str(STUB)])
    assert rc == 0, capsys.readouterr().err


def test_check_detects_a_stale_stub(tmp_path, capsys):
    stale = tmp_path / "_tables.pyi"
    stale.write_text(STUB.read_text().replace("    damping: float\n", "    dampin: float\n"))
    assert stubgen.main(["--check", str(stale)]) == 1
    assert "out of date: regenerate it with python3 -m grit.stubgen --write" in capsys.readouterr().err
    assert stubgen.main(["--check", str(tmp_path / "missing.pyi")]) == 1


def _members(cls: ast.ClassDef):
    """{name: node} of a class body's attributes (annotated names, properties) and the keywords of __init__."""
    attrs, keywords = {}, None
    for node in cls.body:
        if isinstance(node, ast.AnnAssign):
            attrs[node.target.id] = ast.unparse(node.annotation)
        elif isinstance(node, ast.FunctionDef) and node.name == "__init__":
            keywords = [a.arg for a in node.args.kwonlyargs]
            assert not node.args.args[1:] and node.args.kwarg is None, "parameters are keywords only"
        elif isinstance(node, ast.FunctionDef) and any(ast.unparse(d) == "property" for d in node.decorator_list):
            attrs[node.name] = ast.unparse(node.returns)
    return attrs, keywords


def test_stub_parses_and_names_every_parameter(lib):
    from grit import scene
    tree = ast.parse(STUB.read_text(), filename=str(STUB))
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    laws = [lib.grit_law_name(i).decode() for i in range(lib.const["GRIT_LAW_COUNT"])]
    want = {"SceneParameters": ["scene"] + laws}
    want.update({c: [cls._group_name] for c, cls in scene.MATERIAL_CLASSES.items()})
    assert set(want) <= set(classes)
    assert len(scene.MATERIAL_CLASSES) >= 3 and {"FrictMat", "ConcreteMat", "HertzMat"} <= set(want)
    for cname, groups in want.items():
        attrs, keywords = _members(classes[cname])
        names = [p.name for g in groups for p in Group.get(g).params.values()]
        assert keywords == names, cname
        assert sorted(attrs) == sorted(names), cname
        for g in groups:
            for p in Group.get(g).params.values():
                assert attrs[p.name] == stubgen.getter_type(p), (cname, p.name)
    assert _members(classes["SceneParameters"])[0]["gravity"] == "Tuple[float, float, float]"
    assert _members(classes["FrictMat"])[0]["law"] == "Literal['idealelpl', 'linel6', 'kuhn']"
    for cls, title in ((scene.Particles, "ParticleArrays"), (scene.Contacts, "ContactArrays")):
        attrs, _ = _members(classes[title])
        assert attrs == {name: "np.ndarray" for name in cls._arrays}
        assert {"pos", "id"} <= set(attrs) if title == "ParticleArrays" else {"normal", "flags"} <= set(attrs)
    # the material classes are what grit.scene exports to type checkers
    all_ = next(n for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "__all__")
    assert ast.literal_eval(all_.value) == list(scene.MATERIAL_CLASSES)


def test_stub_is_shipped():
    """pip (pyproject.toml's package data) and cmake --install (the whole folder) install the stub."""
    assert "*.pyi" in (ROOT / "pyproject.toml").read_text()
    assert "install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/grit" in (ROOT / "cmake" / "install.cmake").read_text()


def _mypy_available():
    return subprocess.run([sys.executable, "-c", "import mypy"], capture_output=True).returncode == 0


GOOD = '''import grit

scene = grit.Scene(gravity=(0, 0, -9.81), damping=0.2, kuhn_twirl="off", track_energy=True)
scene.damping = 0.3
scene.gravity = (0.0, 0.0, -9.81)
scene.friction_rule = "harmavg"
d: float = scene.dt
mat = grit.FrictMat(density=2600, young=1e7, law="kuhn")
mat.tan_phi = 0.4
concrete = grit.ConcreteMat(density=2400)
reveal_type(scene.gravity)
reveal_type(mat.law)
reveal_type(scene.particles.pos)
reveal_type(scene.contacts.normal)
reveal_type(concrete)
'''

BAD = '''import grit

scene = grit.Scene(dampin=0.2)
scene.dampin = 0.3
mat = grit.FrictMat(yung=1e7)
mat.law = "kuhnn"
x: str = scene.dt
scene.particles.poss
'''


@pytest.mark.skipif(not _mypy_available(), reason="mypy is not installed (Debian: apt-get install python3-mypy)")
def test_mypy_sees_the_generated_attributes(tmp_path):
    """mypy, reading a user's script, knows the parameters, their types, the material classes and the arrays,
    and flags misspelt names and wrong types."""
    env = dict(os.environ, MYPYPATH=str(PYDIR))

    def mypy(text):
        path = tmp_path / "script.py"
        path.write_text(text)
        r = subprocess.run([sys.executable, "-m", "mypy", "--follow-imports=silent", "--cache-dir",
                            str(tmp_path / "cache"), "--no-error-summary", str(path)], capture_output=True, text=True,
                           env=env, cwd=tmp_path)
        return r.returncode, r.stdout.replace(str(path), "script.py")

    rc, out = mypy(GOOD)
    notes = [line for line in out.splitlines() if "Revealed type" in line]
    assert len(notes) == 5 and "error" not in out, out
    assert "Tuple[builtins.float, builtins.float, builtins.float]" in notes[0]
    assert "Literal['idealelpl'], Literal['linel6'], Literal['kuhn']" in notes[1]
    assert "numpy.ndarray" in notes[2] and "numpy.ndarray" in notes[3]
    assert "ConcreteMat" in notes[4]
    rc, out = mypy(BAD)
    assert rc == 1
    for line, text in ((3, 'Unexpected keyword argument "dampin" for "Scene"; did you mean "damping"?'),
                       (4, '"Scene" has no attribute "dampin"'),
                       (5, 'Unexpected keyword argument "yung" for "FrictMat"; did you mean "young"?'),
                       (6, 'Incompatible types in assignment (expression has type "Literal[\'kuhnn\']"'),
                       (7, 'Incompatible types in assignment (expression has type "float", variable has type "str")'),
                       (8, '"Particles" has no attribute "poss"')):
        assert f"script.py:{line}: error: {text}" in out, out
