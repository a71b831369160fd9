#!/usr/bin/python3
"""grit against LIGGGHTS, LAMMPS and Yade on the benchmark scenes box-N.

The scenes, the contact law and the phases are those of ../shared/bench/SCENES.md:
N spheres (r uniform in [0.9, 1.1] mm) in an open box of five walls, linear
spring-dashpot contacts (kn = 1e4 N/m, kt = 2/7 kn, cn = 0.1 N s/m, mu = 0.5),
dt = 2.5e-6 s;
  settle: from the loose cloud scenes/box-N.csv, 100 000 steps (the bed comes to rest);
  dense:  from the settled bed scenes/box-N-settled.csv, 2 000 steps.
Every code runs single-threaded, one process per run, under `timeout` and
`/usr/bin/time -v` (peak RSS). Runs of the codes alternate (rep 1 of every code,
then rep 2, ... with the order rotated), so that a noisy period hits all of them.

  run_bench.py run --scenes box-2000,box-20000 --phase dense --reps 5 [--codes grit,liggghts,lammps,yade]
  run_bench.py table --machine epyc-zen5-2c      # -> bench/results/<machine>.csv, <machine>-runs.csv
  run_bench.py report --machine epyc-zen5-2c     # markdown tables from those CSVs (docs/performance.md)

Timed region (what cpu_s and wall_s cover):
  grit      the N steps (grit_step), first broad-phase rebuild included; process CPU clock
  liggghts  cpu_s: the whole `run N` command (setup included), from /proc/<pid>/stat
  lammps    (stamps around `run`, 10 ms resolution); wall_s: "Loop time" (N steps, no setup)
  yade      O.run(N, True): time.process_time() / time.time(), collider initialisation included
No code's figure includes reading the input or writing the final state.

Run records (one JSON line per run) go to <work>/runs.jsonl; logs of every run to
<work>/runs/<campaign>/<code>/<scene>/<phase>/repK/. The loose clouds
scenes/box-N.csv are generated once into <work>/scenes by the shared gen_scene.py
(deterministic; ~4 min for the three sizes).
"""
import argparse
import csv
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
PEERS = os.path.join(HERE, 'peers')
RESULTS = os.path.join(HERE, 'results')
STEPS = {'settle': 100000, 'dense': 2000}
CODES = ('grit', 'liggghts', 'lammps', 'yade')
# grit with one option changed, to measure what a technique is worth (--codes grit,grit-scalar,...)
GRIT_VARIANTS = {'grit-scalar': ['--scalar'], 'grit-nosort': ['--sort-period', '0'],
                 'grit-skin2e-4': ['--verlet', '2e-4']}
DENSITY = 2600.0
G = 9.81


def find_shared(arg):
    for d in ([arg] if arg else []) + [os.environ.get('GRIT_BENCH_SHARED', ''),
                                       os.path.join(REPO, '..', 'shared', 'bench'),
                                       os.path.join(REPO, '..', '..', 'shared', 'bench'), '/work/shared/bench']:
        if d and os.path.isfile(os.path.join(d, 'SCENES.md')):
            return os.path.abspath(d)
    sys.exit('run_bench.py: cannot find the shared benchmark folder (SCENES.md); give --shared DIR')


# ---------------------------------------------------------------- scenes

def scene_files(shared, work, scene, phase):
    meta_path = os.path.join(shared, 'scenes', scene + '.json')
    if not os.path.isfile(meta_path):
        sys.exit('run_bench.py: no scene %s (%s)' % (scene, meta_path))
    if phase == 'dense':
        csv_path = os.path.join(shared, 'scenes', scene + '-settled.csv')
        if not os.path.isfile(csv_path):
            sys.exit('run_bench.py: no settled bed %s' % csv_path)
        return meta_path, csv_path
    for d in (os.path.join(shared, 'scenes'), os.path.join(work, 'scenes')):
        if os.path.isfile(os.path.join(d, scene + '.csv')):
            return meta_path, os.path.join(d, scene + '.csv')
    out = os.path.join(work, 'scenes')
    os.makedirs(out, exist_ok=True)
    print('generating the loose cloud %s into %s' % (scene, out), flush=True)
    subprocess.run(['/usr/bin/python3', os.path.join(shared, 'gen_scene.py'), scene, '--outdir', out], check=True)
    mine = json.load(open(os.path.join(out, scene + '.json')))
    ref = json.load(open(meta_path))
    for k in ('n', 'seed', 'box_Lx_m', 'cloud_height_m', 'rsa_tries'):
        if mine[k] != ref[k]:
            sys.exit('run_bench.py: generated %s differs from the reference in %s: %r != %r' % (scene, k, mine[k], ref[k]))
    return meta_path, os.path.join(out, scene + '.csv')


