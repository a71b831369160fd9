"""Mesh regions of inlets and outlets from Python: an STL file of a closed cube as an inlet's region (every sphere
entirely inside), triangles as an outlet's (exactly the particles inside deleted), and the errors."""
import numpy as np
import pytest

import grit

CUBE = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], float)
# two triangles a face, vertices counter-clockwise seen from outside
FACES = [(0, 2, 1), (0, 3, 2), (4, 5, 6), (4, 6, 7), (0, 1, 5), (0, 5, 4), (1, 2, 6), (1, 6, 5), (2, 3, 7),
         (2, 7, 6), (3, 0, 4), (3, 4, 7)]


def cube(lo, side):
    return np.array([[CUBE[i] * side + lo for i in f] for f in FACES])


def write_stl(path, tri):
    with open(path, "w") as f:
        f.write("solid cube\n")
        for t in tri:
            f.write(" facet normal 0 0 0\n  outer loop\n")
            for v in t:
                f.write(f"   vertex {v[0]:.9g} {v[1]:.9g} {v[2]:.9g}\n")
            f.write("  endloop\n endfacet\n")
        f.write("endsolid cube\n")


def test_inlet_fills_an_stl_solid(tmp_path):
    path = tmp_path / "cube.stl"
    write_stl(path, cube(np.zeros(3), 20.0))  # mm
    s = grit.Scene(dt=1e-5)
    m = grit.FrictMat(density=2500, young=1e7)
    inlet = s.add_inlet("mesh", mesh=path, mesh_scale=1e-3, mesh_shift=(0.01, 0, 0), mass_rate=1.0,
                        radii=(0.8e-3, 1e-3), mat=m, max_mass=0.002, seed=3)
    s.run(300)
    pos, r = s.particles.get("pos"), s.particles.get("radius")
    assert inlet.count == len(pos) > 50
    lo, hi = np.array([0.01, 0, 0]), np.array([0.03, 0.02, 0.02])
    assert np.all(pos - r[:, None] >= lo - 1e-12) and np.all(pos + r[:, None] <= hi + 1e-12)


def test_outlet_mesh_deletes_inside():
    s = grit.Scene(dt=1e-5)
    m = grit.FrictMat(density=2500, young=1e7)
    g = (np.arange(8) + 0.5) * 3e-3
    pts = np.array(np.meshgrid(g, g, g, indexing="ij")).reshape(3, -1).T
    for p in pts:
        s.add(grit.Sphere(p, 1e-3, mat=m))
    out = s.add_outlet("mesh", mesh=cube(np.array([0.005, 0.005, 0.005]), 0.01))
    s.run(1)
    inside = np.all((pts >= 0.005) & (pts <= 0.015), axis=1)
    assert out.count == inside.sum() > 0
    assert len(s.particles) == len(pts) - inside.sum()


def test_errors(tmp_path):
    s = grit.Scene(dt=1e-5)
    m = grit.FrictMat(density=2500, young=1e7)
    with pytest.raises(grit.ParameterError, match="needs mesh="):
        s.add_outlet("mesh")
    with pytest.raises(grit.ParameterError, match=r"shape \(n, 3, 3\)"):
        s.add_outlet("mesh", mesh=np.zeros((4, 3)))
    with pytest.raises(grit.GritError, match="not a closed solid"):
        s.add_outlet("mesh", mesh=cube(np.zeros(3), 1.0)[:-1])
    with pytest.raises(grit.ParameterError, match="missing.stl"):
        s.add_inlet("mesh", mesh=tmp_path / "missing.stl", mass_rate=1, radii=1e-3, mat=m)
    assert s.inlets == [] and s.outlets == []
