"""The eight DEM benchmark tests of Chung & Ooi (2011) under grit's Hertz-Mindlin law (docs/hertz.md).

Run:  PYTHONPATH=python /usr/bin/python3 examples/chung_ooi.py [OUTDIR]

Chung, Y.C., Ooi, J.Y. (2011). Benchmark tests for verifying discrete element modelling codes at particle
impact level. Granular Matter 13, 643-656. Each test is one impact (two spheres, or a sphere on a rigid
plane: a wall a million times stiffer), run at 0.02 of the Rayleigh time; the figures redraw the paper's,
grit's points against the theory the paper compares with:

  1  two identical spheres, 10 m/s each (glass, limestone): force-time and force-overlap, Hertz;
  2  a sphere on a rigid plane at 0.2 m/s (Al alloy, Mg alloy): the same;
  3  a sphere on a plane at 3.9 m/s with restitution 0-1 (Al oxide, cast iron): rebound/impact speed;
  4  oblique impacts at 3.9 m/s, incident angle 5-85 deg (Al oxide, Al alloy, mu 0.092, e 0.98): tangential
     restitution, spin and rebound angle of the contact point, with the rigid-body theory (sliding, and
     rolling at the end where it does not slide throughout);
  5  normal speed 5 m/s, tangential speed varied (steel, polyethylene, mu 0.3, elastic): the contact point's
     normalised recoil and the normalised spin against the normalised incident speed;
  6  normal speed 0.2 m/s, spin varied (Al alloy, nylon, mu 0.4, e 0.5): the contact point's tangential
     restitution beta and the recoil angle;
  7  two identical spheres at 0.2 m/s each, both spinning (Al alloy, copper): tangential velocity and spin
     after the impact against the initial spin;
  8  as 6, on a sphere five times larger and a thousand times denser.

Figures OUTDIR/chung-ooi.png (all tests) and the results OUTDIR/chung-ooi.csv (test, material, x, y, quantity).
The script asserts the agreement the C test tests/test_chung_ooi.c checks more finely.
"""
import csv
import math
import os
import sys

import numpy as np

import grit

out = sys.argv[1] if len(sys.argv) > 1 else "out"
os.makedirs(out, exist_ok=True)

SOLIDS = {  # E (Pa), nu, rho (kg/m^3), as the paper gives them
    "glass": (4.8e10, 0.20, 2800), "limestone": (2.0e10, 0.25, 2500),
    "Al alloy (test 2)": (7.0e10, 0.30, 2699), "Mg alloy": (4.0e10, 0.35, 1800),
    "Al oxide": (3.8e11, 0.23, 4000), "cast iron": (1.0e11, 0.25, 7000),
    "Al alloy": (7.0e10, 0.33, 2700), "steel": (2.08e11, 0.30, 7850), "polyethylene": (1.0e9, 0.40, 1400),
    "nylon": (2.5e9, 0.40, 1000), "copper": (1.2e11, 0.35, 8900),
}


def rayleigh_time(name, r):
    E, nu, rho = SOLIDS[name]
    return math.pi * r * math.sqrt(rho * 2 * (1 + nu) / E) / (0.1631 * nu + 0.8766)


