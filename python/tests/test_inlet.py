"""Particle inlets from Python: a box and a cylinder at a mass rate, a size distribution by mass, the energy
entry, restart continuing the inflow bitwise, errors that name the argument."""
import math

import numpy as np
import pytest

import grit


def test_box_inlet_rate_and_sizes():
    s = grit.Scene(gravity=(0, 0, -9.81), dt=1e-5)
    m = grit.FrictMat(density=2500, young=1e7)
    inlet = s.add_inlet("box", lo=(0, 0, 0), hi=(0.04, 0.04, 0.03), mass_rate=0.5, mat=m,
                        sizes=[(1.5e-3, 0.5), (2.5e-3, 0.5)], vel=(0, 0, -0.5))
    s.run(4000)
    big = 4 / 3 * math.pi * 2.5e-3 ** 3 * 2500
    assert abs(inlet.mass - 0.5 * (s.time - s.current_dt)) <= big
    r = s.particles.radius
    mass = 4 / 3 * math.pi * r ** 3 * 2500
    assert set(np.round(r * 1e4).astype(int)) == {15, 25}
    assert abs(mass[r < 2e-3].sum() / mass.sum() - 0.5) < 0.05
    assert len(s.particles) == inlet.count and len(s.inlets) == 1 and "kg/s" in repr(inlet)


def test_cylinder_inlet_energy_and_restart(tmp_path):
    def scene():
        s = grit.Scene(gravity=(0, 0, -9.81), dt=1e-5, track_energy=True)
        m = grit.FrictMat(density=2500, young=1e7)
        s.add(grit.Wall(0, axis="z", sense=1, mat=m))
        s.add_inlet("cylinder", center=(0, 0, 0.01), radius=0.01, height=0.02, mass_rate=0.1, radii=(1e-3, 1.5e-3),
                    mat=m, vel=(0, 0, -1), seed=5)
        return s
    a = scene()
    a.run(1500)
    path = str(tmp_path / "inlet.grit")
    a.save(path)
    b = grit.Scene.load(path)
    a.run(2000)
    b.run(2000)
    assert len(a.particles) == len(b.particles) > 20
    assert np.array_equal(a.particles.pos, b.particles.pos)
    assert a.inlets[0].count == b.inlets[0].count and a.energy["inlet"] == b.energy["inlet"] < 0
    assert math.isclose(-a.energy["inlet"], a.inlets[0].energy, rel_tol=1e-12)
    assert abs(a.energy.rel_error) < 1e-2


def test_inlet_errors():
    s = grit.Scene()
    with pytest.raises(grit.ParameterError, match="region = 'cone'"):
        s.add_inlet("cone", mass_rate=1, radii=1e-3)
    with pytest.raises(grit.ParameterError, match="either radii"):
        s.add_inlet("box", lo=(0, 0, 0), hi=(1, 1, 1), mass_rate=1)
    with pytest.raises(grit.ParameterError, match="mass_rate = -1"):
        s.add_inlet("box", lo=(0, 0, 0), hi=(1, 1, 1), mass_rate=-1, radii=1e-3)
    with pytest.raises(grit.ParameterError, match="hold a sphere"):
        s.add_inlet("box", lo=(0, 0, 0), hi=(1e-3, 1, 1), mass_rate=1, radii=1e-3)


DUMBBELL = ([(-0.6e-3, 0, 0), (0.6e-3, 0, 0)], 1e-3, 0.4)
TRIANGLE = ([(0, 0, 0), (1.6e-3, 0, 0), (0.8e-3, 1.4e-3, 0)], [0.8e-3, 0.8e-3, 0.7e-3], 0.6)


def clump_scene():
    s = grit.Scene(gravity=(0, 0, -9.81), dt=1e-5, track_energy=True)
    m = grit.FrictMat(density=2500, young=1e7)
    s.add(grit.Wall(0, axis="z", sense=1, mat=m))
    s.add_inlet("box", lo=(0, 0, 0.02), hi=(0.02, 0.02, 0.035), mass_rate=0.1, mat=m, vel=(0, 0, -0.5), seed=7,
                clumps=[DUMBBELL, TRIANGLE])
    s.add_outlet("cylinder", center=(0.01, 0.01, -0.01), radius=0.006, height=0.0115)
    return s


def test_clump_inlet_mass_overlaps_outlet():
    """Clumps poured in and deleted at the floor: whole clumps, the count and the mass add up, the energy entries
    are the inlet's and the outlet's, the balance holds."""
    s = clump_scene()
    s.run(6000)
    inlet, outlet = s.inlets[0], s.outlets[0]
    assert inlet.clump_templates == 2 and inlet.count > 150 and outlet.count > 5
    live = s.particles.ids()
    body_ids = sorted({s.clump_of(int(i))[0] for i in live[1:]})  # the wall is id 0; all else is clumps
    assert len(body_ids) == inlet.count - outlet.count
    assert all(s.clump_of(b)[1] in (2, 3) for b in body_ids)
    mass_left = sum(s.particles[b].mass for b in body_ids)
    assert abs(mass_left + outlet.mass - inlet.mass) <= 1e-13 * inlet.mass
    assert s.energy["inlet"] == -inlet.energy and s.energy["outlet"] == outlet.energy > 0
    assert abs(s.energy.rel_error) < 5e-3


def test_clump_inlet_restart(tmp_path):
    a = clump_scene()
    a.run(3001)
    path = str(tmp_path / "clumps.grit")
    a.save(path)
    b = grit.Scene.load(path)
    a.run(2000)
    b.run(2000)
    assert b.inlets[0].clump_templates == 2
    assert np.array_equal(a.particles.ids(), b.particles.ids())
    assert np.array_equal(a.particles.pos, b.particles.pos) and np.array_equal(a.particles.vel, b.particles.vel)
    assert a.inlets[0].count == b.inlets[0].count and a.outlets[0].count == b.outlets[0].count > 0
    assert a.energy["inlet"] == b.energy["inlet"] and a.energy["outlet"] == b.energy["outlet"]


def test_clump_inlet_errors():
    s = grit.Scene()
    m = grit.FrictMat(density=2500, young=1e7)
    box = dict(lo=(0, 0, 0), hi=(0.01, 0.01, 0.01), mass_rate=1, mat=m)
    with pytest.raises(grit.ParameterError, match="not both"):
        s.add_inlet("box", radii=1e-3, clumps=[DUMBBELL], **box)
    with pytest.raises(grit.ParameterError, match="clump template 0: n = 0 members"):
        s.add_inlet("box", clumps=[(np.zeros((0, 3)), 1e-3)], **box)
    with pytest.raises(grit.ParameterError, match=r"clump template 1: member 2: radius = -0.0007"):
        s.add_inlet("box", clumps=[DUMBBELL, (TRIANGLE[0], [0.8e-3, 0.8e-3, -0.7e-3])], **box)
    with pytest.raises(grit.ParameterError, match="hold a clump template 0"):
        s.add_inlet("box", clumps=[([(0, 0, 0), (9e-3, 0, 0)], 1e-3)], **box)
    with pytest.raises(grit.ParameterError, match=r"clumps\[0\]: centers must have shape"):
        s.add_inlet("box", clumps=[([1, 2], 1e-3)], **box)
    with pytest.raises(grit.ParameterError, match="1 to 8"):
        s.add_inlet("box", clumps=[DUMBBELL] * 9, **box)
    assert s.inlets == []
