"""CSV records and figures."""
import subprocess
import sys

import matplotlib.image
import numpy as np
import pytest

import grit
from grit import plot, records


def energy_run(tmp_path):
    s = grit.Scene(dt=1e-5, gravity=(0, 0, -9.81))
    m = grit.FrictMat(density=2600, young=1e7)
    s.add(grit.Wall(0, axis="z", sense=1, mat=m))
    s.add(grit.Sphere((0, 0, 0.0505), 0.05, mat=m))
    rec = grit.EnergyRecorder(s, every=20)
    s.run(4000)
    return s, rec


def test_energy_recorder_csv_round_trip(tmp_path):
    s, rec = energy_run(tmp_path)
    assert s.track_energy is True
    path = rec.save(str(tmp_path / "sub" / "energy.csv"))
    header = open(path).readline().strip()
    names = s.energy.names
    assert names[:3] == ["kinetic", "elast", "grav"]
    assert header == "step,time[s]," + ",".join(f"{n}[J]" for n in names) + ",total[J],rel_error"
    data = records.read_csv(path)
    assert isinstance(data, records.Records) and list(data) == ["step", "time", *names, "total", "rel_error"]
    assert data.units == {"step": "", "time": "s", **{n: "J" for n in names}, "total": "J", "rel_error": ""}
    assert data["time[s]"] is data["time"] and data.label("time") == "time [s]" and data.label("step") == "step"
    with pytest.raises(KeyError):
        data["time[ms]"]
    assert list(data["step"][:3]) == [20, 40, 60] and len(data["step"]) == 200
    for k, v in rec.data.items():
        assert np.array_equal(data[k], v)  # %.17g: exact
    assert data["elast"].max() > 0 and np.allclose(data["total"], sum(data[n] for n in s.energy.names), atol=1e-15)
    rec.stop()
    s.run(100)
    assert len(rec.rows) == 200


def test_energy_figure(tmp_path):
    s, rec = energy_run(tmp_path)
    (png,) = rec.plot(str(tmp_path / "e.png"), title="test")
    img = matplotlib.image.imread(png)
    assert img.shape[0] > 500 and img.shape[1] > 700
    # from the command line, as `grit plot` runs it
    csv = rec.save(str(tmp_path / "energy.csv"))
    r = subprocess.run([sys.executable, "-m", "grit.plot", csv], capture_output=True, text=True,
                       env={"PYTHONPATH": str(plot.__file__).rsplit("/grit/", 1)[0]})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == str(tmp_path / "energy.png")
    assert (tmp_path / "energy.png").stat().st_size > 10000


def test_csv_units(tmp_path):
    """Units in the header: written from a mapping or with the name, read back apart from the names; a file
    without units reads as before."""
    path = str(tmp_path / "u.csv")
    records.write_csv(path, ["step", "t", "force[N]"], [[1, 0.5, 2.0]], units={"t": "s", "step": ""})
    assert open(path).readline() == "step,t[s],force[N]\n"
    d = records.read_csv(path)
    assert list(d) == ["step", "t", "force"] and d.units == {"step": "", "t": "s", "force": "N"}
    assert d["force"][0] == 2.0 and d["force[N]"][0] == 2.0
    (tmp_path / "plain.csv").write_text("a, b [m/s] \n1,2\n")
    d = records.read_csv(str(tmp_path / "plain.csv"))
    assert list(d) == ["a", "b"] and d.units == {"a": "", "b": "m/s"} and d["b"][0] == 2.0
    with pytest.raises(ValueError, match="must not contain commas or brackets"):
        records.write_csv(path, ["x"], [[1]], units={"x": "m]"})


