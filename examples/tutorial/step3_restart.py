"""Tutorial step 3: restart -- continue step 2's deposit from its file, bit for bit (docs/tutorial.md).

    PYTHONPATH=python python3 examples/tutorial/step3_restart.py [--out DIR] [--small]

Reads DIR/step2-deposit.grit (run step 2 first with the same --out), tilts gravity so the deposit slumps
against one wall, and shows that a run stopped, saved and loaded half-way ends exactly where the run that
never stopped ends. Writes DIR/step3-slumped.grit and DIR/step3-vtk/ (ParaView).
"""
import argparse
import os
import sys

import numpy as np

import grit

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--out", default="tutorial-out", help="the folder of step 2's files, and for this step's")
ap.add_argument("--small", action="store_true", help="a shorter run (the test suite uses it)")
args = ap.parse_args()
start = f"{args.out}/step2-deposit.grit"
if not os.path.exists(start):
    sys.exit(f"{start} not found: run step2_deposit.py --out {args.out} first")

# ---- load: the scene comes back whole -- parameters, materials, particles, contacts with their history,
# the energy book and the step count
scene = grit.Scene.load(start)
print(f"loaded {start}: step {scene.step}, t = {scene.time:.3f} s, {len(scene.particles)} particles, "
      f"{len(scene.contacts)} contacts")

# ---- change what you like before going on: here gravity tilts by 30 degrees towards +x
tilt = np.radians(30)
scene.gravity = (9.81 * np.sin(tilt), 0, -9.81 * np.cos(tilt))
steps = 2000 if args.small else 20000
vtk = grit.VtkRecorder(scene, f"{args.out}/step3-vtk", every=steps // 10)

# ---- the run in one piece ...
def mean_x(s):
    """The mean x of the spheres (of_shape: a mask over the rows of the particle arrays)."""
    return s.particles.pos[s.particles.of_shape("sphere"), 0].mean()


x0 = mean_x(scene)
scene.run(steps)
one_piece = scene.particles.get("pos")  # get(): a copy, in particle id order
vtk.close()
scene.save(f"{args.out}/step3-slumped.grit")

# ---- ... and the same run stopped half-way, saved, loaded into a new scene and finished
half = grit.Scene.load(start)
half.gravity = (9.81 * np.sin(tilt), 0, -9.81 * np.cos(tilt))
half.run(steps // 2)
half.save(f"{args.out}/step3-half.grit")
half.close()
rest = grit.Scene.load(f"{args.out}/step3-half.grit")
rest.run(steps - steps // 2)
two_pieces = rest.particles.get("pos")

shift = mean_x(scene) - x0
print(f"after {steps} more steps the particles moved {1000 * shift:.2f} mm towards +x on average; "
      f"stopped and restarted half-way: {'the same positions to the bit' if np.array_equal(one_piece, two_pieces) else 'DIFFERENT'}")
print(f"wrote {args.out}/step3-slumped.grit and {args.out}/step3-vtk/particles.pvd")
os.remove(f"{args.out}/step3-half.grit")

# ---- checks: the restart is exact, and the tilted gravity moved the deposit towards +x
assert np.array_equal(one_piece, two_pieces), "a restarted run is bitwise the run that never stopped"
assert shift > 0, shift
