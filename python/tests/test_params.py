"""Parameters: generated from the C tables, validated by C, errors name the parameter and its range."""
import math
import re

import pytest

import grit
from grit.params import Group
from conftest import ROOT


def header_params(macro):
    """Parameter names of an X-macro list in a public header (the single declaration)."""
    for h in ("scene.h", "material.h", "law.h"):
        text = (ROOT / "include" / "grit" / h).read_text()
        m = re.search(r"#define %s\(X\)(.*?)(?:\n\n|/\* clang-format on \*/)" % macro, text, re.S)
        if m:
            return re.findall(r"X\((?:double|int|flag|vec3|choice),\s*(\w+),", m.group(1))
    return []


@pytest.mark.parametrize("macro,group,cls", [("GRIT_SCENE_PARAMS", "scene", "Scene"),
                                             ("GRIT_FRICTMAT_PARAMS", "frictmat", "FrictMat"),
                                             ("GRIT_PAIR_PARAMS", "pair", None),
                                             ("GRIT_IDEALELPL_PARAMS", "idealelpl", "Scene"),
                                             ("GRIT_LINEL6_PARAMS", "linel6", "Scene"),
                                             ("GRIT_KUHN_PARAMS", "kuhn", "Scene"),
                                             ("GRIT_CONCRETEMAT_PARAMS", "concretemat", "ConcreteMat"),
                                             ("GRIT_CPM_PARAMS", "cpm", "Scene"),
                                             ("GRIT_HERTZMAT_PARAMS", "hertzmat", "HertzMat"),
                                             ("GRIT_HERTZ_PARAMS", "hertz", "Scene")])
def test_every_declared_parameter_is_exported(macro, group, cls):
    names = header_params(macro)
    assert names, macro
    assert list(Group.get(group).params) == names
    if cls:
        for n in names:
            assert isinstance(getattr(getattr(grit, cls), n), grit.params.Param)


def test_defaults_and_docs_come_from_c():
    s = grit.Scene()
    assert math.isnan(s.dt)
    assert s.dt_safety == 0.9 and s.gravity == (0.0, 0.0, 0.0) and s.plast_book == "trapezoid"
    assert s.track_energy is False and s.sort_period == 500 and isinstance(s.sort_period, int)
    doc = grit.Scene.damping.__doc__
    assert "Cundall" in doc and "[0, 1)" in doc and "default: 0" in doc
    assert "[m/s^2]" in grit.Scene.gravity.__doc__
    m = grit.FrictMat()
    assert m.density == 1000.0 and m.young == 1e9 and m.kt_div_kn == 0.2 and m.tan_phi == 0.5
    assert m.law == "idealelpl"
    assert "[Pa]" in grit.FrictMat.young.__doc__ and "(0, inf)" in grit.FrictMat.young.__doc__


def test_set_and_get_every_type():
    s = grit.Scene(dt=1e-4, gravity=[0, 0, -9.81], kuhn_twirl="off", char_len=0.1, track_energy=1)
    assert s.dt == 1e-4 and s.gravity == (0.0, 0.0, -9.81) and s.kuhn_twirl == "off" and s.char_len == 0.1
    assert s.track_energy is True
    s.kuhn_twirl = 1
    assert s.kuhn_twirl == "first_order"
    m = grit.FrictMat(law="kuhn")
    assert m.law == "kuhn"
    m.law = 0
    assert m.law == "idealelpl"
    s.sort_period = 7
    assert s.sort_period == 7
    s.dt = float("nan")
    assert math.isnan(s.dt)
    assert s.params()["sort_period"] == 7


