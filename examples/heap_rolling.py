"""Angle of repose against rolling resistance: spheres poured onto a round, rough base.

Run:  PYTHONPATH=python /usr/bin/python3 examples/heap_rolling.py [OUTDIR]
Writes OUTDIR/heap-rolling.png (side views and the angle against mu_roll) and OUTDIR/heap-rolling.csv
(OUTDIR defaults to out/).

Hertz-Mindlin spheres (HertzMat, EPSD rolling resistance, docs/hertz.md) rain in small batches from a fixed height onto a
disc of fixed spheres of the same size (a rough base: the heap cannot slide out on it); what runs over
the rim falls away onto a catch floor below. The heap's angle is the slope of its surface, fitted to the
highest sphere top in rings around the axis; the spheres are soft (5 MPa) for a large time step. Without rolling resistance smooth spheres make a low heap;
the angle grows with mu_roll.
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import grit  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "out"
os.makedirs(out, exist_ok=True)
R = 5e-3  # sphere radius (mean)
RB = 8 * R  # radius of the base
MUS = (0.0, 0.03, 0.1)


def base_lattice():
    """Centres of a hexagonal layer of spheres of radius R on z = 0 covering the base disc."""
    pts = []
    for j in range(-12, 13):
        for i in range(-12, 13):
            x, y = (i + 0.5 * (j % 2)) * 2 * R, j * np.sqrt(3) * R
            if np.hypot(x, y) <= RB:
                pts.append((x, y, 0.0))
    return np.array(pts)


def heap(mu_roll, seed=7):
    rng = np.random.default_rng(seed)
    s = grit.Scene(gravity=(0, 0, -9.81))
    m = grit.HertzMat(young=5e6, poisson=0.3, density=2500, tan_phi=0.5, restitution=0.3, rolling="epsd",
                      mu_roll=mu_roll)
    s.add(grit.Wall(-0.15, axis="z", sense=1, mat=m))  # catches what falls over the rim
    base = base_lattice()
    for c in base:
        s.add(grit.Sphere(c, R, mat=m, fixed=True))
    ids = []
    for batch in range(60):  # 6 spheres every 0.04 s, thrown down at 0.5 m/s from 12 radii up: a poured stream
        a = rng.uniform(0, 2 * np.pi) + np.arange(6) * np.pi / 3
        c = np.column_stack([2.2 * R * np.cos(a), 2.2 * R * np.sin(a), np.full(6, 12 * R)])
        ids += list(s.add_spheres(c, R * rng.uniform(0.9, 1.0, 6), mat=m, vel=np.tile((0, 0, -0.5), (6, 1))))
        if batch == 0:
            s.run(1)  # the time step is known after the first step
        s.run(int(0.04 / s.current_dt))

    def still(sc):  # the spheres on the base nearly still (those on the catch floor may roll on)
        rows = sc.particles.rows(ids)
        on = sc.particles.pos[rows][:, 2] > 0
        return np.abs(sc.particles.vel[rows][on]).max() < 0.01

    s.run(int(1.0 / s.current_dt), until=still, check_every=200)
    rows = s.particles.rows(ids)
    pos, rad = s.particles.pos[rows], s.particles.radius[rows]
    keep = pos[:, 2] > 0
    pos, rad = pos[keep], rad[keep]
    rho = np.hypot(pos[:, 0], pos[:, 1])
    # the surface: the highest sphere top in rings of width R, fitted between 0.2 and 0.9 of the base
    edges = np.arange(0.2 * RB, 0.9 * RB + 1e-12, R)
    ring_r, ring_z = [], []
    for lo, hi in zip(edges[:-1], edges[1:]):
        sel = (rho >= lo) & (rho < hi)
        if sel.any():
            ring_r.append(0.5 * (lo + hi))
            ring_z.append((pos[sel, 2] + rad[sel]).max())
    slope = np.polyfit(ring_r, ring_z, 1)[0]
    angle = np.degrees(np.arctan(-slope))
    return angle, pos, rad, len(pos), s.time


rows = []
fig, axes = plt.subplots(1, len(MUS) + 1, figsize=(4 * (len(MUS) + 1), 3.6))
for ax, mu in zip(axes, MUS):
    angle, pos, rad, n, t = heap(mu)
    rows.append((mu, angle, n))
    print(f"mu_roll {mu:.2f}: {n} spheres on the base after {t:.2f} s, angle of repose {angle:.1f} deg")
    front = np.abs(pos[:, 1]) < 2 * R
    ax.scatter(pos[front, 0] * 1e3, pos[front, 2] * 1e3, s=(rad[front] / R) ** 2 * 18, c="tab:orange",
               edgecolors="k", linewidths=0.3)
    ax.plot([-RB * 1e3, 0, RB * 1e3], [R * 1e3, R * 1e3 + RB * 1e3 * np.tan(np.radians(angle)), R * 1e3], "k--",
            lw=0.8)
    ax.set_title(f"mu_roll = {mu}: {angle:.1f} deg", fontsize="medium")
    ax.set_xlim(-RB * 1e3 * 1.2, RB * 1e3 * 1.2)
    ax.set_ylim(-5, RB * 1e3)
    ax.set_aspect("equal")
    ax.set_xlabel("x [mm]")
axes[0].set_ylabel("z [mm] (slice |y| < 2 r)")
mu_arr, ang_arr = np.array([r[0] for r in rows]), np.array([r[1] for r in rows])
axes[-1].plot(mu_arr, ang_arr, "o-")
axes[-1].set_xlabel("mu_roll (EPSD)")
axes[-1].set_ylabel("angle of repose [deg]")
axes[-1].grid(alpha=0.3)
fig.tight_layout()
fig.savefig(f"{out}/heap-rolling.png", dpi=100)
np.savetxt(f"{out}/heap-rolling.csv", np.array(rows), delimiter=",", header="mu_roll,angle_deg,n_on_base",
           comments="")
print("wrote", f"{out}/heap-rolling.png", f"{out}/heap-rolling.csv")
assert np.all(np.diff(ang_arr) > 2), "the angle of repose does not grow with the rolling resistance"
