"""Particle inlets from Python: a box and a cylinder at a mass rate, a size distribution by mass, the energy
entry, restart continuing the inflow bitwise, errors that name the argument."""
import math

import numpy as np
import pytest

import grit


def continued(a, before, after, path):
    """Run scene `a` `before` steps, save it to `path` and load it as b, run both `after` steps: (a, b)."""
    a.run(before)
    a.save(str(path))
    b = grit.Scene.load(str(path))
    a.run(after)
    b.run(after)
    return a, b


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
    a, b = continued(scene(), 1500, 2000, tmp_path / "inlet.grit")
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
    a, b = continued(clump_scene(), 3001, 2000, tmp_path / "clumps.grit")
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


CAPSULE = ("capsule", 1e-3, 2e-3, 0.4)
ELLIPSOID = ("ellipsoid", (2e-3, 1.2e-3, 0.8e-3), 0.6)


def shape_scene(scales=(0.8, 1.2)):
    """Capsules and ellipsoids poured into a 4 cm box with a floor."""
    s = grit.Scene(gravity=(0, 0, -9.81), dt=1e-5, track_energy=True)
    m = grit.FrictMat(density=2500, young=1e6, tan_phi=0.4)
    s.add([grit.Wall(0, axis="z", sense=1, mat=m), grit.Wall(0, axis="x", sense=1, mat=m),
           grit.Wall(0.04, axis="x", sense=-1, mat=m), grit.Wall(0, axis="y", sense=1, mat=m),
           grit.Wall(0.04, axis="y", sense=-1, mat=m)])
    s.add_inlet("box", lo=(0, 0, 0.02), hi=(0.04, 0.04, 0.04), mass_rate=0.1, mat=m, vel=(0, 0, -1.5), seed=4,
                shapes=[CAPSULE, ELLIPSOID], scales=scales)
    return s


def axes(ori):
    """The body x axes of unit quaternions (w, x, y, z), rows."""
    w, x, y, z = ori.T
    return np.stack([1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)], axis=1)


def test_shape_inlet_rate_shapes_scales_orientations():
    s = shape_scene()
    s.run(5000)
    inlet = s.inlets[0]
    caps, ells = s.particles.of_shape("capsule"), s.particles.of_shape("ellipsoid")
    mass = s.particles.mass
    assert inlet.shape_templates == 2 and inlet.clump_templates == 0
    assert caps.sum() + ells.sum() == inlet.count > 150
    assert math.isclose(mass[caps | ells].sum(), inlet.mass, rel_tol=1e-12)
    # the rate: within one body (the largest: an ellipsoid at scale 1.2) of rate x time
    big = 4 / 3 * math.pi * 2e-3 * 1.2e-3 * 0.8e-3 * 1.2 ** 3 * 2500
    assert abs(inlet.mass - 0.1 * (s.time - s.current_dt)) <= big
    assert abs(mass[caps].sum() / inlet.mass - 0.4) < 0.1
    # every capsule's radius is 1 mm times its scale, in [0.8, 1.2]
    r = s.particles.radius[caps]
    assert r.min() >= 0.8e-3 and r.max() <= 1.2e-3 and r.max() - r.min() > 0.3e-3
    a = axes(s.particles.ori[caps | ells])  # turned at random, no spin at insertion: still spread evenly
    assert np.all(np.abs((a ** 2).mean(axis=0) - 1 / 3) < 0.1)
    assert abs(s.energy.rel_error) < 5e-3
    assert math.isclose(-s.energy["inlet"], inlet.energy, rel_tol=1e-12)


def test_shape_inlet_restart(tmp_path):
    a, b = continued(shape_scene(scales=[(0.9, 0.5), (1.1, 0.5)]), 2001, 2000, tmp_path / "shapes.grit")
    assert b.inlets[0].shape_templates == 2
    assert np.array_equal(a.particles.ids(), b.particles.ids()) and a.inlets[0].count == b.inlets[0].count > 50
    for name in ("pos", "vel", "ori", "angvel", "shape"):
        assert np.array_equal(getattr(a.particles, name), getattr(b.particles, name)), name
    assert a.energy["inlet"] == b.energy["inlet"]