@pytest.mark.parametrize("name,value,message", [
    ("damping", 1.5, "parameter 'damping' = 1.5 is out of range: must be [0, 1) (-)"),
    ("damping", -0.1, "parameter 'damping' = -0.1 is out of range: must be [0, 1) (-)"),
    ("dt", 0.0, "parameter 'dt' = 0 is out of range: must be (0, inf) or nan (s)"),
    ("dt", -1, "parameter 'dt' = -1 is out of range: must be (0, inf) or nan (s)"),
    ("dt_safety", float("nan"), "parameter 'dt_safety' = nan is out of range: must be (0, 1] (-)"),
    ("sort_period", -3, "parameter 'sort_period' = -3 is out of range: must be [0, 1000000000] (steps)"),
    ("sort_period", 2.5, "parameter 'sort_period' = 2.5 is not an integer (valid: [0, 1000000000])"),
    ("kuhn_twirl", "hertz", "parameter 'kuhn_twirl' = 'hertz' is not one of {twirls}"),
    ("kuhn_twirl", 99, "parameter 'kuhn_twirl' = 99 is out of range: must be one of {twirls} (-)"),
    ("interaction_radius", 0.5, "parameter 'interaction_radius' = 0.5 is out of range: must be [1, inf) (-)"),
    ("track_energy", 2, "parameter 'track_energy' = 2 is out of range: must be true/false or 1/0 (-)"),
    ("track_energy", "yes", "parameter 'track_energy' = 'yes' is not a boolean"),
    ("gravity", (0, 0), "parameter 'gravity' = (0, 0) is not a vector of 3 numbers"),
    ("gravity", 9.81, "parameter 'gravity' = 9.81 is not a vector of 3 numbers"),
    ("gravity", (0, 0, math.nan), "parameter 'gravity' = nan is out of range: must be (-inf, inf) (m/s^2)"),
    ("damping", "0.1", "parameter 'damping' = '0.1' is not a number"),
])
def test_bad_values_raise_the_c_message_and_change_nothing(name, value, message):
    twirls = "|".join(Group.get("kuhn").params["kuhn_twirl"].choices)
    assert twirls == "exact|first_order|off"
    message = message.replace("{twirls}", twirls)
    s = grit.Scene()
    before = s.params()
    with pytest.raises(grit.ParameterError) as e:
        setattr(s, name, value)
    assert str(e.value) == message
    after = s.params()
    assert repr(after) == repr(before)
    with pytest.raises(grit.ParameterError) as e2:
        grit.Scene(**{name: value})
    assert str(e2.value) == message
    assert isinstance(e.value, ValueError)


def test_whole_definition_checks():
    # a LinEl6 contact needs char_len > 0: refused by the first step, with nothing changed
    s = grit.Scene()
    m = grit.FrictMat(law="linel6")
    s.add(grit.Sphere((0, 0, 0), 0.1, mat=m))
    s.add(grit.Sphere((0.19, 0, 0), 0.1, mat=m))
    with pytest.raises(grit.ParameterError, match="the linel6 law .* needs char_len > 0"):
        s.run(1)
    assert s.step == 0
    s.char_len = 0.1
    s.run(1)
    assert s.step == 1 and s.pair_law(m, m) == "linel6"


def test_unknown_names():
    with pytest.raises(grit.ParameterError, match="unknown scene parameter 'dampnig' of Scene; did you mean 'damping'"):
        grit.Scene(dampnig=0.1)
    s = grit.Scene()
    with pytest.raises(grit.ParameterError, match="did you mean 'damping'"):
        s.dampnig = 0.1
    with pytest.raises(grit.ParameterError, match="unknown frictmat parameter 'yuong'.*did you mean 'young'"):
        grit.FrictMat(yuong=1e7)
    with pytest.raises(AttributeError):
        s.step = 3  # read-only property, not a parameter


def test_material_errors_and_freezing():
    with pytest.raises(grit.ParameterError, match=r"parameter 'young' = -1 is out of range: must be \(0, inf\) \(Pa\)"):
        grit.FrictMat(young=-1)
    m = grit.FrictMat(density=2600)
    m.young = 2e7
    s = grit.Scene()
    assert s.add_material(m) == 0
    assert s.add_material(m) == 0
    with pytest.raises(grit.StateError, match="holds a copy"):
        m.young = 3e7
    assert m.young == 2e7
    with pytest.raises(grit.ParameterError, match=r"material 3 does not exist \(1 material defined\)"):
        s.add_material(3)
    with pytest.raises(grit.ParameterError, match=r"neither a material \(FrictMat"):
        s.add_material("steel")


def test_pair_overrides():
    s = grit.Scene()
    a, b = grit.FrictMat(), grit.FrictMat(young=2e9)
    s.set_pair(a, b, kn=1e6, cn=3.0)
    with pytest.raises(grit.ParameterError, match=r"parameter 'kn' = -1 is out of range: must be \(0, inf\) or nan"):
        s.set_pair(a, b, kn=-1)
    with pytest.raises(grit.ParameterError, match="unknown pair parameter 'k_n'"):
        s.set_pair(a, b, k_n=1)
    with pytest.raises(grit.ParameterError, match="material 5 does not exist"):
        s.set_pair(0, 5, kn=1)
    # the override is used: two spheres touching get kn from it
    s.dt = 1e-6
    s.add(grit.Sphere((0, 0, 0), 0.1, mat=a))
    s.add(grit.Sphere((0.19, 0, 0), 0.1, mat=b))
    s.run(1)
    c = s.contacts[0]
    assert c["kn"] == 1e6 and c["cn"] == 3.0 and c["kt"] == pytest.approx(0.2e6)
    # a new override reaches the contact that exists only through update_physics
    s.set_pair(a, b, kn=2e6, tan_phi=0.1)
    assert s.contacts[0]["kn"] == 1e6
    assert s.update_physics() == 1
    c = s.contacts[0]
    assert c["kn"] == 2e6 and c["tan_phi"] == 0.1 and c["cn"] == 0.0 and c["kt"] == pytest.approx(0.4e6)  # the new override replaces the old one whole
