"""Tutorial step 2: a deposit -- spheres poured into a box, watched in ParaView, plotted, saved (docs/tutorial.md).

    PYTHONPATH=python python3 examples/tutorial/step2_deposit.py [--out DIR] [--small]

Writes into DIR (default tutorial-out): step2-vtk/ (VTK frames: open step2-vtk/particles.pvd in ParaView),
step2-energy.csv, step2-energy.png, step2-heights.png and the restart file step2-deposit.grit that step 3
continues.
"""
import argparse
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import grit  # noqa: E402

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--out", default="tutorial-out", help="folder for the files (made if missing)")
ap.add_argument("--small", action="store_true", help="fewer spheres and a shorter run (the test suite uses it)")
args = ap.parse_args()
os.makedirs(args.out, exist_ok=True)

# ---- the scene: a 6 cm square box (floor and four side walls) of one material
scene = grit.Scene(gravity=(0, 0, -9.81), damping=0.3, track_energy=True)
sand = grit.FrictMat(density=2600, young=2e7, tan_phi=0.5)
side = 0.06
scene.add([grit.Wall(0, axis="z", sense=1, mat=sand),
           grit.Wall(0, axis="x", sense=1, mat=sand), grit.Wall(side, axis="x", sense=-1, mat=sand),
           grit.Wall(0, axis="y", sense=1, mat=sand), grit.Wall(side, axis="y", sense=-1, mat=sand)])

# ---- a loose cloud: one sphere per cell of a grid, jittered; radii 2 mm +- 10 %, seeded (the same every run)
rng = np.random.default_rng(2)
layers = 4 if args.small else 24
r = 0.002
cells = np.mgrid[0:6, 0:6, 0:layers].reshape(3, -1).T  # 6 x 6 spheres per layer, 1 cm apart
centers = (cells + 0.5) * 0.01 + rng.uniform(-0.002, 0.002, cells.shape)
radii = r * rng.uniform(0.9, 1.1, len(centers))
scene.add_spheres(centers, radii, mat=sand)
print(f"{len(radii)} spheres in a {100 * side:.0f} cm box, dt = {scene.critical_dt * scene.dt_safety:.3g} s")

# ---- record: VTK frames for ParaView every 0.02 s of simulated time, the energy every 50 steps
dt = scene.critical_dt * scene.dt_safety
vtk = grit.VtkRecorder(scene, f"{args.out}/step2-vtk", every=max(1, int(0.02 / dt)))
energy = grit.EnergyRecorder(scene, every=50)

# ---- run until the spheres are at rest (kinetic energy below a millionth of the potential energy they
# lost), at most 1.5 s (0.4 s with --small), checking every 500 steps
limit = 0.4 if args.small else 1.5
scene.run(until=lambda s: s.time >= limit or (s.time > 0.1 and s.energy["kinetic"] < 1e-6 * -s.energy["grav"]),
          check_every=500)
vtk.write()  # the last frame
print(f"stopped at t = {scene.time:.3f} s after {scene.step} steps: kinetic energy {scene.energy['kinetic']:.2e} J, "
      f"{len(scene.contacts)} contacts, {vtk.frames} VTK frames")

# ---- results: the energy plot, the height of every sphere, and the scene itself for step 3
energy.save(f"{args.out}/step2-energy.csv")
energy.plot(f"{args.out}/step2-energy.png", title="step 2: a deposit of spheres in a box")
z = scene.particles.pos[scene.particles.of_shape("sphere"), 2]
fig, ax = plt.subplots(figsize=(6, 4))
ax.hist(z * 100, bins=30, orientation="horizontal", color="tab:brown")
ax.set_xlabel("spheres [-]")
ax.set_ylabel("height of the centre [cm]")
ax.set_title(f"step 2: {len(z)} spheres at t = {scene.time:.2f} s")
fig.tight_layout()
fig.savefig(f"{args.out}/step2-heights.png", dpi=100)
scene.save(f"{args.out}/step2-deposit.grit")
print(f"wrote {args.out}/step2-vtk/particles.pvd (open it in ParaView), step2-energy.csv, step2-energy.png, "
      f"step2-heights.png, step2-deposit.grit")

# ---- checks (the test suite runs this with --small): everything inside the box, on the floor or on others
assert np.all(z > 0.9 * r) and np.all(z < (layers + 1) * 0.01), (z.min(), z.max())
assert abs(scene.energy.rel_error) < 0.02, scene.energy.rel_error
assert args.small or scene.energy["kinetic"] < 1e-6 * -scene.energy["grav"], "the deposit came to rest"
