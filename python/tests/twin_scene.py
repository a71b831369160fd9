"""The scene of tests/test_python_twin.c, built through the Python package.

Keep the two in step: same calls in the same order, same (exactly
representable) numbers."""
import grit

STEPS = 3000
NSIDE = 3


def build(steps=STEPS, **overrides):
    params = dict(dt=1.0 / 4096, gravity=(0, 0, -9.8125), damping=0.125, track_energy=True)
    params.update(overrides)
    s = grit.Scene(**params)
    soft = grit.FrictMat(density=2500, young=1e7)
    hard = grit.FrictMat(density=2500, young=4e7, tan_phi=0.25)
    s.add_material(soft)
    s.add_material(hard)
    s.set_pair(soft, hard, cn=8)
    for coord, axis, sense in ((0, 2, 1), (0, 0, 1), (1, 0, -1), (0, 1, 1), (1, 1, -1)):
        s.add(grit.Wall(coord, axis=axis, sense=sense, mat=hard))
    s.add(grit.Facet([(0, 0, 0.25), (1, 0, 0.0625), (0, 1, 0.25)], mat=hard))
    for i in range(NSIDE):
        for j in range(NSIDE):
            for k in range(NSIDE):
                s.add(grit.Sphere((0.25 + 0.25 * i + 0.015625 * k, 0.25 + 0.25 * j, 0.375 + 0.125 * k),
                                  0.0625 - 0.0078125 * ((i + j + k) % 2), vel=(0.5 * (j - 1), 0.25 * (i - 1), 0),
                                  mat=hard if (i + k) % 2 else soft))
    s.run(steps)
    return s


def dump(s):
    """The final state in the C twin's text format."""
    lines = []
    for p in s.particles:
        vals = p.pos + p.vel + p.angvel
        lines.append(f"particle {p.id} " + " ".join(_hex(v) for v in vals))
    for name in s.energy.names:
        lines.append(f"energy {name} {_hex(s.energy[name])}")
    lines.append(f"contacts {len(s.contacts)}")
    lines.append(f"step {s.step}")
    return "\n".join(lines) + "\n"


def _hex(x):
    """A double as C's %a writes it (glibc: 0x1.8p+1, 0x0p+0, -0x1p-3)."""
    if x == 0:
        return "-0x0p+0" if str(x).startswith("-") else "0x0p+0"
    h = float(x).hex()  # Python: 0x1.8000000000000p+1
    mant, exp = h.split("p")
    if "." in mant:
        mant = mant.rstrip("0").rstrip(".")
    return f"{mant}p{exp}"
