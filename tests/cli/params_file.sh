# Parameter files (grit run NAME @FILE key=value ...) and the "repeat this
# run" line of grit-run.txt, which uses the record as a parameter file.
. "$(dirname "$0")/lib.sh"
PATH=$(dirname "$GRIT"):$PATH # the repeat line calls `grit`

# the record's repeat line, run as the shell reads it, repeats the run bit for bit
expect_ok run deposit n=40 steps=150 vtk_every=-1 seed=3 out='two words'
cp 'two words/final.csv' first.csv
line=$(sed -n 's/^# repeat this run: //p' 'two words/grit-run.txt')
case "$line" in *"grit run deposit '@two words/grit-run.txt'") ;; *) fail "repeat line: $line" ;; esac
(eval "$line") >out.txt 2>err.txt || fail "the repeat line failed: $(cat err.txt)"
cmp -s first.csv 'two words/final.csv' || fail "the repeated run differs"
grep -q '^# grit run deposit @two words/grit-run.txt$' 'two words/grit-run.txt' || fail "the record's command line"

# later keys override a file's; comments and blank lines skipped
printf '# my deck\n\nn=30\n  steps=50\nvtk_every=-1\nout=deck\nseed=2\n' >deck.txt
printf 'seed=5\n' >more.txt
expect_ok run deposit @deck.txt @more.txt n=20
grep -qx "n=20" deck/grit-run.txt && grep -qx "steps=50" deck/grit-run.txt && grep -qx "seed=5" deck/grit-run.txt ||
    fail "overrides: $(grep -E '^(n|steps|seed)=' deck/grit-run.txt | tr '\n' ' ')"
rm -rf deck 'two words' first.csv out.txt err.txt

# mistakes in a file name the file and line; nothing is written
printf 'n=30\nbogus=1\n' >bad1.txt
printf 'n=30\nradius\n' >bad2.txt
printf 'n=-3\n' >bad3.txt
expect_error 2 "^grit: error: bad1.txt:2: unknown parameter 'bogus'" run deposit @bad1.txt
expect_error 2 "^grit: error: bad2.txt:2: expected key=value, found 'radius'" run deposit @bad2.txt
expect_error 2 "^grit: error: bad3.txt:1: .*'n'" run deposit @bad3.txt
expect_error 2 "^grit: error: cannot read the parameter file 'nope.txt'" run deposit @nope.txt
printf 'n=30\n' >ok.txt
expect_error 2 "^grit: error: parameter 'n' is given twice" run deposit @ok.txt n=3 n=4
finish
