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