def load_csv(path):
    import numpy as np
    return np.loadtxt(path, delimiter=',', skiprows=1, ndmin=2)


def write_data(csv_path, meta, out):
    """LIGGGHTS/LAMMPS data file (atom_style granular / sphere: id type diameter density x y z)."""
    a = load_csv(csv_path)
    zmax = max(meta['domain_zmax_m'], 1.5 * float((a[:, 2] + a[:, 3]).max()))
    with open(out, 'w') as f:
        f.write('box-N data file from %s (%d spheres)\n\n%d atoms\n1 atom types\n\n' % (csv_path, len(a), len(a)))
        f.write('0 %.10g xlo xhi\n0 %.10g ylo yhi\n0 %.10g zlo zhi\n\nAtoms\n\n' % (meta['box_Lx_m'], meta['box_Ly_m'], zmax))
        for i, (x, y, z, r) in enumerate(a):
            f.write('%d 1 %.16e %g %.16e %.16e %.16e\n' % (i + 1, 2 * r, DENSITY, x, y, z))


def dump_to_csv(dump, out):
    lines = open(dump).read().splitlines()
    i = next(k for k, l in enumerate(lines) if l.startswith('ITEM: ATOMS'))
    cols = lines[i].split()[2:]
    ix = [cols.index(c) for c in ('id', 'x', 'y', 'z', 'radius')]
    rows = sorted((l.split() for l in lines[i + 1:] if l.strip()), key=lambda r: int(r[ix[0]]))
    with open(out, 'w') as f:
        f.write('x,y,z,r\n')
        for r in rows:
            f.write('%s,%s,%s,%s\n' % (r[ix[1]], r[ix[2]], r[ix[3]], r[ix[4]]))


# ---------------------------------------------------------------- one run

def cpu_jiffies():
    with open('/proc/stat') as f:
        v = [int(t) for t in f.readline().split()[1:]]
    return sum(v[:8]) - (v[3] + v[4]), sum(v[:8])


def parse_time_v(path):
    txt = open(path, errors='replace').read()
    out = {}
    for k, p in (('maxrss_kb', r'Maximum resident set size \(kbytes\): (\d+)'),
                 ('user_s', r'User time \(seconds\): ([\d.]+)'), ('sys_s', r'System time \(seconds\): ([\d.]+)'),
                 ('exit_status', r'Exit status: (\d+)')):
        m = re.search(p, txt)
        if m:
            out[k] = float(m.group(1)) if '.' in m.group(1) else int(m.group(1))
    return out


def parse_kv(line):
    d = {}
    for kv in line.split():
        if '=' not in kv:
            continue
        k, v = kv.split('=', 1)
        for conv in (int, float):
            try:
                d[k] = conv(v)
                break
            except ValueError:
                pass
        else:
            d[k] = v
    return d


def thermo_ke(txt):
    """KE (translational + rotational) from the last thermo line of LIGGGHTS/LAMMPS."""
    hdr, last = None, None
    for l in txt.splitlines():
        t = l.split()
        if t[:1] == ['Step']:
            hdr = t
        elif hdr and len(t) == len(hdr) and t[0].isdigit():
            last = t
    if not last:
        return None
    rke = next((c for c in ('rke', 'c_rke') if c in hdr), None)
    return float(last[hdr.index('KinEng')]) + (float(last[hdr.index(rke)]) if rke else 0.0)


