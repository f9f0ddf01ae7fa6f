#!/bin/sh
# snapshot_api.sh BUILD - alloc.snapshot refuses links that lead out of the allowed folders (a
# file link, a folder link, a link to a sibling folder, the allowed folder itself a link out), reads a link that stays inside, and
# says "FILE: ..." for a file in an allowed folder that is not a snapshot.
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
echo "ok: alloc.snapshot keeps to assets/snapshots and lessons/assets, links included"
