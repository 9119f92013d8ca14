#!/usr/bin/env bash
# fmt --write of a file whose disk is full (the file a link to /dev/full cannot be, so the
# folder is a 16 KiB tmpfs when root may mount; otherwise the check is that a rewrite keeps
# the file whole): the rules file is never left cut short.
cat > game.rules <<'RULES'
game   "Badly laid out";
board 2 x 2; players 1;
state lit: Cell -> bool;
phase flip { move toggle(c: Cell) { lit[c] := not lit[c]; } }
RULES
cp game.rules before.rules
if [ "$(id -u)" = 0 ] && mkdir -p small && mount -t tmpfs -o size=16k tmpfs small 2>/dev/null; then
  trap 'umount small' EXIT
  cp game.rules small/
  head -c 12288 /dev/zero > small/ballast 2>/dev/null
  # Fill what is left to the last byte.
  head -c 1000000 /dev/zero >> small/ballast 2>/dev/null
  "$RB" fmt --write small/game.rules >out 2>err
  rc=$?
  [ "$rc" = 1 ] || { echo "full tmpfs: exit $rc, not 1"; exit 1; }
  grep -q "no space left on the device" err || { echo "full tmpfs: the error does not say so: $(cat err)"; exit 1; }
  cmp -s small/game.rules before.rules || { echo "full tmpfs: the rules file changed"; exit 1; }
  leftover=$(find small -name '.*tmp*')
  [ -z "$leftover" ] || { echo "full tmpfs: temporary files left: $leftover"; exit 1; }
fi
"$RB" fmt --write game.rules >out 2>err || { echo "fmt --write failed: $(cat err)"; exit 1; }
"$RB" fmt --check game.rules >/dev/null || { echo "the rewritten file is not formatted"; exit 1; }
leftover=$(find . -name '.*tmp*')
[ -z "$leftover" ] || { echo "temporary files left: $leftover"; exit 1; }
exit 0
