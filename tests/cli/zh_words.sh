#!/bin/sh
# zh_words.sh BUILD - the 中文 of the lessons and of the program's messages keeps its terms one
# way (tests/cli/zh_words.py): live objects are 存活, the sandbox 沙箱, the tutor 教学界面, and
# quotations in Chinese text are “” (ASCII quotes stay in code). The checker is shown to find
# each wrong variant first, in Lua and in C, and to leave code and English alone.
# Not in the ASan pass: it reads the source; no vramlab code runs.
fail() { echo "FAIL: $*"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
py() { python3 tests/cli/zh_words.py "$@"; }

# each wrong variant is found, with its file and line
cat > "$T/bad.lua" <<'L'
local t = { en = "what is \"live\"", zh = "反向开始时哪些张量还活着？" }
text { en = [[The sandbox.]], zh = [[
在沙盒里试试。
这就是"仓库不够大"。
]] }
-- 活着 in a comment is no text
L
cat > "$T/bad.c" <<'C'
static const char *k = TUI_KEYMAP("Tutor", "导师");
static const char *m = "段里还有一个活块";
static const char *q = "vramlab：\"allowed\" 是上限";
static const char *p = "没有课程 '%s'";
C
out=$(py "$T/bad.lua" "$T/bad.c") && fail "wrong variants passed: $out"
for want in "bad.lua:1: live objects are 存活" "bad.lua:3: the sandbox is 沙箱" \
            "bad.lua:4: ASCII quotes in Chinese text" "bad.c:1: the tutor is 教学界面" \
            "bad.c:2: live objects are 存活" "bad.c:3: ASCII quotes in Chinese text" \
            "bad.c:4: ASCII quotes in Chinese text"; do
    printf '%s\n' "$out" | grep -qF "$want" || fail "not found: $want
$out"
done
[ "$(printf '%s\n' "$out" | wc -l)" = 7 ] || fail "more than the seven: $out"

# code, English and idioms are left alone
cat > "$T/good.lua" <<'L'
local t = { en = "say \"hello\"", zh = "试试 plot.point(\"2^k\", 2^k, k)；{ precision = \"amp_bf16\" } 是一个方案。" }
text { zh = [[
“仓库不够大”：`gpu.alloc("1GiB")` 与存活的张量；激活值；死活加载不进去；'>' 拷入。

    local s = alloc.snapshot("x.pickle") -- 活着

```
print("活着")
```
]] }
L
out=$(py "$T/good.lua") || fail "good text refused: $out"

# the product's Chinese text
out=$(py $(find lessons -name '*.lua') $(find lua tui -name '*.[ch]') lua/lib/*.lua) ||
    fail "the Chinese text strays from its terms:
$out"
echo "ok: 中文 terms (存活, 沙箱, 教学界面) and quotation marks (“”) one way"
