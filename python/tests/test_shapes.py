"""Every shape of the engine can be added from Python; the engine checks the values."""
import math

import pytest

import grit
from grit.shapes import Shape, shape_names


def test_every_engine_shape_has_a_class():
    assert sorted(shape_names().values()) == sorted(Shape.registry)
    assert shape_names()[0] == "sphere"


def test_add_every_shape_and_read_back():
    s = grit.Scene(gravity=(0, 0, -9.81), damping=0.5)
    m = grit.FrictMat(density=2000, young=1e7)
    ids = s.add([
        grit.Wall(0, axis="z", sense=1, mat=m),
        grit.Sphere((0, 0, 0.3), 0.05, mat=m),
        grit.Capsule((0.3, 0, 0.3), 0.04, 0.2, ori=(math.cos(0.3), 0, 0, math.sin(0.3)), mat=m),
        grit.Ellipsoid((0.6, 0, 0.3), (0.05, 0.04, 0.03), mat=m, angvel=(0, 0, 1)),
        grit.InfCylinder((0, 1, 0.1), "x", 0.05, mat=m, angvel=2.0),
        grit.Rod((0, -1, 0.1), (1, -1, 0.1), 0.02, mat=m),
        grit.Facet([(0, 2, 0.1), (1, 2, 0.1), (0, 3, 0.1)], mat=m),
    ])
    assert [s.particles[i].shape for i in ids] == ["wall", "sphere", "capsule", "ellipsoid", "infcylinder", "rod",
                                                   "facet"]
    cap = s.particles[ids[2]]
    assert cap.ori == pytest.approx((math.cos(0.3), 0, 0, math.sin(0.3)))
    r, sh = 0.04, 0.2
    assert cap.mass == pytest.approx(2000 * (math.pi * r * r * sh + 4 / 3 * math.pi * r**3), rel=1e-12)
    assert s.particles[ids[3]].mass == pytest.approx(2000 * 4 / 3 * math.pi * 0.05 * 0.04 * 0.03, rel=1e-12)
    assert math.isinf(s.particles[ids[4]].mass) and math.isinf(s.particles[ids[5]].mass)
    s.run(5000)  # the falling bodies settle on the floor
    a = s.contacts.arrays()
    assert sorted(zip(a["id_a"], a["id_b"])) == [(0, ids[1]), (0, ids[2]), (0, ids[3])]
    assert s.particles[ids[1]].pos[2] == pytest.approx(0.05, abs=1e-3)
    assert s.particles.of_shape("capsule").sum() == 1


@pytest.mark.parametrize("shape,message", [
    (lambda: grit.Capsule((0, 0, 0), -0.1, 0.2), "capsule"),
    (lambda: grit.Ellipsoid((0, 0, 0), (0.1, 0, 0.1)), "ellipsoid"),
    (lambda: grit.Capsule((0, 0, 0), 0.1, 0.2, ori=(0, 0, 0, 0)), "capsule"),
    (lambda: grit.InfCylinder((0, 0, 0), 5, 0.1), "infinite cylinder: axis = 5 must be 0, 1 or 2"),
    (lambda: grit.Rod((0, 0, 0), (1, 0, 0), -1), "rod"),
])
def test_engine_rejects_bad_shapes(shape, message):
    s = grit.Scene()
    with pytest.raises(grit.ParameterError) as e:
        s.add(shape())
    assert str(e.value).startswith(message)
    assert len(s.particles) == 0


@pytest.mark.parametrize("make,message", [
    (lambda: grit.Capsule((0, 0, 0), 0.1, "long"), "capsule: shaft = 'long' is not a number"),
    (lambda: grit.Capsule((0, 0, 0), 0.1, 0.2, ori=(1, 0, 0)), "capsule: ori = (1, 0, 0) is not a quaternion"),
    (lambda: grit.Ellipsoid((0, 0, 0), 0.1), "ellipsoid: semi_axes = 0.1 is not a vector of 3 numbers"),
    (lambda: grit.InfCylinder((0, 0, 0), "w", 0.1), "infcylinder: axis = 'w' must be 0, 1, 2"),
    (lambda: grit.Rod((0, 0), (1, 0, 0), 0.1), "rod: p0 = (0, 0) is not a vector of 3 numbers"),
])
def test_python_rejects_malformed_shapes(make, message):
    with pytest.raises(grit.ParameterError) as e:
        make()
    assert str(e.value).startswith(message)
