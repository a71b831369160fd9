# grit help: a scene's own keys first, the common ones (run, scene, laws) by
# name only unless --all; "did you mean" for mistyped commands, scene names
# and help topics.
. "$(dirname "$0")/lib.sh"

expect_ok help box
grep -q "^box parameters:$" out.txt && grep -q "^pair parameters:$" out.txt || fail "help box: its own groups"
grep -q "^  kn  *= 10000 " out.txt || fail "help box: the pair's kn with its default"
grep -q "^scene parameters:$\|^run parameters:$" out.txt && fail "help box: the common groups in full without --all"
grep -q "^common keys (grit help box --all lists them with defaults, units and ranges):$" out.txt ||
    fail "help box: no pointer to --all"
grep -q "^  run: time steps save_every " out.txt && grep -q "^  scene: dt dt_safety " out.txt ||
    fail "help box: the common keys by name"
own=$(grep -n "^pair parameters:" out.txt | cut -d: -f1)
common=$(grep -n "^common keys" out.txt | cut -d: -f1)
[ "$own" -lt "$common" ] || fail "help box: own keys not first"
lines=$(wc -l <out.txt)

expect_ok help box --all
grep -q "^run parameters:$" out.txt && grep -q "^scene parameters:$" out.txt &&
    grep -q "^  dt_safety  *= 0.9 " out.txt || fail "help box --all: the common groups in full"
grep -q "^common keys" out.txt && fail "help box --all: still the pointer"
[ "$(wc -l <out.txt)" -gt $((lines + 40)) ] || fail "help box --all: hardly longer than help box"
cp out.txt all.txt
# the same from 'grit help run NAME --all' and 'grit run NAME --help --all'
expect_ok help run box --all
cmp -s out.txt all.txt || fail "grit help run box --all differs from grit help box --all"
expect_ok run box --help --all
cmp -s out.txt all.txt || fail "grit run box --help --all differs"

# a preprocessor without common groups: nothing behind --all
expect_ok help pack
grep -q "^common keys" out.txt && fail "help pack: a pointer to common keys it does not have"
# a text key of its own (restart's file) is listed
expect_ok help restart
grep -q "^  file  *= " out.txt || fail "help restart: no file="

expect_error 2 "^grit: error: unknown command 'rnu' \(did you mean 'run'\?\); 'grit help' lists the commands$" rnu box
expect_error 2 "unknown command 'hlep' \(did you mean 'help'\?\)" hlep
expect_error 2 "unknown command 'plto' \(did you mean 'plot'\?\)" plto
expect_error 2 "unknown command 'vers' \(did you mean 'version'\?\)" vers
expect_error 2 "unknown command 'deposit' \(did you mean 'grit run deposit'\?\)" deposit n=5
expect_error 2 "^grit: error: unknown command 'xyz'; 'grit help' lists the commands$" xyz
expect_error 2 "no help on 'dposit' \(did you mean 'deposit'\?\)" help dposit
expect_error 2 "unknown preprocessor 'perodic' \(did you mean 'periodic'\?\)" run perodic
expect_error 2 "unknown parameter 'radiuss' for 'grit run box' \(did you mean 'radius'\?\); 'grit help box --all' lists them" run box radiuss=1
expect_error 2 "unknown parameter 'tiem' for 'grit run box' \(did you mean 'time'\?\)" run box tiem=1

rm -f all.txt
exit $fails
