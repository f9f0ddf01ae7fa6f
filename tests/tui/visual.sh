#!/bin/sh
# visual.sh BUILD - the visual system on the real terminal: lesson 2.3's two memory maps on one
# scale (the 128 MiB map covers half the cells of the 256 MiB one, the rest "·"), glyphs by state
# with segment seams and no letter soup, the key figure's headline first in the panel, "done"
# shown once, at 120x40 in English; at 80x24 in Chinese the status bar gives the backend's short
# form and cuts no word, and every line fits. The maps picture in docs/visual-language.md is
# this test's capture, checked line by line.
. tests/tui/tmux.lib "$@"

# cells a map row covers: everything but "·" and blanks
covered() { printf '%s\n' "$1" | sed 's/·//g; s/ //g; s/./x/g' | tr -d '\n' | wc -c; }

start 120 40 "$APP 2.3"
wait_for 'Fragmentation' 5
sync Enter 'Enter run'  # to the first Run line
keys Enter   # run it
wait_for 'not reserved' 20
wait_for 'done: results in the live panel' 30 # the run pauses between its two orders
keys Tab     # focus the panel: its lines are what we read
settle
screen > "$T/s"
# the panel pane, right of the divider (sed counts characters), inside its panels' frames
P=$(sed -E "s/^.{60}//; s/^│ //; s/ *│([↑↓ ]*)$/\1/" "$T/s")
echo "$P" > "$T/p"
# the key figure first: the panel's first rows are its headline
sed -n 2,4p "$T/p" | grep -q '▶ same tensors, reserved  2\.0× SIM' || fail "no headline first: $(sed -n 2,4p "$T/p")"
[ "$(grep -c 'done' "$T/p")" -eq 1 ] || fail "'done' more than once"
r1=$(grep -n '^┌ 16 MiB first, then 32 MiB' "$T/p" | cut -d: -f1)
r2=$(grep -n '^┌ 32 MiB first, then 16 MiB' "$T/p" | cut -d: -f1)
[ -n "$r1" ] && [ -n "$r2" ] || fail "maps not on screen"
a=0 b=0
for k in 1 2 3; do
    l=$(sed -n "$((r1 + k))p" "$T/p" | sed 's/[↑↓ ]*$//'); a=$((a + $(covered "$l")))
    l=$(sed -n "$((r2 + k))p" "$T/p" | sed 's/[↑↓ ]*$//'); b=$((b + $(covered "$l")))
done
[ "$a" -gt 100 ] || fail "the larger map covers $a cells"
# half the reservation, half the cells (one cell either way for rounding)
d=$((a - 2 * b)); [ "${d#-}" -le 2 ] || fail "maps not on one scale: $a vs $b cells"
sed -n "$((r2 + 1)),$((r2 + 3))p" "$T/p" | grep -q '······' || fail "no 'not reserved' dots"
sed -n "$((r1 + 1)),$((r1 + 3))p" "$T/p" | grep -q '░.*│' || fail "no cached glyphs with seams"
sed -n "$((r1 + 1)),$((r1 + 3))p" "$T/p" | grep -q '[a-zA-Z]' && fail "letters in the map"
grep -q '░ seg 1 … seg 8  8 × 16 MiB' "$T/p" || fail "legend not one line per run"
check_width 120
# the maps picture in docs/visual-language.md is this capture (VRAMLAB_UPDATE_PICTURES=1 rewrites it)
sed -E "s/^.{60}//; s/[ ↑↓]+$//" "$T/s" > "$T/p2" # the same rows with their frames
end=$(awk -v s="$r2" 'NR > s && /^└/ { print NR; exit }' "$T/p2")
[ -n "$end" ] || fail "the second map's end is not on screen"
sed -n "${r1},${end}p" "$T/p2" > "$T/maps"
DOC=docs/visual-language.md
MARK='<!-- picture: lesson 2.3 at 120x40, from tests/tui/visual.sh -->'
grep -qF -- "$MARK" "$DOC" || fail "$DOC has no '$MARK'"
if [ -n "$VRAMLAB_UPDATE_PICTURES" ]; then
    awk -v mark="$MARK" -v pic="$T/maps" '
        skip && /^```/ { skip = 0 }
        skip { next }
        { print }
        $0 == mark { getline; print; while ((getline l < pic) > 0) print l; skip = 1 }' "$DOC" > "$T/doc"
    cp "$T/doc" "$DOC"
fi
awk -v mark="$MARK" '$0 == mark { on = 1; next } on == 1 { on = 2; next } on && /^```/ { exit } on { print }' "$DOC" > "$T/docpic"
diff "$T/docpic" "$T/maps" > "$T/diff" || { cat "$T/diff"; fail "the maps picture in $DOC differs from the screen (VRAMLAB_UPDATE_PICTURES=1 sh $0 BUILD)"; }
keys q
wait_for 'vramlab · lessons' 5
keys q
wait_exit 5

# 80x24 in Chinese: the backend, no word cut, everything fits
fresh zh
start 80 24 "$APP --lang zh 2.3"
wait_for '碎片' 5
# (SIMULATED is the header strip's: the status bar names the profile, whole or short)
screen | tail -n 1 | grep -Eq '^ (rtx3090|NVIDIA GeForce RTX 3090 配置（rtx3090）) ' || fail "status bar: $(screen | tail -n 1)"
screen | head -n 1 | grep -q 'SIMULATED 模拟' || fail "header strip: $(screen | head -n 1)"
screen | tail -n 1 | grep -q 'profi' && fail "status bar cut mid-word"
keys r       # run the experiment the live panel shows (at 80x24 Enter reads on first)
wait_for '未预留' 20
wait_for '完成：结果见实时面板' 30
check_width 80
keys q
wait_for 'vramlab · 课程|vramlab · lessons' 5
keys q
wait_exit 5
echo "ok: maps on one scale, key headline first, status bar short form (120x40 en, 80x24 zh)"
