"""docs/parameters.md is generated from the C tables and must be up to date."""
from grit import paramdoc
from grit.params import Group
from conftest import ROOT

DOC = ROOT / "docs" / "parameters.md"


def test_reference_is_up_to_date(capsys):
    rc = paramdoc.main(["--check", str(DOC)])
    assert rc == 0, capsys.readouterr().err


def test_check_detects_a_stale_reference(tmp_path, capsys):
    stale = tmp_path / "parameters.md"
    stale.write_text(DOC.read_text().replace("| `damping` | double | 0 |", "| `damping` | double | 0.5 |"))
    assert paramdoc.main(["--check", str(stale)]) == 1
    assert "out of date: regenerate it with python3 -m grit.paramdoc --write" in capsys.readouterr().err
    assert paramdoc.main(["--check", str(tmp_path / "missing.md")]) == 1


def test_every_parameter_is_documented():
    text = paramdoc.generate()
    for group in ("scene", "frictmat", "pair", "idealelpl", "kuhn", "linel6"):
        assert f"## {group}" in text
        for name, p in Group.get(group).params.items():
            assert f"| `{name}` | {p.type} |" in text
    assert "| `damping` | double | 0 | - | [0, 1) | Cundall non-viscous damping coefficient (0: none) |" in text
