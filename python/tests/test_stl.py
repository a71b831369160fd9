"""Scene.load_stl: triangles of ASCII and binary STL files as facets, placed and scaled; every error path
changes nothing and names the file (and the line or facet); VtkRecorder writes what ParaView reads."""
import math
import struct
import subprocess
import sys

import numpy as np
import pytest

import grit
from conftest import ROOT

# two triangles of a unit square in the plane z = 0 (in mm), and a sliver (collinear vertices)
SQUARE = [((0, 0, 0), (1000, 0, 0), (1000, 1000, 0)), ((0, 0, 0), (1000, 1000, 0), (0, 1000, 0))]
SLIVER = ((0, 0, 0), (1, 1, 1), (2, 2, 2))


def ascii_stl(path, tris, name="square"):
    with open(path, "w") as f:
        f.write(f"solid {name}\n")
        for t in tris:
            f.write("  facet normal 0 0 1\n    outer loop\n")
            for v in t:
                f.write("      vertex %g %g %g\n" % v)
            f.write("    endloop\n  endfacet\n")
        f.write(f"endsolid {name}\n")
    return path


def binary_stl(path, tris, header=b"binary square"):
    with open(path, "wb") as f:
        f.write(header.ljust(80, b"\0") + struct.pack("<I", len(tris)))
        for t in tris:
            f.write(struct.pack("<12fH", 0, 0, 1, *t[0], *t[1], *t[2], 0))
    return path


def centroids(scene, ids):
    return np.array([scene.particles[i].pos for i in ids])


@pytest.mark.parametrize("kind", ["ascii", "binary"])
def test_load_places_scales_and_rotates(tmp_path, kind):
    write = ascii_stl if kind == "ascii" else binary_stl
    path = write(tmp_path / f"sq.stl", SQUARE + [SLIVER])
    s = grit.Scene()
    s.add(grit.Sphere((5, 5, 5), 0.1))
    # 90 degrees about z, then shifted: vertex p (mm) -> shift + Rz (p / 1000)
    q = (math.cos(math.pi / 4), 0, 0, math.sin(math.pi / 4))
    mesh = s.load_stl(path, scale=1e-3, ori=q, shift=(1, 2, 3), half_thick=0.01)
    assert list(mesh.ids) == [1, 2] and len(mesh) == 2 and list(mesh) == [1, 2]
    assert mesh.n_degenerate == 1 and mesh.binary == (kind == "binary")
    assert mesh.name == ("square" if kind == "ascii" else "binary square")
    assert [s.particles[i].shape for i in mesh.ids] == ["facet", "facet"]
    # centroids of the two triangles: (2/3, 1/3, 0) and (1/3, 2/3, 0) rotated by 90 degrees about z
    assert centroids(s, mesh.ids) == pytest.approx(np.array([[1 - 1 / 3, 2 + 2 / 3, 3], [1 - 2 / 3, 2 + 1 / 3, 3]]),
                                                   abs=1e-12)
    assert "2 facets" in repr(mesh)


def test_binary_and_ascii_give_the_same_facets(tmp_path):
    a, b = grit.Scene(), grit.Scene()
    ma = a.load_stl(ascii_stl(tmp_path / "a.stl", SQUARE), scale=1e-3)
    mb = b.load_stl(binary_stl(tmp_path / "b.stl", SQUARE), scale=1e-3)
    assert centroids(a, ma.ids) == pytest.approx(centroids(b, mb.ids), abs=1e-15)


def test_half_thick_and_material_act_in_contacts(tmp_path):
    """A sphere comes to rest on the loaded square at half_thick + radius (the facets are thick and carry the
    given material: a soft one makes the overlap visible, mg / kn)."""
    s = grit.Scene(gravity=(0, 0, -9.81), damping=0.6)
    soft = grit.FrictMat(density=1000, young=1e5)
    mesh = s.load_stl(ascii_stl(tmp_path / "sq.stl", SQUARE), scale=1e-3, half_thick=0.02, mat=soft)
    r = 0.05
    sid = s.add(grit.Sphere((0.3, 0.6, 0.2), r, mat=soft))
    s.run(20000)
    c = s.contacts.arrays()
    assert len(c["id_a"]) == 1 and c["id_a"][0] in mesh.ids
    m = 1000 * 4 / 3 * math.pi * r**3
    # lens (max(h, r), r) = (r, r), area pi r^2: kn = E pi r^2 / (2 r)
    kn = 1e5 * math.pi * r / 2
    assert s.particles[sid].pos[2] == pytest.approx(0.02 + r - m * 9.81 / kn, abs=1e-6)
    assert c["kn"][0] == pytest.approx(kn, rel=1e-12)


def test_the_hopper_of_the_examples(tmp_path):
    s = grit.Scene()
    mesh = s.load_stl(ROOT / "examples" / "data" / "hopper.stl", scale=1e-3)
    assert len(mesh) == 96 and mesh.binary and mesh.n_degenerate == 0
    z = centroids(s, mesh.ids)[:, 2]
    assert 0 < z.min() and z.max() < 0.13


def unchanged(s, n):
    assert len(s.particles) == n


def test_missing_file(tmp_path):
    s = grit.Scene()
    with pytest.raises(grit.GritIOError, match=r"nope\.stl: cannot open STL file: No such file"):
        s.load_stl(tmp_path / "nope.stl")
    unchanged(s, 0)
    with pytest.raises(grit.GritIOError, match="cannot open STL file: it is a folder"):
        s.load_stl(tmp_path)


