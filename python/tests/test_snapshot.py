"""tools/paraview_snapshot.py renders the last frame of a run to a PNG without a display (docs/output.md)."""
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT

SCRIPT = ROOT / "tools" / "paraview_snapshot.py"


def _vtk_window():
    """The class of VTK's render window ('' if VTK's Python modules are missing)."""
    r = subprocess.run([sys.executable, "-c", "import vtkmodules.vtkRenderingOpenGL2\n"
                        "from vtkmodules.vtkRenderingCore import vtkRenderWindow\n"
                        "print(vtkRenderWindow().GetClassName())"], capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else ""


def _which(name):
    return any(os.access(os.path.join(d, name), os.X_OK) for d in os.environ.get("PATH", "").split(os.pathsep))


def _skip_reason():
    window = _vtk_window()
    if not window:
        return "needs VTK's Python modules: Debian's python3-vtk9 (apt-get install python3-vtk9)"
    if window == "vtkXOpenGLRenderWindow" and not _which("xvfb-run"):
        return "this VTK draws through X: without a display it needs Debian's xvfb (apt-get install xvfb)"
    return None


@pytest.mark.skipif(_skip_reason() is not None, reason=str(_skip_reason()))
def test_snapshot_of_a_deposit_without_a_display(grit_exe, tmp_path):
    out = tmp_path / "dep"
    subprocess.run([grit_exe, "run", "deposit", "n=150", "time=0.12", "progress=0", f"out={out}"], check=True,
                   capture_output=True)
    image = tmp_path / "snap.png"
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}  # as on a machine without a display
    r = subprocess.run([sys.executable, str(SCRIPT), str(out), str(image)], capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert ": 150 spheres, " in r.stdout and f"wrote {image}" in r.stdout, r.stdout
    contacts = int(r.stdout.split(" spheres, ")[1].split()[0])
    assert contacts > 50, r.stdout  # the bed has settled onto the floor: its force chains are drawn

    from vtkmodules.vtkIOImage import vtkPNGReader
    from vtkmodules.util.numpy_support import vtk_to_numpy
    reader = vtkPNGReader()
    reader.SetFileName(str(image))
    reader.Update()
    assert reader.GetOutput().GetDimensions()[:2] == (1200, 900)
    rgb = vtk_to_numpy(reader.GetOutput().GetPointData().GetScalars()).astype(float)[:, :3]
    # not blank: the pixels vary, many differ from the background (a corner), and the tubes of the force
    # chains (blue for weak contacts, red for strong) are there
    assert rgb.std() > 15, rgb.std()
    drawn = np.abs(rgb - rgb[0]).sum(axis=1) > 30
    assert drawn.mean() > 0.05, drawn.mean()
    blue = (rgb[:, 2] > 150) & (rgb[:, 0] < 80)
    assert blue.sum() > 2000, blue.sum()


def test_snapshot_says_what_it_needs(tmp_path):
    """Without frames it names the cause; without arguments it prints its usage."""
    r = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True)
    assert r.returncode == 2 and "tools/paraview_snapshot.py OUT_DIR [IMAGE.png]" in r.stderr
    if _skip_reason() is None:
        r = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path)], capture_output=True, text=True)
        assert r.returncode == 1 and "no frame in" in r.stderr and "vtk_every=-1" in r.stderr, r.stderr
