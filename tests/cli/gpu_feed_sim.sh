#!/bin/sh
# gpu_feed_sim.sh BUILD - chapter 6's GPU checks (tests/gpu/feed.lua, run by make test-gpu and
# make gpu-report on a GPU) run to the end on the simulator, so the first GPU that sees them
# meets no Lua mistake: every program they build passes its own check here, labelled SIMULATED.
# Twice: measuring for itself (make test-gpu), and judging the feed_* figures of the report's
# section 12 (tests/gpu/report.lua, run here on the simulator), read the way tests/gpu/run.sh
# hands them over (FIGURES, tests/gpu/figures.lua).
b="$1/vramlab"
fail() { echo "FAIL: $*"; exit 1; }
d=$(mktemp -d) && trap 'rm -rf "$d"' EXIT
vl() { "$b" --backend sim --deterministic --seed 1 "$@"; }
{ echo 'ALLOW_SIMULATED = true'; cat tests/gpu/feed.lua; } >"$d/feed.lua"
out=$(vl eval "$d/feed.lua" 2>&1) || fail "tests/gpu/feed.lua on the simulator: $out"
case $out in *"feed ok"*) ;; *) fail "tests/gpu/feed.lua did not finish: $out" ;; esac
# the report's figures (its other sections fail on the simulator, as they say: *_error lines)
{ echo 'ALLOW_SIMULATED = true'; cat tests/gpu/report.lua; } >"$d/report.lua"
vl eval "$d/report.lua" >"$d/figures.tsv" 2>&1 || fail "tests/gpu/report.lua on the simulator: $(tail -n 5 "$d/figures.tsv")"
! grep -q '^feed_error' "$d/figures.tsv" || fail "the report's section 12: $(grep '^feed_error' "$d/figures.tsv")"
n=$(grep -c '^feed_' "$d/figures.tsv")
[ "$n" -ge 40 ] || fail "the report's section 12 gave $n feed_* figures"
{
    awk -F'\t' 'BEGIN { printf "FIGURES = { " }
        $1 ~ /^feed_/ { v = $2
            if (v ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ || v == "true" || v == "false") printf "%s = %s, ", $1, v
            else { gsub(/"/, "\\\"", v); printf "%s = \"%s\", ", $1, v } }
        END { printf "} " }' "$d/figures.tsv"
    grep -v '^--' tests/gpu/figures.lua | tr '\n' ' '
    echo 'ALLOW_SIMULATED = true'
    cat tests/gpu/feed.lua
} >"$d/judge.lua"
judged=$(vl eval "$d/judge.lua" 2>&1) || fail "tests/gpu/feed.lua judging the report's figures: $judged"
case $judged in *"(the report's figures)"*"feed ok"*) ;; *) fail "tests/gpu/feed.lua did not judge the report's figures: $judged" ;; esac
# the same programs, the same figures (deterministic simulator): the two sides are kept in step
[ "$(printf '%s\n' "$out" | sed 1d)" = "$(printf '%s\n' "$judged" | sed 1d)" ] ||
    fail "feed.lua's own programs and the report's section 12 differ: $(printf '%s\n' "$out" >"$d/a"; printf '%s\n' "$judged" >"$d/b"; diff "$d/a" "$d/b")"
echo "ok: tests/gpu/feed.lua runs on the simulator ($(printf '%s\n' "$out" | wc -l) lines), alone and judging the report's $n feed_* figures"