def test_shape_inlet_errors():
    s = grit.Scene()
    m = grit.FrictMat(density=2500, young=1e7)
    box = dict(lo=(0, 0, 0), hi=(0.02, 0.02, 0.02), mass_rate=1, mat=m)
    with pytest.raises(grit.ParameterError, match="neither clumps=, radii= nor sizes="):
        s.add_inlet("box", radii=1e-3, shapes=[CAPSULE], **box)
    with pytest.raises(grit.ParameterError, match="scales= goes with shapes="):
        s.add_inlet("box", radii=1e-3, scales=(1, 2), **box)
    with pytest.raises(grit.ParameterError, match=r"shapes\[1\] must be"):
        s.add_inlet("box", shapes=[CAPSULE, ("cube", 1e-3)], **box)
    with pytest.raises(grit.ParameterError, match=r"shapes\[0\] must be"):
        s.add_inlet("box", shapes=[("capsule", 1e-3)], **box)
    with pytest.raises(grit.ParameterError, match=r"shape template 1: ellipsoid semi_axes = \(0.002, -0.001"):
        s.add_inlet("box", shapes=[CAPSULE, ("ellipsoid", (2e-3, -1e-3, 1e-3))], **box)
    with pytest.raises(grit.ParameterError, match="hold a shape template 0"):
        s.add_inlet("box", shapes=[CAPSULE], scales=(1, 6), **box)
    with pytest.raises(grit.ParameterError, match=r"size 1: scale -1"):
        s.add_inlet("box", shapes=[CAPSULE], scales=[(1, 0.5), (-1, 0.5)], **box)
    with pytest.raises(grit.ParameterError, match="1 to 8"):
        s.add_inlet("box", shapes=[CAPSULE] * 9, **box)
    assert s.inlets == []
    inlet = s.add_inlet("box", shapes=[ELLIPSOID], scales=1.5, **box)
    assert inlet.shape_templates == 1


def test_scaled_spinning_clumps(tmp_path):
    """Clump templates scaled by scales= and turning at angvel: each clump is a template scaled by 0.8 or 1.25, every
    body turns at angvel, the inlet books the rotational energy too, and a restart keeps both."""
    def scene():
        s = grit.Scene(gravity=(0, 0, -9.81), dt=6e-6, track_energy=True)
        m = grit.FrictMat(density=2500, young=1e7)
        s.add(grit.Wall(0, axis="z", sense=1, mat=m))
        s.add_inlet("box", lo=(0, 0, 0.02), hi=(0.02, 0.02, 0.04), mass_rate=0.1, mat=m, vel=(0.1, 0, -0.5),
                    seed=5, clumps=[DUMBBELL, TRIANGLE], scales=[(0.8, 0.3), (1.25, 0.7)], angvel=(100, -60, 1500))
        return s
    a, b = continued(scene(), 2000, 500, tmp_path / "spin.grit")
    inlet = a.inlets[0]
    assert inlet.count > 60 and b.inlets[0].count == inlet.count
    assert np.array_equal(a.particles.pos, b.particles.pos)
    r = a.particles.radius[1:]  # the wall is id 0; the clumps' bodies have radius 0
    radii = set(np.round(r[r > 0] * 1e6).astype(int))  # µm
    assert radii <= {800, 1250, 640, 1000, 560, 875}  # template radii 1, 0.8, 0.7 mm at the two scales
    assert {800, 1250} <= radii
    assert a.energy["inlet"] == -inlet.energy == b.energy["inlet"]
    translational = 0.5 * inlet.mass * (0.1 ** 2 + 0.5 ** 2)
    assert inlet.energy > 1.5 * translational  # the spin is booked
    with pytest.raises(grit.ParameterError, match="scales= goes with shapes"):
        grit.Scene().add_inlet("box", lo=(0, 0, 0), hi=(1, 1, 1), mass_rate=1, radii=1e-3, scales=2)
    with pytest.raises(grit.ParameterError, match="angvel"):
        grit.Scene().add_inlet("box", lo=(0, 0, 0), hi=(1, 1, 1), mass_rate=1, radii=1e-3, angvel=(0, math.inf, 0))
