"""Tutorial step 4: a periodic simple-shear test -- stress against strain without walls (docs/tutorial.md).

    PYTHONPATH=python python3 examples/tutorial/step4_periodic_shear.py [--out DIR] [--small]

Spheres fill a periodic cell (space repeats itself in x, y and z: no walls, no boundary effects); the
cell's stress controller compresses them to 20 kPa, then shears them (L_xy, simple shear) while it holds
the normal stress -sigma_yy. Writes DIR/step4-shear.csv (with units in the header) and DIR/step4-shear.png.
"""
import argparse
import os

import numpy as np

import grit
import grit.plot

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--out", default="tutorial-out", help="folder for the files (made if missing)")
ap.add_argument("--small", action="store_true", help="fewer spheres, less strain (the test suite uses it)")
args = ap.parse_args()
os.makedirs(args.out, exist_ok=True)
# the confining stress [Pa], and the compression and shear rates [1/s]: slow enough for a quasi-static test
# (inertial number RATE d sqrt(density / P0) < 1e-2); faster with --small
P0, RATE = 2e4, (5.0 if args.small else 1.0)

# ---- a gas of n^3 spheres on a jittered lattice in a cubic periodic cell, solid fraction 0.35
n = 6 if args.small else 7
rng = np.random.default_rng(4)
radii = 1e-3 * rng.uniform(0.9, 1.1, n**3)
edge = (np.sum(4 / 3 * np.pi * radii**3) / 0.35) ** (1 / 3)
h = edge / n
sites = (np.mgrid[0:n, 0:n, 0:n].reshape(3, -1).T + 0.5) * h
scene = grit.Scene(damping=0.2, track_energy=True)  # no gravity: the cell's stress does the loading
sand = grit.FrictMat(density=2600, young=1e7, tan_phi=0.5)
scene.add_spheres(sites + rng.uniform(-1, 1, sites.shape) * (h / 2 - 1.12e-3), radii, mat=sand)
scene.cell = (edge, edge, edge)  # the periodic cell, an edge x edge x edge box


def pressure(sig):
    """The mean stress, compression positive (grit's stress is tension positive)."""
    return -np.trace(sig) / 3


# ---- 1. compression: the cell's stress controller shrinks it until all three normal stresses are -P0
# (tension positive), checked every 10 steps, within 2 % for 50 checks in a row; max_rate caps the rate of
# compression through the loose gas [1/s]
scene.cell.controller = grit.CellController(mode=("stress", "stress", "stress"), goal=(-P0, -P0, -P0),
                                            max_rate=RATE, every=10, stress_tol=0.02, settle=50)
scene.cell.control_run(max_steps=400_000)
print(f"compressed to p = {pressure(scene.stress()):.4g} Pa at t = {scene.time:.3f} s, "
      f"{len(scene.contacts)} contacts")

# ---- 2. simple shear: v_x = RATE y (the prescribed L_xy), the controller holds the normal stress
# sigma_yy at -P0 through L_yy and keeps x and z at a fixed length; a row every 10 steps
scene.cell.controller = grit.CellController(mode=("rate", "stress", "rate"), goal=(0, -P0, 0),
                                            grad_v=[[0, RATE, 0], [0, 0, 0], [0, 0, 0]], max_rate=RATE, every=10)
t0, v0 = scene.time, scene.cell.volume
rows = []
gamma_end = 0.2 if args.small else 0.4
while RATE * (scene.time - t0) < gamma_end:
    scene.run(10)
    sig = scene.stress()
    rows.append([scene.time, RATE * (scene.time - t0), scene.cell.volume, pressure(sig), sig[0, 0], sig[1, 1],
                 sig[2, 2], sig[0, 1], sig[0, 1] / -sig[1, 1], np.log(scene.cell.volume / v0)])

# ---- the record as CSV with units, and its figure drawn by grit.plot (it knows this kind of file)
csv = f"{args.out}/step4-shear.csv"
grit.write_csv(csv, ["time", "gamma", "volume", "p", "s_xx", "s_yy", "s_zz", "s_xy", "ratio", "eps_v"], rows,
               units={"time": "s", "volume": "m^3", "p": "Pa", "s_xx": "Pa", "s_yy": "Pa", "s_zz": "Pa", "s_xy": "Pa"})
data = grit.read_csv(csv)  # {column: array}, the units in data.units
(png,) = grit.plot.plot_file(csv, title=f"step 4: simple shear of {n**3} spheres at {P0 / 1e3:g} kPa")
late = data["gamma"] > gamma_end / 2
print(f"sheared to gamma = {data['gamma'][-1]:.3f}: stress ratio tau/sigma_n {data['ratio'][late].mean():.3f} "
      f"(the second half), volumetric strain {data['eps_v'][-1]:+.4f}; wrote {csv} and {png}")

# ---- checks: the controller holds the normal stress, the material resists shear, within its friction
assert data.units["s_yy"] == "Pa" and data.units["gamma"] == ""
assert np.all(np.abs(-data["s_yy"][late] - P0) < 0.1 * P0), "the normal stress is held"
assert 0.05 < data["ratio"][late].mean() < 0.5, "a frictional granular material: 0 < tau / sigma_n < tan(phi)"
