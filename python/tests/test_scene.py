"""Building and running scenes; every error path raises a Python exception with the engine's message."""
import math
import subprocess
import sys

import numpy as np
import pytest

import grit
from conftest import PYDIR


def ball_on_floor(**kw):
    params = dict(dt=1e-5, gravity=(0, 0, -9.81), track_energy=True)
    params.update(kw)
    s = grit.Scene(**params)
    m = grit.FrictMat(density=2600, young=1e7)
    s.add(grit.Wall(0, axis="z", sense=1, mat=m))
    s.add(grit.Sphere((0, 0, 0.2), 0.05, mat=m))
    return s


def test_run_steps_time_and_free_fall():
    s = ball_on_floor()
    assert s.run(1000) == 1000
    assert s.step == 1000 and s.time == pytest.approx(0.01, rel=1e-12) and s.current_dt == 1e-5
    # leapfrog from rest, no gravity in step 0 (Woo): v = g (n - 1) dt
    assert s.particles[1].vel[2] == pytest.approx(-9.81 * 999 * 1e-5, rel=1e-12)
    assert abs(s.energy.rel_error) < 1e-6  # the first step's half-step kinetic energy
    assert s.energy["kinetic"] == pytest.approx(-s.energy["grav"], rel=1e-6)


def test_run_until_and_check_every():
    s = ball_on_floor()
    n = s.run(until=lambda sc: len(sc.contacts) > 0, check_every=50)
    assert n % 50 == 0 and len(s.contacts) == 1 and s.step == n
    s2 = ball_on_floor()
    s2.run(n - 50)
    assert len(s2.contacts) == 0  # it was the first check that found the contact
    assert s.run(30, until=lambda sc: False, check_every=50) == 30  # steps bound it
    assert s.run(100, until=lambda sc: True) == 1


def test_runners():
    s = ball_on_floor()
    seen = []
    r = s.every(7, lambda sc: seen.append(sc.step))
    s.run(30)
    assert seen == [7, 14, 21, 28]
    s.run(6)
    assert seen[-1] == 35
    s.remove_runner(r)
    s.run(20)
    assert seen[-1] == 35 and s.runners == []


def test_exceptions_in_python_callbacks_propagate_and_leave_a_consistent_scene():
    s = ball_on_floor()

    def boom(sc):
        raise KeyError("from the callback")
    s.every(10, boom)
    with pytest.raises(KeyError, match="from the callback"):
        s.run(100)
    assert s.step == 10
    s.remove_runner(s.runners[0])
    s.run(5)
    assert s.step == 15


@pytest.mark.parametrize("args,kw,message", [
    ((), {}, "run: give the number of steps, an until= condition, or both"),
    ((-1,), {}, "run: steps = -1 must be an integer >= 0"),
    ((2.5,), {}, "run: steps = 2.5 must be an integer >= 0"),
    ((10,), {"check_every": 0, "until": len}, "run: check_every = 0 must be an integer >= 1"),
    ((10,), {"until": 3}, "run: until = 3 is not callable"),
])
def test_run_argument_errors(args, kw, message):
    s = ball_on_floor()
    with pytest.raises(grit.ParameterError) as e:
        s.run(*args, **kw)
    assert str(e.value) == message
    assert s.step == 0


def test_runner_argument_errors():
    s = ball_on_floor()
    with pytest.raises(grit.ParameterError, match="every = 0 must be an integer >= 1"):
        s.every(0, print)
    with pytest.raises(grit.ParameterError, match="is not callable"):
        s.every(3, None)


def test_time_step_above_critical_is_an_error():
    s = ball_on_floor(dt=1.0)
    with pytest.raises(grit.ParameterError, match="parameter 'dt' = 1 s exceeds the critical time step"):
        s.run(1)
    assert s.step == 0
    s.dt = float("nan")  # automatic
    s.run(1)
    assert s.current_dt == pytest.approx(0.9 * s.critical_dt)


def test_nan_written_through_a_view_stops_with_numeric_error():
    s = ball_on_floor()
    s.run(3)
    good = s.particles[1].pos
    s.particles.vel[s.particles.rows(1)] = (math.nan, 0, 0)
    with pytest.raises(grit.NumericError, match="particle 1: position became NaN or infinite at step 3"):
        s.run(5)
    assert isinstance(grit.NumericError("x"), ArithmeticError)
    assert s.step == 3 and math.isnan(s.particles[1].pos[0]) and s.particles[1].pos[2] != good[2]


