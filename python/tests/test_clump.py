"""Clumps from Python (docs/clumps.md): one clump against the closed form of its inertia, a template placed many
times in seeded random orientations, a pile of clumps settling on a floor (weight carried), restart continuing
bitwise, the walls carrying the pile's weight, VTK's clump field, errors."""
import math

import numpy as np
import pytest

import grit

TEMPLATE = ([(0, 0, 0), (0.009, 0, 0), (0.003, 0.007, 0.002)], [0.006, 0.005, 0.004])


def test_two_sphere_clump_inertia():
    s = grit.Scene()
    m = grit.FrictMat(density=2000)
    r, a = 0.01, 0.015
    body = s.add_clump([(-a, 0, 0), (a, 0, 0)], r, mat=m, pos=(1, 2, 3))
    m1 = 4 / 3 * math.pi * r ** 3 * 2000
    p = s.particles[body]
    assert p.shape == "clump" and math.isclose(p.mass, 2 * m1, rel_tol=1e-14)
    assert np.allclose(p.inertia, [0.8 * m1 * r * r, 2 * (0.4 * m1 * r * r + m1 * a * a),
                                   2 * (0.4 * m1 * r * r + m1 * a * a)], rtol=1e-13, atol=0)
    assert np.allclose(p.pos, (1, 2, 3), atol=1e-15)
    assert s.clump_of(body + 2) == (body, 2) and s.particles[body + 1].shape == "sphere"
    again = s.add(grit.Clump([(-a, 0, 0), (a, 0, 0)], r, pos=(1, 2, 3), mat=m))  # the same as a shape
    assert again == body + 3 and s.particles[again].inertia == p.inertia
    loc, rad = s.clump_members(body)
    assert np.allclose(np.abs(loc[:, 0]), a, atol=1e-15) and np.allclose(rad, r)
    props = s.clump_properties([(-a, 0, 0), (a, 0, 0)], r, mat=m)
    assert props["exact"] and math.isclose(props["mass"], 2 * m1, rel_tol=1e-14)
    over = s.clump_properties([(0, 0, 0), (0.01, 0, 0)], 0.01, mat=m)
    assert not over["exact"] and over["volume"] < 2 * 4 / 3 * math.pi * 1e-6


def test_add_clumps_seeded_orientations():
    def make(seed):
        s = grit.Scene()
        ids = s.add_clumps(*TEMPLATE, positions=[(0.05 * i, 0, 0) for i in range(5)], seed=seed)
        return s, ids
    a, ia = make(7)
    b, _ = make(7)
    c, _ = make(8)
    assert len(ia) == 5 and list(np.diff(ia)) == [4] * 4
    assert np.array_equal(a.particles.pos, b.particles.pos)
    assert not np.array_equal(a.particles.pos, c.particles.pos)
    for k, body in enumerate(ia):  # centre of mass at the position
        assert np.allclose(a.particles[int(body)].pos, (0.05 * k, 0, 0), atol=1e-15)
    oris = {tuple(np.round(a.particles[int(i)].ori, 6)) for i in ia}
    assert len(oris) == 5


def scene_pile():
    s = grit.Scene(gravity=(0, 0, -9.81), damping=0.4, track_energy=True)
    m = grit.FrictMat(density=2600, young=1e7, tan_phi=0.5)
    s.add(grit.Wall(0, axis="z", sense=1, mat=m))
    for ax in "xy":
        s.add(grit.Wall(-0.03, axis=ax, sense=1, mat=m))
        s.add(grit.Wall(0.03, axis=ax, sense=-1, mat=m))
    g = np.mgrid[-0.015:0.016:0.03, -0.015:0.016:0.03, 0.02:0.08:0.025].reshape(3, -1).T
    ids = s.add_clumps(*TEMPLATE, positions=g, mat=m, seed=3)
    return s, ids


