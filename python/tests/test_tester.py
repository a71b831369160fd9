"""The law tester from Python: the engine's tester, stages with text or Python conditions, the record."""
import math

import numpy as np
import pytest

import grit

KN = 7853981.633974483  # E pi r / 2, r = 0.5, E = 1e7


def two_spheres(tan_phi=0.5, law="idealelpl", **kw):
    s = grit.Scene(dt=1e-3, track_energy=True, **kw)
    m = grit.FrictMat(young=1e7, density=1000, kt_div_kn=0.2, tan_phi=tan_phi, law=law)
    s.add(grit.Sphere((0, 0, 0), 0.5, mat=m))
    s.add(grit.Sphere((1, 0, 0), 0.5, mat=m))
    return s


def test_compression_follows_kn_and_the_record():
    s = two_spheres()
    t = grit.LawTester(s, (0, 1), ab_weight=0.5, record_every=1,
                       stages=[grit.Stage((-0.01, 0, 0, 0, 0, 0), "vvvvvv", until="uN < -0.002")])
    assert t.params == {"ab_weight": 0.5, "smooth": 1e-4, "smooth_err": -1.0, "record_every": 1}
    assert t.stage_count == 1 and not t.done
    n = t.run(10000)
    assert t.done and n == s.step
    rec = t.record
    assert t.columns[:6] == ["step", "time", "stage", "stage_step", "contact", "dist"]
    assert len(rec["step"]) == n and rec["step"][-1] == n
    c = rec["contact"] > 0
    assert np.allclose(rec["f0"][c], KN * rec["u0"][c], rtol=1e-12, atol=0)
    st = t.state
    assert st.stage == 1 and st.u[0] < -0.002 and st.k[0] == pytest.approx(KN, rel=1e-12)
    assert st.axes[0] == pytest.approx((1, 0, 0)) and set(st.as_dict()) >= {"f", "u", "axes", "work"}
    with pytest.raises(AttributeError, match="tester state has no 'force'"):
        st.force


def test_python_condition_and_done_action():
    s = two_spheres()
    seen = []
    t = grit.LawTester(s, (0, 1), stages=[
        grit.Stage((-0.01, 0, 0, 0, 0, 0), "vvvvvv", until=lambda tt: tt.state.has_contact and tt.state.u[0] < -1e-3,
                   done=lambda tt: seen.append(tt.scene.step)),
        grit.Stage((0, 0.01, 0, 0, 0, 0), "vvvvvv", until=("u[1] >= 0.001", lambda tt: False), until_every=10),
    ])
    t.run(20000)
    assert len(seen) == 1 and t.done
    assert t.state.u[1] >= 0.001


def test_same_as_the_c_tester_for_the_seed_stages():
    # stage 2 (shear at constant normal displacement) slides at tan(phi) |f_n|; unloading keeps it on the cone
    s = two_spheres()
    t = grit.LawTester(s, (0, 1), ab_weight=0.5, record_every=1, stages=[
        grit.Stage((-0.01, 0, 0, 0, 0, 0), "vvvvvv", until="uN < -0.005"),
        grit.Stage((0, 0.01, 0, 0, 0, 0), "vvvvvv", until="u[1] >= 0.02"),
        grit.Stage((1e-4, 0, 0, 0, 0, 0), "vvvvvv", until="not C")])
    t.run(100000)
    r = t.record
    c = (r["contact"] > 0) & (r["stage"] == 2)
    ratio = np.hypot(r["f1"][c], r["f2"][c]) / (0.5 * -r["f0"][c])
    assert np.max(np.abs(ratio - 1)) < 1e-12 and c.sum() > 30000


