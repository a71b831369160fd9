# -*- coding: utf-8 -*-
"""Yade 2023.02a version of the benchmark scene "box-N" (../shared/bench/SCENES.md);
the same as ../shared/bench/yade/box.py.

One timed phase per invocation.  Normally driven by ../run_bench.py; by hand:
  OMP_NUM_THREADS=1 yade -n -x -j1 yade-box.py --csv scenes/box-2000.csv \
      --json scenes/box-2000.json --nsteps 100000 --phase settle --out /tmp/y.csv

--csv     initial configuration, CSV "x,y,z,r" (SI), header line, one sphere a row
--json    scene metadata (box side) written by gen_scene.py
--nsteps  number of timed steps
--phase   label for the summary line (settle | dense)
--out     CSV "x,y,z,r" written after the timed phase (sphere order = input order)
--verlet  InsertionSortCollider.verletDist (default -0.5 = Yade default, i.e.
          0.5 * smallest radius)
--thev    print a progress line every THEV steps (0 = never, default)

Contact model: ViscElMat + Ip2_ViscElMat_ViscElMat_ViscElPhys +
Law2_ScGeom_ViscElPhys_Basic, i.e. linear spring-dashpot normal force clipped
at >= 0, linear tangential spring with Coulomb limit (tangential viscosity 0).
In Yade 2023.02a the per-contact constant is a1*a2/(a1+a2) (springs in
series; checked numerically, the class docstring claims 2*a1*a2/(a1+a2)), so
the material values are set to twice the contact targets; walls use the same
material, so sphere-wall contacts get the same kn, ks, cn, mu.
"""
import sys, os, time, json, argparse
from math import atan
import numpy as np
from yade import utils

ap = argparse.ArgumentParser()
ap.add_argument('--csv', required=True)
ap.add_argument('--json', required=True)
ap.add_argument('--nsteps', type=int, required=True)
ap.add_argument('--phase', default='settle')
ap.add_argument('--out', default='')
ap.add_argument('--verlet', type=float, default=-0.5)
ap.add_argument('--thev', type=int, default=0)
args = ap.parse_args(sys.argv[1:])

# ---- parameters (identical in every code; see SCENES.md)
KN = 1.0e4            # normal stiffness [N/m]
KT = KN * 2.0 / 7.0   # tangential stiffness [N/m]
CN = 0.1              # normal viscous damping [N s/m]
CT = 0.0              # tangential viscous damping [N s/m]
MU = 0.5              # Coulomb friction coefficient (sphere-sphere and sphere-wall)
RHO = 2600.0          # density [kg/m3]
DT = 2.5e-6           # time step [s]
G = 9.81              # gravity [m/s2], along -z

meta = json.load(open(args.json))
L = meta['box_Lx_m']
data = np.loadtxt(args.csv, delimiter=',', skiprows=1, ndmin=2)
N = len(data)

t_setup0 = time.time()
mat = O.materials.append(ViscElMat(kn=2 * KN, ks=2 * KT, cn=2 * CN, cs=2 * CT,
                                   frictionAngle=atan(MU), density=RHO, label='beads'))
O.bodies.append([utils.sphere((float(x), float(y), float(z)), float(r), material=mat)
                 for x, y, z, r in data])
walls = O.bodies.append([
    utils.wall(0.0, axis=2, sense=1, material=mat),   # floor z=0
    utils.wall(0.0, axis=0, sense=1, material=mat),   # x=0
    utils.wall(L, axis=0, sense=-1, material=mat),    # x=L
    utils.wall(0.0, axis=1, sense=1, material=mat),   # y=0
    utils.wall(L, axis=1, sense=-1, material=mat),    # y=L
])

O.engines = [
    ForceResetter(),
    InsertionSortCollider([Bo1_Sphere_Aabb(), Bo1_Wall_Aabb()], verletDist=args.verlet, label='collider'),
    InteractionLoop(
        [Ig2_Sphere_Sphere_ScGeom(), Ig2_Wall_Sphere_ScGeom()],
        [Ip2_ViscElMat_ViscElMat_ViscElPhys()],
        [Law2_ScGeom_ViscElPhys_Basic()],
    ),
    NewtonIntegrator(damping=0.0, gravity=(0, 0, -G), label='newton'),
]
if args.thev > 0:
    O.engines = O.engines + [PyRunner(iterPeriod=args.thev, command='progress()', label='prog')]
O.dt = DT
t_setup = time.time() - t_setup0


def contacts():
    pp = pw = 0
    for i in O.interactions:
        if not i.isReal or i.geom.penetrationDepth <= 0:
            continue
        if i.id1 < N and i.id2 < N:
            pp += 1
        else:
            pw += 1
    return pp, pw


def progress():
    pp, pw = contacts()
    print('PROGRESS step=%d ke=%.6e contacts_pp=%d contacts_pw=%d zmax=%.6f' %
          (O.iter, utils.kineticEnergy(), pp, pw, max(b.state.pos[2] for b in O.bodies if b.id < N)))
    sys.stdout.flush()


# ---- timed phase
c0 = time.process_time()
w0 = time.time()
O.run(args.nsteps, True)
wall = time.time() - w0
cpu = time.process_time() - c0

pp, pw = contacts()
ke = utils.kineticEnergy()
if args.out:
    with open(args.out, 'w') as f:
        f.write('x,y,z,r\n')
        for b in O.bodies:
            if b.id >= N:
                continue
            p = b.state.pos
            f.write('%.12e,%.12e,%.12e,%.12e\n' % (p[0], p[1], p[2], b.shape.radius))
print('PEERS_SUMMARY code=yade phase=%s N=%d steps=%d wall_s=%.6f cpu_s=%.6f psps=%.6g '
      'contacts_pp=%d contacts_pw=%d contacts_per_particle=%.6f ke_J=%.6e setup_s=%.3f verletDist=%g' %
      (args.phase, N, O.iter, wall, cpu, N * args.nsteps / wall, pp, pw, pp / N, ke, t_setup, args.verlet))
sys.stdout.flush()
