"""Zero-copy NumPy views of engine memory, and their staleness guard."""
import copy
import ctypes
import pickle

import numpy as np
import pytest

import grit
from grit import _lib


def filled(n=10, **kw):
    params = dict(dt=1e-5, gravity=(0, 0, -9.81))
    params.update(kw)
    s = grit.Scene(**params)
    m = grit.FrictMat(density=2000, young=1e7)
    s.add(grit.Wall(0, axis="z", sense=1, mat=m))
    # ids in reverse spatial order along x, so that sorting reorders the rows
    centers = [(0.3 * (n - i), 0.0, 0.05 + 0.001 * i) for i in range(n)]
    s.add_spheres(centers, 0.05, mat=m, vel=[(0, 0, -0.1 * i) for i in range(n)])
    return s


def c_view(s, group, name):
    lib = grit.library()
    v = _lib.ArrayView()
    assert lib.grit_array_get(s._ptr, lib.grit_array_find(group, name.encode()), ctypes.byref(v)) == 0
    return v


def test_layout_is_the_engines_memory():
    s = filled()
    s.run(1)
    pos = s.particles.pos
    assert pos.shape == (11, 3) and pos.dtype == np.float64 and pos.strides == (32, 8)
    assert not pos.flags.writeable and not pos.flags.owndata
    v = c_view(s, 0, "pos")
    assert pos.__array_interface__["data"][0] == v.data
    r = s.particles.radius
    assert r.strides == (32,) and r.__array_interface__["data"][0] == v.data + 24
    vel = s.particles.vel
    assert vel.flags.writeable and vel.strides == (c_view(s, 0, "vel").stride, 8) and vel.strides[0] >= 48
    assert np.shares_memory(s.particles.vel, s.particles.angvel) is False
    assert s.particles.ori.shape == (11, 4) and s.particles.id.dtype == np.int32
    assert s.particles.shape.dtype == np.uint8 and s.particles.flags.dtype == np.uint16


def test_rows_are_internal_order_with_ids():
    s = filled()
    s.run(1)  # the first step sorts the particles in space
    ids = s.particles.id.copy()
    assert sorted(ids) == list(range(11)) and list(ids) != list(range(11))
    pos = s.particles.pos
    for row, pid in enumerate(ids):
        assert tuple(pos[row]) == s.particles[int(pid)].pos
    rows = s.particles.rows([3, 0])
    assert list(ids[rows]) == [3, 0]
    by_id = s.particles.get("pos")
    assert np.array_equal(by_id, np.array([s.particles[i].pos for i in range(11)]))
    assert np.array_equal(s.particles.index_of_id[ids], np.arange(11))
    assert list(np.nonzero(s.particles.of_shape("wall"))[0]) == [int(s.particles.rows(0))]


def test_views_are_live_between_moves():
    s = filled(sort_period=0, verlet_dist=0.5)  # no re-sort, a skin that no motion here exceeds
    s.run(1)
    z = s.particles.pos[:, 2]
    before = z.copy()
    s.run(10)
    assert not np.array_equal(z, before)  # same view, new values
    assert np.array_equal(z, s.particles.pos[:, 2])


