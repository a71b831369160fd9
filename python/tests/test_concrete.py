"""The concrete model from Python: ConcreteMat, the law's parameters, the contact state as NumPy views,
errors that name the parameter."""
import numpy as np
import pytest

import grit


def block(n=3, rate=400.0):
    """n^3 concrete spheres (r = 1 mm) on a lattice, made cohesive at interaction radius 1.5, pulled apart."""
    s = grit.Scene(dt_safety=0.05, track_energy=True, interaction_radius=1.5)
    mat = grit.ConcreteMat(young=30e9, sigma_t=3e6, tan_phi=0.8, eps_crack_onset=1e-4, rel_ductility=30)
    r, h = 1e-3, 2e-3
    g = np.mgrid[0:n, 0:n, 0:n].reshape(3, -1).T * h
    v = np.zeros_like(g)
    v[:, 0] = rate * (g[:, 0] - g[:, 0].mean())
    s.add_spheres(g, r, mat=mat, vel=v)
    s.run(1)
    s.interaction_radius = 1.0
    return s, mat


def test_concretemat_class_and_defaults():
    m = grit.ConcreteMat()
    assert isinstance(m, grit.Material) and type(m).__name__ == "ConcreteMat"
    assert m.density == 4800 and m.young == 24e9 and m.dam_law == "exp" and m.never_damage is False
    assert "rel_ductility" in grit.ConcreteMat.__doc__
    s = grit.Scene()
    assert s.yield_surface == "loglin" and s.cohesive_steps == 10 and s.ref_length == "radii"
    s.yield_surface = "lin"
    s.ref_length = "distance"
    assert s.yield_surface == "lin" and s.params()["ref_length"] == "distance"


def test_bad_values_name_the_parameter():
    with pytest.raises(grit.ParameterError, match="'rel_ductility' = 0.5 is out of range"):
        grit.ConcreteMat(rel_ductility=0.5)
    s = grit.Scene()
    with pytest.raises(grit.ParameterError, match="rel_ductility.*linear"):
        s.add_material(grit.ConcreteMat(dam_law="linear", rel_ductility=1.0))
    with pytest.raises(grit.ParameterError, match="dmg_rate_exp"):
        s.add_material(grit.ConcreteMat(dmg_tau=1.0))
    with pytest.raises(grit.ParameterError, match="yield_log_speed"):
        s.yield_log_speed = 0
    a = s.add_material(grit.ConcreteMat())
    with pytest.raises(grit.ParameterError, match="dam_law"):
        s.add_material(grit.ConcreteMat(dam_law="linear", rel_ductility=2))
    with pytest.raises(grit.ParameterError, match="ConcretePhys"):
        s.set_pair(a, a, kn=1e6)
    steel = grit.FrictMat(young=200e9)
    assert s.pair_law(a, a) == "cpm" and s.pair_law(a, steel) == "idealelpl"


def test_contact_state_views_and_energy():
    s, mat = block()
    c = s.contacts.concrete()
    m = c["mask"]
    assert m.sum() == len(s.contacts) > 27 * 3
    assert np.all(c["cohesive"][m] == 1.0) and np.all(c["omega"][m] == 0.0)
    assert c["sigma_t"].shape[1] == 2 and np.allclose(c["ref_length"][m], 2e-3)
    s.run(800)
    c = s.contacts.concrete()  # the arrays may have moved: fresh views
    m = c["mask"]
    assert c["omega"][m].max() > 0.3
    assert np.all(c["kappa"][m] >= 0)
    # the views are the engine's memory: the contact accessor agrees
    i = int(np.flatnonzero(m)[0])
    info = s.contacts.arrays()
    area = info["area"][0]
    assert np.isclose(s.contacts.force[i, 0], area * c["sigma_n"][i], rtol=1e-12)
    assert s.energy["damage"] > 0 and abs(s.energy.rel_error) < 2e-2


def test_restart_keeps_the_concrete_state(tmp_path):
    s, mat = block()
    s.run(300)
    path = s.save(str(tmp_path / "c.grit"))
    t = grit.Scene.load(path)
    s.run(200)
    t.run(200)
    a, b = s.contacts.concrete(), t.contacts.concrete()
    assert np.array_equal(a["omega"][a["mask"]], b["omega"][b["mask"]])
    assert np.array_equal(s.particles.pos, t.particles.pos)
