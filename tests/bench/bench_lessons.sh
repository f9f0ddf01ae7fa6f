#!/bin/sh
# bench_lessons.sh BUILD - what a learner waits for, measured on the real program
# (tests/bench/bench_lessons.c), each against a reference taken in the same run:
#   vramlab list       best of 20 runs vs /bin/true and `ls lessons`, its floors   goal < 50 ms
#   every lesson       headless on the simulator (`run ID --json`): the longest wait from an
#                      experiment's start to its first result (goal <= 1000 ms), the whole run
#                      (goal <= 3000 ms) and the peak resident memory (goal < 256 MiB); the
#                      floor is `vramlab --version` (starting the program)
#   predict exercises  the measurement `grade ID EXERCISE` runs before its feedback (goal <= 1000 ms)
# Host sizes are the lessons' own (no VRAMLAB_HOST_MAX, no VRAMLAB_HOST_QUICK): what a learner runs.
build=${1:-build}
b="$build/vramlab" t="$build/tests/bench_lessons"
unset VRAMLAB_HOST_MAX VRAMLAB_HOST_QUICK VRAMLAB_LIMITS VRAMLAB_LESSONS
export VRAMLAB_DATADIR="$(pwd)" XDG_STATE_HOME="$(mktemp -d)"
trap 'rm -rf "$XDG_STATE_HOME"' EXIT
set -- $("$t" time 20 "$b" --backend sim list) || exit 1
list_best=$1 list_med=$2
set -- $("$t" time 20 /bin/true); true_best=$1
set -- $("$t" time 20 ls lessons); ls_best=$1
set -- $("$t" time 20 "$b" --version); ver_best=$1
n=$("$b" --backend sim list | grep -c '^  [0-9]')
printf "vramlab list (%d lessons) %7.1f ms (median %.1f) vs /bin/true %.1f ms, ls lessons %.1f ms  ratio to ls %.1f  (goal < 50 ms)\n" \
    "$n" "$list_best" "$list_med" "$true_best" "$ls_best" "$(echo "$list_best / $ls_best" | bc -l)"
echo "# each lesson headless on the simulator: longest wait for an experiment's first result, whole run, peak RSS; floor: vramlab --version $ver_best ms"
over=0
for id in $("$b" --backend sim list --json | sed -n 's/.*"id":"\([0-9.]*\)".*/\1/p'); do
    set -- $("$t" lesson "$b" "$id") || exit 1
    flag=""
    if [ "$1" -gt 1000 ] || [ "$2" -gt 3000 ] || [ "$(echo "$3 >= 256" | bc)" = 1 ]; then flag="  OVER"; over=$((over + 1)); fi
    [ "$4" = 0 ] || flag="$flag  (exit $4)"
    printf "lesson %-4s first result %5d ms  total %5d ms  peak RSS %6.1f MiB  (goals <= 1000, <= 3000 ms, < 256 MiB)%s\n" \
        "$id" "$1" "$2" "$3" "$flag"
done
"$b" --backend sim exercises --list | awk '/^[0-9]/ { l = $1; next } $2 == "predict" { print l, $1 }' |
while read -r id ex; do
    set -- $("$t" lesson "$b" "$id" grade "$ex") || exit 1
    flag=""
    if [ "$1" -gt 1000 ] || [ "$(echo "$3 >= 256" | bc)" = 1 ]; then flag="  OVER"; fi
    printf "predict %-4s %-22s measured and graded %5d ms  peak RSS %6.1f MiB  (goals <= 1000 ms, < 256 MiB)%s\n" \
        "$id" "$ex" "$1" "$3" "$flag"
done
[ $over -eq 0 ] || echo "# $over lesson(s) over a goal"
