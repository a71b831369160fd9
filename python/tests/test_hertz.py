"""The Hertz-Mindlin law from Python: HertzMat (generated from the engine's list of material types), the law's
parameters on the scene, pair overrides, a Hertz impact, the Rayleigh time step, errors that name the parameter."""
import math

import numpy as np
import pytest

import grit


def rayleigh_time(m, r):
    g = m.young / (2 * (1 + m.poisson))
    return math.pi * r * math.sqrt(m.density / g) / (0.1631 * m.poisson + 0.8766)


def test_hertzmat_class_and_defaults():
    m = grit.HertzMat()
    assert isinstance(m, grit.Material) and type(m).__name__ == "HertzMat"
    assert m.young == 7e10 and m.poisson == 0.25 and m.restitution == 0.9 and m.tan_phi == 0.5
    assert "Poisson" in grit.HertzMat.poisson.__doc__ and "[Pa]" in grit.HertzMat.young.__doc__
    s = grit.Scene()
    assert s.rayleigh_fraction == 0.2 and s.limit_force is False
    s.limit_force = True
    assert s.params()["limit_force"] is True


def test_bad_values_name_the_parameter():
    with pytest.raises(grit.ParameterError, match="'poisson' = 0.75 is out of range"):
        grit.HertzMat(poisson=0.75)
    with pytest.raises(grit.ParameterError, match="'restitution' = 1.5 is out of range"):
        grit.HertzMat(restitution=1.5)
    with pytest.raises(grit.ParameterError, match="rayleigh_fraction"):
        grit.Scene(rayleigh_fraction=0)
    s = grit.Scene()
    a, f = s.add_material(grit.HertzMat()), s.add_material(grit.FrictMat())
    with pytest.raises(grit.ParameterError, match="'kn' = 1e\\+06 does not apply to their HertzPhys"):
        s.set_pair(a, a, kn=1e6)
    with pytest.raises(grit.ParameterError, match="'restitution' = 0.5 does not apply to their FrictPhys"):
        s.set_pair(a, f, restitution=0.5)
    s.set_pair(a, a, restitution=0.5, tan_phi=0.1)
    assert s.pair_law(a, a) == "hertz" and s.pair_law(a, f) == "idealelpl"


def test_impact_and_time_step():
    """Two glass spheres at 10 m/s each (Chung & Ooi's test 1): Hertz's peak force; elastic rebound."""
    glass = grit.HertzMat(young=4.8e10, poisson=0.2, density=2800, tan_phi=0.35, restitution=1.0)
    r = 0.01
    s = grit.Scene(track_energy=True)
    a = s.add(grit.Sphere((-r - 1e-6, 0, 0), r, mat=glass, vel=(10, 0, 0)))
    s.add(grit.Sphere((r + 1e-6, 0, 0), r, mat=glass, vel=(-10, 0, 0)))
    s.run(1)
    assert math.isclose(s.current_dt, 0.9 * 0.2 * rayleigh_time(glass, r), rel_tol=1e-12)
    fmax = 0.0
    for _ in range(200):
        s.run(1)
        if len(s.contacts):
            fmax = max(fmax, -s.contacts.force[0, 0])
        elif fmax > 0:
            break
    es = glass.young / (2 * (1 - glass.poisson ** 2))
    ms = glass.density * 4 / 3 * math.pi * r ** 3 / 2
    dmax = (15 * ms * 20 ** 2 / (16 * es * math.sqrt(r / 2))) ** 0.4
    assert math.isclose(fmax, 4 / 3 * es * math.sqrt(r / 2) * dmax ** 1.5, rel_tol=0.02)  # at 0.18 Rayleigh time
    assert np.isclose(s.particles[a].vel[0], -10, rtol=2e-3)
    # the leapfrog's error at the end of the contact, (v dt / overlap)^(5/2): 1.3 % at 17 steps per impact
    assert abs(s.energy.rel_error) < 2e-2


def test_restitution_from_the_material():
    s = grit.Scene(track_energy=True)
    m = grit.HertzMat(young=1e9, poisson=0.3, density=2000, restitution=0.4, tan_phi=0.0)
    s.dt = 0.01 * rayleigh_time(m, 0.005)
    s.add(grit.Wall(0.0, axis=2, sense=1, mat=m))
    p = s.add(grit.Sphere((0, 0, 0.005 + 1e-7), 0.005, mat=m, vel=(0, 0, -1.0)))
    s.run(3000)
    assert len(s.contacts) == 0
    assert math.isclose(s.particles[p].vel[2], 0.4, rel_tol=2e-3)
    assert s.energy["viscDamp"] > 0 and abs(s.energy.rel_error) < 1e-3


@pytest.mark.parametrize("model", ["epsd", "cdt"])
def test_rolling_resistance_stops_a_sphere(model):
    """A sphere rolling on a plane stops after 7 v0^2 / (10 mu_roll g), under either model."""
    m = grit.HertzMat(young=1e8, poisson=0.3, density=2500, tan_phi=0.5, restitution=0.5, rolling=model,
                      mu_roll=0.1)
    assert m.rolling == model and m.eta_roll == 0.3
    r, v0, g = 0.005, 0.2, 9.81
    s = grit.Scene(track_energy=True, gravity=(0, 0, -g))
    s.dt = 0.2 * rayleigh_time(m, r)
    s.add(grit.Wall(0.0, axis=2, sense=1, mat=m))
    es = m.young / (2 * (1 - m.poisson ** 2))
    mass = m.density * 4 / 3 * math.pi * r ** 3
    delta = (mass * g / (4 / 3 * es * math.sqrt(r))) ** (2 / 3)
    p = s.add(grit.Sphere((0, 0, r - delta), r, mat=m, vel=(v0, 0, 0), angvel=(0, v0 / r, 0)))
    t_stop = v0 / (5 / 7 * 0.1 * g)
    s.run(int(1.3 * t_stop / s.dt))
    dist = 7 * v0 ** 2 / (10 * 0.1 * g)
    assert math.isclose(s.particles[p].pos[0], dist, rel_tol=1e-3)
    assert abs(s.particles[p].vel[0]) < 1e-4 and abs(s.energy.rel_error) < 1e-3
    assert s.energy["plast"] > 0


def test_rolling_resistance_per_pair():
    s = grit.Scene()
    a, b = s.add_material(grit.HertzMat()), s.add_material(grit.HertzMat(rolling="cdt", mu_roll=0.05))
    s.set_pair(a, b, rolling="epsd", mu_roll=0.2, eta_roll=0.5)
    f = s.add_material(grit.FrictMat())
    with pytest.raises(grit.ParameterError, match="'mu_roll' = 0.1 does not apply to their FrictPhys"):
        s.set_pair(a, f, mu_roll=0.1)
    with pytest.raises(grit.ParameterError, match="'mu_roll' = -1 is out of range"):
        grit.HertzMat(mu_roll=-1)
