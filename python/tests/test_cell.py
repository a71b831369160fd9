"""Periodic cells and the stress tensor from Python: scene.cell, scene.stress(), contacts.image."""
import math

import numpy as np
import pytest

import grit


def t28_scene():
    """Two spheres touching across the boundary of a unit cell (spec T28)."""
    s = grit.Scene()
    m = grit.FrictMat(young=1e7, kt_div_kn=0.2, tan_phi=0.5)
    s.add([grit.Sphere((0.05, 0.5, 0.5), 0.06, mat=m), grit.Sphere((0.95, 0.5, 0.5), 0.06, mat=m)])
    s.cell = (1, 1, 1)
    return s


def gas(n=5, seed=1):
    """n^3 spheres on a jittered lattice in a unit cell, with random velocities."""
    s = grit.Scene(dt_safety=0.3, damping=0.3, track_energy=True)
    m = grit.FrictMat(young=1e6, kt_div_kn=0.3, tan_phi=0.5)
    rng = np.random.default_rng(seed)
    g = (np.mgrid[0:n, 0:n, 0:n].reshape(3, -1).T + 0.5) / n
    s.add_spheres(g + rng.uniform(-0.02, 0.02, g.shape), 0.3 / n, mat=m, vel=rng.uniform(-0.1, 0.1, g.shape))
    s.cell = np.eye(3)
    return s


def test_aperiodic_scene_has_no_cell(scene):
    assert scene.cell is None
    with pytest.raises(grit.StateError, match="no periodic cell.*lo="):
        scene.stress()


def test_t28_stress_and_image():
    s = t28_scene()
    assert isinstance(s.cell, grit.Cell)
    np.testing.assert_array_equal(s.cell.hsize, np.eye(3))
    assert s.cell.volume == 1.0
    s.run(1)
    assert len(s.contacts) == 1
    c = s.contacts[0]
    assert c["uN"] == pytest.approx(-0.02, abs=1e-15)
    assert abs(c["force"][0]) == pytest.approx(18849.555921538758, rel=1e-13)
    # B is seen across the boundary: image (+-1, 0, 0); the view gives the same as the C accessor
    img = s.contacts.image[s.contacts.real]
    assert img.shape == (1, 3) and abs(img[0, 0]) == 1 and img[0, 1] == img[0, 2] == 0
    # sigma_xx = F_x l_x / V with F = +18849.6 N on the left sphere, l = -0.1 m to the image of the right one
    sig = s.stress()
    assert sig.shape == (3, 3)
    assert sig[0, 0] == pytest.approx(-1884.9555921538758, rel=1e-12)
    assert np.abs(sig - np.diag(np.diag(sig))).max() < 1e-9
    assert sig[1, 1] == pytest.approx(0, abs=1e-9) and sig[2, 2] == pytest.approx(0, abs=1e-9)
    # the same contact in a region that holds its contact point (x = 0 or 1 on the boundary)
    box = s.stress(lo=(-0.1, 0, 0), hi=(0.1, 1, 1))
    assert box[0, 0] == pytest.approx(sig[0, 0] / 0.2, rel=1e-12)


def test_isotropic_compression_is_the_cayley_map():
    s = gas()
    r = 1.0
    s.cell.next_grad_v = -r * np.eye(3)
    np.testing.assert_array_equal(s.cell.next_grad_v, -r * np.eye(3))
    np.testing.assert_array_equal(s.cell.grad_v, np.zeros((3, 3)))  # nothing stepped yet
    s.run(800)
    np.testing.assert_array_equal(s.cell.grad_v, -r * np.eye(3))
    a = 0.5 * r * s.current_dt
    h = ((1 - a) / (1 + a)) ** 800
    H = s.cell.hsize
    assert H[0, 0] == pytest.approx(h, rel=1e-12)
    assert np.abs(H - h * np.eye(3)).max() < 1e-12
    np.testing.assert_allclose(s.cell.trsf, H, rtol=0, atol=1e-15)  # the cell started as the identity
    eps = s.cell.hencky_strain
    assert eps[0, 0] == pytest.approx(800 * math.log((1 - a) / (1 + a)), rel=1e-10)
    assert np.trace(eps) == pytest.approx(math.log(s.cell.volume), rel=1e-10)
    assert np.allclose(s.cell.size, h, rtol=1e-12)
    p = -np.trace(s.stress()) / 3
    assert p > 0, "the compressed gas pushes back"


def test_simple_shear_strain():
    s = gas(n=4)
    gdot = 0.5
    s.cell.next_grad_v = [[0, gdot, 0], [0, 0, 0], [0, 0, 0]]
    s.run(1000)
    gamma = gdot * 1000 * s.current_dt
    H = s.cell.hsize
    assert H[0, 1] == pytest.approx(gamma, rel=1e-12)  # exact for a nilpotent gradient
    assert s.cell.volume == pytest.approx(1.0, rel=1e-13)
    # principal logarithmic strains of simple shear: +-asinh(gamma / 2) and 0
    w = np.sort(np.linalg.eigvalsh(s.cell.hencky_strain))
    np.testing.assert_allclose(w, [-math.asinh(gamma / 2), 0, math.asinh(gamma / 2)], atol=1e-12)


