"""grit.pack: dense random packings from Python -- NumPy arrays and figures, reproducibility, the targets,
size distributions, the monitor, files, clipping to every shape (checked with NumPy) and the error paths.
Small cells (60-200 spheres) keep it fast."""
import math

import numpy as np
import pytest

import grit
import grit.pack as gp


@pytest.fixture(scope="module")
def cell():
    return gp.dense(n=200, radius=0.002, seed=3)


def test_dense_gives_arrays_and_figures(cell):
    assert isinstance(cell, gp.Packing) and len(cell) == 200 and cell.periodic
    assert cell.centers.shape == (200, 3) and cell.radii.shape == (200,) and cell.cell.shape == (3, 3)
    a = cell.cell[0, 0]
    assert np.allclose(cell.cell, a * np.eye(3), rtol=0, atol=0)
    assert np.all((cell.centers >= 0) & (cell.centers < a)) and np.all(cell.radii == 0.002)
    assert cell.volume == pytest.approx(a ** 3, rel=1e-12)
    assert cell.solid_fraction == pytest.approx(cell.sphere_volume() / cell.volume, rel=1e-12)
    assert 0.62 < cell.solid_fraction < 0.645
    assert cell.pressure == pytest.approx(1e5, rel=0.01) and cell.unbalanced <= 0.02 and cell.steps > 0
    assert 0 < cell.max_overlap() < 0.03
    assert cell.info[0].startswith("pack n=200 radius=0.002 spread=0 target=pressure pressure=100000")
    assert "200 spheres in a periodic cell" in repr(cell)


def test_reproducible():
    a = gp.dense(n=60, radius=0.002, unbalanced=0.1)
    b = gp.dense(n=60, radius=0.002, unbalanced=0.1)
    c = gp.dense(n=60, radius=0.002, unbalanced=0.1, seed=9)
    assert np.array_equal(a.centers, b.centers) and np.array_equal(a.cell, b.cell)
    assert not np.array_equal(a.centers, c.centers)


def test_solid_fraction_target_and_relaxation():
    p = gp.dense(n=100, radius=0.002, target="solid_fraction", solid_fraction=0.6)
    assert p.solid_fraction == pytest.approx(0.6, rel=0.01) and p.max_overlap() < 0.01
    q = gp.dense(n=100, radius=0.002, relax_pressure=1e4)
    assert q.pressure == pytest.approx(1e4, rel=0.01) and q.max_overlap() < 0.003


def test_size_distribution():
    p = gp.dense(n=136, radius=0.002, psd=[(0.002, 1), (0.004, 1)], unbalanced=0.1)
    assert np.sum(p.radii == 0.002) == 121 and np.sum(p.radii == 0.004) == 15
    assert "psd=0.002:1,0.004:1 psd_counts=121,15" in p.info[0]
    s = gp.dense(n=60, radius=0.002, spread=0.3, unbalanced=0.1)
    assert s.radii.min() >= 0.0014 and s.radii.max() <= 0.0026 and np.ptp(s.radii) > 0.0008


def test_monitor_keep_scene_and_cap():
    seen = []
    p, scene = gp.dense(n=60, radius=0.002, unbalanced=0.1, monitor=seen.append, monitor_every=300,
                        keep_scene=True)
    steps = [s["step"] for s in seen]
    assert steps[0] == 0 and all(b - a >= 300 for a, b in zip(steps, steps[1:-1]))
    assert seen[-1]["phase"] == "done" and seen[-1]["step"] == p.steps
    assert set(seen[0]) == {"phase", "step", "pressure", "solid_fraction", "unbalanced", "strain_rate", "contacts"}
    assert isinstance(scene, grit.Scene) and len(scene.particles) == 60 and scene.step == p.steps
    assert scene.cell.hsize == pytest.approx(p.cell, rel=0, abs=0)
    scene.run(10)  # a live periodic scene
    scene.close()
    with pytest.raises(grit.StateError, match="stopped by the monitor at step 200"):
        gp.dense(n=60, radius=0.002, monitor=lambda s: s["step"] >= 200, monitor_every=100)
    with pytest.raises(grit.StateError, match="max_steps = 300 reached while compressing: pressure"):
        gp.dense(n=60, radius=0.002, max_steps=300)

    def broken(state):
        raise RuntimeError("monitor failed")
    with pytest.raises(RuntimeError, match="monitor failed"):
        gp.dense(n=60, radius=0.002, monitor=broken)