@pytest.mark.parametrize("pid,message", [
    (2, "particle id 2 does not exist (2 particles)"),
    (-1, "particle id -1 does not exist (2 particles)"),
    (2**40, "particle id 1099511627776 does not exist"),
    (1.0, "particle id 1.0 is not an integer"),
    ("a", "particle id 'a' is not an integer"),
    (True, "particle id True is not an integer"),
])
def test_bad_particle_ids(pid, message):
    s = ball_on_floor()
    with pytest.raises(grit.ParameterError) as e:
        s.particles[pid]
    assert str(e.value).startswith(message)


def test_bad_ids_in_arrays_and_contacts():
    s = ball_on_floor()
    with pytest.raises(grit.ParameterError, match=r"particle id 5 does not exist \(2 particles\)"):
        s.particles.rows([0, 5])
    with pytest.raises(grit.ParameterError, match="particle ids must be integers"):
        s.particles.rows([0.5])
    with pytest.raises(grit.ParameterError, match="no particle array 'position'"):
        s.particles.get("position")
    with pytest.raises(grit.ParameterError, match=r"contact 0 does not exist \(0 real contacts\)"):
        s.contacts[0]
    with pytest.raises(grit.ParameterError, match="contact index 'x' is not an integer"):
        s.contacts["x"]
    assert s.contacts.find(0, 1) is None and s.contacts.find(0, 99) is None
    with pytest.raises(grit.ParameterError, match="unknown shape 'cube'"):
        s.particles.of_shape("cube")


def test_particle_proxy_get_set_and_errors():
    s = ball_on_floor()
    p = s.particles[1]
    assert p.shape == "sphere" and p.radius == 0.05 and s.particles[0].shape == "wall"
    assert p.mass == pytest.approx(4 / 3 * math.pi * 0.05**3 * 2600) and p.ori == (1.0, 0.0, 0.0, 0.0)
    assert p.inertia[0] == pytest.approx(0.4 * p.mass * 0.05**2)
    assert math.isinf(s.particles[0].mass)
    p.vel = (1, 0, 0)
    p.angvel = np.array([0, 0, 2.0])
    p.pos = (0.5, 0, 0.2)
    assert p.vel == (1.0, 0.0, 0.0) and p.angvel == (0.0, 0.0, 2.0) and p.pos == (0.5, 0.0, 0.2)
    p.blocked = "xzY"
    assert p.blocked == "xzY"
    assert s.particles[0].blocked == "xyzXYZ"
    with pytest.raises(grit.ParameterError, match="particle 1: velocity must be finite"):
        p.vel = (math.inf, 0, 0)
    with pytest.raises(grit.ParameterError, match="vel = .* is not a vector of 3 numbers"):
        p.vel = (1, 2)
    with pytest.raises(grit.ParameterError, match="unknown DoF 'q'"):
        p.blocked = "xq"
    with pytest.raises(grit.ParameterError, match="dofs = 'X' must be letters of 'xyz'"):
        p.impose_vel((1, 0, 0), "X")
    p.impose_vel((0, 0, -0.5), "z")
    s.run(10)
    assert p.vel[2] == -0.5 and "z" in p.blocked
    s.particles.impose_vel([1], (0.25, 0, 0), "x")
    s.particles.block(1, "")
    assert p.blocked == "" and p.vel[0] == 0.25


@pytest.mark.parametrize("shape,message", [
    (lambda: grit.Sphere((0, 0, 0), -1), "sphere: radius = -1 must be positive and finite (m)"),
    (lambda: grit.Sphere((0, 0, math.nan), 1), "sphere: position (0, 0, nan), velocity and angular velocity must be finite"),
    (lambda: grit.Wall(0, axis=3), "wall: axis = 3 must be 0, 1 or 2"),
    (lambda: grit.Wall(0, sense=2), "wall: sense = 2 must be -1, 0 or +1"),
    (lambda: grit.Facet([(0, 0, 0), (1, 1, 1), (2, 2, 2)]), "facet: vertices (0,0,0) (1,1,1) (2,2,2) are collinear"),
    (lambda: grit.Facet([(0, 0, 0), (1, 0, 0), (0, 1, 0)], half_thick=-1), "facet: half_thick = -1 must be >= 0"),
    (lambda: grit.Sphere((0, 0, 0), 1, mat=4), "material 4 does not exist (1 material defined)"),
])
def test_c_rejects_bad_shapes(shape, message):
    s = grit.Scene()
    s.add_material(grit.FrictMat())
    with pytest.raises(grit.ParameterError) as e:
        s.add(shape())
    assert str(e.value).startswith(message)
    assert len(s.particles) == 0