def test_errors(tmp_path):
    s = two_spheres()
    with pytest.raises(grit.ParameterError, match=r"tester: ids \(0, 5\) must be two different existing particles"):
        grit.LawTester(s, (0, 5))
    with pytest.raises(grit.ParameterError, match=r"ids = 3 must be two particle ids"):
        grit.LawTester(s, 3)
    with pytest.raises(grit.ParameterError, match=r"parameter 'ab_weight' = 2 is out of range: must be \[0, 1\]"):
        grit.LawTester(s, (0, 1), ab_weight=2)
    with pytest.raises(grit.ParameterError, match="unknown tester parameter 'smoth'"):
        grit.LawTester(s, (0, 1), smoth=0.1)
    with pytest.raises(grit.ParameterError, match="not a grit.Scene"):
        grit.LawTester("scene")
    with pytest.raises(grit.ParameterError, match="values = .* must be 6 numbers"):
        grit.Stage((1, 2, 3))
    with pytest.raises(grit.ParameterError):
        grit.Stage(until="uN << 3")
    t = grit.LawTester(s, (0, 1))
    with pytest.raises(grit.ParameterError, match="whats 'vvx...' must be 6 letters"):
        t.add_stage(grit.Stage(whats="vvx...", until="C"))
    with pytest.raises(grit.ParameterError, match="whats 'vv' must be 6 letters"):
        t.add_stage(grit.Stage(whats="vv", until="C"))
    with pytest.raises(grit.ParameterError, match="no end condition"):
        t.add_stage(grit.Stage())
    with pytest.raises(grit.ParameterError, match="reset_energy names 'plastic'"):
        t.add_stage(grit.Stage(until="C", reset_energy="plastic"))
    with pytest.raises(grit.ParameterError, match="until_every = 0 must be >= 1"):
        t.add_stage(grit.Stage(until="C", until_every=0))
    with pytest.raises(grit.ParameterError, match="is not a grit.Stage"):
        t.add_stage("C")
    assert t.stage_count == 0
    t.add_stage(grit.Stage((-0.01, 0, 0, 0, 0, 0), "vvvvvv", until="step > 1000000"))
    with pytest.raises(grit.StateError, match="did not end within 50 steps"):
        t.run(50)
    with pytest.raises(grit.ParameterError, match="max_steps = -1"):
        t.run(-1)


def test_exception_in_a_condition_propagates():
    s = two_spheres()

    def bad(tt):
        raise ZeroDivisionError("in the condition")
    t = grit.LawTester(s, (0, 1), stages=[grit.Stage((-0.01, 0, 0, 0, 0, 0), "vvvvvv", until=bad)])
    with pytest.raises(ZeroDivisionError, match="in the condition"):
        t.run(100)
    assert s.step == 1


def test_closing_the_scene_frees_the_tester(tmp_path):
    s = two_spheres()
    t = grit.LawTester(s, (0, 1), record_every=1,
                       stages=[grit.Stage((-0.01, 0, 0, 0, 0, 0), "vvvvvv", until="uN < -0.001")])
    t.run(1000)
    path = t.save(str(tmp_path / "rec" / "law.csv"))
    data = grit.read_csv(path)
    assert np.array_equal(data["u0"], t.record["u0"], equal_nan=True)
    pngs = t.plot(str(tmp_path / "law.png"), tan_phi=0.5)
    assert len(pngs) == 2
    s.close()
    assert "closed" in repr(t)
    with pytest.raises(grit.StateError, match="closed"):
        t.run(1)
    t.close()  # idempotent


def test_linel6_work_equals_stored_energy():
    s = two_spheres(law="linel6", char_len=0.1)
    t = grit.LawTester(s, (0, 1), ab_weight=0.5, stages=[
        grit.Stage((-0.01, 0, 0, 0, 0, 0), "vvvvvv", until="uN < -0.002"),
        grit.Stage((0, 0, 0, 0.05, 0.02, 0), "vvvvvv", until="step >= 200")])
    t.run(5000)
    assert t.state.work == pytest.approx(s.energy["elast"], rel=1e-9)
    assert t.state.f[3] == pytest.approx(KN / 0.1 * t.state.u[3], rel=1e-6)
    assert not math.isnan(t.state.f[4])