def test_periodic_save_and_load_continue_bitwise(tmp_path):
    a, b = gas(), gas()
    L = [[-0.2, 0.6, 0], [0, -0.2, 0], [0, 0, -0.2]]
    for s in (a, b):
        s.cell.next_grad_v = L
    a.run(1200)
    b.run(600)
    b.cell.next_grad_v = np.zeros((3, 3))
    a_mid = str(tmp_path / "mid.grit")
    a_path = b.save(a_mid)
    b.close()
    c = grit.Scene.load(a_path)
    assert c.cell is not None
    np.testing.assert_array_equal(c.cell.next_grad_v, np.zeros((3, 3)))  # the pending gradient came back
    c.cell.next_grad_v = L
    c.run(600)
    np.testing.assert_array_equal(c.cell.hsize, a.cell.hsize)
    np.testing.assert_array_equal(c.cell.trsf, a.cell.trsf)
    np.testing.assert_array_equal(c.stress(), a.stress())
    np.testing.assert_array_equal(c.particles.get("pos"), a.particles.get("pos"))
    assert c.energy.as_dict() == a.energy.as_dict()


@pytest.mark.parametrize("value, exc, match", [
    ((1, 1, -1), grit.ParameterError, r"hsize: size\[2\] = -1.0 must be positive"),
    ((1, 0, 1), grit.ParameterError, r"hsize: size\[1\] = 0.0 must be positive"),
    ((1, float("nan"), 1), grit.ParameterError, r"size\[1\] = nan"),
    (np.ones((2, 3)), grit.ParameterError, r"hsize must be 3 box sizes or a 3x3 matrix, not .*\(2, 3\)"),
    (2.0, grit.ParameterError, "hsize = 2.0: give 3 box sizes"),
    ("abc", grit.ParameterError, "hsize"),
    ([[1, 0, 0], [0, 1, 0], [0, 0, float("inf")]], grit.ParameterError, r"hsize\[2\]\[2\] = inf must be finite"),
    ([[0, 1, 0], [1, 0, 0], [0, 0, 1]], grit.ParameterError, "right-handed"),
    ([[1, 2, 0], [0, 0, 0], [0, 0, 1]], grit.ParameterError, "degenerate"),
    (None, grit.StateError, "cannot be removed"),
])
def test_bad_cells(value, exc, match):
    s = grit.Scene()
    s.add(grit.Sphere((0.5, 0.5, 0.5), 0.1))
    with pytest.raises(exc, match=match):
        s.cell = value
    assert s.cell is None  # nothing changed


def test_cell_errors():
    s = grit.Scene()
    s.add(grit.Sphere((0.5, 0.5, 0.5), 0.3))
    with pytest.raises(grit.StateError, match="particle 0.*below 0.5"):
        s.cell = (1, 1, 1)  # the sphere spans 0.6 of the cell
    s.cell = (2, 2, 2)
    with pytest.raises(grit.ParameterError, match=r"next_grad_v must be a 3x3 matrix, not .*\(3,\)"):
        s.cell.next_grad_v = (1, 2, 3)
    with pytest.raises(grit.ParameterError, match=r"next_grad_v\[0\]\[1\] = nan must be finite"):
        s.cell.next_grad_v = [[0, float("nan"), 0], [0, 0, 0], [0, 0, 0]]
    with pytest.raises(grit.StateError, match="assign cell.next_grad_v"):
        s.cell.grad_v = np.zeros((3, 3))
    np.testing.assert_array_equal(s.cell.next_grad_v, np.zeros((3, 3)))
    with pytest.raises(grit.ParameterError, match="both lo and hi"):
        s.stress(lo=(0, 0, 0))
    with pytest.raises(grit.ParameterError, match="lo"):
        s.stress(lo=(0, 0), hi=(1, 1, 1))
    # walls and periodic cells exclude each other
    with pytest.raises(grit.StateError, match="periodic"):
        s.add(grit.Wall(0, axis="z"))
    w = grit.Scene()
    w.add(grit.Wall(0, axis="z"))
    with pytest.raises(grit.StateError, match="unbounded"):
        w.cell = (1, 1, 1)
    # a gradient too large for the time step: the step refuses, naming it
    s.cell.next_grad_v = 1e9 * np.eye(3)
    with pytest.raises(grit.ParameterError, match="velocity gradient"):
        s.run(1)
    s.close()
    with pytest.raises(grit.StateError, match="closed"):
        s.cell
