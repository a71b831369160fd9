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
