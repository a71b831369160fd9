# Bad input to `grit run`: each case gets one clear error line (naming the
# file, line and value where there are some), exit status 2, and no output
# folder -- nothing is created before everything has been checked.
. "$(dirname "$0")/lib.sh"

few="n=20 time=0.001 progress=0"

expect_error 2 "unknown command 'frobnicate'" frobnicate
expect_error 2 "needs a preprocessor name" run
expect_error 2 "unknown preprocessor 'depost' \(did you mean 'deposit'\?\)" run depost
expect_error 2 "unknown preprocessor 'hoper' \(did you mean 'hopper'\?\)" help run hoper
expect_error 2 "unknown preprocessor 'xyz'; 'grit help run' lists them" run xyz
expect_error 2 "unknown preprocessor 'nope'" help run nope
expect_error 2 "unknown parameter 'radiu' for 'grit run deposit' \(did you mean 'radius'\?\)" run deposit radiu=1
expect_error 2 "unknown parameter 'frobnicate' for 'grit run box'" run box frobnicate=1
expect_error 2 "expected key=value, found 'n'" run deposit n
expect_error 2 "expected key=value, found '=3'" run deposit =3
expect_error 2 "parameter 'n' is given twice \('n=5' and 'n=6'\)" run deposit n=5 n=6
# malformed values
expect_error 2 "parameter 'n' = 'abc' is not a number" run deposit n=abc
expect_error 2 "parameter 'radius' = '1mm' is not a number" run deposit radius=1mm
expect_error 2 "parameter 'gravity' = '0,0' is not a vector 'x,y,z'" run deposit gravity=0,0
expect_error 2 "parameter 'container' = 'bowl' is not one of walls\|facets" run deposit container=bowl
expect_error 2 "parameter 'track_energy' = 'maybe' is not a boolean" run deposit track_energy=maybe
expect_error 2 "parameter 'out' is empty" run deposit out=
# out of range
expect_error 2 "parameter 'n' = 0 is out of range: must be \[1, 10000000\]" run deposit n=0
expect_error 2 "parameter 'n' = 2.5 is out of range" run deposit n=2.5
expect_error 2 "parameter 'radius' = -0.001 is out of range: must be \(0, inf\) \(m\)" run deposit radius=-0.001
expect_error 2 "parameter 'radius' = nan is out of range" run deposit radius=nan
expect_error 2 "parameter 'damping' = 1 is out of range: must be \[0, 1\)" run deposit damping=1
expect_error 2 "parameter 'kn' = -5 is out of range" run box kn=-5 csv=x.csv
expect_error 2 "parameters 'box_x' = 0.001 m, 'box_y' = 0.05 m: the box must be wider" run deposit box_x=0.001
# the time step
expect_error 2 "parameter 'dt' = 0.01 s exceeds the critical time step 4.[0-9]+e-05 s" run deposit $few dt=0.01
expect_error 2 "parameter 'dt' = 0.001 s exceeds the critical time step" run box csv="$SRC/tests/cli/data/spheres.csv" dt=1e-3
# the output folder
touch a-file
expect_error 2 "cannot create output folder 'a-file': 'a-file' exists and is not a folder|output folder 'a-file' exists and is not a grit output" run deposit $few out=a-file
expect_error 2 "cannot create output folder 'a-file/sub.partial'|'a-file' exists and is not a folder" run deposit $few out=a-file/sub
expect_error 2 "cannot (create|write into) output folder '/proc/grit-test.partial'" run deposit $few out=/proc/grit-test
mkdir precious && echo keep >precious/data.txt
expect_error 2 "output folder 'precious' exists and is not a grit output \(no grit-run.txt\); remove it or choose another out=" run deposit $few out=precious
[ "$(cat precious/data.txt)" = keep ] || fail "a folder that is not a grit output was touched"
mkdir blocked.partial && echo keep >blocked.partial/data.txt
expect_error 2 "'blocked.partial' is in the way" run deposit $few out=blocked
# the spheres file of `grit run box`
expect_error 2 "parameter 'n' = 0 is out of range" run box n=0
expect_error 2 "cannot open 'missing.csv': No such file or directory" run box csv=missing.csv
: >empty.csv
expect_error 2 "empty.csv: the file is empty; expected a header line 'x,y,z,r'" run box csv=empty.csv
printf 'x,y,z,r\n0.001,0.001,0.001,0.001\n0.003,0.001,oops,0.001\n' >word.csv
expect_error 2 "^grit: error: word.csv:3: field 'z' \(column 3\) = 'oops' is not a number$" run box csv=word.csv
printf 'x,y,z,r\n0.001,0.001,0.001,0.001\n0.003,0.001,0.001,-0.001\n' >neg.csv
expect_error 2 "neg.csv:3: field 'r' \(column 4\) = '-0.001': the radius must be > 0 \(m\)" run box csv=neg.csv
printf 'x,y,z,r\n0.001,0.001,0.001,0\n' >zero.csv
expect_error 2 "zero.csv:2: field 'r' \(column 4\) = '0': the radius must be > 0" run box csv=zero.csv
printf 'x,y,z,r\n0.001,0.001,0.001,0.001\n\nnan,0.001,0.001,0.001\n' >nan.csv
expect_error 2 "nan.csv:4: field 'x' \(column 1\) = 'nan' must be finite" run box csv=nan.csv
printf 'x,y,z,r\n0.001,0.001,0.001,inf\n' >inf.csv
expect_error 2 "inf.csv:2: field 'r' \(column 4\) = 'inf' must be finite" run box csv=inf.csv
printf 'x,y,z,r\n0.001,0.001,0.001\n' >short.csv
expect_error 2 "short.csv:2: expected 4 fields \(x,y,z,r\), found 3" run box csv=short.csv
printf 'x,y,z\n0.001,0.001,0.001\n' >header.csv
expect_error 2 "header.csv:1: expected the header line 'x,y,z,r' \(or with units 'x\[m\],y\[m\],z\[m\],r\[m\]'\), found 'x,y,z'" run box csv=header.csv
printf 'x[m],y[m],z[mm],r[m]\n1,1,1,1\n' >mm.csv
expect_error 2 "mm.csv:1: column 'z' is in \[mm\], not in metres: grit reads lengths in m \('z' or 'z\[m\]'\)" run box csv=mm.csv
finish
