#!/bin/sh
# help_docs.sh BUILD - the sandbox's help() and the API docs name the same functions: every
# function help lists for gpu, host, alloc, units and plot is documented in docs/lua-api.md and
# every one documented there is in help; vram's list matches docs/vram-*.md the same way; and
# every function the modules really hold is in help (none undocumented, none stale).
build=${1:-build}
bin="$build/vramlab"
[ -x "$bin" ] || { echo "no $bin"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cat > "$tmp/help.lua" <<'LUA'
for _, m in ipairs { "gpu", "host", "alloc", "units", "plot", "vram" } do help(m) end
LUA
cat > "$tmp/real.lua" <<'LUA'
for _, m in ipairs { "gpu", "host", "alloc", "units", "vram" } do
  for k, v in pairs(_G[m] or require(m)) do if type(v) == "function" then print(m .. "." .. k) end end
end
LUA
"$bin" --backend sim eval "$tmp/help.lua" > "$tmp/help.out" 2>&1 || { cat "$tmp/help.out"; exit 1; }
"$bin" --backend sim eval "$tmp/real.lua" > "$tmp/real.out" 2>&1 || { cat "$tmp/real.out"; exit 1; }
# module.function names (not file names such as vram.lua)
names() { grep -oE "\`?$1\\.[a-z_][a-z_0-9]*" | tr -d '\`' | grep -vx "$1\\.lua" | sort -u; }
for m in gpu host alloc units plot; do
    names "$m" < "$tmp/help.out" > "$tmp/h.$m"
    names "$m" < docs/lua-api.md > "$tmp/d.$m"
    [ -s "$tmp/h.$m" ] || { echo "FAIL: help($m) lists nothing"; fail=1; }
    if ! diff "$tmp/h.$m" "$tmp/d.$m" > "$tmp/diff"; then
        echo "FAIL: help($m) and docs/lua-api.md differ (< help only, > docs only):"; cat "$tmp/diff"; fail=1
    fi
done
names vram < "$tmp/help.out" > "$tmp/h.vram"
cat docs/vram-api.md docs/vram-train.md docs/vram-infer.md | names vram > "$tmp/d.vram"
diff "$tmp/h.vram" "$tmp/d.vram" > "$tmp/diff" ||
    { echo "FAIL: help(vram) and docs/vram-*.md differ (< help only, > docs only):"; cat "$tmp/diff"; fail=1; }
cat "$tmp"/h.gpu "$tmp"/h.host "$tmp"/h.alloc "$tmp"/h.units "$tmp"/h.vram | sort -u > "$tmp/h.all"
sort -u "$tmp/real.out" > "$tmp/r.all"
comm -23 "$tmp/r.all" "$tmp/h.all" > "$tmp/missing"
[ -s "$tmp/missing" ] && { echo "FAIL: functions without help:"; cat "$tmp/missing"; fail=1; }
[ $fail = 0 ] && echo "ok: help() and the API docs name the same $(wc -l < "$tmp/h.all") functions (+ plot)"
exit $fail
