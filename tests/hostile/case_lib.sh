# Shared by the NAME.sh cases: a tiny game to compile, a run of rulebook whose exit code and
# output the case then checks, and a planted shared object. Sourced, not run.
set -u

# tiny_rules FILE TITLE: a one-player game whose engine compiles in about a second.
tiny_rules() {
  cat >"$1" <<RULES
game "$2";
board 2 x 2;
players 1;
state n: 0..3;
phase play {
    move bump { n += 1; }
}
end when n == 2;
RULES
}

# run_rb SECONDS ARGS...: runs rulebook with stdout in out.txt and stderr in err.txt; sets rc.
run_rb() {
  local seconds=$1
  shift
  timeout "$seconds" "$RB" "$@" >out.txt 2>err.txt
  rc=$?
}

# expect_rc N: the last run exited with N (else the case fails, quoting stderr).
expect_rc() {
  [ "$rc" -eq "$1" ] || { echo "exit $rc, expected $1 ($(head -c 300 err.txt))"; exit 1; }
}

# expect_err TEXT: the last run's stderr holds TEXT (a fixed string).
expect_err() {
  grep -qF -- "$1" err.txt || { echo "stderr lacks '$1': $(head -c 400 err.txt)"; exit 1; }
}

# plant_object PATH: a shared object at PATH whose constructor creates $WORK/INJECTED.
plant_object() {
  cat >evil.cpp <<CPP
#include <cstdio>
__attribute__((constructor)) static void planted() { std::FILE* f = std::fopen("$WORK/INJECTED", "w"); if (f) std::fclose(f); }
CPP
  c++ -shared -fPIC -o "$1" evil.cpp || { echo "cannot build the planted object"; exit 1; }
}
