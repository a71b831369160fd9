/* grit help --man: the manual page grit.1, written from the same
 * declarations as `grit help run NAME` (every preprocessor, its parameters
 * with default, unit, range and meaning; the run controls, scene and law
 * parameters once). CMake writes it into the build tree and installs it. The
 * page holds no date and no path of the machine it was made on, so the same
 * sources make the same page. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Text for roff: backslashes and hyphens escaped, no control character at
 * the start of a line. */
static void roff(FILE *f, const char *s)
{
    if (*s == '.' || *s == '\'') fputs("\\&", f);
    for (; *s; s++) {
        if (*s == '\\') fputs("\\e", f);
        else if (*s == '-') fputs("\\-", f);
        else fputc(*s, f);
    }
}

static bool is_shared(const grit_param_table *t)
{
    if (t == &run_param_table || t == &grit_scene_param_table) return true;
    for (int l = 0; l < GRIT_LAW_COUNT; l++)
        if (t == grit_law_param_table(l)) return true;
    return false;
}

static void param_entry(FILE *f, const grit_param_info *p, const void *def)
{
    char v[128], r[128];
    job_format_value(p, def, 10, v, sizeof v);
    grit_param_range_text(p, r, sizeof r);
    fputs(".TP\n\\fB", f);
    roff(f, p->name);
    fputs("\\fR=\\fI", f);
    roff(f, v);
    fputs("\\fR", f);
    if (strcmp(p->unit, "-") && *p->unit) {
        fputs(" (", f);
        roff(f, p->unit);
        fputs(")", f);
    }
    fputs("\n", f);
    roff(f, p->doc);
    fputs(". Range: ", f);
    roff(f, r);
    fputs(".\n", f);
}

static void text_entry(FILE *f, const text_param *t)
{
    fputs(".TP\n\\fB", f);
    roff(f, t->name);
    fputs("\\fR=\\fI", f);
    /* out= defaults to NAME-out; the other texts' defaults (paths of this
     * machine) are in their descriptions */
    roff(f, !strcmp(t->name, "out") ? "NAME-out" : "TEXT");
    fputs("\\fR\n", f);
    roff(f, t->doc);
    fputs(".\n", f);
}

static void group_entries(FILE *f, const job *j, const param_group *G)
{
    for (int t = 0; t < j->n_texts; t++)
        if (!strcmp(j->texts[t]->group, G->title)) text_entry(f, j->texts[t]);
    for (int i = 0; i < G->table->count; i++) param_entry(f, &G->table->params[i], G->def);
}

/* The run and scene parameters whose defaults the preprocessor changes. */
static void own_defaults(FILE *f, const job *j, const job *ref)
{
    bool any = false;
    for (int g = 0; g < j->n_groups; g++) {
        const param_group *G = &j->groups[g];
        if (G->table != &run_param_table && G->table != &grit_scene_param_table) continue;
        const void *base = G->table == &run_param_table ? (const void *)&ref->run : (const void *)&ref->scene;
        for (int i = 0; i < G->table->count; i++) {
            char a[128], b[128];
            job_format_value(&G->table->params[i], G->def, 10, a, sizeof a);
            job_format_value(&G->table->params[i], base, 10, b, sizeof b);
            if (!strcmp(a, b)) continue;
            fputs(any ? ", " : ".PP\nIts defaults of the run controls and scene parameters: ", f);
            fputs("\\fB", f);
            roff(f, G->table->params[i].name);
            fputs("\\fR=", f);
            roff(f, a);
            any = true;
        }
    }
    if (any) fputs(".\n", f);
}

