#!/bin/sh
# help_docs.sh BUILD - the sandbox's help() and the API docs name the same functions: every
# function help lists for gpu, host, alloc, units and plot is documented in docs/lua-api.md and
# every one documented there is in help; vram's list matches docs/vram-*.md the same way; and
# every function the modules really hold is in help (none undocumented, none stale). Every
# example help gives for vram and units (they only compute) runs as it is written, and
# help(vram.kv_cache) finds a function by its value.
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
# every vram and units example, as help prints it ("  e.g. ..."), runs
{ echo 'for _, n in ipairs {'; sed 's/.*/"&",/' "$tmp/h.vram" "$tmp/h.units"; echo '} do help(n) end'; } > "$tmp/ex.lua"
"$bin" --backend sim eval "$tmp/ex.lua" > "$tmp/ex.out" 2>&1 || { cat "$tmp/ex.out"; exit 1; }
nex=$(grep -c '^  e\.g\. ' "$tmp/ex.out")
[ "$nex" = "$(cat "$tmp/h.vram" "$tmp/h.units" | wc -l)" ] || { echo "FAIL: $nex examples for $(cat "$tmp/h.vram" "$tmp/h.units" | wc -l) functions"; fail=1; }
{ echo 'local bad = 0'
  sed -n 's/^  e\.g\. \(.*\)$/local f = load([==[return \1]==], "=example", "t", _ENV)\
local ok, err = pcall(f) if not ok then bad = bad + 1 print("example failed: " .. [==[\1]==] .. ": " .. tostring(err)) end/p' "$tmp/ex.out"
  echo 'print("examples failed: " .. bad)'; } > "$tmp/run.lua"
"$bin" --backend sim eval "$tmp/run.lua" > "$tmp/run.out" 2>&1
grep -qx 'examples failed: 0' "$tmp/run.out" || { echo "FAIL: help's examples:"; cat "$tmp/run.out"; fail=1; }
# by value: help(vram.kv_cache), in both languages
out=$(printf 'help(vram.kv_cache)\n' | "$bin" --backend sim eval -) || { echo "FAIL: help(vram.kv_cache): $out"; fail=1; }
printf '%s\n' "$out" | grep -q '^vram.kv_cache: KV cache bytes' || { echo "FAIL: help(vram.kv_cache): $out"; fail=1; }
out=$(printf 'help(vram.plan)\n' | "$bin" --backend sim --lang zh eval -)
printf '%s\n' "$out" | grep -q '^vram.plan：所有装得下的' || { echo "FAIL: help(vram.plan) in 中文: $out"; fail=1; }
[ $fail = 0 ] && echo "ok: help() and the API docs name the same $(wc -l < "$tmp/h.all") functions (+ plot); $nex examples run"
exit $fail
