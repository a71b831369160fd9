"""Tutorial step 1: a first scene in Python -- three spheres dropped on a floor (docs/tutorial.md).

    PYTHONPATH=python python3 examples/tutorial/step1_first_scene.py [--out DIR] [--small]

Writes DIR/step1-energy.csv and DIR/step1-energy.png (default DIR: tutorial-out).
"""
import argparse

import numpy as np

import grit

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--out", default="tutorial-out", help="folder for the files (made if missing)")
ap.add_argument("--small", action="store_true", help="a shorter run (the test suite uses it)")
args = ap.parse_args()

# A scene holds the parameters of the simulation: damping=0.2 (Cundall's damping takes energy out, so the
# spheres come to rest), and no time step: it is chosen from the materials, dt_safety times the critical
# step (0.3: small steps keep the energy balance of the impacts tight).
scene = grit.Scene(gravity=(0, 0, -9.81), damping=0.2, dt_safety=0.3, track_energy=True)
rubber = grit.FrictMat(density=1200, young=5e6, tan_phi=0.6)  # SI units: kg/m^3, Pa

# The floor z = 0 (sense=1: the solid side is below), and three spheres of radius 1 cm at several heights.
scene.add(grit.Wall(0, axis="z", sense=1, mat=rubber))
for k in range(3):
    scene.add(grit.Sphere((0.05 * k, 0, 0.05 + 0.05 * k), 0.01, mat=rubber))
print(f"{len(scene.particles)} particles (1 wall, 3 spheres), time step {scene.critical_dt * scene.dt_safety:.3g} s")

# Record the energy every 100 steps, then run one second of simulated time (0.3 s with --small).
energy = grit.EnergyRecorder(scene, every=100)
seconds = 0.3 if args.small else 1.0
scene.run(until=lambda s: s.time >= seconds, check_every=100)

# Positions and velocities are NumPy arrays that look into the engine's memory, one row per particle (the
# engine may reorder the rows as it sorts particles in space: select by shape or map ids with rows()).
spheres = scene.particles.of_shape("sphere")
z = np.sort(scene.particles.pos[spheres, 2])
print(f"after {scene.step} steps ({scene.time:.3f} s): heights {np.round(z, 4)} m, "
      f"{len(scene.contacts)} contacts")
print(f"energy: kinetic {scene.energy['kinetic']:.3g} J, balance error {scene.energy.rel_error:.1e}")

energy.save(f"{args.out}/step1-energy.csv")
energy.plot(f"{args.out}/step1-energy.png", title="step 1: three spheres dropped on a floor")
print(f"wrote {args.out}/step1-energy.csv and step1-energy.png")

# The checks the test suite relies on: every sphere fell and none went through the floor, and the energy
# tracker accounts for every joule (the balance error is a small fraction of the energies involved).
assert np.all(z < 0.15) and np.all(z > 0.009), z
assert args.small or np.allclose(z, 0.01, atol=1e-4), "after a second all three rest on the floor"
assert abs(scene.energy.rel_error) < 0.01, scene.energy.rel_error
