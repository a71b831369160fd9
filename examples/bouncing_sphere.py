"""A sphere bouncing on the floor, with a normal dashpot: the energy balance.

Run:  PYTHONPATH=python /usr/bin/python3 examples/bouncing_sphere.py [OUTDIR]
Writes OUTDIR/bouncing-energy.csv and OUTDIR/bouncing-energy.png (OUTDIR
defaults to out/). The dashpot of the per-pair override is chosen for a
coefficient of restitution of 0.8 by the linear spring-dashpot formula, so
each rebound would reach 0.8^2 = 64 % of the previous height; grit's dashpot
never pulls (the normal force is clipped at zero as the sphere leaves), which
dissipates a little less: the rebounds reach about 66 %.
"""
import math
import sys

import numpy as np

import grit

out = sys.argv[1] if len(sys.argv) > 1 else "out"

scene = grit.Scene(gravity=(0, 0, -9.81), dt=1e-5, track_energy=True)
steel = grit.FrictMat(density=7800, young=1e8, tan_phi=0.5)
radius = 0.05
scene.add(grit.Wall(0.0, axis="z", sense=1, mat=steel))
ball = scene.add(grit.Sphere((0, 0, 0.5), radius, mat=steel))

# restitution e -> damping ratio -> dashpot coefficient cn = 2 zeta sqrt(m kn)
e = 0.8
mass = scene.particles[ball].mass
kn = 1e8 * math.pi * radius / 2  # wall and sphere of the same modulus: kn = E pi r / 2
zeta = -math.log(e) / math.sqrt(math.pi**2 + math.log(e) ** 2)
scene.set_pair(steel, steel, cn=2 * zeta * math.sqrt(mass * kn))

energy = grit.EnergyRecorder(scene, every=50)
heights = []
scene.every(10, lambda s: heights.append(s.particles[ball].pos[2]))
scene.run(until=lambda s: s.time >= 1.8, check_every=1000)

z = np.array(heights)
apex = [z[i] for i in range(1, len(z) - 1) if z[i - 1] < z[i] >= z[i + 1] and z[i] > radius]
print("apex heights of the centre above the contact [m]:", " ".join(f"{a - radius:.4f}" for a in apex))
ratios = [(b - radius) / (a - radius) for a, b in zip([0.5] + apex, apex)]
print("ratio of successive heights:", " ".join(f"{r:.3f}" for r in ratios), f"(unclipped dashpot: {e**2:.3f})")
print(f"energy balance error at the end: {scene.energy.rel_error:.2e}")
energy.save(f"{out}/bouncing-energy.csv")
print("wrote", *energy.plot(f"{out}/bouncing-energy.png", title="bouncing sphere, restitution 0.8"))
assert len(apex) >= 4 and all(e**2 < r < e**2 + 0.04 for r in ratios), "rebounds do not follow the restitution"
assert abs(scene.energy.rel_error) < 1e-3, "energy balance does not close"
