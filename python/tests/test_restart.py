"""Save and restart from Python: continuing from a file is bitwise identical to never stopping."""
import os

import pytest

import grit
import twin_scene


def test_restart_continues_bitwise(tmp_path):
    a = twin_scene.build(steps=1500)
    path = a.save(str(tmp_path / "mid.grit"))
    a.run(1500)
    b = grit.Scene.load(path)
    assert b.step == 1500 and len(b.particles) == len(a.particles)
    b.run(1500)
    assert twin_scene.dump(b) == twin_scene.dump(a) == twin_scene.dump(twin_scene.build())
    nan_free = lambda d: {k: ("nan" if v != v else v) for k, v in d.items()}  # noqa: E731 (NaN: 'off')
    assert nan_free(b.params()) == nan_free(a.params())
    b.add(grit.Sphere((0.5, 0.5, 0.9), 0.05, mat=1))  # materials are there, by index
    with pytest.raises(grit.ParameterError, match="material 2 does not exist"):
        b.add(grit.Sphere((0.5, 0.5, 0.9), 0.05, mat=2))


def test_restart_errors(tmp_path):
    s = twin_scene.build(steps=10)
    with pytest.raises(grit.GritIOError, match="no such file"):
        grit.Scene.load(str(tmp_path / "missing.grit"))
    with pytest.raises(grit.GritIOError, match="save: cannot create"):
        s.save(str(tmp_path / "no" / "dir" / "x.grit"))
    good = s.save(str(tmp_path / "good.grit"))
    data = open(good, "rb").read()
    bad = tmp_path / "truncated.grit"
    bad.write_bytes(data[: len(data) // 2])
    with pytest.raises(grit.FormatError) as e:
        grit.Scene.load(str(bad))
    assert "truncated.grit" in str(e.value)
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0xFF
    bad.write_bytes(bytes(flipped))
    with pytest.raises(grit.FormatError):
        grit.Scene.load(str(bad))
    bad.write_bytes(b"")
    with pytest.raises(grit.FormatError):
        grit.Scene.load(str(bad))
    assert os.path.exists(good)
