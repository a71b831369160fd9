"""Particle outlets from Python: an inlet feeding an outlet (mass in = mass left + mass out), stable ids and
particles.ids(), the energy entry, restart continuing bitwise, errors that name the argument."""
import numpy as np
import pytest

import grit


def scene():
    s = grit.Scene(gravity=(0, 0, -9.81), dt=1e-5, track_energy=True)
    m = grit.FrictMat(density=2500, young=1e7)
    s.add(grit.Wall(0, axis="z", sense=1, mat=m))
    s.add_inlet("box", lo=(0, 0, 0.02), hi=(0.02, 0.02, 0.04), mass_rate=0.05, radii=(1e-3, 1.5e-3), mat=m,
                vel=(0, 0, -0.5), seed=3)
    s.add_outlet("cylinder", center=(0.01, 0.01, -0.01), radius=0.006, height=0.0115)
    return s


def test_outlet_mass_ids_energy():
    s = scene()
    s.run(6000)
    inlet, outlet = s.inlets[0], s.outlets[0]
    assert outlet.count > 5 and len(s.outlets) == 1 and "deleted" in repr(outlet)
    live = s.particles.ids()
    assert len(live) == len(s.particles) == 1 + inlet.count - outlet.count
    assert live[-1] < inlet.count + 1 and len(live) < inlet.count + 1  # ids not reused, some gone
    mass = s.particles.get("mass", live[1:])
    assert abs(mass.sum() + outlet.mass - inlet.mass) <= 1e-15 * inlet.mass
    gone = np.setdiff1d(np.arange(inlet.count + 1), live)
    with pytest.raises(grit.ParameterError, match="does not exist"):
        s.particles[int(gone[0])]
    with pytest.raises(grit.ParameterError, match="deleted"):
        s.particles.rows(gone[:1])
    assert [p.id for p in s.particles] == list(live)
    assert s.energy["outlet"] == outlet.energy > 0
    assert abs(s.energy.rel_error) < 1e-2


def test_outlet_restart(tmp_path):
    a = scene()
    a.run(4000)
    path = str(tmp_path / "outlet.grit")
    a.save(path)
    b = grit.Scene.load(path)
    a.run(2000)
    b.run(2000)
    assert a.outlets[0].count == b.outlets[0].count > 0
    assert np.array_equal(a.particles.ids(), b.particles.ids())
    assert np.array_equal(a.particles.pos, b.particles.pos)
    assert a.energy["outlet"] == b.energy["outlet"]


def test_outlet_errors():
    s = grit.Scene()
    with pytest.raises(grit.ParameterError, match="region = 'cone'"):
        s.add_outlet("cone")
    with pytest.raises(grit.ParameterError, match="needs lo= and hi="):
        s.add_outlet("box", lo=(0, 0, 0))
    with pytest.raises(grit.GritError, match="cylinder"):
        s.add_outlet("cylinder", center=(0, 0, 0), radius=-1, height=1)
    assert s.outlets == []


def test_outlet_deletes_clumps():
    """Clumps falling through an outlet go whole (body and members) when their centre of mass is inside; the
    mass adds up, the clump count drops, the other clumps stay intact."""
    s = grit.Scene(gravity=(0, 0, -9.81), dt=1e-5, track_energy=True)
    m = grit.FrictMat(density=2500, young=1e7)
    r = 1e-3
    pos = [(0.004 * i, 0.0, 0.004 + 0.004 * k) for i in range(3) for k in range(3)]
    bodies = s.add_clumps([(-r, 0, 0), (r, 0, 0)], r, pos, mat=m, seed=5)
    m0 = sum(s.particles[int(b)].mass for b in bodies)
    out = s.add_outlet("box", lo=(-1, -1, -1), hi=(1, 1, 0.0))
    s.run(3000)
    live = set(s.particles.ids().tolist())
    gone = [int(b) for b in bodies if int(b) not in live]
    kept = [int(b) for b in bodies if int(b) in live]
    assert out.count == len(gone) >= 3 and len(kept) >= 1
    assert all(b + k not in live for b in gone for k in range(3))  # members with their body
    assert all(b + k in live for b in kept for k in range(3))
    assert all(s.clump_of(b + 2) == (b, 2) for b in kept)
    mass_left = sum(s.particles[b].mass for b in kept)
    assert abs(mass_left + out.mass - m0) <= 1e-15 * m0
    assert len(s.particles) == 3 * len(kept)
    assert s.energy["outlet"] == out.energy > 0
    assert abs(s.energy.rel_error) < 1e-2