def impact(name, r, v1, w1=(0, 0, 0), mu=0.0, e=1.0, target="wall", r2=None, v2=(0, 0, 0), w2=(0, 0, 0),
           density2=None, record=False):
    """Sphere 1 (radius r) at -x moving onto a rigid wall at x = 0 or onto sphere 2 (radius r2) at +x."""
    E, nu, rho = SOLIDS[name]
    s = grit.Scene(dt=0.02 * rayleigh_time(name, r), track_energy=True)
    mat = grit.HertzMat(young=E, poisson=nu, density=rho, tan_phi=mu, restitution=e)
    a = s.add(grit.Sphere((-r * 1.0001, 0, 0), r, mat=mat, vel=v1, angvel=w1))
    b = None
    if target == "wall":
        s.add(grit.Wall(0.0, axis=0, mat=grit.HertzMat(young=1e6 * E, poisson=nu, density=rho, tan_phi=mu,
                                                          restitution=e)))
    else:
        m2 = mat if density2 is None else grit.HertzMat(young=E, poisson=nu, density=density2, tan_phi=mu,
                                                         restitution=e)
        b = s.add(grit.Sphere((r2 * 1.0001, 0, 0), r2, mat=m2, vel=v2, angvel=w2))
    hist, touched = [], False
    for _ in range(100000):
        s.run(1)
        if len(s.contacts):
            touched = True
            if record:
                hist.append((s.time, -s.contacts.uN[0], abs(s.contacts.force[0, 0])))
        elif touched:
            break
    assert touched, name
    p = s.particles
    res = dict(v1=np.array(p[a].vel), w1=np.array(p[a].angvel), hist=np.array(hist), balance=s.energy.rel_error)
    res["v2"] = np.array(p[b].vel) if b is not None else np.zeros(3)
    res["w2"] = np.array(p[b].angvel) if b is not None else np.zeros(3)
    return res


rows = []  # (test, material, x, y, quantity)


def hertz_curves(E, R, m, v):
    """Hertz's elastic impact: overlap and force against time (quadrature of the energy equation)."""
    dmax = (15 * m * v * v / (16 * E * math.sqrt(R))) ** 0.4
    x = np.linspace(0, 1, 400)[1:]
    # t(x) = dmax / v int_0^x du / sqrt(1 - u^(5/2)), by the trapezoid on a fine grid
    u = np.linspace(0, 1, 200001)
    f = 1 / np.sqrt(np.maximum(1 - u ** 2.5, 1e-300))
    f[-1] = f[-2]
    cum = np.concatenate([[0], np.cumsum((f[1:] + f[:-1]) / 2 * np.diff(u))])
    t = np.interp(x, u, cum) * dmax / v
    d = x * dmax
    F = 4 / 3 * E * math.sqrt(R) * d ** 1.5
    return np.concatenate([t, 2 * t[-1] - t[::-1]]), np.concatenate([d, d[::-1]]), np.concatenate([F, F[::-1]])


def mass(name, r):
    return SOLIDS[name][2] * 4 / 3 * math.pi * r ** 3


figs = {}


def panel(key):
    return figs.setdefault(key, {"series": [], "theory": []})