def test_writing_velocities_reaches_the_engine():
    s = filled(sort_period=0, verlet_dist=0.5, gravity=(0, 0, 0))
    s.run(1)
    vel = s.particles.vel
    rows = s.particles.rows([4, 5])
    vel[rows] = [(1.0, 2.0, 3.0), (-1.0, 0.0, 0.0)]
    assert s.particles[4].vel == (1.0, 2.0, 3.0) and s.particles[5].vel == (-1.0, 0.0, 0.0)
    x0 = s.particles[4].pos
    s.run(1)
    assert s.particles[4].pos[0] == pytest.approx(x0[0] + 1e-5, abs=1e-15)
    vel[s.particles.rows(6), 0] += 0.5  # in place
    assert s.particles[6].vel[0] == 0.5
    with pytest.raises(ValueError, match="read-only"):
        s.particles.pos[0, 0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        s.particles.mass[:] = 1.0


def stale_uses():
    """Ways of using a view: each must raise once the view is stale."""
    return {
        "index": lambda v: v[0],
        "slice": lambda v: v[1:3],
        "setitem": lambda v: v.__setitem__(0, 0),
        "add": lambda v: v + 1,
        "radd": lambda v: 1 + v,
        "iadd": lambda v: v.__iadd__(0),
        "compare": lambda v: v > 0,
        "neg": lambda v: -v,
        "np.sum": lambda v: np.sum(v),
        "sum": lambda v: v.sum(),
        "mean": lambda v: v.mean(),
        "np.linalg.norm": lambda v: np.linalg.norm(v),
        "np.concatenate": lambda v: np.concatenate([v, v]),
        "copy": lambda v: v.copy(),
        "copy.copy": lambda v: copy.copy(v),
        "tolist": lambda v: v.tolist(),
        "repr": lambda v: repr(v),
        "str": lambda v: str(v),
        "iter": lambda v: list(v),
        "T": lambda v: v.T,
        "reshape": lambda v: v.reshape(-1),
        "astype": lambda v: v.astype(np.float32),
        "pickle": lambda v: pickle.dumps(v),
        "max": lambda v: v.max(),
        "format": lambda v: f"{v}",
        "in": lambda v: 0.0 in v,
    }


@pytest.mark.parametrize("use", sorted(stale_uses()))
def test_stale_after_adding_a_particle(use):
    s = filled()
    s.run(1)
    v = s.particles.vel
    derived = v[2:5]
    stale_uses()[use](v)  # fine while valid
    s.add(grit.Sphere((5, 5, 5), 0.05))
    with pytest.raises(grit.StaleViewError, match="view of particle array 'vel' is stale"):
        stale_uses()[use](v)
    with pytest.raises(grit.StaleViewError):
        stale_uses()[use](derived)


def test_stale_after_sorting_and_contact_rebuild():
    s = filled(sort_period=1)
    pos = s.particles.pos
    s.run(1)  # first step: rebuild, sort
    with pytest.raises(grit.StaleViewError):
        pos[0]
    kn = s.contacts.kn
    assert len(kn) > 0
    kn.sum()
    s.verlet_dist = 0.02  # a new skin forces a broad-phase rebuild at the next step
    s.run(1)
    with pytest.raises(grit.StaleViewError, match="contact array 'kn'"):
        kn.sum()
    pos = s.particles.pos
    gen = grit.library().grit_array_generation(s._ptr, 0)
    while grit.library().grit_array_generation(s._ptr, 0) == gen:
        s.run(100)
    with pytest.raises(grit.StaleViewError):
        pos.max()


def test_copies_and_metadata_stay_usable():
    s = filled()
    s.run(1)
    v = s.particles.pos
    c = v.copy()
    a = np.array(v)
    sub = v[[0, 2]]  # fancy indexing copies
    t = v * 2
    s.add(grit.Sphere((5, 5, 5), 0.05))
    assert type(c) is np.ndarray and type(t) is np.ndarray and type(sub) is np.ndarray
    assert c.sum() == a.sum() and sub.shape == (2, 3) and t[0, 0] == 2 * c[0, 0]
    assert v.shape == (11, 3) and len(v) == 11 and v.dtype == np.float64  # metadata reads no memory


def test_closed_scene():
    s = filled()
    v = s.particles.pos
    s.close()
    with pytest.raises(grit.StaleViewError, match="closed"):
        v[0]
    with pytest.raises(grit.StateError, match="closed"):
        s.particles.pos
    with pytest.raises(grit.StateError, match="closed"):
        s.run(1)
    s.close()  # twice is fine
    assert "closed" in repr(s)


def test_contact_views_match_the_c_accessor():
    s = grit.Scene(dt=1e-6)
    m = grit.FrictMat(young=1e7)
    s.add(grit.Wall(0, axis="z", mat=m))
    s.add(grit.Sphere((0, 0, 0.099), 0.1, mat=m, vel=(0.1, 0, -0.1)))
    s.add(grit.Sphere((0.3, 0, 0.099), 0.1, mat=m))
    s.add(grit.Sphere((0.29, 0, 0.29), 0.1, mat=m))
    s.run(5)
    assert len(s.contacts) == 3
    a = s.contacts.arrays()
    assert len(a["kn"]) == 3
    for k in range(3):
        i = s.contacts.find(int(a["id_a"][k]), int(a["id_b"][k]))
        c = s.contacts[i]
        assert (c["id_a"], c["id_b"]) == (a["id_a"][k], a["id_b"][k])
        assert c["kn"] == a["kn"][k] and c["uN"] == a["uN"][k] and c["area"] == a["area"][k]
        assert c["normal"] == tuple(a["normal"][k]) and c["ez"] == tuple(a["ez"][k])
        assert c["force"] == tuple(a["force"][k])
        assert np.allclose(c["force_global"], a["force_global"][k], rtol=1e-15, atol=0)
        assert c["lens"] == tuple(a["lens"][k])
    assert s.contacts.ext.shape[1] == 0
    assert s.contacts.real.sum() == 3


def test_empty_scene_views():
    s = grit.Scene()
    assert s.particles.pos.shape == (0, 3) and s.contacts.kn.shape == (0,)
    assert s.particles.pos.sum() == 0
