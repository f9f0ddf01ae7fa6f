#!/bin/sh
# snapshot_api.sh BUILD - alloc.snapshot refuses links that lead out of the allowed folders (a
# file link, a folder link, a link to a sibling folder, the allowed folder itself a link out), reads a link that stays inside, and
# says "FILE: ..." for a file in an allowed folder that is not a snapshot; a teacher's lessons
# folder's own assets/snapshots adds its files, under the same rules. The learner's own file
# (eval --snapshot) is read with the CLI's limits.
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
mkdir -p "$d/data/assets/snapshots" "$d/data/lessons/assets" "$d/data/assets/gpus" "$d/out"
cp assets/snapshots/gpt-train.pickle "$d/data/assets/snapshots/"
cp assets/snapshots/gpt-train.pickle "$d/out/secret.pickle"
cp assets/snapshots/gpt-train.pickle "$d/data/assets/gpus/other.pickle"
cp assets/gpus/*.txt "$d/data/assets/gpus/"
ln -s "$d/out/secret.pickle" "$d/data/lessons/assets/file-out.pickle"
ln -s "$d/out" "$d/data/lessons/assets/dir-out"
ln -s ../../assets/gpus/other.pickle "$d/data/lessons/assets/sibling.pickle"
ln -s ../../assets/snapshots/gpt-train.pickle "$d/data/lessons/assets/inside.pickle"
printf 'not a pickle\n' > "$d/data/lessons/assets/notes.txt"
run() { "$b" --backend sim --deterministic --seed 1 -D "$d/data" eval "$d/t.lua" 2>&1; }
for p in lessons/assets/file-out.pickle lessons/assets/dir-out/secret.pickle lessons/assets/sibling.pickle; do
    printf 'print(alloc.snapshot("%s"))\n' "$p" > "$d/t.lua"
    out=$(run) && fail "$p: read through a link out: $out"
    echo "$out" | grep -q "leads outside the allowed folders" || fail "$p: message: $out"
done
printf 'local s = assert(alloc.snapshot("lessons/assets/inside.pickle")); print("peak", s.peak)\n' > "$d/t.lua"
out=$(run) || fail "a link inside: $out"
echo "$out" | grep -q "^peak	[0-9]" || fail "a link inside: $out"
printf 'local s, e = alloc.snapshot("lessons/assets/notes.txt"); print(s, e)\n' > "$d/t.lua"
out=$(run) || fail "not a snapshot raised: $out"
echo "$out" | grep -q "^nil	lessons/assets/notes.txt: " || fail "not a snapshot: $out"
# the allowed folder itself a link out of the data folder: nothing in it may be read
rm -rf "$d/data/lessons/assets"
ln -s "$d/out" "$d/data/lessons/assets"
printf 'print(alloc.snapshot("lessons/assets/secret.pickle"))\n' > "$d/t.lua"
out=$(run) && fail "read through an allowed folder that links out: $out"
echo "$out" | grep -q "leads outside the allowed folders" || fail "folder link: message: $out"
# a teacher's lessons folder (--lessons) with its own assets/snapshots: its own names, under the
# same rules; a path it lacks comes from the data folder; a link out of it is refused
t="$d/course"
mkdir -p "$t/ch09" "$t/assets/snapshots"
cp assets/snapshots/gpt-train-oom.pickle "$t/assets/snapshots/mine.pickle"
ln -s "$d/out/secret.pickle" "$t/assets/snapshots/out.pickle"
trun() { "$b" --backend sim --deterministic --seed 1 -D "$d/data" --lessons "$t" eval "$d/t.lua" 2>&1; }
printf 'local s = assert(alloc.snapshot("assets/snapshots/mine.pickle")); print("ooms", #s.ooms)
' > "$d/t.lua"
out=$(trun) || fail "a teacher's snapshot: $out"
echo "$out" | grep -q "^ooms	[1-9]" || fail "a teacher's snapshot (the OOM one): $out"
out=$(run) && fail "the teacher's snapshot read without --lessons: $out"
printf 'local s = assert(alloc.snapshot("assets/snapshots/gpt-train.pickle")); print("ooms", #s.ooms)
' > "$d/t.lua"
out=$(trun) || fail "the data folder's snapshot with --lessons: $out"
echo "$out" | grep -q "^ooms	0" || fail "the data folder's snapshot with --lessons: $out"
printf 'print(alloc.snapshot("assets/snapshots/out.pickle"))
' > "$d/t.lua"
out=$(trun) && fail "a teacher's link out was read: $out"
echo "$out" | grep -q "leads outside the allowed folders" || fail "teacher's link out: message: $out"
# the learner's own file (eval --snapshot): alloc.snapshot() reads it with the CLI's limits, so
# a snapshot over the lesson limit (4 MiB) is read; the lesson's own paths keep their rules;
# a FIFO is refused at once; without --snapshot alloc.snapshot() says how to name one
python3 -c '
import pickle, sys
s = pickle.load(open(sys.argv[1], "rb"))
s["padding"] = "x" * (5 << 20)   # a real training snapshot is often tens of MB
pickle.dump(s, open(sys.argv[2], "wb"), protocol=4)' assets/snapshots/gpt-train.pickle "$d/out/big.pickle"
printf 'local s = assert(alloc.snapshot()); print("mine", s.segments, s.file_bytes > 4 * 2^20)\n' > "$d/t.lua"
out=$("$b" --backend sim -D "$d/data" eval "$d/t.lua" --snapshot "$d/out/big.pickle" 2>&1) ||
    fail "eval --snapshot: $out"
echo "$out" | grep -q "^mine	26	true" || fail "eval --snapshot: $out"
printf 'local s = assert(alloc.snapshot("%s")); print("same", s.segments)\n' "$d/out/big.pickle" > "$d/t.lua"
out=$("$b" --backend sim -D "$d/data" eval "$d/t.lua" --snapshot "$d/out/big.pickle" 2>&1) ||
    fail "the named file by its path: $out"
echo "$out" | grep -q "^same	26" || fail "the named file by its path: $out"
printf 'print(alloc.snapshot("%s"))\n' "$d/out/secret.pickle" > "$d/t.lua"
out=$("$b" --backend sim -D "$d/data" eval "$d/t.lua" --snapshot "$d/out/big.pickle" 2>&1) &&
    fail "another file than the one named was read: $out"
echo "$out" | grep -q "is absolute" || fail "another file: $out"
printf 'print(alloc.snapshot())\n' > "$d/t.lua"
out=$("$b" --backend sim -D "$d/data" eval "$d/t.lua" 2>&1) && fail "no file named, read: $out"
echo "$out" | grep -q "no snapshot was named" || fail "no file named: $out"
mkfifo "$d/out/fifo.pickle"
out=$(timeout 10 "$b" --backend sim -D "$d/data" eval "$d/t.lua" --snapshot "$d/out/fifo.pickle" 2>&1); rc=$?
[ $rc -eq 1 ] || fail "eval --snapshot FIFO: exit $rc: $out"
echo "$out" | grep -q "fifo.pickle: not a regular file (a FIFO)" || fail "eval --snapshot FIFO: $out"
echo "ok: alloc.snapshot keeps to assets/snapshots and lessons/assets, links included; reads the learner's named file"