def test_bad_parameters():
    with pytest.raises(grit.ParameterError, match=r"parameter 'radius' = -1 is out of range"):
        gp.dense(radius=-1)
    with pytest.raises(grit.ParameterError, match="unknown pack parameter 'radiuss'.*did you mean 'radius'"):
        gp.dense(radiuss=1)
    with pytest.raises(grit.ParameterError, match="parameter 'target' = 'volume' is not one of"):
        gp.dense(target="volume")
    with pytest.raises(grit.ParameterError, match="parameter 'n' = 10 is too small for these radii"):
        gp.dense(n=10)
    with pytest.raises(grit.ParameterError, match="psd: radius.0. = 0 must be positive"):
        gp.dense(psd=[(0, 1)])
    with pytest.raises(grit.ParameterError, match="is not a list of .radius, mass_fraction. pairs"):
        gp.dense(psd=[1, 2, 3])
    with pytest.raises(grit.ParameterError, match="monitor_every = 0"):
        gp.dense(monitor_every=0)
    with pytest.raises(grit.ParameterError, match="relax_pressure"):
        gp.check(relax_pressure=1e6)
    gp.check(n=100, radius=0.002)


def test_save_load_and_scene(cell, tmp_path):
    path = cell.save(tmp_path / "cell.csv")
    back = gp.load(path)
    assert np.array_equal(back.centers, cell.centers) and np.array_equal(back.radii, cell.radii)
    assert np.array_equal(back.cell, cell.cell) and back.info == cell.info
    assert (back.pressure, back.steps, back.volume) == (cell.pressure, cell.steps, cell.volume)
    text = open(path).read()
    assert text.startswith("# grit packing: 200 spheres in a periodic cell\n# cell: ") and "\nx[m],y[m],z[m],r[m]\n" in text
    # any scene takes the arrays
    s = grit.Scene()
    ids = s.add_spheres(back.centers, back.radii)
    assert len(ids) == 200 and s.particles.get("pos", ids) == pytest.approx(cell.centers, rel=0, abs=0)
    s.close()
    with pytest.raises(grit.GritIOError, match="missing.csv"):
        gp.load(tmp_path / "missing.csv")
    (tmp_path / "bad.csv").write_text("# cell: 1 2\nx,y,z,r\n0,0,0,1\n")
    with pytest.raises(grit.FormatError, match="bad.csv:1: '# cell:' needs 9 finite numbers"):
        gp.load(tmp_path / "bad.csv")


def axial(c, center, axis):
    u = np.asarray(axis, float) / np.linalg.norm(axis)
    x = c - np.asarray(center, float)
    t = x @ u
    return t, np.linalg.norm(x - np.outer(t, u), axis=1)


def test_clip_cuboid_cylinder_hyperboloid(cell):
    lo, hi = np.array([-0.01, 0.003, 0.02]), np.array([0.035, 0.03, 0.05])
    box = cell.clip(shape="cuboid", lo=lo, hi=hi)
    c, r = box.centers, box.radii[:, None]
    assert len(box) > 300 and not box.periodic and box.cell is None
    assert np.all(c - r >= lo) and np.all(c + r <= hi)
    assert box.volume == pytest.approx(np.prod(hi - lo)) and box.info[-1].startswith("clip shape=cuboid")
    # the same kept by a shifted tiling? no: other spheres, still all inside
    moved = cell.clip(shape="cuboid", lo=lo, hi=hi, recentre=False, tile_shift=(0.001, 0, 0))
    assert np.all(moved.centers - moved.radii[:, None] >= lo) and not np.array_equal(moved.centers[:5], c[:5])
    cyl = dict(center=(0.01, 0.02, -0.03), axis=(0.3, -1, 0.2), length=0.05, outer_radius=0.017)
    y = cell.clip(shape="cylinder", **cyl)
    t, rho = axial(y.centers, cyl["center"], cyl["axis"])
    assert np.all(np.abs(t) + y.radii <= 0.025) and np.all(rho + y.radii <= 0.017) and len(y) > 100
    h = cell.clip(shape="hyperboloid", waist_radius=0.011, **cyl)
    t, rho = axial(h.centers, cyl["center"], cyl["axis"])
    prof = np.sqrt(0.011 ** 2 + (0.017 ** 2 - 0.011 ** 2) * (2 * t / 0.05) ** 2)
    assert np.all(rho + h.radii <= prof + 1e-12) and len(h) < len(y)
    assert h.volume == pytest.approx(math.pi * 0.05 * (0.011 ** 2 + (0.017 ** 2 - 0.011 ** 2) / 3))
    assert h.solid_fraction == pytest.approx(h.sphere_volume() / h.volume)


