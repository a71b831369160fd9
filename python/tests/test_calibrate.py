"""grit.uniax.calibrate: the concrete model's calibration from Python on small periodic cells strained fast
(targets a known material produces are reached, the returned material reproduces the best run, the monitor,
targets out of reach and bad arguments), and `grit calibrate` writing a material file `grit run uniax` reads."""
import json
import subprocess

import pytest

import grit
import grit.pack
import grit.uniax
from grit.errors import ParameterError, StateError

FAST = dict(rate_tension=2, rate_compression=-10)


@pytest.fixture(scope="module")
def cells():
    return [grit.pack.dense(n=150, radius=0.001, tan_phi=0.5, seed=s) for s in (1, 2)]


def figures(cell, material):
    r = grit.uniax.run(cell, material, periodic=True, **FAST)
    return {k: r[k] for k in grit.uniax.FIGURES}


def test_reaches_what_a_known_material_gives(cells):
    known = grit.ConcreteMat(young=20e9, kt_div_kn=0.3, eps_crack_onset=1.3e-4, rel_ductility=15, tan_phi=1.0,
                             sigma_t=4.5e6)
    f = figures(cells[0], known)
    targets = {"target_young": f["young"], "target_poisson": f["poisson"], "target_ft": f["ft"],
               "target_fc": f["fc"], "target_gf": f["gf"]}
    seen = []
    res = grit.uniax.calibrate(cells[0], fresh=cells[1], periodic=True, monitor=seen.append, tolerance=0.03,
                               **targets, **FAST)
    assert res["converged"], res["runs"]
    best = res["runs"][res["best"]]
    assert best["stage"] == "full" and best["worst"] < 0.03
    assert [r["stage"] for r in seen] == [r["stage"] for r in res["runs"]] + ["fresh"]
    assert res["targets"] == pytest.approx({k: targets["target_" + k] for k in grit.uniax.FIGURES})
    mat = res["material"]
    assert isinstance(mat, grit.ConcreteMat)
    assert mat.young == best["params"]["young"] and mat.tan_phi == best["params"]["tan_phi"]
    # the material gives the best run's figures again, bit for bit
    assert figures(cells[0], mat) == best["figures"]
    assert res["fresh"]["stage"] == "fresh" and figures(cells[1], mat) == res["fresh"]["figures"]


def test_poisson_out_of_reach(cells):
    with pytest.raises(ParameterError, match="target_poisson = 0.32 is above what the model gives"):
        grit.uniax.calibrate(cells[0], periodic=True, target_poisson=0.32, **FAST)


def test_monitor_stops_and_raises(cells):
    with pytest.raises(StateError, match="stopped by the monitor"):
        grit.uniax.calibrate(cells[0], periodic=True, monitor=lambda r: True, **FAST)

    def boom(r):
        raise KeyError("from the monitor")
    with pytest.raises(KeyError, match="from the monitor"):
        grit.uniax.calibrate(cells[0], periodic=True, monitor=boom, **FAST)


def test_bad_arguments(cells):
    with pytest.raises(ParameterError, match="not a grit.pack.Packing"):
        grit.uniax.calibrate("cell.csv")
    with pytest.raises(ParameterError, match="target_tf"):
        grit.uniax.calibrate(cells[0], periodic=True, target_tf=3e6)
    with pytest.raises(ParameterError, match="both nan"):
        grit.uniax.calibrate(cells[0], periodic=True, target_fc_ft=float("nan"))
    with pytest.raises(ParameterError, match="is not a grit.ConcreteMat"):
        grit.uniax.calibrate(cells[0], grit.FrictMat(), periodic=True)
    with pytest.raises(ParameterError, match="periodic cell"):
        grit.uniax.calibrate(cells[0], periodic=False)


def test_cli_material_file_feeds_uniax(tmp_path, grit_exe):
    """grit calibrate writes material.txt; grit run uniax @material.txt measures what the calibration measured."""
    out = tmp_path / "cal"
    args = [grit_exe, "calibrate", f"out={out}", "n=150", "radius=0.001", "specimens=1", "fresh=false",
            "tolerance=0.05", "target_young=25e9", "target_poisson=0.19", "target_ft=4e6", "target_fc_ft=8",
            "target_gf=2500", "rate_tension=2", "rate_compression=-10", "progress=0"]
    p = subprocess.run(args, capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "converged" in p.stdout and (out / "material.txt").exists()
    cal = json.loads((out / "calibration.json").read_text())
    assert cal["converged"] and cal["specimens"] == 1
    u = tmp_path / "ux"
    p = subprocess.run([grit_exe, "run", "uniax", f"@{out}/material.txt", f"out={u}", "n=150", "radius=0.001",
                        "variant=periodic", "rate_tension=2", "rate_compression=-10", "vtk_every=-1", "plot=false",
                        "progress=0"], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    res = json.loads((u / "results.json").read_text())
    for k in grit.uniax.FIGURES:
        assert res[k] == pytest.approx(cal["calibration_specimen"][k], rel=1e-12), k