def test_csv_errors(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("# comment\nstep,time,total,rel_error\n1,0.1,2,0\n2,0.2,x,0\n")
    with pytest.raises(ValueError, match=r"bad.csv:4: column 'total': 'x' is not a number"):
        records.read_csv(str(bad))
    bad.write_text("step,time\n1,2,3\n")
    with pytest.raises(ValueError, match=r"bad.csv:2: 3 fields, the header has 2"):
        records.read_csv(str(bad))
    bad.write_text("")
    with pytest.raises(ValueError, match="no header line"):
        records.read_csv(str(bad))
    bad.write_text("a,a\n1,2\n")
    with pytest.raises(ValueError, match="repeated column names"):
        records.read_csv(str(bad))
    with pytest.raises(ValueError, match="must not contain commas"):
        records.write_csv(str(tmp_path / "x.csv"), ["a,b"], [])
    with pytest.raises(ValueError, match="row of 1 values for 2 columns"):
        records.write_csv(str(tmp_path / "x.csv"), ["a", "b"], [[1]])
    records.write_csv(str(tmp_path / "n.csv"), ["a", "b"], [[float("nan"), float("-inf")]])
    assert open(tmp_path / "n.csv").read() == "a,b\nnan,-inf\n"


def test_cli_errors(tmp_path, capsys):
    other = tmp_path / "other.csv"
    other.write_text("x,y\n1,2\n")
    assert plot.main([str(other)]) == 1
    assert "cannot tell what the columns x, y are; known kinds: energy, lawtest, stress, uniax, stats, shear, discharge (use --kind)" in capsys.readouterr().err
    assert plot.main([str(other), "--kind", "energy"]) == 1
    assert "an energy plot needs the columns time, total, rel_error" in capsys.readouterr().err
    assert plot.main([str(tmp_path / "missing.csv")]) == 1
    assert "No such file" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        plot.main([str(other), str(other), "-o", "x.png"])


def synthetic_lawtest(path):
    """A law-tester record (columns as in include/grit/tester.h) of an elastic-plastic path."""
    n = 300
    t = np.linspace(0, 3, n)
    stage = np.repeat([0, 1, 2], n // 3)
    u = np.zeros((6, n))
    u[0] = -np.minimum(t, 1) * 1e-3
    u[1] = np.clip(t - 1, 0, 1) * 2e-3
    f = np.zeros((6, n))
    f[0] = 1e6 * u[0] * np.where(stage == 2, 1 - (t - 2), 1)
    f[1] = -np.minimum(2e5 * u[1], 0.5 * -f[0])
    cols = ["step", "time", "stage", "contact"] + [f"u{j}" for j in range(6)] + [f"f{j}" for j in range(6)]
    rows = np.column_stack([np.arange(n), t, stage, np.ones(n), *u, *f])
    rows[:5, 4:] = np.nan  # no contact yet
    records.write_csv(path, cols, rows)


def test_lawtest_figures(tmp_path):
    csv = str(tmp_path / "law.csv")
    synthetic_lawtest(csv)
    assert plot.detect_kind(records.read_csv(csv)) == "lawtest"
    paths = plot.plot_file(csv, tan_phi=0.5)
    assert paths == [str(tmp_path / "law-dofs.png"), str(tmp_path / "law-cone.png")]
    for p in paths:
        assert matplotlib.image.imread(p).shape[0] > 400


def test_stress_kind(tmp_path):
    """stress.csv of a periodic run: recognised by its columns; the strain panel is the log strain of F."""
    t = np.linspace(0, 1, 50)
    g = 0.4 * t  # simple shear F = I + g e_x e_y
    data = {"step": np.arange(50.0), "time": t, "volume": np.ones(50), "p": 1e4 * t}
    for c in ("xx", "yy", "zz", "yz", "xz", "xy"):
        data[f"s_{c}"] = (-1e4 if c[0] == c[1] else 0.3e4) * t
    for a in "xyz":
        for b in "xyz":
            data[f"F_{a}{b}"] = g if a + b == "xy" else np.full(50, float(a == b))
            data[f"L_{a}{b}"] = np.full(50, 0.4 if a + b == "xy" else 0.0)
    assert plot.detect_kind(data) == "stress"
    e = plot.hencky_from_columns(data)
    w = np.linalg.eigvalsh(e[-1])
    assert np.allclose(np.sort(w), [-np.arcsinh(0.2), 0, np.arcsinh(0.2)], atol=1e-12)  # +-asinh(g/2)
    csv = str(tmp_path / "stress.csv")
    records.write_csv(csv, list(data), np.column_stack(list(data.values())))
    (png,) = plot.plot_file(csv)
    assert png == str(tmp_path / "stress.png")
    img = matplotlib.image.imread(png)
    assert img.shape[0] > 600 and img.shape[1] > 900


def titles_of(monkeypatch):
    """Capture every figure's titles instead of writing it."""
    seen = []

    def finish(fig, out):
        seen.append([fig._suptitle.get_text() if fig._suptitle else ""] + [a.get_title() for a in fig.axes])
        matplotlib.pyplot.close(fig)
        return str(out)
    monkeypatch.setattr(plot, "_finish", finish)
    return seen


def test_titles_name_the_run_and_the_quantity(tmp_path, monkeypatch):
    """The default title: the quantity and the run, from grit-run.txt beside the CSV (OUT.partial named as OUT),
    else the file's name; --title replaces it."""
    run = tmp_path / "bed.partial"
    run.mkdir()
    (run / "grit-run.txt").write_text("# grit 0.1.0: the parameters of this run\n# grit run deposit n=60 out=bed\nn=60\n")
    csv = str(run / "energy.csv")
    records.write_csv(csv, ["step", "time", "kinetic", "total", "rel_error"], [[0, 0, 1, 1, 0], [1, 1, 2, 2, 0.5]],
                      units={"time": "s", "kinetic": "J", "total": "J"})
    assert plot.run_name(csv) == "grit run deposit (bed/)"
    seen = titles_of(monkeypatch)
    plot.plot_file(csv)
    assert seen[-1][1] == "energy balance — grit run deposit (bed/)"
    plot.plot_file(csv, title="mine")
    assert seen[-1][1] == "mine"
    (run / "grit-run.txt").unlink()
    assert plot.run_name(csv) == "energy.csv"
    plot.plot_file(csv)
    assert seen[-1][1] == "energy balance — energy.csv"
    law = str(tmp_path / "law.csv")
    synthetic_lawtest(law)
    plot.plot_file(law)
    assert seen[-2][0] == "law test: force against displacement per DoF (on A, tester frame) — law.csv"
    assert seen[-1][1] == "law test: friction cone — law.csv"
    curves = str(tmp_path / "curves.csv")  # the uniaxial test's (its loop over the runs once took the name)
    records.write_csv(curves, ["run", "strain", "stress"], [[1, 0, 0], [1, 1e-4, 3e6], [2, 0, 0], [2, -1e-3, -3e7]])
    plot.plot_file(curves)
    assert seen[-1][1:] == ["uniaxial test: stress-strain curves — curves.csv", "tension"]


def test_stats_kind(tmp_path, monkeypatch):
    """stats.csv of grit run: recognised, three panels (pairs, dt, broad-phase counts)."""
    n = 40
    t = np.linspace(0, 0.1, n)
    cols = {"step": np.arange(n) * 10.0, "time": t, "dt": np.full(n, 2.5e-6), "contacts": np.arange(n) * 3.0,
            "potential_pairs": np.arange(n) * 5.0, "rebuilds": np.arange(n) // 4, "sorts": np.arange(n) // 20}
    csv = str(tmp_path / "stats.csv")
    records.write_csv(csv, list(cols), np.column_stack(list(cols.values())), units={"time": "s", "dt": "s"})
    assert plot.detect_kind(records.read_csv(csv)) == "stats"
    (png,) = plot.plot_file(csv)
    assert png == str(tmp_path / "stats.png") and matplotlib.image.imread(png).shape[0] > 700
    seen = titles_of(monkeypatch)
    plot.plot_file(csv)
    assert seen[-1][1:] == ["contacts, time step and broad phase — stats.csv", "", ""]


def test_discharge_kind(tmp_path, monkeypatch):
    """discharge.csv of grit run silo: recognised, the deleted mass and the rate between rows."""
    t = np.linspace(0, 0.5, 51)
    m = np.clip(t - 0.2, 0, None) * 0.06  # 60 g/s from t = 0.2 s
    csv = str(tmp_path / "discharge.csv")
    records.write_csv(csv, ["step", "time", "mass_0", "count_0"],
                      np.column_stack([np.arange(51) * 100.0, t, m, np.floor(m / 8.7e-5)]),
                      units={"time": "s", "mass_0": "kg"})
    assert plot.detect_kind(records.read_csv(csv)) == "discharge"
    seen = titles_of(monkeypatch)
    plot.plot_file(csv)
    assert seen[-1][1:] == ["discharge through the outlets — discharge.csv", ""]


def test_shear_kind(tmp_path, monkeypatch):
    """The periodic simple-shear record of examples/periodic_shear.py: ratio against gamma, eps_v below."""
    g = np.linspace(0, 0.5, 60)
    cols = {"time": g / 2, "gamma": g, "volume": 1 + 0.01 * g, "p": np.full(60, 1e4), "s_xx": np.full(60, -1e4),
            "s_yy": np.full(60, -1e4), "s_zz": np.full(60, -1e4), "s_xy": 3e3 * np.tanh(10 * g),
            "ratio": 0.3 * np.tanh(10 * g), "eps_v": np.log(1 + 0.01 * g)}
    csv = str(tmp_path / "periodic-shear.csv")
    records.write_csv(csv, list(cols), np.column_stack(list(cols.values())))
    assert plot.detect_kind(records.read_csv(csv)) == "shear"
    (png,) = plot.plot_file(csv)
    assert matplotlib.image.imread(png).shape[0] > 600
    seen = titles_of(monkeypatch)
    plot.plot_file(csv)
    assert seen[-1][1] == "periodic simple shear: stress ratio — periodic-shear.csv"


def test_lawtest_legends_say_what_each_stage_does():
    """The tester's stages in words for the legends (was 'vvvvvv until not C')."""
    st = [grit.Stage(values=(-0.01, 0, 0, 0, 0, 0), whats="vvvvvv", until="uN < -0.005"),
          grit.Stage(values=(1e-4, 0, 0, 0, 0, 0), whats="v.....", until="not C"),
          grit.Stage(values=(-5, 0, 0, 0.1, 0, 0), whats="fvvf..", until="step > 5")]
    assert [s.describe() for s in st] == [
        "normal velocity -0.01 m/s (the rest held) until uN < -0.005",
        "normal velocity 0.0001 m/s (the rest free) until not C",
        "normal force -5 N, twist torque 0.1 N m (held: shear y, shear z; free: bending y, bending z) until step > 5"]
