"""scene.threads: the worker threads of the steps; a run is the same to the bit with any count."""
import numpy as np
import pytest

import grit


def bed(threads):
    s = grit.Scene(gravity=(0, 0, -9.81), damping=0.2, track_energy=True)
    s.threads = threads
    m = grit.FrictMat(density=2600, young=1e7, tan_phi=0.4)
    s.add(grit.Wall(0, axis="z", sense=1, mat=m))
    rng = np.random.default_rng(5)
    for i in range(1500):  # more than one chunk of the parallel loops
        x, y, z = i % 15, (i // 15) % 10, i // 150
        s.add(grit.Sphere((0.02 * x, 0.02 * y, 0.011 + 0.02 * z), 0.0095 * (0.9 + 0.2 * rng.random()), mat=m,
                          vel=tuple(rng.random(3) - 0.5)))
    return s


def state(s):
    p = s.particles
    return (np.array([q.pos for q in p]), np.array([q.vel for q in p]),
            [s.energy[k] for k in ("kinetic", "grav", "elast", "nonviscDamp")])


def test_threads_property():
    s = grit.Scene()
    assert s.threads >= 1
    s.threads = 3
    assert s.threads == 3
    with pytest.raises(grit.ParameterError, match="threads = -2"):
        s.threads = -2
    assert s.threads == 3
    s.threads = 0
    assert s.threads >= 1


def test_same_bits_with_one_and_three_threads():
    a, b = bed(1), bed(3)
    a.run(60)
    b.run(60)
    pa, va, ea = state(a)
    pb, vb, eb = state(b)
    assert len(a.contacts) > 100
    assert pa.tobytes() == pb.tobytes() and va.tobytes() == vb.tobytes() and ea == eb
