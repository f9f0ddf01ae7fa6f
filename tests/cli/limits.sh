#!/bin/sh
# limits.sh BUILD - one definition per limit, and a teacher's folder adds, never replaces:
# - a profile's sizes are at most 2^50 bytes (lt_push_size hands Lua exact integers only) and its
#   context memory less than its total: 2^64-1 bytes or a context larger than the card is refused
#   with the line and the range, never shown as negative or all-free memory;
# - a teacher's folder (--lessons DIR with assets/) adds profiles and snapshots under its own names;
#   one named as a built-in one is never used (the built-in is), every command warns once and
#   `check` calls it an error;
# - `vramlab profiles` lists only what the reader would take (no FIFO, no name --profile refuses).
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export XDG_STATE_HOME="$t/state" VRAMLAB_DATADIR="$(pwd)"
unset VRAMLAB_LESSONS VRAMLAB_PROFILE
app() { timeout 20 "$b" --backend sim --deterministic --seed 1 "$@"; }
G="$t/course/assets/gpus"
mkdir -p "$G" "$t/course/assets/snapshots"
echo 'local f, t = gpu.mem(); print(f, t, gpu.info().total_bytes)' > "$t/mem.lua"

# F19: sizes past 2^50 bytes, a context larger than the card
sed -E 's/^total_bytes( *)= *[0-9]+/total_bytes\1= 18446744073709551615/' assets/gpus/rtx3090.txt > "$G/huge.txt"
out=$(app --lessons "$t/course" --profile huge eval "$t/mem.lua" 2>&1); [ $? -eq 3 ] || fail "huge profile: $out"
echo "$out" | grep -q "huge.txt:[0-9]*: bad value for 'total_bytes'.*out of range \[0, 1125899906842624\]" ||
    fail "huge profile: $out"
sed -E 's/^context_bytes( *)= *[0-9]+/context_bytes\1= 99999999999999/' assets/gpus/rtx3090.txt > "$G/ctx.txt"
out=$(app --lessons "$t/course" --profile ctx eval "$t/mem.lua" 2>&1); [ $? -eq 3 ] || fail "context > total: $out"
echo "$out" | grep -q "ctx.txt:[0-9]*: context_bytes (99999999999999) must be less than total_bytes" ||
    fail "context > total: $out"
sed -E 's/^total_bytes( *)= *[0-9]+/total_bytes\1= 1125899906842624/; s/^smi_total_mib( *)= *[0-9]+/smi_total_mib\1= 1073741824/; s/^name *=.*/name = Lab petabyte GPU/' \
    assets/gpus/rtx3090.txt > "$G/lab-pb.txt"
out=$(app --lessons "$t/course" --profile lab-pb eval "$t/mem.lua" 2>&1) || fail "a 1 PiB profile: $out"
echo "$out" | grep -Eq '^[1-9][0-9]*	1125899906842624	1125899906842624$' || fail "gpu.mem of 1 PiB: $out"
rm "$G/huge.txt" "$G/ctx.txt"

# F15: a teacher's rtx3090 and gpt-train-oom.pickle: not used, said at start, an error of check
sed 's/^name *=.*/name = Teacher Card/' assets/gpus/rtx3090.txt > "$G/rtx3090.txt"
printf 'not a snapshot' > "$t/course/assets/snapshots/gpt-train-oom.pickle"
out=$(app --lessons "$t/course" info 2>&1) || fail "info: $out"
echo "$out" | grep -q "Teacher Card" && fail "a teacher's profile replaced the built-in rtx3090: $out"
echo "$out" | grep -q "NVIDIA GeForce RTX 3090" || fail "info: $out"
echo "$out" | grep -q "warning: $G/rtx3090.txt is not used: the built-in .*/assets/gpus/rtx3090.txt has its name" ||
    fail "no warning at start: $out"
printf 'local s = assert(alloc.snapshot("assets/snapshots/gpt-train-oom.pickle")); print("ooms", #s.ooms)\n' > "$t/snap.lua"
out=$(app --lessons "$t/course" eval "$t/snap.lua" 2>&1) || fail "a teacher's snapshot replaced the built-in one: $out"
echo "$out" | grep -q "^ooms	[1-9]" || fail "alloc.snapshot: $out"
echo "$out" | grep -q "warning: .*gpt-train-oom.pickle is not used" || fail "no snapshot warning: $out"
out=$(app --lessons "$t/course" check 2>&1); [ $? -eq 1 ] || fail "check accepted a clash: $out"
echo "$out" | grep -q "^$G/rtx3090.txt: a built-in file has this name" || fail "check: $out"
echo "$out" | grep -q "snapshots/gpt-train-oom.pickle: a built-in file has this name" || fail "check: $out"
out=$(app --lessons "$t/course" --profile lab-pb info 2>&1) || fail "a teacher's own name: $out"
echo "$out" | grep -q "Lab petabyte GPU" || fail "a teacher's own profile: $out"

# text sent to the screen is cut at the source: a print line at 4 KiB, a run at 4 MiB
printf 'local s = ("\\u{663e}"):rep(5000)\nprint(s)\n' > "$t/print.lua"
out=$(app eval "$t/print.lua" 2>&1) || fail "eval print: $out"
[ "$(printf '%s' "$out" | wc -c)" -le 4096 ] || fail "a print line of $(printf '%s' "$out" | wc -c) bytes"
printf '%s' "$out" | tail -c 3 | grep -q '…' || fail "the cut line does not end with …"
printf '%s' "$out" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1 || fail "the cut split a character"
mkdir -p "$t/course/ch09"
cat > "$t/course/ch09/9.1-text.lua" <<'LUA'
return lesson {
  id = "9.1", chapter = 9,
  chapter_title = { en = "Test chapter", zh = "测试章" },
  title = { en = "Much text", zh = "很多文字" },
  text { en = "Notes.", zh = "注释。" },
  experiment { id = "notes", title = { en = "Notes", zh = "注释" },
    panels = { { id = "n", kind = "bars", title = { en = "N", zh = "N" }, unit = "B" } },
    run = function(ex)
      local s = ("n"):rep(4000)
      for i = 1, 2000 do ex:note("n", s) end
    end },
}
LUA
out=$(app --lessons "$t/course" run 9.1 2>&1); [ $? -eq 1 ] || fail "a run past 4 MiB of text: $out"
echo "$out" | grep -q "stopped: the run sent more than 4 MiB of text to the screen" || fail "text budget: $out"
rm -r "$t/course/ch09"

# listings show what the reader would take
mkfifo "$G/fifo.txt"
cp assets/gpus/t4.txt "$G/Upper.txt"
out=$(app --lessons "$t/course" profiles 2>&1) || fail "profiles: $out"
echo "$out" | grep -q "lab-pb" || fail "profiles: $out"
echo "$out" | grep -Eq "fifo|Upper" && fail "profiles lists what --profile cannot open: $out"
echo "ok: profile sizes bounded, a teacher's folder adds names and never replaces built-in ones"