void cli_man_page(FILE *f)
{
    fprintf(f, ".TH GRIT 1 \"\" \"grit %s\" \"grit manual\"\n", GRIT_VERSION);
    fputs(".SH NAME\ngrit \\- a discrete element method (DEM) engine: run parameterised scenes of particles\n"
          ".SH SYNOPSIS\n"
          ".B grit run\n.I NAME\n[\\fB@\\fR\\fIFILE\\fR ...] [\\fIkey\\fR=\\fIvalue\\fR ...]\n.br\n"
          ".B grit help\n[[\\fBrun\\fR] [\\fINAME\\fR [\\fB\\-\\-all\\fR]] | \\fB\\-\\-man\\fR]\n.br\n"
          ".B grit plot\n.I ARGS\n.br\n"
          ".B grit version\n"
          ".SH DESCRIPTION\n"
          "\\fBgrit run\\fR builds the scene of a scene generator (preprocessor) \\fINAME\\fR from its parameters, "
          "steps it and writes VTK files (ParaView), CSV time series and a restart file into an output folder. "
          "Every parameter is given as \\fIkey\\fR=\\fIvalue\\fR, at most once; \\fBgrit help\\fR \\fINAME\\fR "
          "lists its own with the defaults that generator uses and names the common ones, which "
          "\\fB\\-\\-all\\fR lists likewise, as this page does. "
          "Everything the input can get wrong is checked before the output folder is created.\n"
          ".PP\n\\fB@\\fR\\fIFILE\\fR reads a parameter file: one \\fIkey\\fR=\\fIvalue\\fR a line, blank lines and "
          "lines starting with # skipped; a key from a file is overridden by a later file or by the command line "
          "(twice on the command line is an error). A run's own grit\\-run.txt is such a file: "
          "\\fBgrit run\\fR \\fINAME\\fR \\fB@\\fR\\fIOUT\\fB/grit\\-run.txt\\fR repeats the run.\n"
          ".PP\n\\fBgrit plot\\fR \\fIFILE.csv\\fR draws a run's energy.csv, stats.csv or stress.csv into "
          "\\fIFILE.png\\fR (Python 3 with matplotlib).\n"
          ".PP\nValues: numbers as C reads them (1e\\-3, nan where allowed), vectors \\fIx,y,z\\fR, flags "
          "true/false/1/0/yes/no/on/off, choices by name, file and folder names as text.\n",
          f);

    job ref; /* the library's defaults, against which a generator's own are shown */
    memset(&ref, 0, sizeof ref);
    ref.run = (run_def){GRIT_RUN_PARAMS(GRIT_PARAM_DEFAULT)};
    ref.scene = grit_default_scene_def();

    fputs(".SH SCENE GENERATORS\n", f);
    static job j; /* large: not on the stack */
    const preproc *stepping = NULL; /* one that offers the shared groups */
    for (int i = 0; preprocs[i]; i++) {
        if (job_init(&j, preprocs[i])) continue;
        fputs(".SS ", f);
        roff(f, preprocs[i]->name);
        fputs("\n", f);
        roff(f, preprocs[i]->summary);
        fputs(".\n", f);
        for (int g = 0; g < j.n_groups; g++)
            if (!is_shared(j.groups[g].table)) group_entries(f, &j, &j.groups[g]);
        if (j.pre->load) fputs(".PP\nIt takes the run controls; the scene keeps the parameters it was saved with.\n", f);
        else if (j.pre->make) fputs(".PP\nIt makes its output itself: no run controls, no scene parameters.\n", f);
        else fputs(".PP\nIt takes the run controls, scene and law parameters below.\n", f);
        own_defaults(f, &j, &ref);
        if (!stepping && !j.pre->load && !j.pre->make) stepping = preprocs[i];
    }
    if (!stepping || job_init(&j, stepping)) return;
    /* the shared groups, with the library's defaults */
    grit_law_defs laws = grit_default_law_defs();
    void *law_defs[GRIT_LAW_COUNT] = {
#define LAW_DEF(U, l, phys, name) [GRIT_LAW_##U] = &laws.l,
        GRIT_LAWS(LAW_DEF)
#undef LAW_DEF
    };
    for (int g = 0; g < j.n_groups; g++) {
        param_group G = j.groups[g];
        if (!is_shared(G.table)) continue;
        if (G.table == &run_param_table) {
            G.def = &ref.run;
            fputs(".SH RUN CONTROLS\nCommon to the generators that step a scene (defaults of their own are named "
                  "above).\n",
                  f);
        } else if (G.table == &grit_scene_param_table) {
            G.def = &ref.scene;
            fputs(".SH SCENE PARAMETERS\nThe parameters of the library's scene (docs/parameters.md).\n", f);
        } else {
            for (int l = 0; l < GRIT_LAW_COUNT; l++)
                if (G.table == grit_law_param_table(l)) G.def = law_defs[l];
            if (G.table == grit_law_param_table(0))
                fputs(".SH LAW PARAMETERS\nEach contact law's parameters (the materials choose the law).\n", f);
            fputs(".SS ", f);
            roff(f, G.title);
            fputs("\n", f);
        }
        group_entries(f, &j, &G);
    }
    fputs(".SH OUTPUT\nA run writes into \\fIOUT\\fR.partial and renames it to \\fIOUT\\fR (\\fBout\\fR=) once "
          "complete: \\fBgrit\\-run.txt\\fR (every parameter; the line that repeats the run), \\fBparticles.pvd\\fR, "
          "\\fBcontacts.pvd\\fR, \\fBshapes.pvd\\fR (VTK series for ParaView), \\fBenergy.csv\\fR, "
          "\\fBstats.csv\\fR, \\fBfinal.csv\\fR, \\fBstress.csv\\fR (periodic cells) and \\fBrestart.grit\\fR "
          "(continue with \\fBgrit run restart file=\\fR\\fIOUT\\fR\\fB/restart.grit\\fR). A long run saves "
          "\\fIOUT\\fR.partial/restart.grit every \\fBcheckpoint\\fR seconds and when interrupted.\n"
          ".SH EXIT STATUS\n.TP\n0\nthe run completed\n.TP\n1\nthe run failed while stepping or writing "
          "(\\fIOUT\\fR.partial kept)\n.TP\n2\nbad input: nothing was written\n.TP\n130\ninterrupted (SIGINT, "
          "SIGTERM): \\fIOUT\\fR.partial kept with a restart file\n"
          ".SH ENVIRONMENT\n.TP\n.B GRIT_DATA_DIR\nthe folder of grit's data files (hopper.stl) instead of the "
          "installed one\n.TP\n.B GRIT_PYTHON_DIR\nthe folder holding the Python package grit for \\fBgrit "
          "plot\\fR\n.TP\n.B GRIT_PYTHON\nthe Python interpreter of \\fBgrit plot\\fR (default /usr/bin/python3)\n"
          ".SH FILES\n.TP\n.I share/grit/data/\ndata files, beside the program's folder: \\fI../share/grit/data/\\fR\n"
          ".TP\n.I share/doc/grit/\nREADME.md and docs/: the command line (docs/cli.md), file formats "
          "(docs/output.md), Python (docs/python.md), the models\n"
          ".SH SEE ALSO\n\\fBpython3 \\-m grit\\fR (the same program from the Python package), "
          "\\fBpkg\\-config \\-\\-cflags \\-\\-libs grit\\fR (the C library)\n"
          ".SH LICENCE\nMIT (LICENSE in share/doc/grit/).\n",
          f);
}