def run_one(a, code, scene, phase, rep, shared):
    meta_path, incsv = scene_files(shared, a.work, scene, phase)
    meta = json.load(open(meta_path))
    nsteps = a.steps or STEPS[phase]
    wd = os.path.join(a.work, 'runs', a.campaign, code, scene, phase, 'rep%d' % rep)
    if os.path.isdir(wd):
        shutil.rmtree(wd)
    os.makedirs(wd)
    final_csv = os.path.join(wd, 'final.csv')
    thev = max(1, nsteps // 10) if phase == 'settle' else max(1, nsteps // 2)
    L = repr(meta['box_Lx_m'])
    if code == 'grit' or code in GRIT_VARIANTS:
        cmd = [a.grit, '--csv', incsv, '--L', L, '--steps', str(nsteps), '--phase', phase, '--out', final_csv]
        if phase == 'settle':
            cmd += ['--every', str(thev)]
        cmd += GRIT_VARIANTS.get(code, []) + a.grit_args.split()
    elif code in ('liggghts', 'lammps'):
        data = os.path.join(wd, 'in.data')
        write_data(incsv, meta, data)
        exe, inp = ('liggghts', 'liggghts-box.in') if code == 'liggghts' else ('lmp', 'lammps-box.in')
        cmd = [exe, '-echo', 'none', '-log', os.path.join(wd, 'log.' + code), '-in', os.path.join(PEERS, inp),
               '-var', 'data', data, '-var', 'L', L, '-var', 'nsteps', str(nsteps), '-var', 'phase', phase,
               '-var', 'out', os.path.join(wd, 'final.dump'), '-var', 'stamp', os.path.join(wd, 'stamp'),
               '-var', 'here', PEERS, '-var', 'thev', str(thev)]
    elif code == 'yade':
        cmd = ['yade', '-n', '-x', '-j1', os.path.join(PEERS, 'yade-box.py'), '--csv', incsv, '--json', meta_path,
               '--nsteps', str(nsteps), '--phase', phase, '--out', final_csv]
        if phase == 'settle':
            cmd += ['--thev', str(thev)]
    else:
        sys.exit('unknown code ' + code)
    full = ['/usr/bin/time', '-v', '-o', os.path.join(wd, 'time-v.txt'), 'timeout', str(a.timeout)] + cmd
    with open(os.path.join(wd, 'cmd.txt'), 'w') as f:
        f.write(' '.join(full) + '\n')
    env = dict(os.environ, OMP_NUM_THREADS='1')
    b0, t0 = cpu_jiffies()
    w0 = time.time()
    with open(os.path.join(wd, 'stdout.txt'), 'w') as so, open(os.path.join(wd, 'stderr.txt'), 'w') as se:
        p = subprocess.run(full, stdout=so, stderr=se, env=env, cwd=wd)
    host_wall = time.time() - w0
    b1, t1 = cpu_jiffies()
    txt = open(os.path.join(wd, 'stdout.txt'), errors='replace').read()
    tv = parse_time_v(os.path.join(wd, 'time-v.txt'))
    rec = {'campaign': a.campaign, 'code': code, 'scene': scene, 'phase': phase, 'rep': rep, 'rc': p.returncode,
           'N': meta['n'], 'steps': nsteps, 'dt': 2.5e-6, 'date': datetime.datetime.now().isoformat(timespec='seconds'),
           'host_wall_s': host_wall, 'maxrss_kb': tv.get('maxrss_kb'),
           'proc_cpu_s': tv.get('user_s', 0.0) + tv.get('sys_s', 0.0)}
    own = rec['proc_cpu_s'] / max(1e-9, host_wall)
    rec['others_busy_cores'] = (b1 - b0) / max(1, t1 - t0) * os.cpu_count() - own
    m = None
    for m in re.finditer(r'(?:PEERS|GRIT)_SUMMARY (.*)', txt):
        pass
    summ = parse_kv(m.group(1)) if m else {}
    for k in ('wall_s', 'cpu_s', 'contacts_pp', 'contacts_pw', 'ke_J', 'real_contacts', 'potential_pairs',
              'rebuilds', 'sorts', 'verlet_dist_m', 't_integrate_s', 't_collide_s', 't_contacts_s'):
        if k in summ:
            rec[k] = summ[k]
    if code in ('liggghts', 'lammps'):
        m = re.search(r'Loop time of ([\d.eE+-]+) on \d+ procs for (\d+) steps', txt)
        if m:
            rec['wall_s'] = float(m.group(1))
            rec['steps_done'] = int(m.group(2))
        try:
            s0 = open(os.path.join(wd, 'stamp.cpu0')).read().split()
            s1 = open(os.path.join(wd, 'stamp.cpu1')).read().split()
            rec['cpu_s'] = (int(s1[0]) + int(s1[1]) - int(s0[0]) - int(s0[1])) / float(s0[2])
        except (OSError, IndexError, ValueError):
            pass
        m = re.search(r'Neighbor list builds = (\d+)', txt)
        if m:
            rec['rebuilds'] = int(m.group(1))
        rec['ke_J'] = thermo_ke(txt)
        if os.path.exists(os.path.join(wd, 'final.dump')):
            dump_to_csv(os.path.join(wd, 'final.dump'), final_csv)
            os.remove(os.path.join(wd, 'final.dump'))
        if os.path.exists(os.path.join(wd, 'in.data')):
            os.remove(os.path.join(wd, 'in.data'))
    if code not in ('liggghts', 'lammps') and 'steps' in summ:
        rec['steps_done'] = summ['steps']  # grit: grit_step_count; Yade: O.iter
    for k in ('wall_s', 'cpu_s'):
        if rec.get(k):
            rec['psps_' + k[:-2]] = meta['n'] * nsteps / rec[k]
    if os.path.exists(final_csv):
        sys.path.insert(0, shared)
        import numpy as np
        from count_contacts import diagnostics
        g = diagnostics(final_csv, meta)
        rec.update({'geom_' + k: g[k] for k in ('contacts_pp', 'contacts_pw', 'coordination_pp', 'h99_m',
                                                 'zmax_top_m', 'phi_core_approx', 'mean_overlap_rel')})
        # kinetic energy at the end relative to the potential energy released (settle criterion)
        x0, x1 = load_csv(incsv), load_csv(final_csv)
        if len(x0) == len(x1):
            mass = DENSITY * 4.0 / 3.0 * np.pi * x0[:, 3] ** 3
            rec['pe_released_J'] = float((mass * G * (x0[:, 2] - x1[:, 2])).sum())
        if phase == 'dense' or rep > 1:
            os.remove(final_csv)  # deterministic codes: keep one final state per code and scene
    with open(os.path.join(a.work, 'runs.jsonl'), 'a') as f:
        f.write(json.dumps(rec) + '\n')
    print(json.dumps({k: rec.get(k) for k in ('code', 'scene', 'phase', 'rep', 'rc', 'cpu_s', 'wall_s', 'psps_cpu',
                                              'contacts_pp', 'geom_contacts_pp', 'maxrss_kb', 'others_busy_cores')}),
          flush=True)
    return rec


def cmd_run(a):
    shared = find_shared(a.shared)
    os.makedirs(a.work, exist_ok=True)
    if 'grit' in a.codes and not os.access(a.grit, os.X_OK):
        sys.exit('run_bench.py: no grit_bench at %s (build first: cmake --build build)' % a.grit)
    codes = a.codes.split(',')
    for scene in a.scenes.split(','):
        for rep in range(a.rep0, a.rep0 + a.reps):
            k = (rep - 1) % len(codes)
            for code in codes[k:] + codes[:k]:
                run_one(a, code, scene, a.phase, rep, shared)


# ---------------------------------------------------------------- tables

def machine_info():
    info = {'cpu_model': '', 'cpu_family': '', 'cpu_model_id': '', 'ncpu': os.cpu_count(), 'avx512': False}
    for l in open('/proc/cpuinfo'):
        k, _, v = l.partition(':')
        k, v = k.strip(), v.strip()
        if k == 'model name' and not info['cpu_model']:
            info['cpu_model'] = v
        elif k == 'cpu family' and not info['cpu_family']:
            info['cpu_family'] = v
        elif k == 'model' and not info['cpu_model_id']:
            info['cpu_model_id'] = v
        elif k == 'flags':
            info['avx512'] = 'avx512f' in v.split()
    return info


def versions():
    # the engine's version: the last commit that changed its sources (bench/ changes do not count)
    git = ['git', '-C', REPO]
    src = ['--', 'src', 'include', 'CMakeLists.txt']
    commit = subprocess.run(git + ['log', '-1', '--format=%h'] + src, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(git + ['status', '--porcelain'] + src, capture_output=True, text=True).stdout.strip()
    out = {'grit': commit + ('-dirty' if dirty else '')}
    for code, pkg in (('liggghts', 'liggghts'), ('lammps', 'lammps'), ('yade', 'yade')):
        r = subprocess.run(['dpkg-query', '-W', '-f', '${Version}', pkg], capture_output=True, text=True)
        out[code] = r.stdout.strip() if r.returncode == 0 else ''
    return out


def load_runs(work, campaigns):
    recs = [json.loads(l) for l in open(os.path.join(work, 'runs.jsonl'))]
    return [r for r in recs if r['rc'] == 0 and r.get('cpu_s') and (not campaigns or r['campaign'] in campaigns)]


SUMMARY_COLS = ['machine', 'cpu', 'date', 'grit_commit', 'campaign', 'code', 'version', 'scene', 'phase', 'N', 'steps',
                'dt_s', 'runs', 'steps_done_ok', 'cpu_s_best', 'cpu_s_median', 'cpu_s_worst', 'psps_cpu_best', 'psps_cpu_median',
                'wall_s_best', 'wall_s_median', 'psps_wall_best', 'psps_wall_median', 'grit_speedup_cpu_best',
                'grit_speedup_cpu_median', 'maxrss_mib', 'rss_bytes_per_particle', 'contacts_pp_code',
                'contacts_pp_geom', 'contacts_pw_geom', 'coordination_pp', 'ke_end_J', 'ke_over_pe_released',
                'rebuilds', 'others_busy_cores_median', 'grit_contact_ns_per_contact', 'grit_integrate_ns_per_particle',
                'grit_collide_us_per_particle_rebuild', 'grit_share_contacts', 'grit_share_integrate',
                'grit_share_collide']
RUN_COLS = ['machine', 'campaign', 'date', 'code', 'scene', 'phase', 'rep', 'N', 'steps', 'steps_done', 'cpu_s', 'wall_s',
            'psps_cpu', 'psps_wall', 'maxrss_kb', 'contacts_pp', 'geom_contacts_pp', 'geom_contacts_pw', 'ke_J',
            'rebuilds', 'others_busy_cores', 't_integrate_s', 't_collide_s', 't_contacts_s']


def summarize(recs, machine, commit_override=None):
    mi, ver = machine_info(), versions()
    if commit_override:
        ver['grit'] = commit_override
    groups = {}
    for r in recs:
        groups.setdefault((r['campaign'], r['code'], r['scene'], r['phase']), []).append(r)
    rows = []
    for (camp, code, scene, phase), g in sorted(groups.items(), key=lambda kv: (
            kv[0][0], int(kv[0][2].split('-')[1]), kv[0][3], code_rank(kv[0][1]))):
        n, steps = g[0]['N'], g[0]['steps']
        cpus = sorted(r['cpu_s'] for r in g)
        walls = sorted(r['wall_s'] for r in g if r.get('wall_s'))
        last = g[-1]
        fin = next((r for r in g if r.get('geom_contacts_pp') is not None), {})
        row = {'machine': machine, 'cpu': '%s (family %s model %s, %d vCPU%s)' % (
            mi['cpu_model'], mi['cpu_family'], mi['cpu_model_id'], mi['ncpu'], ', AVX-512' if mi['avx512'] else ''),
            'date': min(r['date'] for r in g)[:10], 'grit_commit': ver['grit'], 'campaign': camp, 'code': code,
            'version': ver.get('grit' if code in GRIT_VARIANTS else code, ''), 'scene': scene, 'phase': phase, 'N': n, 'steps': steps, 'dt_s': g[0]['dt'],
            'runs': len(g), 'steps_done_ok': all(r.get('steps_done') == steps for r in g), 'cpu_s_best': cpus[0], 'cpu_s_median': statistics.median(cpus), 'cpu_s_worst': cpus[-1],
            'psps_cpu_best': n * steps / cpus[0], 'psps_cpu_median': n * steps / statistics.median(cpus),
            'wall_s_best': walls[0] if walls else '', 'wall_s_median': statistics.median(walls) if walls else '',
            'psps_wall_best': n * steps / walls[0] if walls else '',
            'psps_wall_median': n * steps / statistics.median(walls) if walls else '',
            'maxrss_mib': statistics.median(r['maxrss_kb'] for r in g) / 1024.0,
            'rss_bytes_per_particle': statistics.median(r['maxrss_kb'] for r in g) * 1024.0 / n,
            'contacts_pp_code': last.get('contacts_pp', ''), 'contacts_pp_geom': fin.get('geom_contacts_pp', ''),
            'contacts_pw_geom': fin.get('geom_contacts_pw', ''),
            'coordination_pp': fin.get('geom_coordination_pp', ''), 'ke_end_J': last.get('ke_J', ''),
            'ke_over_pe_released': (fin['ke_J'] / fin['pe_released_J'] if phase == 'settle' and fin.get('ke_J')
                                    and fin.get('pe_released_J') else ''),
            'rebuilds': last.get('rebuilds', ''),
            'others_busy_cores_median': statistics.median(r['others_busy_cores'] for r in g)}
        if code == 'grit' or code in GRIT_VARIANTS:
            best = min(g, key=lambda r: r['cpu_s'])
            tc, ti, tb = best['t_contacts_s'], best['t_integrate_s'], best['t_collide_s']
            tot = tc + ti + tb
            row['grit_contact_ns_per_contact'] = 1e9 * tc / (steps * best['real_contacts'])
            row['grit_integrate_ns_per_particle'] = 1e9 * ti / (steps * n)
            row['grit_collide_us_per_particle_rebuild'] = 1e6 * tb / (max(1, best['rebuilds']) * n)
            row['grit_share_contacts'], row['grit_share_integrate'], row['grit_share_collide'] = tc / tot, ti / tot, tb / tot
        rows.append(row)
    for row in rows:
        ref = next((r for r in rows if r['code'] == 'grit' and all(r[k] == row[k] for k in ('campaign', 'scene', 'phase'))),
                   None)
        if ref and row['code'] != 'grit':
            row['grit_speedup_cpu_best'] = ref['psps_cpu_best'] / row['psps_cpu_best']
            row['grit_speedup_cpu_median'] = ref['psps_cpu_median'] / row['psps_cpu_median']
    return rows


def code_rank(code):
    return CODES.index(code) if code in CODES else len(CODES) + sorted(GRIT_VARIANTS).index(code)


def fmt(v):
    if isinstance(v, float):
        return '%.6g' % v
    return v


def cmd_table(a):
    recs = load_runs(a.work, a.campaigns.split(',') if a.campaigns else None)
    rows = summarize(recs, a.machine, a.commit)
    os.makedirs(RESULTS, exist_ok=True)
    path = os.path.join(RESULTS, a.machine + '.csv')
    with open(path, 'w', newline='') as f:
        w = csv.DictWriter(f, SUMMARY_COLS, extrasaction='ignore')
        w.writeheader()
        for r in rows:
            w.writerow({k: fmt(r.get(k, '')) for k in SUMMARY_COLS})
    rpath = os.path.join(RESULTS, a.machine + '-runs.csv')
    with open(rpath, 'w', newline='') as f:
        w = csv.DictWriter(f, RUN_COLS, extrasaction='ignore')
        w.writeheader()
        for r in recs:
            w.writerow({k: fmt(r.get(k, a.machine if k == 'machine' else '')) for k in RUN_COLS})
    print('wrote %s (%d rows) and %s (%d runs)' % (path, len(rows), rpath, len(recs)))


def cmd_report(a):
    rows = list(csv.DictReader(open(os.path.join(RESULTS, a.machine + '.csv'))))
    if a.campaigns:
        rows = [r for r in rows if r['campaign'] in a.campaigns.split(',')]

    def f(v, p='%.3g'):
        return p % float(v) if v not in ('', None) else ''
    print('| campaign | scene | phase | code | runs | CPU s best (median, worst) | Mpsps CPU best (median) | '
          'Mpsps wall best | grit speed-up (best, median) | peak RSS MiB | pp contacts (code / geom) | '
          'other busy cores |')
    print('|' + '---|' * 12)
    for r in rows:
        print('| %s | %s | %s | %s | %s | %s (%s, %s) | %s (%s) | %s | %s | %s | %s / %s | %s |' % (
            r['campaign'], r['scene'], r['phase'], r['code'], r['runs'], f(r['cpu_s_best']), f(r['cpu_s_median']),
            f(r['cpu_s_worst']), f(float(r['psps_cpu_best']) / 1e6), f(float(r['psps_cpu_median']) / 1e6),
            f(float(r['psps_wall_best']) / 1e6) if r['psps_wall_best'] else '',
            ('%.2fx, %.2fx' % (float(r['grit_speedup_cpu_best']), float(r['grit_speedup_cpu_median'])))
            if r['grit_speedup_cpu_best'] else '', f(r['maxrss_mib'], '%.0f'), r['contacts_pp_code'],
            r['contacts_pp_geom'], f(r['others_busy_cores_median'], '%.2f')))
    print()
    print('| campaign | phase | code | peak RSS MiB (box-2000 / 20000 / 100000) | bytes/particle at the largest N | '
          'bytes/particle, marginal (slope between the two largest N) |')
    print('|' + '---|' * 6)
    keys = sorted({(r['campaign'], r['phase'], r['code']) for r in rows},
                  key=lambda k: (k[0], k[1], code_rank(k[2])))
    for camp, phase, code in keys:
        g = sorted((r for r in rows if (r['campaign'], r['phase'], r['code']) == (camp, phase, code)),
                   key=lambda r: int(r['N']))
        slope = ''
        if len(g) >= 2:
            a_, b_ = g[-2], g[-1]
            slope = '%.0f' % ((float(b_['maxrss_mib']) - float(a_['maxrss_mib'])) * 2 ** 20 /
                              (int(b_['N']) - int(a_['N'])))
        print('| %s | %s | %s | %s | %.0f | %s |' % (camp, phase, code, ' / '.join(
            '%.0f' % float(r['maxrss_mib']) for r in g), float(g[-1]['rss_bytes_per_particle']), slope))
    print()
    print('| campaign | code | scene | phase | contact loop ns/contact | integration ns/particle | '
          'broad phase µs/particle/rebuild | rebuilds | shares contacts/integration/broad phase |')
    print('|' + '---|' * 9)
    for r in rows:
        if not r['grit_contact_ns_per_contact']:
            continue
        print('| %s | %s | %s | %s | %s | %s | %s | %s | %.0f / %.0f / %.0f %% |' % (
            r['campaign'], r['code'], r['scene'], r['phase'], f(r['grit_contact_ns_per_contact']),
            f(r['grit_integrate_ns_per_particle']), f(r['grit_collide_us_per_particle_rebuild']), r['rebuilds'],
            100 * float(r['grit_share_contacts']), 100 * float(r['grit_share_integrate']),
            100 * float(r['grit_share_collide'])))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='action', required=True)
    work = os.path.join(REPO, 'build-bench')
    r = sub.add_parser('run')
    r.add_argument('--codes', default=','.join(CODES),
                   help='among %s and the grit variants %s' % (', '.join(CODES), ', '.join(sorted(GRIT_VARIANTS))))
    r.add_argument('--scenes', default='box-2000,box-20000,box-100000')
    r.add_argument('--phase', choices=('settle', 'dense'), default='dense')
    r.add_argument('--reps', type=int, default=3)
    r.add_argument('--rep0', type=int, default=1)
    r.add_argument('--steps', type=int, default=0, help='override the phase\'s number of steps (checks only)')
    r.add_argument('--campaign', default='c1', help='label of this set of measurements')
    r.add_argument('--timeout', type=int, default=4 * 3600)
    r.add_argument('--grit', default=os.path.join(REPO, 'build', 'bench', 'grit_bench'))
    r.add_argument('--grit-args', default='', help='extra grit_bench options, e.g. "--verlet 2e-4"')
    r.add_argument('--shared')
    r.add_argument('--work', default=work)
    for name in ('table', 'report'):
        t = sub.add_parser(name)
        t.add_argument('--machine', required=True)
        t.add_argument('--campaigns', default='')
        t.add_argument('--commit', default='', help='grit commit to record (default: git describe of the tree)')
        t.add_argument('--work', default=work)
    a = ap.parse_args()
    {'run': cmd_run, 'table': cmd_table, 'report': cmd_report}[a.action](a)


if __name__ == '__main__':
    main()
