"""grit quickstart: 250 spheres settle in a box; positions as NumPy; energy plot."""
import numpy as np
import grit

scene = grit.Scene(gravity=(0, 0, -9.81), damping=0.3, dt_safety=0.3, track_energy=True)
sand = grit.FrictMat(density=2600, young=1e7, tan_phi=0.4)
scene.add([grit.Wall(0, axis="z", sense=1, mat=sand),  # the floor and four sides of a 10 cm box
           grit.Wall(0, axis="x", sense=1, mat=sand), grit.Wall(0.1, axis="x", sense=-1, mat=sand),
           grit.Wall(0, axis="y", sense=1, mat=sand), grit.Wall(0.1, axis="y", sense=-1, mat=sand)])
grid = np.mgrid[0.01:0.09:5j, 0.01:0.09:5j, 0.02:0.2:10j].reshape(3, -1).T  # 250 points, 2 cm apart
scene.add_spheres(grid + np.random.default_rng(1).uniform(-1e-3, 1e-3, grid.shape), 0.008, mat=sand)
energy = grit.EnergyRecorder(scene, every=100)
scene.run(30000)
pos = scene.particles.pos[scene.particles.of_shape("sphere")]  # NumPy, from the engine's memory
print(f"{len(pos)} spheres, bed height {pos[:, 2].max() + 0.008:.3f} m, {len(scene.contacts)} contacts")
print("energy [J]:", {k: round(v, 4) for k, v in scene.energy.items()}, "error", f"{scene.energy.rel_error:.1e}")
energy.save("out/quickstart-energy.csv")
energy.plot("out/quickstart-energy.png")
