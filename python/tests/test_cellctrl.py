"""The periodic cell's stress/strain controller from Python: scene.cell.controller, controller_state(),
control_run() (the engine's grit_cell_ctrl_*, docs/periodic.md "Stress control")."""
import numpy as np
import pytest

import grit
from test_cell import gas, t28_scene


def test_servo_command_of_one_contact():
    """T28's contact along x: the servo's stiffness is l^2 kn / V, and the first update commands
    L_xx = gain e / D / dt."""
    s = t28_scene()
    s.run(1)
    kn = abs(s.contacts[0]["force"][0]) / 0.02
    assert s.cell.controller is None
    assert not s.cell.controller_state().active
    c = grit.CellController(mode=("stress", "rate", "rate"), goal=(-1900, 0, 0), max_rate=1e3)
    s.cell.controller = c
    got = s.cell.controller
    assert got.mode == ("stress", "rate", "rate") and got.goal == (-1900, 0, 0)
    assert got.gain == 0.5 and got.integral == 0.5 and got.every == 1 and got.settle == 1
    np.testing.assert_array_equal(got.grad_v, np.zeros((3, 3)))
    st = s.cell.controller_state()
    sig = s.stress()
    np.testing.assert_array_equal(st.stress, sig)
    assert st.active and st.updates == 0 and st.held == 0 and not st.converged
    assert st.error[0] == -1900 - sig[0, 0] and st.error[1] == st.error[2] == 0
    assert st.stiffness[0] == pytest.approx(0.1**2 * kn, rel=1e-12)  # 9424.78 Pa
    np.testing.assert_array_equal(st.integral, np.zeros(3))
    s.run(1)
    L = s.cell.grad_v
    assert L[0, 0] == pytest.approx(0.5 * st.error[0] / st.stiffness[0] / s.current_dt, rel=1e-12)
    assert L[1, 1] == L[2, 2] == 0 and s.cell.controller_state().updates == 1
    # removed: the last gradient stays
    s.cell.controller = None
    assert s.cell.controller is None
    s.run(2)
    assert s.cell.grad_v[0, 0] == L[0, 0]


def test_mixed_control_integral_and_restart(tmp_path):
    """Compacted to 20 Pa by control_run, then x and z held while y is compressed and xy sheared: the
    integral terms grow on the held axes only, and a saved scene continues bit for bit, terms included."""
    s = gas(5, seed=3)
    s.cell.controller = grit.CellController(mode=("stress",) * 3, goal=(-20.0,) * 3, max_rate=2.0,
                                            stress_tol=5e-3, settle=10)
    steps = s.cell.control_run(200000)
    st = s.cell.controller_state()
    print(f"compacted to {-np.trace(st.stress) / 3:.5g} Pa in {steps} steps, {st.updates} updates")
    assert st.converged and steps > 0 and np.all(np.abs(np.diag(st.stress) + 20) <= 5e-3 * st.scale)
    np.testing.assert_array_equal(st.integral, np.zeros(3))  # pure stress control: proportional only
    assert s.cell.control_run(10) == 0  # already converged
    s.cell.controller = grit.CellController(mode=("stress", "rate", "stress"), goal=(-20.0, -0.05, -30.0),
                                            grad_v=[[0, 0.05, 0], [0, 0, 0], [0, 0, 0]], max_rate=2.0, every=2)
    s.run(400)
    st = s.cell.controller_state()
    assert st.updates == 200 and st.integral[1] == 0 and st.integral[0] != 0 and st.integral[2] != 0
    assert s.cell.grad_v[1, 1] == -0.05 and s.cell.grad_v[0, 1] == 0.05
    path = str(tmp_path / "ctrl.grit")
    s.save(path)
    t = grit.Scene.load(path)
    assert t.cell.controller == s.cell.controller
    s.run(201)
    t.run(201)
    a, b = s.cell.controller_state(), t.cell.controller_state()
    for f in ("stress", "error", "stiffness", "integral"):
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f))
    assert a.updates == b.updates == 301  # at steps 1, 3, ..., 601
    print(f"held sigma_xx {a.stress[0, 0]:.5g}, sigma_zz {a.stress[2, 2]:.5g} Pa; integral terms {a.integral}")


def test_errors():
    s = grit.Scene()
    s.add([grit.Sphere((0.5, 0.5, 0.5), 0.06)])
    s.cell = (1, 1, 1)
    cell = s.cell
    with pytest.raises(grit.StateError, match="no controller"):
        cell.control_run(10)
    bad = [
        (dict(mode=("stress", "rate")), "mode = .* must be 3 modes"),
        (dict(mode=("rate", "strain", "rate")), r"mode\[1\] = 'strain' \(axis y\) is neither"),
        (dict(goal=(0, np.nan, 0)), "goal"),
        (dict(grad_v=np.eye(2)), "grad_v must be a 3x3 matrix"),
        (dict(gain=1.0), "gain = 1 is out of range"),
        (dict(integral=1.0), "integral = 1 is out of range"),
        (dict(integral=-0.5), "integral = -0.5 is out of range"),
        (dict(max_rate=0.0), "max_rate = 0"),
        (dict(every=0), "every = 0"),
        (dict(settle=2.5), "settle = 2.5 is not an integer"),
        (dict(gain="half"), "gain = 'half' is not a number"),
    ]
    for kw, msg in bad:
        with pytest.raises(grit.ParameterError, match=msg):
            cell.controller = grit.CellController(**kw)
        assert cell.controller is None  # nothing installed
    with pytest.raises(grit.ParameterError, match="give a grit.CellController or None"):
        cell.controller = {"gain": 0.5}
    with pytest.raises(grit.ParameterError, match="max_steps"):
        cell.control_run(1.5)
    # a goal the lone sphere cannot reach: control_run gives up with the remaining error
    cell.controller = grit.CellController(mode=("stress", "rate", "rate"), goal=(-1e3, 0, 0), max_rate=1e-3)
    with pytest.raises(grit.StateError, match="not converged after 7 steps: relative stress error 1"):
        cell.control_run(7)
    assert cell.controller_state().updates == 7
    del cell.controller
    assert cell.controller is None
