"""VtkRecorder's formats: zlib-compressed frames (VTK's vtkZLibDataCompressor layout, as grit run's
vtk_format=zlib writes them) read back by hand and decompressed to the scene's values; float32."""
import base64
import math
import re
import struct
import zlib

import numpy as np
import pytest

import grit

CENTRES = [(0.0, 0.0, 0.0), (0.1, 0.0, 0.0), (0.0, 0.2, 0.3)]
RADII = [0.01, 0.02, 0.03]


def scene():
    s = grit.Scene()
    s.add_spheres(CENTRES, RADII, mat=grit.FrictMat())
    return s


def frame(folder):
    (path,) = folder.glob("particles_*.vtp")
    return path.read_text()


def array_text(text, name):
    m = re.search(r'<DataArray type="(\w+)" Name="%s" NumberOfComponents="\d+" format="(\w+)">\n(.*?)\n</DataArray>'
                  % name, text, re.S)
    assert m, f"no array {name}"
    return m.group(1), m.group(2), m.group(3).strip()


def inflate(data):
    """VTK's compressed inline layout: a base64 header (UInt64: number of blocks, block size, size of the last
    block if partial, each block's compressed size), then the compressed blocks as a second base64 stream."""
    nb = struct.unpack("<Q", base64.b64decode(data[:16])[:8])[0]
    head_len = 4 * math.ceil(8 * (3 + nb) / 3)
    head = struct.unpack("<%dQ" % (3 + nb), base64.b64decode(data[:head_len]))
    assert head[0] == nb and head[1] == 1 << 15
    z = base64.b64decode(data[head_len:])
    assert len(z) == sum(head[3:])
    out, at = b"", 0
    for size in head[3:]:
        out += zlib.decompress(z[at:at + size])
        at += size
    assert len(out) == (nb - 1) * head[1] + (head[2] or head[1])
    return out


@pytest.mark.parametrize("precision, dtype", [("float64", "<f8"), ("float32", "<f4")])
def test_zlib_frames_decompress_to_the_scene(tmp_path, precision, dtype):
    s = scene()
    rec = grit.VtkRecorder(s, tmp_path, format="zlib", precision=precision)
    assert rec.format == "zlib" and rec.precision == precision
    text = frame(tmp_path)
    assert 'compressor="vtkZLibDataCompressor"' in text.split("\n")[1]
    vtype, fmt, data = array_text(text, "radius")
    assert (vtype, fmt) == ("Float64" if precision == "float64" else "Float32", "binary")
    np.testing.assert_array_equal(np.frombuffer(inflate(data), dtype), np.array(RADII, dtype))
    _, _, data = array_text(text, "Points")
    np.testing.assert_array_equal(np.frombuffer(inflate(data), dtype).reshape(-1, 3), np.array(CENTRES, dtype))
    _, _, data = array_text(text, "id")
    np.testing.assert_array_equal(np.frombuffer(inflate(data), "<i8"), [0, 1, 2])


def test_formats_and_their_errors(tmp_path):
    s = scene()
    grit.VtkRecorder(s, tmp_path / "bin")
    assert "compressor" not in frame(tmp_path / "bin") and 'format="binary"' in frame(tmp_path / "bin")
    grit.VtkRecorder(s, tmp_path / "asc", format="ascii")
    assert 'format="ascii"' in frame(tmp_path / "asc")
    with pytest.raises(grit.ParameterError, match=re.escape("format = 'gzip' must be one of zlib|binary|ascii")):
        grit.VtkRecorder(s, tmp_path / "x", format="gzip")
    with pytest.raises(grit.ParameterError, match="contradict"):
        grit.VtkRecorder(s, tmp_path / "x", ascii=True, format="zlib")
    with pytest.raises(grit.ParameterError, match="precision = 'half'"):
        grit.VtkRecorder(s, tmp_path / "x", precision="half")
