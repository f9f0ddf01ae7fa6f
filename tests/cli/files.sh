#!/bin/sh
# Every file vramlab reads is a regular file within a size limit: a FIFO, a device or a folder
# given where a file is expected is refused at once with a message naming it (never waited on:
# each command runs under a timeout, so a regression fails instead of hanging), a file over its
# limit is refused with "too large (N MiB; the limit is M MiB)" (sparse files: nothing big is
# written), and "-" reads standard input where it is documented. The lesson catalog neither
# follows symlink loops nor opens FIFOs.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
run() { timeout 20 "$b" --backend sim "$@"; }
# expect RC WANT CMD...: exit RC, WANT in stdout+stderr
expect() {
    want_rc=$1 want=$2; shift 2
    out=$(run "$@" 2>&1); rc=$?
    [ $rc -eq 124 ] && fail "$*: hung (killed after 20 s)"
    [ $rc -eq "$want_rc" ] || fail "$* exit $rc (want $want_rc): $out"
    echo "$out" | grep -qF -- "$want" || fail "$*: no '$want' in: $out"
}
mkfifo "$t/fifo.lua" "$t/fifo.trace" "$t/fifo.jsonl"
truncate -s 5M "$t/big.lua"
truncate -s 300M "$t/big.trace" "$t/big.jsonl"

# scripts, lessons, answers
expect 1 "$t/fifo.lua: not a regular file (a FIFO); use - for standard input" eval "$t/fifo.lua"
expect 1 "/dev/zero: not a regular file (a character device)" eval /dev/zero
expect 1 "$t: not a regular file (a directory)" eval "$t"
expect 1 "$t/big.lua: too large (5 MiB; the limit is 4 MiB)" eval "$t/big.lua"
expect 1 "$t/fifo.lua: not a regular file (a FIFO)" check "$t/fifo.lua"
expect 1 "$t/big.lua: too large (5 MiB; the limit is 4 MiB)" check "$t/big.lua"
out=$(echo 'print("from stdin", 6 * 7)' | run eval - 2>&1) || fail "eval - : $out"
[ "$out" = "from stdin	42" ] || fail "eval -: $out"
out=$(echo 'error("boom")' | run eval - 2>&1); [ $? -eq 1 ] || fail "eval - error exit"
echo "$out" | grep -q "^stdin:1: boom" || fail "eval - error names stdin: $out"
expect 2 "$t/fifo.lua: not a regular file (a FIFO)" grade 1.4 peak-code "@$t/fifo.lua"
expect 2 "too large (5 MiB; the limit is 4 MiB)" grade 1.4 peak-code "@$t/big.lua"
out=$(printf 'function peak_gbs(clock_mhz, bus_bits) return 2 * clock_mhz * 1e6 * bus_bits / 8 / 1e9 end\n' |
      run grade 1.4 peak-code @- 2>&1) || fail "grade @-: $out"

# traces
expect 1 "$t/fifo.trace: not a regular file (a FIFO); use - for standard input" trace replay "$t/fifo.trace" 1GiB
expect 1 "$t/big.trace: too large (300 MiB; the limit is 256 MiB)" trace replay "$t/big.trace" 1GiB
out=$(printf 'a 1 1MiB\nf 1\n' | run trace replay - 1GiB --json 2>&1) || fail "trace replay -: $out"
echo "$out" | grep -q '"allocs":1' || fail "trace replay -: $out"

# snapshots: the CLI, through the one reader (a FIFO, a device, a folder refused at once; the
# limit is 2 GiB, for real training snapshots; - reads standard input)
mkfifo "$t/fifo.pickle"
truncate -s 3G "$t/big.pickle"
expect 1 "$t/fifo.pickle: not a regular file (a FIFO); use - for standard input" snapshot "$t/fifo.pickle"
expect 1 "/dev/zero: not a regular file (a character device)" snapshot /dev/zero
expect 1 "$t: not a regular file (a directory)" snapshot "$t"
expect 1 "$t/big.pickle: too large (3 GiB; the limit is 2 GiB)" snapshot "$t/big.pickle"
out=$(run snapshot - < assets/snapshots/gpt-train.pickle 2>&1) || fail "snapshot -: $out"
echo "$out" | grep -q "reserved    2.92 GiB in 26 segments" || fail "snapshot -: $out"
out=$(run snapshot - --json < assets/snapshots/gpt-train.pickle 2>&1) || fail "snapshot - --json: $out"
echo "$out" | grep -q '"file":"-"' || fail "snapshot - --json: $out"
# a snapshot cut short while it is read (torch.cuda.memory._dump_snapshot writing the file again):
# a mapped file's lost pages were a SIGBUS; now an error, or the summary of what was read whole
if command -v python3 >/dev/null 2>&1; then
    python3 -c "import pickle, sys; pickle.dump({'segments': [], 'device_traces': [[{'action': 'alloc',