def test_regions(tmp_path):
    g = gp.Region(shape="hyperboloid", length=2, outer_radius=1, waist_radius=0.5)
    assert g.contains((0, 0, 0), 0.5 - 1e-9) and not g.contains((0, 0, 0), 0.5 + 1e-9)
    lo, hi = g.bounds
    assert lo == pytest.approx([-1, -1, -1]) and hi == pytest.approx([1, 1, 1])
    assert "shape=hyperboloid" in g.description and "waist_radius=0.5" in repr(g)
    g.close()
    with pytest.raises(grit.StateError):
        g.contains((0, 0, 0), 0.1)
    # an STL cube of 1 m, written here
    corners = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)]
    quads = [(0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (2, 3, 7, 6), (1, 2, 6, 5), (0, 4, 7, 3)]  # facing out
    lines = ["solid cube"]
    for q in quads:
        for tri in ((q[0], q[1], q[2]), (q[0], q[2], q[3])):
            lines += ["facet normal 0 0 0", "outer loop"] + ["vertex %g %g %g" % corners[k] for k in tri] + \
                     ["endloop", "endfacet"]
    (tmp_path / "cube.stl").write_text("\n".join(lines + ["endsolid"]) + "\n")
    with gp.Region(shape="stl", stl=str(tmp_path / "cube.stl"), stl_scale=0.5) as s:
        assert s.volume == pytest.approx(0.125)
        assert s.contains((0.25, 0.25, 0.25), 0.25 - 1e-9) and not s.contains((0.25, 0.25, 0.25), 0.25 + 1e-9)
    (tmp_path / "open.stl").write_text("\n".join(lines[:-7] + ["endsolid"]) + "\n")
    with pytest.raises(grit.FormatError, match="open.stl is not a closed solid: the edge .* \\(a hole\\)"):
        gp.Region(shape="stl", stl=str(tmp_path / "open.stl"))
    with pytest.raises(grit.GritIOError, match="cannot open STL file"):
        gp.Region(shape="stl", stl=str(tmp_path / "none.stl"))
    with pytest.raises(grit.ParameterError, match="shape=stl needs the STL file"):
        gp.Region(shape="stl")
    with pytest.raises(grit.ParameterError, match="parameter 'waist_radius' = 0.05 is out of range"):
        gp.Region(shape="hyperboloid", waist_radius=0.05)
    with pytest.raises(grit.ParameterError, match="unknown clip parameter 'radius'"):
        gp.Region(shape="cylinder", radius=1)


def test_clip_predicates_and_errors(cell):
    R = 0.02

    def ball(c, r):
        return np.linalg.norm(c) + r <= R
    p = cell.clip(ball, lo=(-R, -R, -R), hi=(R, R, R), volume=4 / 3 * math.pi * R ** 3)
    assert len(p) > 20 and np.all(np.linalg.norm(p.centers, axis=1) + p.radii <= R)
    assert 0.3 < p.solid_fraction < 0.64
    q = cell.clip(gp.Region.predicate(ball, (-R, -R, -R), (R, R, R)))
    assert np.array_equal(q.centers, p.centers) and math.isnan(q.solid_fraction)
    with pytest.raises(grit.StateError, match="no sphere of the packing .* lies entirely inside"):
        cell.clip(shape="cuboid", lo=(0, 0, 0), hi=(0.003, 0.003, 0.003))
    with pytest.raises(grit.ParameterError, match="needs the bounds"):
        cell.clip(ball)

    def failing(c, r):
        raise ValueError("bad predicate")
    with pytest.raises(ValueError, match="bad predicate"):
        cell.clip(failing, lo=(-R, -R, -R), hi=(R, R, R))
    flat = gp.Packing(cell.centers, cell.radii)
    with pytest.raises(grit.ParameterError, match="must be periodic"):
        flat.clip(shape="cuboid")
    with pytest.raises(grit.ParameterError, match="parameter 'shape' = 'sphere' is not one of"):
        cell.clip(shape="sphere")
    with pytest.raises(grit.ParameterError, match="centres but"):
        gp.Packing(np.zeros((3, 3)), [1, 1])