def test_pile_rests_and_restarts(tmp_path):
    a, ids = scene_pile()
    a.run(3000)
    path = str(tmp_path / "clumps.grit")
    a.save(path)
    b = grit.Scene.load(path)
    a.run(3000)
    b.run(3000)
    assert np.array_equal(a.particles.pos, b.particles.pos)
    assert np.array_equal(a.particles.vel, b.particles.vel)
    a.run(30000)
    weight = sum(a.particles[int(i)].mass for i in ids) * 9.81
    walls = sum(a.particles[k].force[2] for k in range(5))  # the floor and the side walls' friction
    assert len(ids) == 12
    assert abs(-walls / weight - 1) < 1e-6
    assert abs(a.energy.rel_error) < 1e-2


def test_clumps_in_a_periodic_cell():
    """A lattice of clumps in a periodic cell, compressed by the cell's controller: the members straddle the
    faces, the stress (branch vectors from the clumps' centres) reaches the goal, the energy balance closes."""
    s = grit.Scene(damping=0.3, track_energy=True)
    m = grit.FrictMat(density=2600, young=1e7, tan_phi=0.4)
    g = (np.mgrid[0:4, 0:4, 0:4].reshape(3, -1).T + 0.25) * 0.025  # a quarter spacing off: some straddle x = 0.1
    s.cell = (0.1, 0.1, 0.1)
    ids = s.add_clumps(*TEMPLATE, positions=g, mat=m, seed=5, vel=(0.01, 0, 0))
    assert len(ids) == 64
    s.cell.controller = grit.CellController(mode=("stress",) * 3, goal=(-5e3,) * 3, max_rate=5, every=5,
                                            stress_tol=0.03, settle=10)
    s.cell.control_run(max_steps=200_000)
    sig = s.stress()
    assert np.allclose(np.diag(sig), -5e3, rtol=0.05)
    assert len(s.contacts) > 64
    assert abs(s.energy.rel_error) < 5e-3
    # members are one body: their distances to the body's centre never change
    body = int(ids[0])
    d0 = [np.linalg.norm(np.asarray(s.particles[body + k].pos) - s.particles[body].pos) for k in (1, 2, 3)]
    s.run(200)
    d1 = [np.linalg.norm(np.asarray(s.particles[body + k].pos) - s.particles[body].pos) for k in (1, 2, 3)]
    assert np.allclose(d0, d1, rtol=0, atol=1e-15)
    with pytest.raises(grit.StateError, match="spans"):
        s.cell = (0.01, 0.1, 0.1)  # too small for the clumps: refused, nothing changed
    assert s.cell.volume == pytest.approx(np.prod(np.diag(s.cell.hsize)))


def test_vtk_clump_field(tmp_path):
    s = grit.Scene()
    s.add(grit.Sphere((1, 0, 0), 0.01))
    body = s.add_clump(*TEMPLATE)
    grit.VtkRecorder(s, tmp_path, ascii=True)
    text = next(tmp_path.glob("particles_*.vtp")).read_text()
    field = text[text.index('Name="clump"'):]
    values = field[field.index(">") + 1:field.index("<")].split()
    assert [int(v) for v in values] == [-1, body, body, body]


def test_clump_errors():
    s = grit.Scene()
    body = s.add_clump(*TEMPLATE)
    with pytest.raises(grit.ParameterError, match="member of clump 0"):
        s.particles[body + 1].vel = (1, 0, 0)
    with pytest.raises(grit.ParameterError, match="member 1: radius = -1"):
        s.add_clump([(0, 0, 0), (1, 0, 0)], [1, -1])
    with pytest.raises(grit.ParameterError, match="centers must have shape"):
        s.add_clump([1, 2, 3], 1)
    with pytest.raises(grit.ParameterError, match="neither a clump nor a clump member"):
        s.clump_of(99)
    # the template spans 0.02 m along x: half of a 0.04 m cell, which is too much
    with pytest.raises(grit.StateError, match=r"clump 0 \(3 members\) spans 0.5 of the periodic cell along base vector 0"):
        s.cell = (0.04, 1, 1)
    s.cell = (1, 1, 1)
    p = grit.Scene()
    p.cell = (0.04, 1, 1)
    with pytest.raises(grit.ParameterError, match="span 0.5 of the periodic cell along base vector 0"):
        p.add_clump(*TEMPLATE)
    assert len(p.particles) == 0
    p.cell = (1, 1, 1)
    assert p.add_clump(*TEMPLATE) == 0
