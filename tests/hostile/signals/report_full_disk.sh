#!/usr/bin/env bash
# report onto a full disk: a page whose file is on a full device (a link to /dev/full), and,
# when this runs as root and may mount, a 64 KiB tmpfs that fills up half way. Either way: exit 1, the
# error names the file and "no space left on the device", no crash, no page cut short, no
# temporary file left.
mkdir -p in/a out/a
cp "$SRC/variants/sudoku-fill/fill-4x4.rules" in/a/
ln -s /dev/full out/a/fill-4x4.html
"$RB" report in -o out --rules-only >stdout 2>err
rc=$?
[ "$rc" = 1 ] || { echo "/dev/full: exit $rc, not 1"; exit 1; }
grep -q "out/a/fill-4x4.html: error: cannot write: no space left on the device" err ||
  { echo "/dev/full: the error does not say so: $(cat err)"; exit 1; }
[ ! -e out/index.html ] || { echo "/dev/full: an index was written after a failed page"; exit 1; }
if [ "$(id -u)" = 0 ] && mkdir -p small && mount -t tmpfs -o size=64k tmpfs small 2>/dev/null; then
  trap 'umount small' EXIT
  mkdir -p in2/g
  for v in fill-4x4 fill-6x6; do cp "$SRC/variants/sudoku-fill/$v.rules" in2/g/; done
  # Fill the disk, then free three pages: the first variant's two files fit, the rest not.
  # One variant at a time, so that the first variant is the first one written.
  head -c 1000000 /dev/zero > small/ballast 2>/dev/null
  size=$(stat -c %s small/ballast)
  truncate -s $((size / 4096 * 4096 - 3 * 4096)) small/ballast
  "$RB" report in2 -o small --rules-only --jobs 1 >stdout2 2>err2
  rc=$?
  [ "$rc" = 1 ] || { echo "tmpfs: exit $rc, not 1"; exit 1; }
  grep -q "no space left on the device" err2 || { echo "tmpfs: the error does not say so: $(cat err2)"; exit 1; }
  grep -q "</html>" small/g/fill-4x4.html || { echo "tmpfs: the first page was not written whole"; exit 1; }
  for f in small/g/*.html; do
    [ -e "$f" ] || continue
    grep -q "</html>" "$f" || { echo "tmpfs: $f is cut short"; exit 1; }
  done
  leftover=$(find small -name '.*tmp*')
  [ -z "$leftover" ] || { echo "tmpfs: temporary files left: $leftover"; exit 1; }
fi
exit 0
