"""Hopper: capsules, ellipsoids and spheres poured into an STL hopper onto a wall (the scene of `grit run hopper`).

Run:  PYTHONPATH=python /usr/bin/python3 examples/hopper.py [OUTDIR]
Writes OUTDIR/hopper-energy.{csv,png}, OUTDIR/hopper-side.png and the VTK series OUTDIR/hopper-vtk/ (open
particles.pvd and shapes.pvd in ParaView: spheres as points with a radius, capsules and ellipsoids as their
surfaces, or render it with `xvfb-run -a pvbatch tools/paraview_shapes.py OUTDIR/hopper-vtk`). OUTDIR defaults
to out/. Damping and friction are off, so that nothing dissipates: the energy balance (kinetic, gravity,
elastic) must close -- the test that the contact forces of every shape pair derive from the energy they store.
The particles must leave the hopper through its outlet, and none may cross its wall or the floor.
"""
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import grit  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else "out"
stl = pathlib.Path(__file__).resolve().parent / "data" / "hopper.stl"
rng = np.random.default_rng(7)

scene = grit.Scene(gravity=(0, 0, -9.81), track_energy=True)  # damping 0 (the default)
mat = grit.FrictMat(density=2600, young=5e6, tan_phi=0)  # frictionless: nothing dissipates
# the funnel (tools/make_hopper_stl.py, in mm): outlet radius 18 mm at z = 0, collar of radius 55 mm above
# z = 60 mm; its outlet 8 cm above the floor
hopper = scene.load_stl(stl, mat=mat, scale=1e-3, shift=(0, 0, 0.08), half_thick=0.001)
scene.add(grit.Wall(0, axis="z", sense=1, mat=mat))
print(f"hopper: {len(hopper)} facets from {stl.name} ({'binary' if hopper.binary else 'ASCII'} STL)")

# 120 particles on a jittered lattice inside the collar, random orientations: a third of each shape
r, pitch = 0.003, 0.0145
g = (np.arange(6) - 2.5) * pitch
x, y, z = np.meshgrid(g, g, 0.16 + pitch * np.arange(5), indexing="ij")
sites = np.column_stack([x.ravel(), y.ravel(), z.ravel()])
sites = sites[np.hypot(sites[:, 0], sites[:, 1]) < 0.04][:120] + rng.uniform(-5e-4, 5e-4, (120, 3))
quats = rng.normal(size=(120, 4))
kinds = rng.permutation(np.arange(120) % 3)
for p, q, k in zip(sites, quats / np.linalg.norm(quats, axis=1)[:, None], kinds):
    s = r * rng.uniform(0.9, 1.1)
    scene.add([grit.Capsule(p, s, 2 * s, ori=q, mat=mat), grit.Ellipsoid(p, (2 * s, 1.5 * s, s), ori=q, mat=mat),
               grit.Sphere(p, s, mat=mat)][k])


def bodies(s):
    """Rows of the particles (not the hopper, not the floor): a mask over the engine's current row order,
    which changes whenever the engine re-sorts the particles in space."""
    return ~(s.particles.of_shape("facet") | s.particles.of_shape("wall"))


n = int(bodies(scene).sum())
print(f"{n} particles, time step {scene.dt_safety * scene.critical_dt:.3g} s (automatic)")

energy = grit.EnergyRecorder(scene, every=200)
vtk = grit.VtkRecorder(scene, f"{out}/hopper-vtk", every=2000)
crossed = 0
left = np.zeros(n, bool)  # out through the outlet or over the rim: free to bounce anywhere


def check_wall(s):
    """No particle that is still in the hopper may have its centre beyond the funnel's cone or collar."""
    global crossed
    rows = bodies(s)
    ids = s.particles.id[rows]
    pos = s.particles.pos[rows][np.argsort(ids)]  # in id order: the rows move when the engine re-sorts
    rad, h = np.hypot(pos[:, 0], pos[:, 1]), pos[:, 2] - 0.08
    left[(h < -0.01) | (h > 0.135)] = True
    wall = np.where(h < 0.06, 0.018 + (0.055 - 0.018) * h / 0.06, 0.055)
    bad = ~left & (h > 0.005) & (h < 0.125) & (rad > wall + 0.001)
    if bad.any() and crossed == 0:
        k = int(np.argmax(bad))
        print(f"t = {s.time:.4f} s: particle {np.sort(ids)[k]} at {pos[k]} is beyond the hopper's wall (h {h[k]:.4f}, "
              f"{rad[k]:.4f} m from the axis, wall at {wall[k]:.4f})")
    crossed += int(np.sum(bad))


scene.every(250, check_wall)
scene.run(until=lambda s: s.time >= 0.6, check_every=500)
vtk.write()
pos = scene.particles.pos[bodies(scene)]
below = int(np.sum(pos[:, 2] < 0.08))
e = scene.energy
print(f"t = {scene.time:.2f} s: {below} of {len(pos)} particles below the outlet, {len(scene.contacts)} contacts")
print("energy [J]:", {k: round(v, 5) for k, v in e.items() if v}, f"balance error {e.rel_error:.1e}")
print(f"VTK: {vtk.frames} frames in {vtk.dir}")

energy.save(f"{out}/hopper-energy.csv")
energy.plot(f"{out}/hopper-energy.png", title="hopper: capsules, ellipsoids, spheres (no damping)")

# side view, folded about the axis: distance from the axis against height, the hopper's facets as its wall
# (nothing dissipates: the particles that left bounce on the floor as high as they fell)
fig, ax = plt.subplots(figsize=(6.5, 6))
wall = scene.particles.pos[scene.particles.of_shape("facet")]
ax.plot(np.hypot(wall[:, 0], wall[:, 1]), wall[:, 2], "s", color="0.6", ms=4, label="hopper facets (centroids)")
for kind, colour in (("capsule", "tab:orange"), ("ellipsoid", "tab:blue"), ("sphere", "0.5")):
    p = scene.particles.pos[scene.particles.of_shape(kind)]
    ax.plot(np.hypot(p[:, 0], p[:, 1]), p[:, 2], "o", color=colour, ms=4, label=f"{kind}s")
ax.axhline(0, color="k", lw=1)
far = int(np.sum(np.hypot(pos[:, 0], pos[:, 1]) > 0.3))
ax.set_xlim(0, 0.3)
ax.set_ylim(-0.005, 0.3)
ax.set_xlabel(f"distance from the hopper's axis [m] ({far} beyond 0.3 m)")
ax.set_ylabel("height [m]")
ax.set_title(f"no damping, no friction -- t = {scene.time:.2f} s: {below} of {len(pos)} out of the hopper,\n"
             f"bouncing elastically; energy balance error {e.rel_error:.0e}", fontsize="medium")
ax.legend(loc="upper right", fontsize="small")
fig.tight_layout()
fig.savefig(f"{out}/hopper-side.png", dpi=110)
print("wrote", f"{out}/hopper-side.png")

assert crossed == 0, f"{crossed} particle positions beyond the hopper's wall"
assert below >= len(pos) // 5, "the particles did not flow out of the hopper"
assert pos[:, 2].min() > 0, "a particle is below the floor"
assert abs(e.rel_error) < 5e-3, f"the energy balance does not close: {e.rel_error}"