def test_truncated_binary(tmp_path):
    path = binary_stl(tmp_path / "t.stl", SQUARE)
    data = path.read_bytes()
    path.write_bytes(data[:-20])
    s = grit.Scene()
    s.add(grit.Sphere((0, 0, 0), 1))
    with pytest.raises(grit.FormatError, match=r"t\.stl: neither binary STL \(164 bytes, but the header's facet count "
                                               r"2 needs 184\)"):
        s.load_stl(path)
    unchanged(s, 1)
    # a binary file whose header starts with 'solid' (as many exporters write it)
    path = binary_stl(tmp_path / "s.stl", SQUARE, header=b"solid exported")
    path.write_bytes(path.read_bytes()[:-7])
    with pytest.raises(grit.FormatError, match=r"s\.stl: starts with 'solid' but holds binary data .*truncated "
                                               "binary STL"):
        s.load_stl(path)
    unchanged(s, 1)


def test_bad_ascii_line_names_file_and_line(tmp_path):
    path = ascii_stl(tmp_path / "bad.stl", SQUARE)
    lines = path.read_text().splitlines()
    assert lines[11].strip() == "vertex 1000 1000 0"
    lines[11] = "      vertex 1000 1000 zero"
    path.write_text("\n".join(lines) + "\n")
    s = grit.Scene()
    with pytest.raises(grit.FormatError, match=r"bad\.stl:12: vertex z coordinate 'zero' is not a number"):
        s.load_stl(path)
    unchanged(s, 0)
    lines[11] = "      vertex 1000 1000 0"
    lines[1] = "  facett normal 0 0 1"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(grit.FormatError, match=r"bad\.stl:2: expected 'facet' or 'endsolid', found 'facett'"):
        s.load_stl(path)
    unchanged(s, 0)
    lines[1] = "  facet normal 0 0 1"
    path.write_text("\n".join(lines[:-3]) + "\n")  # the file ends inside a facet
    with pytest.raises(grit.FormatError, match=r"bad\.stl:\d+: .*end of file"):
        s.load_stl(path)
    unchanged(s, 0)


@pytest.mark.parametrize("kw, msg", [
    (dict(half_thick=-0.1), "half_thick"), (dict(half_thick=math.nan), "half_thick"), (dict(scale=0), "scale"),
    (dict(scale="mm"), "scale = 'mm' is not a number"), (dict(ori=(1, 0, 0)), "ori"),
    (dict(ori=(0, 0, 0, 0)), "ori"), (dict(shift=(0, 0)), "shift"), (dict(mask=-1), "mask"), (dict(mat=7), "material 7"),
])
def test_bad_arguments(tmp_path, kw, msg):
    path = ascii_stl(tmp_path / "sq.stl", SQUARE)
    s = grit.Scene()
    with pytest.raises(grit.ParameterError, match=msg):
        s.load_stl(path, **kw)
    unchanged(s, 0)
    with pytest.raises(grit.ParameterError, match="is not a file name"):
        s.load_stl(42)


def test_vtk_recorder_writes_every_shape(tmp_path):
    s = grit.Scene(gravity=(0, 0, -9.81))
    s.add(grit.Wall(0, axis="z", sense=1))
    s.load_stl(ascii_stl(tmp_path / "sq.stl", SQUARE), scale=1e-4, shift=(0, 0, 0.02))
    s.add([grit.Capsule((0.02, 0.05, 0.05), 0.01, 0.02), grit.Ellipsoid((0.06, 0.05, 0.05), (0.02, 0.015, 0.01)),
           grit.Sphere((0.1, 0.05, 0.05), 0.01)])
    out = tmp_path / "vtk"
    rec = grit.VtkRecorder(s, out, every=100)
    assert rec.frames == 1
    s.run(250)
    assert rec.frames == 3
    rec.write()  # the final state
    rec.write()  # the same step again: replaces the frame
    assert rec.frames == 4 and "4 frames" in repr(rec)
    rec.stop()
    s.run(100)
    assert rec.frames == 4
    assert [p.rsplit("/", 1)[1] for p in map(str, rec.paths())] == ["particles.pvd", "contacts.pvd", "shapes.pvd"]
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "check_vtk.py"), str(out), "--particles", "1",
                        "--bodies", "2"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "12 files in 3 series" in r.stdout
    ascii_out = tmp_path / "ascii"
    grit.VtkRecorder(s, ascii_out, ascii=True)
    assert 'format="ascii"' in next(ascii_out.glob("particles_*.vtp")).read_text()
    rec.close()
    assert rec.frames == 0


def test_vtk_recorder_errors(tmp_path):
    s = grit.Scene()
    with pytest.raises(grit.ParameterError, match="every = 0"):
        grit.VtkRecorder(s, tmp_path / "v", every=0)
    (tmp_path / "file").write_text("x")
    with pytest.raises(OSError):
        grit.VtkRecorder(s, tmp_path / "file" / "sub")
    ro = tmp_path / "ro"
    ro.mkdir()
    rec = grit.VtkRecorder(s, ro, first=False)
    ro.chmod(0o500)
    try:
        import os
        if os.access(ro, os.W_OK):  # root ignores the permission
            pytest.skip("running as root: a read-only folder is writable")
        with pytest.raises(grit.GritIOError, match="ro"):
            rec.write()
    finally:
        ro.chmod(0o700)
    s.close()
    with pytest.raises(grit.StateError):
        grit.VtkRecorder(s, tmp_path / "closed")
