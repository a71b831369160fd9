# grit plot ARGS runs /usr/bin/python3 -m grit.plot ARGS with the python/
# folder on PYTHONPATH, or says clearly that the module is missing.
. "$(dirname "$0")/lib.sh"

mkdir -p fake/grit
: >fake/grit/__init__.py
cat >fake/grit/plot.py <<'PY'
import os, sys
print("plot args:", sys.argv[1:], "path:", os.environ["PYTHONPATH"].split(":")[0])
PY
GRIT_PYTHON_DIR=$PWD/fake PYTHONPATH=/elsewhere expect_ok plot energy.csv --x time
grep -q "plot args: \['energy.csv', '--x', 'time'\] path: $PWD/fake" out.txt || fail "grit plot did not hand over"
mkdir empty
GRIT_PYTHON_DIR=$PWD/empty expect_error 2 "the plotting module grit.plot was not found .*GRIT_PYTHON_DIR=$PWD/empty" plot x
finish
