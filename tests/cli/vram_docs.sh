#!/bin/sh
# vram_docs.sh BUILD - every Lua example in docs/vram-train.md and docs/vram-infer.md, in the
# sections "How a kernel touches memory" and "Feeding the GPU" of docs/lua-api.md and in
# "Feeding the GPU" of docs/vram-api.md, runs in the sandbox (on the
# simulator, deterministic) and prints exactly what its "--> " comments say, in order (print's
# tabs written as two spaces). A doc that drifts from the code fails here.
# Not in the ASan pass: the docs' printed text; every function they call runs under ASan in
# tests/lua/vram*.lua.
build=${1:-build}
bin="$build/vramlab"
[ -x "$bin" ] || { echo "no $bin"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C.UTF-8
# DOC or DOC#HEADING: the whole file, or the blocks under that "## " heading
for spec in docs/vram-train.md docs/vram-infer.md "docs/lua-api.md#How a kernel touches memory" \
    "docs/lua-api.md#Feeding the GPU: \`gpu.program\` and \`gpu.pin\`" "docs/vram-api.md#Feeding the GPU (chapter 6)"; do
    doc=${spec%%#*} from="" k=$((${k:-0} + 1))
    [ "$doc" = "$spec" ] || from="## ${spec#*#}"
    awk -v dir="$tmp" -v doc="$doc" -v name="$k-$(basename "$doc" .md)" -v from="$from" '
        BEGIN { on = from == "" }
        /^## / && !inb && from != "" { on = $0 == from }
        !on { next }
        /^```lua$/ { inb = 1; n++; base = sprintf("%s/%s-%03d", dir, name, n)
                     print doc ":" NR + 1 > (base ".where"); close(base ".where")
                     printf "" > (base ".lua"); printf "" > (base ".want"); next }
        /^```$/ && inb { inb = 0; close(base ".lua"); close(base ".want"); next }
        inb { print > (base ".lua"); i = index($0, "--> "); if (i) print substr($0, i + 4) > (base ".want") }
    ' "$doc"
done
fail=0 n=0
for code in "$tmp"/*.lua; do
    n=$((n + 1))
    base=${code%.lua}
    where=$(cat "$base.where")
    if ! "$bin" --backend sim --deterministic --seed 1 --lang en eval "$code" >"$base.out" 2>&1; then
        echo "FAIL $where: the example raised:"; sed -n '1,5p' "$base.out"; fail=1; continue
    fi
    sed 's/\t/  /g' "$base.out" >"$base.got"
    if ! cmp -s "$base.got" "$base.want"; then
        echo "FAIL $where: the example prints something else than its --> comments:"
        diff "$base.want" "$base.got" | sed -n '1,12p'
        fail=1
    fi
done
[ "$n" -gt 10 ] || { echo "FAIL: only $n examples found"; exit 1; }
[ $fail -eq 0 ] && echo "ok: $n examples print what the docs say"
exit $fail