@pytest.mark.parametrize("make,message", [
    (lambda: grit.Sphere((0, 0), 1), "sphere: center = (0, 0) is not a vector of 3 numbers"),
    (lambda: grit.Sphere((0, 0, 0), "big"), "sphere: radius = 'big' is not a number"),
    (lambda: grit.Sphere((0, 0, 0), 1, blocked=3), "sphere: blocked = 3 must be a string"),
    (lambda: grit.Wall(0, axis="w"), "wall: axis = 'w' and sense = 0 must be integers"),
    (lambda: grit.Facet([(0, 0, 0), (1, 0, 0)]), "facet: vertices = [(0, 0, 0), (1, 0, 0)] must be three points"),
    (lambda: grit.Sphere((0, 0, 0), 1, mask=-1), "sphere: mask = -1 must be an integer in [0, 2^32)"),
])
def test_python_rejects_malformed_shapes(make, message):
    with pytest.raises(grit.ParameterError) as e:
        make()
    assert str(e.value).startswith(message)


def test_add_many_and_add_spheres():
    s = grit.Scene()
    ids = s.add([grit.Sphere((i, 0, 0), 0.1) for i in range(3)])
    assert ids == [0, 1, 2] and len(s.materials) == 1  # a default FrictMat
    more = s.add_spheres(np.arange(12.0).reshape(4, 3), [0.1, 0.2, 0.3, 0.4])
    assert list(more) == [3, 4, 5, 6] and s.particles[6].radius == 0.4 and s.particles[5].pos == (6.0, 7.0, 8.0)
    with pytest.raises(grit.ParameterError, match=r"centers must have shape \(N, 3\)"):
        s.add_spheres(np.zeros((3, 2)), 0.1)
    with pytest.raises(grit.ParameterError, match=r"radii must be a number or have shape \(2,\)"):
        s.add_spheres(np.zeros((2, 3)), [0.1, 0.2, 0.3])
    with pytest.raises(grit.ParameterError, match="sphere 1: center .* radius -0.1"):
        s.add_spheres(np.zeros((2, 3)), [0.1, -0.1])
    with pytest.raises(grit.ParameterError, match="not a shape"):
        s.add(42)
    assert len(s.particles) == 7


def test_energy_mapping():
    s = ball_on_floor()
    s.run(10)
    assert s.energy.names[:3] == ["kinetic", "elast", "grav"] and len(s.energy) == len(s.energy.names)
    d = dict(s.energy.items())
    assert sum(d.values()) == pytest.approx(s.energy.total, abs=1e-18)
    with pytest.raises(KeyError, match="no energy entry 'kinetik'"):
        s.energy["kinetik"]
    s.energy.reset()
    assert s.energy.total == 0 and math.isnan(s.energy.initial)


def test_stats_and_repr():
    s = ball_on_floor()
    s.run(until=lambda sc: len(sc.contacts) > 0, check_every=10)
    st = s.stats()
    assert st["rebuilds"] >= 1 and st["potential_pairs"] == len(s.contacts.kn) == 1 and st["real_contacts"] == 1
    assert "2 particles" in repr(s) and f"step {s.step}" in repr(s) and "1 contacts" in repr(s)
    assert "sphere" in repr(s.particles[1])


def run_py(code, env):
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)


def test_missing_library_is_a_clear_error(env_with_grit, tmp_path):
    env = dict(env_with_grit, GRIT_LIB=str(tmp_path / "nowhere" / "libgrit.so"))
    r = run_py("import grit\ntry:\n    grit.Scene()\nexcept grit.LibraryNotFoundError as e:\n    print('ERR', e)\n", env)
    assert r.returncode == 0, r.stderr
    assert "ERR grit: cannot load the shared library libgrit.so; tried:" in r.stdout
    assert "nowhere/libgrit.so (GRIT_LIB): no such file" in r.stdout and "set GRIT_LIB" in r.stdout
    # the plotting side needs no library
    r = run_py("import grit.plot, grit.records; print('plot ok')", env)
    assert r.stdout.strip() == "plot ok", r.stderr


def test_wrong_library_is_a_clear_error(env_with_grit):
    libm = "/lib/x86_64-linux-gnu/libm.so.6"
    env = dict(env_with_grit, GRIT_LIB=libm)
    r = run_py("import grit\ntry:\n    grit.Scene()\nexcept ImportError as e:\n    print('ERR', e)\n", env)
    assert f"ERR grit: {libm} lacks grit_scene_create" in r.stdout, r.stdout + r.stderr
