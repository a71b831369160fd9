"""Issue 15: no Python code, however wrong, may crash the interpreter. Closing a scene from inside the
engine's own call (a runner, an until= condition, a law tester's callback) freed the memory the C stepper was
working on; it is now refused with StateError and the scene stays usable."""
import pytest

import grit


def scene():
    s = grit.Scene(dt=1e-4)
    m = grit.FrictMat(young=1e7, density=1000)
    s.add(grit.Sphere((0, 0, 0), 0.01, mat=m))
    s.add(grit.Sphere((0.019, 0, 0), 0.01, mat=m))
    return s


def test_close_from_a_runner_is_refused():
    s = scene()
    s.every(5, lambda sc: sc.close())
    with pytest.raises(grit.StateError, match="close called from a runner"):
        s.run(20)
    assert s.step == 5          # the scene is left at the runner's step and still works
    s.remove_runner(s.runners[0])
    s.run(10)
    s.close()                   # after run: allowed
    with pytest.raises(grit.StateError):
        s.run(1)


def test_close_from_until_is_refused():
    s = scene()
    with pytest.raises(grit.StateError):
        s.run(100, until=lambda sc: sc.close(), check_every=3)
    s.run(3)
    s.close()


def test_close_or_run_from_a_law_tester_callback_is_refused():
    for action in (lambda tt: tt.scene.close(), lambda tt: tt.close(), lambda tt: tt.scene.run(1)):
        s = grit.Scene(dt=1e-3)
        m = grit.FrictMat(young=1e7, density=1000)
        s.add(grit.Sphere((0, 0, 0), 0.5, mat=m))
        s.add(grit.Sphere((1, 0, 0), 0.5, mat=m))
        t = grit.LawTester(s, (0, 1), stages=[
            grit.Stage((-0.01, 0, 0, 0, 0, 0), "vvvvvv", until=lambda tt, a=action: a(tt) or False)])
        with pytest.raises(grit.StateError):
            t.run(100)
        assert s.particles[0].pos is not None and not t.done   # the scene still works
        s.close()


# ---------------------------------------------------------------------------------------------------------------
# Raw access to views after the engine moved its arrays. NumPy reads an array's memory in C for `out[:] = view`,
# `memoryview(view)`, `np.asarray(view)` and through `view.base` without asking the view, so the staleness check
# cannot see them. Before, the engine freed the old arrays at once: with a few thousand particles the blocks are
# mapped pages that free() unmaps, and these lines crashed the interpreter with a segmentation fault (smaller
# blocks gave garbage, or a write into freed memory). Now every view holds a reference to its memory block, the
# engine never frees a referenced block, and raw access reads the values of when the engine moved away.

import os  # noqa: E402

import numpy as np  # noqa: E402

HOPPER = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "data", "hopper.stl")


def lattice(n, spacing, z0=0.0):
    k = np.arange(n)
    g = np.stack(np.meshgrid(k, k, k, indexing="ij"), axis=-1).reshape(-1, 3) * spacing
    g[:, 2] += z0
    return g


def big_scene(n=17):
    """n**3 spheres (4913 for n=17: the pos block is 32 B x 8192 rows, mapped pages), apart."""
    s = grit.Scene(dt=1e-5)
    m = grit.FrictMat(young=1e7, density=1000)
    s.add_spheres(lattice(n, 0.03), 0.01, mat=m)
    return s, m


def kept():
    return grit.library().grit_array_kept()


def move_particle_arrays(s, m, how):
    if how == "add":
        s.add(grit.Sphere((-1, -1, -1), 0.01, mat=m))                     # one more row: the arrays grow
        s.add_spheres(lattice(17, 0.03, z0=5.0), 0.01, mat=m)
    elif how == "load_stl":
        for _ in range(40):                                               # about 4000 facets
            s.load_stl(HOPPER, mat=m, shift=(10, 0, 0))
    elif how == "close":
        s.close()


@pytest.mark.parametrize("how", ["add", "load_stl", "close"])
def test_raw_access_to_stale_particle_views_reads_the_old_values(how):
    before = kept()
    s, m = big_scene()
    pos, vel, idx = s.particles.pos, s.particles.vel, s.particles.index_of_id
    snap_pos, snap_idx = pos.copy(), idx.copy()
    base = pos.base                                   # a plain ndarray over the engine's block
    move_particle_arrays(s, m, how)
    with pytest.raises(grit.StaleViewError):
        pos.sum()                                     # every use through NumPy is still refused
    out = np.empty_like(snap_pos)
    out[:] = pos                                      # formerly a segfault
    assert np.array_equal(out, snap_pos)
    assert np.array_equal(np.asarray(memoryview(pos)), snap_pos)
    assert np.array_equal(np.asarray(pos), snap_pos)
    assert np.array_equal(np.array(pos), snap_pos)
    assert np.array_equal(np.asarray(base), snap_pos) and np.array_equal(np.asarray(pos.base), snap_pos)
    assert np.array_equal(np.asarray(idx), snap_idx)
    raw = np.asarray(vel)
    raw[:] = 7.0                                      # formerly a write into freed memory: now into the old block
    if how != "close":
        assert not (s.particles.vel == 7.0).any()     # the engine's velocities are not touched
        s.run(2)
    assert kept() > before                            # the old blocks, held by the views
    del pos, vel, idx, base, raw
    s.close()
    assert kept() == before                           # the last view gone: every block is released


def test_raw_access_to_stale_contact_views_after_run():
    before = kept()
    s = grit.Scene(dt=1e-6)
    m = grit.FrictMat(young=1e7, density=1000)
    s.add_spheres(lattice(12, 0.0199), 0.01, mat=m)   # touching: about 5000 contacts
    s.run(1)
    kn, normal = s.contacts.kn, s.contacts.normal
    assert len(kn) > 4000
    snap_kn, snap_normal = kn.copy(), normal.copy()
    s.add_spheres(lattice(16, 0.0199, z0=1.0), 0.01, mat=m)  # three times the contacts: the arrays move
    s.run(1)
    assert len(s.contacts.kn) > 3 * len(snap_kn)
    with pytest.raises(grit.StaleViewError):
        kn.max()
    out = np.zeros_like(snap_normal)
    out[:] = normal
    assert np.array_equal(out, snap_normal)
    assert np.array_equal(np.asarray(memoryview(kn)), snap_kn)
    assert np.array_equal(np.asarray(kn.base), snap_kn)
    s.run(5)                                          # the engine runs on while the old blocks are kept
    del kn, normal
    s.close()
    assert kept() == before