# ---- 1 and 2: elastic normal impacts ------------------------------------------------
for test, names, r, v, target in ((1, ("glass", "limestone"), 0.010, 10.0, "sphere"),
                                  (2, ("Al alloy (test 2)", "Mg alloy"), 0.10, 0.2, "wall")):
    for name in names:
        E, nu, rho = SOLIDS[name]
        if target == "sphere":
            res = impact(name, r, (v, 0, 0), target="sphere", r2=r, v2=(-v, 0, 0), record=True)
            Es, Rs, ms, vr = E / (2 * (1 - nu * nu)), r / 2, mass(name, r) / 2, 2 * v
        else:
            res = impact(name, r, (v, 0, 0), record=True)
            Es, Rs, ms, vr = 1 / ((1 - nu * nu) / E + (1 - nu * nu) / (1e6 * E)), r, mass(name, r), v
        h = res["hist"]
        t0 = h[0, 0] - 0.5 * (h[1, 0] - h[0, 0])
        tt, dd, FF = hertz_curves(Es, Rs, ms, vr)
        fmax, dmax = h[:, 2].max(), h[:, 1].max()
        print(f"test {test}, {name}: Fmax {fmax / 1e3:.3f} kN (Hertz {FF.max() / 1e3:.3f}), max overlap "
              f"{dmax * 1e6:.2f} um (Hertz {dd.max() * 1e6:.2f}), duration {len(h) * (h[1, 0] - h[0, 0]) * 1e6:.1f} us "
              f"(Hertz {tt[-1] * 1e6:.1f})")
        assert abs(fmax / FF.max() - 1) < 5e-3 and abs(dmax / dd.max() - 1) < 5e-3
        h = h[:: max(1, len(h) // 40)]  # the figure shows every few steps, so the theory line shows too
        panel((test, "time"))["series"].append((name, (h[:, 0] - t0) * 1e6, h[:, 2] / 1e3))
        panel((test, "time"))["theory"].append((tt * 1e6, FF / 1e3))
        panel((test, "overlap"))["series"].append((name, h[:, 1] * 1e6, h[:, 2] / 1e3))
        panel((test, "overlap"))["theory"].append((dd * 1e6, FF / 1e3))
        rows += [(test, name, dmax, fmax, "max overlap (m), max force (N)"),
                 (test, name, dd.max(), FF.max(), "Hertz: max overlap (m), max force (N)")]

# ---- 3: restitution ----------------------------------------------------------------------
for name in ("Al oxide", "cast iron"):
    es = np.linspace(0, 1, 11)
    got = [-impact(name, 0.0025, (3.9, 0, 0), e=e)["v1"][0] / 3.9 for e in es]
    print(f"test 3, {name}: rebound/impact " + " ".join(f"{e:.1f}:{g:.4f}" for e, g in zip(es, got)))
    assert np.allclose(got, es, atol=3e-3)
    panel((3, "e"))["series"].append((name, es, np.array(got)))
    rows += [(3, name, e, g, "restitution") for e, g in zip(es, got)]
panel((3, "e"))["theory"].append((np.array([0, 1]), np.array([0, 1])))

# ---- 4: incident angle ----------------------------------------------------------------
r4, v4, mu4, e4 = 0.0025, 3.9, 0.092, 0.98
for name in ("Al oxide", "Al alloy"):
    ang, et, wz, reb = [], [], [], []
    for deg in range(5, 90, 5):
        th = math.radians(deg)
        vn, vt = v4 * math.cos(th), v4 * math.sin(th)
        res = impact(name, r4, (vn, vt, 0), mu=mu4, e=e4)
        ang.append(deg)
        et.append(res["v1"][1] / vt)
        wz.append(res["w1"][2])
        reb.append(math.degrees(math.atan((res["v1"][1] + res["w1"][2] * r4) / -res["v1"][0])))
    print(f"test 4, {name}: tangential restitution " + " ".join(f"{a}:{x:.3f}" for a, x in zip(ang, et)))
    for key, y in (("et", et), ("w", wz), ("rebound", reb)):
        panel((4, key))["series"].append((name, np.array(ang), np.array(y)))
        rows += [(4, name, a, v, key) for a, v in zip(ang, y)]
    assert min(et) < 5 / 7 - 0.03  # the dip of Mindlin's compliance
th = np.radians(np.linspace(1, 89, 200))
vn, vt = v4 * np.cos(th), v4 * np.sin(th)
slide = np.tan(th) > 3.5 * mu4 * (1 + e4)
panel((4, "et"))["theory"].append((np.degrees(th), np.where(slide, 1 - mu4 * (1 + e4) / np.tan(th), 5 / 7)))
panel((4, "w"))["theory"].append((np.degrees(th), np.where(slide, -2.5 * mu4 * (1 + e4) * vn / r4, -5 / 7 * vt / r4)))
panel((4, "rebound"))["theory"].append(
    (np.degrees(th), np.degrees(np.arctan(np.where(slide, (vt - 3.5 * mu4 * (1 + e4) * vn) / (e4 * vn), 0.0)))))

# ---- 5: tangential speed, normalised --------------------------------------------------
r5, vn5, mu5 = 1e-5, 5.0, 0.3
for name in ("steel", "polyethylene"):
    psi1 = np.linspace(0.5, 12, 18)
    psi2, spin = [], []
    for p1 in psi1:
        res = impact(name, r5, (vn5, p1 * mu5 * vn5, 0), mu=mu5, e=1.0)
        vn2 = -res["v1"][0]
        psi2.append((res["v1"][1] + res["w1"][2] * r5) / (mu5 * vn2))
        spin.append(res["w1"][2] * r5 / (mu5 * vn5))
    print(f"test 5, {name}: recoil " + " ".join(f"{a:.1f}:{b:.2f}" for a, b in zip(psi1, psi2)))
    assert min(psi2) < -0.5 and abs(psi2[-1] - (psi1[-1] - 7)) < 0.15
    panel((5, "recoil"))["series"].append((name, psi1, np.array(psi2)))
    panel((5, "spin"))["series"].append((name, psi1, np.array(spin)))
    rows += [(5, name, a, b, "recoil") for a, b in zip(psi1, psi2)] + [(5, name, a, b, "spin") for a, b in zip(psi1, spin)]
p = np.linspace(0, 12, 200)
panel((5, "recoil"))["theory"].append((p, np.where(p > 7, p - 7, np.nan)))
panel((5, "spin"))["theory"].append((p, np.where(p > 7, -5.0, -5 / 7 * p)))


# ---- 6 and 8: spin varied ----------------------------------------------------------------
def spin_test(test, target, r2=None, density2=None):
    r, vn, mu, e = 0.1, 0.2, 0.4, 0.5
    for name in ("Al alloy", "nylon"):
        xs, betas, tin, trec = [], [], [], []
        for k in range(16):
            tan_in = 0.05 * 1.45 ** k
            w = -tan_in * vn / r
            res = impact(name, r, (vn, 0, 0), (0, 0, w), mu=mu, e=e, target=target, r2=r2,
                         density2=None if density2 is None else density2 * SOLIDS[name][2])
            un = res["v1"][0] - res["v2"][0]
            ut = (res["v1"][1] + res["w1"][2] * r) - (res["v2"][1] - res["w2"][2] * (r2 or 0))
            en = -un / vn
            xs.append(3.5 * mu * (1 + en) * vn / abs(w * r))
            betas.append(-ut / (w * r))
            tin.append(tan_in)
            trec.append(-ut / -un)
        print(f"test {test}, {name}: beta " + " ".join(f"{x:.2f}:{b:.3f}" for x, b in zip(xs, betas)))
        xs, betas = np.array(xs), np.array(betas)
        assert np.allclose(betas[xs < 0.9], xs[xs < 0.9] - 1, atol=5e-3) and betas.max() > 0.05
        panel((test, "beta"))["series"].append((name, xs, betas))
        panel((test, "recoil"))["series"].append((name, np.array(tin), np.array(trec)))
        rows.extend((test, name, a, b, "beta") for a, b in zip(xs, betas))
        rows.extend((test, name, a, b, "tan recoil") for a, b in zip(tin, trec))
    x = np.linspace(0.02, 25, 400)
    panel((test, "beta"))["theory"].append((x, np.where(x < 1, x - 1, 0.0)))
    t = np.linspace(0, 14, 200)
    panel((test, "recoil"))["theory"].append((t, np.where(t > 3.5 * mu * (1 + e), (t - 3.5 * mu * (1 + e)) / e, 0.0)))


spin_test(6, "wall")

# ---- 7: two spinning spheres ---------------------------------------------------------------
r7, vn7, mu7, e7 = 0.1, 0.2, 0.4, 0.5
for name in ("Al alloy", "copper"):
    w0 = np.linspace(1, 24, 16)
    vt, wf = [], []
    for w in w0:
        res = impact(name, r7, (vn7, 0, 0), (0, 0, w), mu=mu7, e=e7, target="sphere", r2=r7, v2=(-vn7, 0, 0),
                     w2=(0, 0, w))
        vt.append(res["v1"][1])
        wf.append(res["w1"][2])
    print(f"test 7, {name}: vt " + " ".join(f"{a:.1f}:{b:.4f}" for a, b in zip(w0, vt)))
    jt = mu7 * (1 + e7) * vn7
    assert abs(vt[-1] + jt) < 1e-3 * jt * 10
    panel((7, "vt"))["series"].append((name, w0, np.array(vt)))
    panel((7, "w"))["series"].append((name, w0, np.array(wf)))
    rows += [(7, name, a, b, "vt") for a, b in zip(w0, vt)] + [(7, name, a, b, "w") for a, b in zip(w0, wf)]
jt = mu7 * (1 + e7) * vn7
w = np.linspace(0, 25, 300)
slides = 2 * w * r7 > 7 * jt
panel((7, "vt"))["theory"].append((w, np.where(slides, -jt, -2 * w * r7 / 7)))
panel((7, "w"))["theory"].append((w, np.where(slides, w - jt / (0.4 * r7), 2 * w / 7)))

spin_test(8, "sphere", r2=0.5, density2=1000.0)

with open(f"{out}/chung-ooi.csv", "w", newline="") as f:
    wr = csv.writer(f)
    wr.writerow(["test", "material", "x", "y", "quantity"])
    wr.writerows(rows)

# ---- the figure: the paper's panels ---------------------------------------------------------
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LABELS = {
    (1, "time"): ("test 1: time (us)", "normal force (kN)"), (1, "overlap"): ("test 1: overlap (um)", "normal force (kN)"),
    (2, "time"): ("test 2: time (us)", "normal force (kN)"), (2, "overlap"): ("test 2: overlap (um)", "normal force (kN)"),
    (3, "e"): ("test 3: prescribed restitution", "rebound / impact speed"),
    (4, "et"): ("test 4: incident angle (deg)", "tangential restitution"),
    (4, "w"): ("test 4: incident angle (deg)", "spin after impact (rad/s)"),
    (4, "rebound"): ("test 4: incident angle (deg)", "rebound angle of contact point (deg)"),
    (5, "recoil"): ("test 5: incident vt / (mu vn)", "recoil vt' / (mu vn')"),
    (5, "spin"): ("test 5: incident vt / (mu vn)", "r w' / (mu vn)"),
    (6, "beta"): ("test 6: 3.5 mu (1+e) vn / vt", "beta = -vt'/vt"),
    (6, "recoil"): ("test 6: tan incident angle", "tan recoil angle"),
    (7, "vt"): ("test 7: initial spin (rad/s)", "tangential velocity after (m/s)"),
    (7, "w"): ("test 7: initial spin (rad/s)", "spin after (rad/s)"),
    (8, "beta"): ("test 8: 3.5 mu (1+e) vn / vt", "beta = -vt'/vt"),
    (8, "recoil"): ("test 8: tan incident angle", "tan recoil angle"),
}
fig, axes = plt.subplots(4, 4, figsize=(17, 15))
for ax, key in zip(axes.flat, LABELS):
    pnl = figs[key]
    for x, y in pnl["theory"]:
        ax.plot(x, y, "k-", lw=1, alpha=0.6)
    for (name, x, y), mk in zip(pnl["series"], ("o", "s")):
        ax.plot(x, y, mk, ms=3.5, mfc="none", label=name)
    ax.set_xlabel(LABELS[key][0])
    ax.set_ylabel(LABELS[key][1])
    if key[1] == "beta":
        ax.set_xscale("log")
    ax.legend(fontsize=8, title="grit; line: theory", title_fontsize=7)
    ax.grid(alpha=0.3)
fig.suptitle("Chung & Ooi (2011) benchmark tests under grit's Hertz-Mindlin law (line: Hertz / rigid-body theory)")
fig.tight_layout()
fig.savefig(f"{out}/chung-ooi.png", dpi=90)
print(f"wrote {out}/chung-ooi.png and {out}/chung-ooi.csv")
