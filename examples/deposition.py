"""Deposition: spheres rain into a box and settle (Woo's first example, in grit).

Run:  PYTHONPATH=python /usr/bin/python3 examples/deposition.py [OUTDIR]
Writes OUTDIR/deposition-energy.{csv,png} and OUTDIR/deposition-packing.png
(OUTDIR defaults to out/). Prints the height and the solid fraction of the
settled bed, computed from the engine's position array read as NumPy.
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import grit  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "out"
rng = np.random.default_rng(2024)

# a 0.2 m x 0.2 m box: floor and four side walls, each interacting on its inner side.
# dt_safety 0.3: with the default 0.9 an impact lasts about six steps and the energy
# balance closes only to about 2 %; at 0.3 to 0.3 %.
scene = grit.Scene(gravity=(0, 0, -9.81), damping=0.4, track_energy=True, dt_safety=0.3)
gravel = grit.FrictMat(density=2600, young=1e7, tan_phi=0.5)
L = 0.2
scene.add([grit.Wall(0, axis="z", sense=1, mat=gravel),
           grit.Wall(0, axis="x", sense=1, mat=gravel), grit.Wall(L, axis="x", sense=-1, mat=gravel),
           grit.Wall(0, axis="y", sense=1, mat=gravel), grit.Wall(L, axis="y", sense=-1, mat=gravel)])

# a loose cloud: a jittered lattice of 8 x 8 x 10 spheres with radii 6-9 mm
g = (np.arange(8) + 0.5) * L / 8
x, y, z = np.meshgrid(g, g, 0.03 + 0.025 * np.arange(10), indexing="ij")
centers = np.column_stack([x.ravel(), y.ravel(), z.ravel()]) + rng.uniform(-2e-3, 2e-3, (x.size, 3))
radii = rng.uniform(6e-3, 9e-3, x.size)
ids = scene.add_spheres(centers, radii, mat=gravel)
print(f"{len(ids)} spheres, time step {scene.dt_safety * scene.critical_dt:.3g} s (automatic)")

energy = grit.EnergyRecorder(scene, every=100)
settled = lambda s: s.time > 0.3 and s.energy["kinetic"] < 1e-5 * abs(s.energy["grav"])  # noqa: E731
steps = scene.run(100000, until=settled, check_every=500)
print(f"settled after {steps} steps ({scene.time:.3f} s), {len(scene.contacts)} contacts")

# positions and radii straight from the engine's memory (rows in the engine's order)
spheres = scene.particles.of_shape("sphere")
pos, r = scene.particles.pos[spheres], scene.particles.radius[spheres]
top = np.max(pos[:, 2] + r)
# solid fraction of the core of the bed: the share of random points of a slab that fall inside a sphere
z0, z1 = 0.02, top - 0.02
pts = rng.uniform([0.02, 0.02, z0], [L - 0.02, L - 0.02, z1], (4000, 3))
inside = (((pts[:, None, :] - pos[None, :, :]) ** 2).sum(axis=2) < r**2).any(axis=1)
solid = inside.mean()
print(f"bed height {top:.4f} m, solid fraction {solid:.3f} (between z = {z0} and {z1:.3f} m)")

energy.save(f"{out}/deposition-energy.csv")
print("wrote", *energy.plot(f"{out}/deposition-energy.png", title=f"deposition of {len(ids)} spheres"))

fig, ax = plt.subplots(figsize=(6, 5.5))
sc = ax.scatter(pos[:, 0], pos[:, 2], s=(r / 9e-3) ** 2 * 60, c=pos[:, 1], cmap="viridis", edgecolors="k",
                linewidths=0.3, label="spheres (colour: depth y)")
ax.axhline(top, color="tab:red", ls="--", label=f"bed top {top * 100:.1f} cm")
ax.set_xlim(0, L)
ax.set_ylim(0, 0.2)
ax.set_aspect("equal")
ax.set_xlabel("x [m]")
ax.set_ylabel("height z [m]")
ax.set_title("settled bed, side view")
fig.colorbar(sc, ax=ax, label="y [m]")
ax.legend(loc="upper right", fontsize="small")
fig.tight_layout()
fig.savefig(f"{out}/deposition-packing.png", dpi=110)
print("wrote", f"{out}/deposition-packing.png")
assert len(scene.contacts) > len(ids) and 0.5 < solid < 0.7, "the bed did not settle as a packing"
assert abs(scene.energy.rel_error) < 1e-2, "the energy balance does not close"