'addr': i, 'size': 512, 'stream': 0} for i in range(600000)]]}, open(sys.argv[1], 'wb'), protocol=4)" "$t/cut.pickle"
    for try in 1 2 3; do
        cp "$t/cut.pickle" "$t/cut-$try.pickle"
        "$b" snapshot "$t/cut-$try.pickle" >"$t/cut.out" 2>&1 & # no timeout: its pid is the reader
        pid=$!
        n=0 # until it holds the file (mapped or open), or ended
        while [ $n -lt 2000 ] && kill -0 $pid 2>/dev/null &&
            ! grep -q "cut-$try.pickle" "/proc/$pid/maps" 2>/dev/null &&
            ! ls -l "/proc/$pid/fd" 2>/dev/null | grep -q "cut-$try.pickle"; do
            n=$((n + 1))
        done
        : > "$t/cut-$try.pickle"
        wait $pid
        rc=$?
        [ $rc -le 1 ] || fail "snapshot of a file cut short while read: exit $rc: $(cat "$t/cut.out")"
        [ $rc -eq 0 ] || grep -q "cut-$try.pickle: \(changed while it was read\|empty file\)" "$t/cut.out" ||
            fail "snapshot of a file cut short: $(cat "$t/cut.out")"
    done
fi

# recordings
expect 1 "$t/fifo.jsonl: not a regular file (a FIFO)" results "$t/fifo.jsonl"
expect 1 "$t/big.jsonl: too large (300 MiB; the limit is 256 MiB)" results "$t/big.jsonl"
expect 1 "$t/fifo.jsonl: not a regular file (a FIFO)" compare "$t/fifo.jsonl"
expect 1 "$t/fifo.jsonl: not a regular file (a FIFO)" --replay "$t/fifo.jsonl" run 1.1

# a lesson tree with a FIFO, a device link, symlink loops and a linked-in folder
mkdir -p "$t/d/lessons/ch09/sub" "$t/d/assets"
ln -s "$(pwd)/assets/gpus" "$t/d/assets/gpus"
cat > "$t/d/lessons/ch09/9.1-ok.lua" <<'L'
return lesson {
  id = "9.1", chapter = 9,
  title = { en = "Fine", zh = "好" }, chapter_title = { en = "Nine", zh = "九" },
  text { en = "hello\n\n> [!source] Sources\n> A test lesson.", zh = "你好\n\n> [!source] 出处\n> 测试用的课。" },
}
L
mkfifo "$t/d/lessons/ch09/9.2-fifo.lua"
ln -s /dev/zero "$t/d/lessons/ch09/9.3-zero.lua"
ln -s .. "$t/d/lessons/ch09/sub/up"
ln -s . "$t/d/lessons/ch09/self"
for i in 1 2 3 4 5 6; do ln -s "$t/d/lessons" "$t/d/lessons/ch09/sub/loop$i"; done
out=$(timeout 20 "$b" --backend sim --datadir "$t/d" check 2>&1); rc=$?
[ $rc -eq 124 ] && fail "check of a tree with FIFOs and loops hung"
[ $rc -eq 0 ] || fail "check exit $rc: $out"
# one lesson, once, and the six profiles of the linked assets/gpus
echo "$out" | grep -q "^7 file(s) checked (lessons and GPU profiles), 0 with errors" || fail "each lesson once: $out"
out=$(timeout 20 "$b" --backend sim --datadir "$t/d" list 2>&1) || fail "list: $out"
echo "$out" | grep -q "9.1   Fine" || fail "list: $out"

# a simulator profile in a data folder is a file like any other
mkfifo "$t/d/assets/fifo.txt"
rm "$t/d/assets/gpus" && mkdir "$t/d/assets/gpus" && mv "$t/d/assets/fifo.txt" "$t/d/assets/gpus/x.txt"
out=$(timeout 20 "$b" --backend sim --datadir "$t/d" --profile x info 2>&1); rc=$?
[ $rc -eq 3 ] || fail "FIFO profile exit $rc: $out"
echo "$out" | grep -q "x.txt: not a regular file (a FIFO)" || fail "FIFO profile: $out"
exit 0
