#!/bin/sh
# zh_screens.sh BUILD - in 中文 the tutor's own screens carry no English: the menu, the keys help,
# a lesson's footer and live panel, the sandbox and its help, 2.3's memory maps. A Latin word
# (two letters or more) is a failure unless it is a name, a unit or a term kept in English on
# purpose (the allow list below, each with its reason).
. tests/tui/tmux.lib "$@"

# Kept in English on purpose: product and hardware names, units, the SIMULATED label (one word
# everywhere so it is recognised), key names, Lua/API identifiers the learner types, and the
# name of the other language written in itself (EN, English) on the L key; "vs", which Chinese
# technical writing uses as is; Lua keywords (the sandbox shows code to type).
ALLOW='for|do|end|local|function|return|in|pairs|ipairs|Transformer|vs|EN|English|SIMULATED|NVIDIA|GeForce|RTX|GPU|CUDA|PyTorch|Lua|vramlab|VRAM|DDR[0-9]*|GDDR[0-9A-Z]*|HBM[0-9e]*|PCIe|NVLink|[KMGT]i?B(/s)?|MHz|Gbps|Esc|Enter|Tab|Space|Ctrl|PgUp|PgDn|Home|End|F1|Shift|fp16|fp32|bf16|int8|rtx[0-9]+|Adam|SGD|EDITOR|VISUAL|XDG_STATE_HOME|vi|gpu|host|alloc|plot|units|vram|help|print'
check_zh() { # $1: what is on screen; $2 = box: only inside the box drawn over the screen
    if [ "$2" = box ]; then
        screen | sed -n 's/^[^│]*│\(.*\)│[^│]*$/\1/p' > "$T/zh"
    elif [ "$2" = chrome ]; then # a lesson: its title, footer and live panel, not its prose
        screen > "$T/all"
        { head -n 1 "$T/all"; tail -n 1 "$T/all"; sed -n 's/.*│//p' "$T/all"; } > "$T/zh"
    elif [ "$2" = status ]; then # after a run: the panel's title and state, the status line
        screen > "$T/all"
        { head -n 1 "$T/all"; sed -n '2s/^[^│]*│//p' "$T/all"; tail -n 1 "$T/all"; } > "$T/zh"
    else
        screen > "$T/zh"
    fi
    grep -q '[^[:space:]]' "$T/zh" || fail "nothing captured to check on the $1"
    # drop the allowed terms, then look for any Latin word left
    # also commands (vramlab profiles), code identifiers (camelCase, snake_case, a.b) and
    # acronyms (OOM, STREAM): names
    sed -E "s#vramlab [a-z]+##g; s#\\b[a-z]+\\.[a-z_]+\\b##g; s#\\b($ALLOW)\\b##g; s#\`[^\`]*\`##g; s#\\b[a-z]+[A-Z][A-Za-z0-9]*\\b##g;
            s#\\b[A-Za-z0-9]*_[A-Za-z0-9_]*\\b##g; s#\\b[a-z]+\\.[a-z_]+\\b##g;
            s#\\b[A-Z][A-Z0-9]+\\b##g; s#--[a-z][a-z-]*##g" "$T/zh" > "$T/zh.left" || fail "the filter itself"
    bad=$(grep -nE '[A-Za-z]{2,}' "$T/zh.left")
    [ -z "$bad" ] || { cat "$T/zh"; fail "English left on the $1 in 中文: $bad"; }
}

start 100 30 "$APP --lang zh"
wait_for '课程目录'
check_zh menu
sync '?' '按键（Esc 关闭）' # the box is drawn: what the check reads is the help, not the menu
check_zh "keys help" box
keys Escape
wait_gone '按键（Esc 关闭）'
sync Enter 'vramlab · [0-9]+\.[0-9]+ '
check_zh "lesson view" chrome
keys r # the live panel and the status line while and after an experiment runs
wait_for '完成|已完成|失败|取消' 30
check_zh "lesson's finished run" status
keys q
sync : 'vramlab · 沙箱（Lua）'
check_zh sandbox
# help() in the sandbox is the same text `vramlab --lang zh eval` prints, checked word by word
# (option tables and all) by tests/cli/zh_output.sh; here: it reaches the screen in Chinese
keys -l 'help(gpu)'
keys Enter
wait_for '拆成几路' 10
keys Escape
wait_for 'vramlab · 课程目录' 10
keys q
wait_exit 5
# a live panel full of the program's own labels: 2.3's memory maps (legend states, segment
# names, totals), every word checked (tests/cli/zh_english.py --strict); the map's rows of
# block letters are drawing, not words
fresh panel
start 120 40 "$APP --lang zh 2.3"
wait_for '碎片' 10
keys r
wait_for '完成|失败' 60
screen | sed -n 's/.*│//p' | grep -vE '^[A-Za-z.#]+ *[↓↑]? *$' > "$T/panel"
left=$(python3 tests/cli/zh_english.py --strict "$T/panel") ||
    { cat "$T/panel"; fail "English left in 2.3's panel in 中文: $left"; }
to_menu
keys q
wait_exit 5
echo "ok: 中文 screens without English"
