"""grit.uniax: the uniaxial test of a small dog bone from Python (results, curves, monitor, the analysis
functions on synthetic curves, errors), the periodic variant, and agreement with the C library's figures."""
import numpy as np
import pytest

import grit
import grit.pack
import grit.uniax
from grit.errors import ParameterError, StateError

FAST = dict(rate_tension=2, rate_compression=-10)


@pytest.fixture(scope="module")
def cell():
    return grit.pack.dense(n=150, radius=0.002, tan_phi=0.5463, pressure=3.33e5)


@pytest.fixture(scope="module")
def bone(cell):
    return cell.clip(shape="hyperboloid", length=0.04, outer_radius=0.012, waist_radius=0.009)


@pytest.fixture(scope="module")
def result(bone):
    return grit.uniax.run(bone, **FAST)


def test_run_gives_figures_and_curves(result, bone):
    r = result
    assert r["spheres"] == len(bone) and r["axis"] == "z"
    assert 10e9 < r["young"] < 80e9 and 0 < r["poisson"] < 0.4
    assert r["fc"] > 2 * r["ft"] > 0 and r["gf"] > 0 and r["stop_tension"] == "fall"
    t, c = r["tension"], r["compression"]
    assert isinstance(t["strain"], np.ndarray) and len(t["strain"]) == len(t["stress"]) > 10
    assert t["stress"].max() == r["ft"] and -c["stress"].min() == r["fc"]
    assert t["strain"][0] == 0 and np.all(np.diff(t["strain"]) > 0) and np.all(np.diff(c["strain"]) < 0)
    # the library's analysis, called on the curves again, gives the same figures
    assert grit.uniax.fit_young(t["strain"], t["stress"]) == r["young_tension"]
    assert grit.uniax.fit_young(c["strain"], c["stress"], sense=-1) == r["young_compression"]
    assert grit.uniax.fracture_energy(t["strain"], t["stress"]) == r["gf"]
    assert r["gf_norm"] == pytest.approx(24e9 * r["gf"] / r["ft"] ** 2, rel=1e-12)


def test_deterministic(result, bone):
    again = grit.uniax.run(bone, **FAST)
    assert np.array_equal(again["tension"]["stress"], result["tension"]["stress"])
    assert np.array_equal(again["compression"]["strain"], result["compression"]["strain"])


def test_material_object_and_law_switches(bone, result):
    # the Yade switches: a longer reference length for the bonds made at a distance softens the specimen
    r = grit.uniax.run(bone, grit.ConcreteMat(young=24e9), tests="tension", ref_length="distance",
                       yield_surface="lin", eps_soft=1, **FAST)
    assert r["stop_compression"] == "not run" and len(r["compression"]["strain"]) == 0
    assert 0.7 * result["young"] < r["young"] < result["young"]
    with pytest.raises(ParameterError, match="belong to the material"):
        grit.uniax.run(bone, grit.ConcreteMat(), young=1e9)


def test_monitor(bone):
    seen = []
    grit.uniax.run(bone, tests="tension", monitor=seen.append, monitor_every=5, **FAST)
    assert seen[0]["step"] == 0 and seen[0]["run"] == "tension" and seen[-1]["stop"] == "fall"
    assert all(s["contacts"] > 0 for s in seen) and seen[-1]["mean_omega"] > 0
    with pytest.raises(StateError, match="stopped by the monitor"):
        grit.uniax.run(bone, tests="tension", monitor=lambda s: s["step"] >= 100, **FAST)


def test_periodic(cell):
    r = grit.uniax.run(cell, periodic=True, tests="tension", rate_tension=2)
    assert r["spheres"] == len(cell) and r["axis"] == "x"
    assert 0.1 < r["poisson"] < 0.3 and r["ft"] > 0 and r["gf"] > 0
    assert r["tension"]["lateral"][len(r["tension"]["lateral"]) // 4] < 0


def test_analysis_on_synthetic_curves():
    e = np.linspace(0, 1e-3, 1001)
    ep, eu, E = 1e-4, 6e-4, 30e9
    s = np.where(e <= ep, E * e, np.maximum(0, E * ep * (eu - e) / (eu - ep)))
    assert grit.uniax.fit_young(e, s) == pytest.approx(E, rel=1e-9)
    ft = E * ep
    assert grit.uniax.fracture_energy(e, s) == pytest.approx(0.5 * ft * ep + 0.5 * 1.2 * ft * 0.8 * (eu - ep), rel=1e-9)
    with pytest.raises(StateError, match="never falls"):
        grit.uniax.fracture_energy(e[:300], s[:300])
    rng = np.random.default_rng(1)
    x0 = rng.uniform(-0.01, 0.01, (100, 3))
    x = x0 * (1 + np.array([-2e-5, -2e-5, 1e-4]))
    nu, eps = grit.uniax.poisson(x0, x, 2, (-1, -1, -1), (1, 1, 1))
    assert nu == pytest.approx(0.2, rel=1e-9) and eps[2] == pytest.approx(1e-4, rel=1e-9)
    area, at = grit.uniax.hull_section([(0, 0, 0.001)], [0.001], 2, 0, 0.002, planes=1)
    assert area == pytest.approx(64 * np.tan(np.pi / 64) * 1e-6, rel=1e-12) and at == 0.001


def test_errors(bone, cell):
    with pytest.raises(ParameterError, match="'rate_tension' = -1"):
        grit.uniax.run(bone, rate_tension=-1)
    with pytest.raises(ParameterError, match="did you mean 'rate_tension'"):
        grit.uniax.run(bone, rate_tensio=1)
    with pytest.raises(ParameterError, match="FrictMat, not a ConcreteMat"):
        grit.uniax.run(bone, grit.FrictMat())
    with pytest.raises(ParameterError, match="no sphere in the lower support"):
        grit.uniax.run(bone, support_factor=0.5)
    with pytest.raises(ParameterError, match="periodic cell"):
        grit.uniax.run(cell)
    with pytest.raises(ParameterError, match="not a grit.pack.Packing"):
        grit.uniax.run([1, 2, 3])
    with pytest.raises(ParameterError, match="monitor_every"):
        grit.uniax.run(bone, monitor_every=0)
