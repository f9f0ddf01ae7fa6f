-- lesson.lua - the lesson constructors (lesson, text, experiment, exercise), their validator,
-- the `ex` object experiments stream results through, and exercise grading.
-- Trusted code: it is loaded with the real globals and hands the sandbox only closures.
local M = {}
local getinfo, fmt, type, pairs, ipairs, error, tostring = debug.getinfo, string.format, type, pairs, ipairs, error, tostring
local setmetatable, pcall, load, tonumber, concat, sort = setmetatable, pcall, load, tonumber, table.concat, table.sort
local match, abs, huge = string.match, math.abs, math.huge
local rawget, getmt, pack, unpack = rawget, debug.getmetatable, table.pack, table.unpack
local emit, markup_check, pause, tr = __lt_emit, __lt_markup_check, __lt_pause, __lt_tr
local snapshot, same, answer_env = __lt_snapshot, __lt_same, __lt_answer_env
local suggest = __lt_suggest -- "did you mean": the name of a list a mistyped one most likely meant
-- "; did you mean 'NAME'?" for a word not in names, or ""
local function mean(word, names)
  local m = type(word) == "string" and suggest(word, names)
  return m and fmt("; did you mean '%s'?", m) or ""
end
local ID_MAX = __lt_limits.id -- bytes of a lesson, experiment or exercise id (lua/lt_limits.h)
-- the panel kinds and the most cells a row and blocks a map carry: the C registry's (lt_event.h)
local EVENT = __lt_event_info()
local units = require "units"
local grading = require "grading"

local META = setmetatable({}, { __mode = "k" }) -- block table -> {kind=, file=, line=, snap=}
local MEASURED = setmetatable({}, { __mode = "k" }) -- predict exercise -> {value=, how=, profile=}
local BLOCKS = setmetatable({}, { __mode = "k" }) -- a lesson snapshot's block -> its record in META

local loading = { file = "?", line = 0, src = "", missing = {} }
local LINT -- what `vramlab check` refuses beyond the loader: see M.lint
local LINT_ARGS -- the last lesson's lint() arguments, checked only when M.lint asks
local DRAFT -- a draft's "file:line: ..." warning for `vramlab check` (an error with --strict)

--- For C: the file being loaded. Its `return lesson {` is a tail call, which leaves no caller
-- frame, so the validator finds that line in the source. (One search: every lesson of the
-- catalog passes here, and only an error message needs the source's lines, see source_lines.)
function M.set_loading(file, src)
  local s = "\n" .. src .. "\n"
  local at = s:find("\n[ \t\r\v\f]*return[ \t\r\v\f]+lesson[ \t\r\v\f]*[{\n]")
  local line = at and select(2, s:sub(1, at):gsub("\n", "")) or 1
  loading = { file = file, line = line, src = src, missing = {} }
  LINT, LINT_ARGS, DRAFT = nil, nil, nil
end

-- the loading file's lines, split when an error first asks for them
local function source_lines()
  if not loading.lines then
    local lines = {}
    for l in (loading.src .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = l end
    loading.lines = lines
  end
  return loading.lines
end

local function origin(level)
  local info = getinfo(level + 1, "Sl")
  if not info or info.what == "C" or not info.currentline or info.currentline < 1 then
    return loading.file, loading.line
  end
  local src = info.source:sub(1, 1) == "@" and info.source:sub(2) or info.short_src
  return src, info.currentline or 0
end

local function fail(m, msg, ...)
  error(fmt("%s:%d: " .. msg, m.file, m.line, ...), 0)
end

-- m (a block's record: file, line of its `kind {` call, kind) at the line of one of its fields,
-- `path` ("tolerance", "panels.2.unit", "hints.1.zh"), found in the source as tokens: an error
-- names the field that is wrong, not the block's first line. m itself when the field is not
-- written there as a literal table (a block built elsewhere, a field computed).
local field_line = __lt_field_line
local function at(m, path)
  if not path or path == "" or m.file ~= loading.file then return m end
  local l = field_line(loading.src, m.line, m.kind, path)
  return l and { file = m.file, line = l, kind = m.kind } or m
end
local function sub(p, k) return (p and p ~= "") and (p .. "." .. k) or k end

local function is_lang(v) return type(v) == "table" and type(v.en) == "string" and type(v.zh) == "string" end

-- The file's line of line n of text v[lang], a long string whose block starts at m.line: its
-- first line is found in the source from there (after the other language's text), or nil.
local function text_line(m, v, lang, n)
  local from = m.line
  for _, l in ipairs { "en", "zh" } do
    if type(v[l]) == "string" then
      local first, found = match(v[l], "^([^\n]*)")
      if first == "" then return nil end
      local lines = source_lines()
      for i = from, #lines do
        if lines[i]:sub(-#first) == first then found = i break end
      end
      if not found then return nil end
      if l == lang then return found + n - 1 end
      from = found + select(2, v[l]:gsub("\n", ""))
    end
  end
end

-- A text in both languages; one may be missing in a draft (lesson{}'s `draft = "en"` decides,
-- as it runs last: the missing ones are noted here and judged there).
-- `p` is the text's path in its block ("prompt", "hints.2"; "" for a text{} block itself).
local function check_lang(m, v, what, markup, p)
  local en, zh = type(v) == "table" and v.en, type(v) == "table" and v.zh
  if not is_lang(v) and not (type(v) == "table" and (type(en) == "string" and zh == nil or type(zh) == "string" and en == nil)) then
    fail(at(m, p), "%s must be a table { en = \"...\", zh = \"...\" } with both languages", what)
  end
  if en == nil or zh == nil then
    loading.missing[#loading.missing + 1] = { m = m, path = p, what = what, lang = en == nil and "en" or "zh" }
  end
  for _, l in ipairs { "en", "zh" } do
    if v[l] == "" then fail(at(m, sub(p, l)), "%s.%s is empty", what, l) end
    if markup and v[l] ~= nil then
      local err = markup_check(v[l])
      if err then
        -- "line N: what" counts inside the text: say the file's line
        local n, why = match(err, "^line (%d+): (.*)$")
        local tl = n and text_line(at(m, sub(p, l)), v, l, tonumber(n))
        if tl then fail({ file = m.file, line = tl }, "%s (%s): %s", what, l, why) end
        fail(at(m, sub(p, l)), "%s (%s), %s", what, l, err)
      end
    end
  end
end

local function check_fields(m, t, allowed, what, p)
  for k in pairs(t) do
    if type(k) ~= "string" then fail(at(m, sub(p, tostring(k))), "%s: unexpected positional value (did you forget a field name?)", what) end
    if not allowed[k] then
      local names = {}
      for a in pairs(allowed) do names[#names + 1] = a end
      sort(names)
      fail(at(m, sub(p, k)), "%s: unknown field '%s'%s (fields: %s)", what, k, mean(k, names), concat(names, ", "))
    end
  end
end

local function set(list) local s = {} for _, v in ipairs(list) do s[v] = true end return s end

-- A constructor validates a private snapshot of its table (plain tables, raw reads: what the
-- C side will read, not what metamethods would answer) and records it. The C loader reads the
-- lesson's snapshot, after checking that the lesson's own tables still hold the same data.
local function constructor(kind, validate)
  return function(t)
    local file, line = origin(2)
    local m = { kind = kind, file = file, line = line }
    if type(t) ~= "table" then fail(m, "%s expects a table: %s { ... }", kind, kind) end
    local ok, snap = pcall(snapshot, t)
    if not ok then fail(m, "%s: %s", kind, tostring(snap)) end
    validate(m, snap, t)
    m.snap = snap
    META[t] = m
    return t
  end
end

M.text = constructor("text", function(m, t)
  check_fields(m, t, set { "en", "zh" }, "text")
  check_lang(m, t, "text", true, "")
end)

local PANEL_KINDS = EVENT.panels
local PANEL_NAMES = {}
for k in pairs(PANEL_KINDS) do PANEL_NAMES[#PANEL_NAMES + 1] = k end
sort(PANEL_NAMES)
PANEL_NAMES = concat(PANEL_NAMES, ", ")
local STATE_NAMES = {}
for k in pairs(EVENT.states) do STATE_NAMES[#STATE_NAMES + 1] = k end
sort(STATE_NAMES)
STATE_NAMES = concat(STATE_NAMES, ", ")
M.experiment = constructor("experiment", function(m, t)
  check_fields(m, t, set { "id", "title", "intro", "panels", "run", "key" }, "experiment")
  if type(t.id) ~= "string" or not match(t.id, "^[%w_%-]+$") or #t.id > ID_MAX then fail(at(m, "id"), "experiment: 'id' must be a word such as \"bandwidth\" (letters, digits, _ and -; at most %d)", ID_MAX) end
  check_lang(m, t.title, "experiment '" .. t.id .. "' title", nil, "title")
  if t.intro ~= nil then check_lang(m, t.intro, "experiment '" .. t.id .. "' intro", true, "intro") end
  if type(t.run) ~= "function" then fail(at(m, "run"), "experiment '%s': 'run' must be a function(ex)", t.id) end
  if type(t.panels) ~= "table" or #t.panels == 0 then fail(at(m, "panels"), "experiment '%s': 'panels' must list at least one panel", t.id) end
  local seen = {}
  for i, p in ipairs(t.panels) do
    if type(p) ~= "table" then fail(at(m, "panels." .. i), "experiment '%s': panel %d must be a table", t.id, i) end
    check_fields(m, p, set { "id", "kind", "title", "unit", "x", "y", "logx", "scale" }, "panel " .. i, "panels." .. i)
    if type(p.id) ~= "string" or p.id == "" then fail(at(m, "panels." .. i .. ".id"), "experiment '%s': panel %d needs an 'id'", t.id, i) end
    if seen[p.id] then fail(at(m, "panels." .. i .. ".id"), "experiment '%s': two panels named '%s'", t.id, p.id) end
    seen[p.id] = true
    if not PANEL_KINDS[p.kind] then fail(at(m, "panels." .. i .. ".kind"), "panel '%s': kind must be one of %s (got %s)", p.id, PANEL_NAMES, tostring(p.kind)) end
    check_lang(m, p.title, "panel '" .. p.id .. "' title", nil, "panels." .. i .. ".title")
    for _, k in ipairs { "unit", "x", "y" } do
      if p[k] ~= nil and type(p[k]) ~= "string" then fail(at(m, "panels." .. i .. "." .. k), "panel '%s': '%s' must be a string", p.id, k) end
    end
    -- a bar's full length (in the panel's unit) or a map's bytes, fixed before any result arrives
    if p.scale ~= nil and not (type(p.scale) == "number" and p.scale > 0 and p.scale < huge) then
      fail(at(m, "panels." .. i .. ".scale"), "panel '%s': 'scale' must be a positive number (a bar's full length in its unit, or a map's bytes)", p.id)
    end
    if p.scale ~= nil and p.kind ~= "bars" and p.kind ~= "map" then fail(at(m, "panels." .. i .. ".scale"), "panel '%s': 'scale' applies to bars and map panels only", p.id) end
  end
  -- the key figure: the panel whose number is the experiment's point (shown first and largest)
  if t.key ~= nil then
    local kp
    for _, p in ipairs(t.panels) do if p.id == t.key then kp = p end end
    if type(t.key) ~= "string" or not kp then
      fail(at(m, "key"), "experiment '%s': 'key' must name one of its panels (got %s)", t.id, tostring(t.key))
    end
    if kp.kind ~= "bars" and kp.kind ~= "gauge" and kp.kind ~= "curve" then
      fail(at(m, "key"), "experiment '%s': key panel '%s' is a %s; the key figure is a bars, gauge or curve panel", t.id, t.key, kp.kind)
    end
  end
end)

local EX_KINDS = set { "choice", "number", "predict", "code" }

-- Common mistakes a number or predict exercise may name in `mistakes` (docs/lesson-format.md,
-- "Mistakes"): grading.lua's table.
local MISTAKES = grading.MISTAKES
M.MISTAKES = MISTAKES
local MISTAKE_NAMES = {}
for k in pairs(MISTAKES) do MISTAKE_NAMES[#MISTAKE_NAMES + 1] = k end
sort(MISTAKE_NAMES)

-- `mistakes` of a number or predict exercise: built-in names, or {factor=|value=, say={en,zh}}
local function check_mistakes(m, t, w)
  if t.mistakes == nil then return end
  if t.kind ~= "number" and t.kind ~= "predict" then fail(at(m, "mistakes"), "%s: 'mistakes' is for number and predict exercises (a choice has 'why')", w) end
  if type(t.mistakes) ~= "table" or #t.mistakes == 0 then fail(at(m, "mistakes"), "%s: 'mistakes' must be a list such as { \"gib_gb\", { value = 14, say = { en = ..., zh = ... } } }", w) end
  local tol = t.tolerance or (t.kind == "number" and 0.02 or 0.5)
  for i, k in pairs(t.mistakes) do
    local what = w .. " mistake " .. tostring(i)
    if type(i) ~= "number" or i % 1 ~= 0 or i < 1 or i > #t.mistakes then fail(at(m, "mistakes"), "%s: 'mistakes' is a list (no named fields)", w) end
    if type(k) == "string" then
      if not MISTAKES[k] then fail(at(m, "mistakes." .. i), "%s: unknown mistake '%s' (built-in: %s)", what, k, concat(MISTAKE_NAMES, ", ")) end
    elseif type(k) == "table" then
      check_fields(m, k, set { "factor", "value", "say" }, what, "mistakes." .. i)
      if (k.factor == nil) == (k.value == nil) then fail(at(m, "mistakes." .. i), "%s: give 'factor' or 'value' (one of them)", what) end
      if k.factor ~= nil and (type(k.factor) ~= "number" or k.factor <= 0 or k.factor ~= k.factor or k.factor == huge or abs(k.factor - 1) <= tol) then
        fail(at(m, "mistakes." .. i .. ".factor"), "%s: 'factor' must be a positive number other than 1 (and further from 1 than the tolerance)", what)
      end
      if k.value ~= nil and type(k.value) ~= "number" then fail(at(m, "mistakes." .. i .. ".value"), "%s: 'value' must be a number (in '%s')", what, t.unit or "") end
      check_lang(m, k.say, what .. " say", nil, "mistakes." .. i .. ".say")
    else
      fail(at(m, "mistakes." .. i), "%s: a name such as \"gib_gb\" or a table { factor = ..., say = ... }", what)
    end
    -- a mistake the grader could never tell from the right answer is a bug in the lesson
    local d = type(k) == "string" and MISTAKES[k] or k
    if t.kind == "number" and type(t.answer) == "number" then
      local near = d.value and abs(d.value - t.answer) <= tol * abs(t.answer) + 1e-12
      if d.factor and abs(d.factor - 1) <= tol then near = true end
      if near then fail(at(m, "mistakes." .. i), "%s: it matches the right answer within the tolerance (%g)", what, tol) end
    end
  end
end

-- `why` of a choice exercise: { [n] = { en =, zh = } } for a wrong choice n
local function check_why(m, t, w)
  if t.why == nil then return end
  if t.kind ~= "choice" then fail(at(m, "why"), "%s: 'why' is for choice exercises (a number has 'mistakes')", w) end
  if type(t.why) ~= "table" then fail(at(m, "why"), "%s: 'why' must be a table { [2] = { en = ..., zh = ... } } keyed by choice", w) end
  for i, v in pairs(t.why) do
    if type(i) ~= "number" or i % 1 ~= 0 or i < 1 or type(t.choices) ~= "table" or i > #t.choices then
      fail(at(m, "why"), "%s: 'why' keys are choice numbers (1..%d)", w, type(t.choices) == "table" and #t.choices or 0)
    end
    if i == t.answer then fail(at(m, "why." .. i), "%s: why[%d] is the right choice: say why it is right in 'explain'", w, i) end
    check_lang(m, v, w .. " why " .. i, nil, "why." .. i)
  end
end

M.exercise = constructor("exercise", function(m, t)
  check_fields(m, t, set { "id", "kind", "prompt", "choices", "answer", "unit", "tolerance", "hints",
                           "explain", "measure", "entry", "check", "starter", "why", "mistakes" }, "exercise")
  if type(t.id) ~= "string" or not match(t.id, "^[%w_%-]+$") or #t.id > ID_MAX then fail(at(m, "id"), "exercise: 'id' must be a word such as \"ratio\" (letters, digits, _ and -; at most %d)", ID_MAX) end
  local w = "exercise '" .. t.id .. "'"
  if not EX_KINDS[t.kind] then fail(at(m, "kind"), "%s: kind must be choice, number, predict or code", w) end
  check_lang(m, t.prompt, w .. " prompt", true, "prompt")
  check_lang(m, t.explain, w .. " explain", true, "explain")
  if type(t.hints) ~= "table" or #t.hints == 0 then fail(at(m, "hints"), "%s: give at least one hint", w) end
  for i, h in ipairs(t.hints) do check_lang(m, h, w .. " hint " .. i, nil, "hints." .. i) end
  if t.tolerance ~= nil and (type(t.tolerance) ~= "number" or t.tolerance <= 0 or t.tolerance >= 10) then
    fail(at(m, "tolerance"), "%s: tolerance is a relative error such as 0.05", w)
  end
  if t.unit ~= nil and type(t.unit) ~= "string" then fail(at(m, "unit"), "%s: unit must be a string", w) end
  -- the unit an answer is typed in: one the parser reads (then any unit of its kind converts),
  -- or a plain word (x, %, tok/s) typed as it is; one that looks like a size, rate or time but
  -- is not read ("GB/sec", "Gbit", "msec") would refuse the answers a learner types
  if type(t.unit) == "string" and t.unit ~= "" then
    local r = units.read("1" .. t.unit)
    if r and r.ambiguous then
      fail(at(m, "unit"), "%s: unit '%s' reads two ways (%s or %s): write the one meant", w, t.unit, r.alt[1], r.alt[2])
    end
    local u = string.lower(t.unit)
    if (not r or r.word) and (match(u, "^[kmgtp]?i?b") or match(u, "sec$") or match(u, "^[kmgtp]?i?b[%a]*/") or match(u, "^[mnuµμ]?s/")) then
      fail(at(m, "unit"), "%s: unit '%s' is not one the answer parser reads: use a size (B, KB..TB, KiB..TiB), a rate (GB/s, GiB/s; Gb/s and Gbps are bits), a time (ns, us, ms, s) or a plain word (x, %%, tok/s)", w, t.unit)
    end
  end
  if t.kind == "choice" then
    if type(t.choices) ~= "table" or #t.choices < 2 or #t.choices > 9 then fail(at(m, "choices"), "%s: give 2 to 9 choices", w) end
    for i, c in ipairs(t.choices) do check_lang(m, c, w .. " choice " .. i, nil, "choices." .. i) end
    if type(t.answer) ~= "number" or t.answer < 1 or t.answer > #t.choices or t.answer % 1 ~= 0 then
      fail(at(m, "answer"), "%s: answer must be the index (1..%d) of the right choice", w, #t.choices)
    end
  elseif t.kind == "number" then
    if type(t.answer) ~= "number" then fail(at(m, "answer"), "%s: answer must be a number (in '%s')", w, t.unit or "") end
  elseif t.kind == "predict" then
    if type(t.measure) ~= "function" then fail(at(m, "measure"), "%s: 'measure' must be a function returning the measured value", w) end
  elseif t.kind == "code" then
    if type(t.entry) ~= "string" or not match(t.entry, "^[%a_][%w_]*$") then fail(at(m, "entry"), "%s: 'entry' must name the function the learner writes", w) end
    if type(t.check) ~= "function" then fail(at(m, "check"), "%s: 'check' must be a function(fn) returning ok, message", w) end
    if t.starter ~= nil and type(t.starter) ~= "string" then fail(at(m, "starter"), "%s: 'starter' must be a string of Lua", w) end
    if type(t.starter) == "string" then
      -- the starter is what the learner edits first: it must compile and define the entry the
      -- grader looks up. Checked statically (compiled, never run): a global `function entry(` or
      -- `entry = function` at the start of a line; a local or another name is an error.
      local chunk, err = load(t.starter, "=starter", "t", {})
      if not chunk then fail(at(m, "starter"), "%s: the starter does not compile: %s", w, err) end
      local e, src = t.entry, "\n" .. t.starter
      if not (match(src, "\n[ \t]*function%s+" .. e .. "%s*%(") or match(src, "\n[ \t]*" .. e .. "%s*=%s*function%s*%(")) then
        fail(at(m, "starter"), "%s: the starter does not define the entry '%s' (a global function the learner completes)", w, e)
      end
    end
  end
  check_why(m, t, w)
  check_mistakes(m, t, w)
end)

-- Course rules that `vramlab check` enforces (docs/lesson-format.md, "Sources"): every errata
-- callout names its source, and every lesson ends its last text{} with a [!source] callout.
-- They are not load errors, so a lesson written elsewhere still opens; the check refuses it.
local SOURCE_LINE = { en = { "^Sources?:" }, zh = { "^出处：", "^来源：" } }

-- the callouts of a markup text: {kind=, title=, body={lines}, first=, last=} (line numbers in it)
local function callouts(text)
  local out, cur, n = {}, nil, 0
  for line in (text .. "\n"):gmatch("(.-)\n") do
    n = n + 1
    local kind, title = match(line, "^> %[!(%w+)%]%s*(.-)%s*$")
    if kind then
      cur = { kind = kind, title = title, body = {}, first = n, last = n }
      out[#out + 1] = cur
    elseif cur and match(line, "^>") then
      cur.body[#cur.body + 1] = match(line, "^>%s?(.*)$")
      cur.last = n
    else
      cur = nil
    end
  end
  return out, n
end

-- the source line of `needle` at or after line `from` (the callout's header), else `from`
local function line_of(needle, from)
  local lines = source_lines()
  for i = from, #lines do
    if lines[i] == needle then return i end
  end
  return from
end

local function has_source(body, lang)
  for _, l in ipairs(body) do
    local item = l:gsub("^%s*[%-%d%.]*%s*", "", 1)
    for _, p in ipairs(SOURCE_LINE[lang]) do if match(item, p) then return true end end
  end
  return false
end

-- A text identical in both languages that a translation would change: three words or more of
-- Latin letters, outside `code`, fenced code and identifiers ("NVLink", "PCIe x16",
-- "torch.cuda.empty_cache()" or a formula are the same in both; "The memory bus of the GPU" is
-- English shown as Chinese).
local function untranslated(v)
  if type(v) ~= "table" or type(v.en) ~= "string" or v.en ~= v.zh then return false end
  local s = v.en:gsub("```.-```", " "):gsub("`[^`\n]*`", " ")
  local words = 0 -- an identifier (max_split_size_mb, torch.cuda.empty_cache()) is not a word
  for w in s:gmatch("%S+") do
    if match(w, "^[%(%[\"']*%a%a+[%)%]\"'%.,;:!?]*$") then words = words + 1 end
  end
  return words >= 3
end

-- Every { en, zh } text of a block, with its path in the block ("" for a text{} block itself).
local function texts(kind, b)
  local out = {}
  local function add(v, path) if type(v) == "table" then out[#out + 1] = { v = v, path = path } end end
  if kind == "text" then add(b, "")
  elseif kind == "experiment" then
    add(b.title, "title"); add(b.intro, "intro")
    for i, p in ipairs(b.panels or {}) do add(p.title, "panels." .. i .. ".title") end
  elseif kind == "exercise" then
    add(b.prompt, "prompt"); add(b.explain, "explain")
    for i, h in ipairs(b.hints or {}) do add(h, "hints." .. i) end
    for i, c in ipairs(b.choices or {}) do add(c, "choices." .. i) end
    for i, w in pairs(b.why or {}) do add(w, "why." .. i) end
    for i, k in ipairs(b.mistakes or {}) do if type(k) == "table" then add(k.say, "mistakes." .. i .. ".say") end end
  elseif kind == "lesson" then add(b.title, "title"); add(b.chapter_title, "chapter_title") end
  return out
end

-- The course rules beyond the loader, every finding: { sev, msg } with sev "error" (a mistake
-- in the lesson), "house" (a house rule of the course: its Sources; an error in the built-in
-- course, a warning for a teacher's lesson unless --strict) or "warn" (a text not translated:
-- a warning, an error with --strict).
local function lint(m, t, orig)
  local out = {}
  local function add(sev, msg, ...) out[#out + 1] = { sev = sev, msg = fmt(msg, ...) } end
  local last
  for i = 1, #t do
    local bm = META[rawget(orig, i)]
    if bm and bm.kind == "text" then
      last = { bm = bm, snap = t[i] }
      for _, lang in ipairs { "en", "zh" } do
        for _, c in ipairs(t[i][lang] and (callouts(t[i][lang])) or {}) do -- a draft lacks one
          if c.kind == "errata" and not has_source(c.body, lang) then
            add("house", "%s:%d: errata callout '%s' (%s) has no source: end it with a line '%s'",
                bm.file, line_of("> [!errata] " .. c.title, bm.line), c.title, lang,
                lang == "en" and "Source: ..." or "出处：……")
          end
        end
      end
    end
  end
  -- a text shown in English to a Chinese reader (or the reverse) is not translated
  local blocks = { { bm = m, b = t } }
  for i = 1, #t do blocks[#blocks + 1] = { bm = META[rawget(orig, i)], b = t[i] } end
  for _, x in ipairs(blocks) do
    if x.bm then
      for _, tx in ipairs(texts(x.bm.kind, x.b)) do
        if untranslated(tx.v) then
          local where = at(x.bm, tx.path ~= "" and tx.path .. ".zh" or "zh")
          local what = x.bm.kind .. (x.b.id and x.bm.kind ~= "lesson" and " '" .. x.b.id .. "'" or "")
          add("warn", "%s:%d: %s %s: the zh text is the en text (\"%s\"): translate it",
              where.file, where.line, what, tx.path ~= "" and tx.path or "text", tx.v.en:gsub("%s+", " "):sub(1, 60))
        end
      end
    end
  end
  if not last then
    add("house", "%s:%d: the lesson has no text{} to end with a Sources block", m.file, m.line)
  end
  -- a predict exercise is offered before the figure it asks for is shown: it may not come after
  -- every experiment of its lesson (an experiment, and the text after it, show what it measures)
  local experiments, predict = 0, nil
  for i = 1, #t do
    local bm = META[rawget(orig, i)]
    if bm and bm.kind == "experiment" then experiments, predict = experiments + 1, nil
    elseif bm and bm.kind == "exercise" and t[i].kind == "predict" and not predict then predict = { bm = bm, id = t[i].id } end
  end
  if predict and experiments > 0 then
    add("error", "%s:%d: predict exercise '%s' comes after every experiment of the lesson: offer it before the experiment that measures its figure (lesson-format.md, \"Exercises\")",
        predict.bm.file, predict.bm.line, predict.id)
  end
  for _, lang in ipairs(last and { "en", "zh" } or {}) do
    local text = (last.snap[lang] or "> [!source] -"):gsub("%s+$", "") -- a draft lacks one
    local cs, n = callouts(text)
    local c = cs[#cs]
    if not c or c.kind ~= "source" or c.last ~= n then
      add("house", "%s:%d: the lesson does not end with its Sources: the last text{} (%s) must end with a '> [!source] %s' callout",
          last.bm.file, last.bm.line, lang, lang == "en" and "Sources" or "出处")
      break
    end
  end
  return out
end

--- For `vramlab check`: what the course rules find in the last lesson loaded in this VM, a list
-- of { sev = "error" | "house" | "warn", msg = "file:line: what" } (see lint), a draft's "not
-- yet translated" among the warnings.
function M.lint()
  if LINT_ARGS then LINT, LINT_ARGS = lint(unpack(LINT_ARGS, 1, 3)), nil end
  local out = {}
  for i, f in ipairs(LINT or {}) do out[i] = f end
  if DRAFT then out[#out + 1] = { sev = "warn", msg = DRAFT } end
  return out
end

local REQUIRES = set { "host", "gpu", "cuda" }
M.lesson = constructor("lesson", function(m, t, orig)
  local allowed = set { "id", "chapter", "chapter_title", "title", "requires", "draft" }
  for k in pairs(t) do
    if type(k) == "string" and not allowed[k] then fail(at(m, k), "lesson: unknown field '%s'", k) end
  end
  if type(t.id) ~= "string" or not match(t.id, "^%d+%.%d+$") or #t.id > ID_MAX then fail(at(m, "id"), "lesson: 'id' must look like \"1.3\" (at most %d characters)", ID_MAX) end
  if type(t.chapter) ~= "number" or t.chapter < 1 or t.chapter > 9999 or t.chapter % 1 ~= 0 then fail(at(m, "chapter"), "lesson: 'chapter' must be a whole number from 1 to 9999") end
  if tostring(t.chapter) ~= match(t.id, "^(%d+)") then fail(at(m, "chapter"), "lesson: id '%s' is not in chapter %d", t.id, t.chapter) end
  check_lang(m, t.title, "lesson title", nil, "title")
  check_lang(m, t.chapter_title, "lesson chapter_title", nil, "chapter_title")
  -- a draft is written in one language; the other may be missing ("not yet translated")
  if t.draft ~= nil and t.draft ~= "en" and t.draft ~= "zh" then fail(at(m, "draft"), "lesson: 'draft' is the language the draft is written in, \"en\" or \"zh\"") end
  local other = { en = "zh", zh = "en" }
  for _, x in ipairs(loading.missing) do
    if t.draft == nil then
      fail(at(x.m, x.path), "%s has no %s text: give both languages, or mark the lesson a draft written in %s (draft = \"%s\" in lesson{})", x.what, x.lang, other[x.lang], other[x.lang])
    elseif x.lang == t.draft then
      fail(at(x.m, x.path), "%s has no %s text, the language this draft is written in", x.what, x.lang)
    end
  end
  if t.draft then
    local n = #loading.missing
    DRAFT = n > 0 and fmt("%s:%d: a draft in %s: %d text(s) not yet translated into %s (shown in %s, marked)", m.file, m.line, t.draft, n, other[t.draft], t.draft)
      or fmt("%s:%d: every text has both languages: remove draft = \"%s\"", m.file, m.line, t.draft)
  end
  if t.requires ~= nil then
    if type(t.requires) ~= "table" then fail(at(m, "requires"), "lesson: 'requires' must be a list such as { \"host\" }") end
    for _, r in ipairs(t.requires) do
      if not REQUIRES[r] then fail(at(m, "requires"), "lesson: unknown requirement '%s' (host, gpu, cuda)", tostring(r)) end
    end
  end
  if #t == 0 then fail(m, "lesson: no blocks (add text{...}, experiment{...} or exercise{...})") end
  local ids = {}
  for i = 1, #t do
    local b, ob = t[i], rawget(orig, i) -- the snapshot's copy of the block, the block itself
    local bm = type(ob) == "table" and META[ob]
    if not bm or bm.kind == "lesson" then
      fail(m, "lesson: block %d is not a text{}, experiment{} or exercise{}", i)
    end
    if not same(ob, bm.snap) then
      fail(bm, "%s changed after %s{} validated it (lesson data must be final when its constructor returns)", bm.kind, bm.kind)
    end
    if b.id then -- experiments and exercises share one name space: progress and recordings
      if ids[b.id] then
        local first = at(ids[b.id], "id")
        fail(at(bm, "id"), "%s id '%s' is used twice in this lesson (the %s at line %d has it)", bm.kind, b.id, ids[b.id].kind, first.line)
      end
      ids[b.id] = bm
    end
    BLOCKS[b] = bm -- the reference answers name exercises of the copy C reads
  end
  LINT_ARGS = { m, t, orig } -- the catalog loads every lesson; only `check` asks
end)

--- For C: the kind and line of a block / the lesson's own record.
function M.meta(t) return META[t] end

--- The `ex` object handed to experiment.run.
local Ex = {}
Ex.__index = Ex
Ex.__metatable = "locked"

-- error() at a level names the file by Lua's short_src, which cuts a long path to "...": an
-- `ex` mistake is reported at the lesson's full path, so that file:line can be opened
local function raise(level, msg)
  local info = getinfo(level + 1, "Sl")
  if info and info.currentline and info.currentline > 0 and info.source:sub(1, 1) == "@" then
    error(fmt("%s:%d: %s", info.source:sub(2), info.currentline, msg), 0)
  end
  error(msg, level + 1)
end

local function check_panel(self, panel)
  if not self.panels[panel] then
    raise(3, fmt("no panel '%s' in experiment '%s'", tostring(panel), self.id))
  end
end

-- The options each ex: call takes (docs/lesson-format.md, docs/writing-lessons.md): another is a
-- mistake a teacher would not see (a misspelt `stlye` is no style), so it raises at the call.
local EX_OPTS = {
  bar = set { "from", "style", "unit", "peak" },
  point = set { "from", "style" },
  gauge = set { "from", "style", "unit" },
  mark = set { "from", "style" },
  limit = set { "from", "style", "unit" },
  span = set { "from", "style", "kind", "n", "total" },
  block = set { "owner", "state", "bytes", "seg" }, -- an ex:map block
}
local function check_opts(opts, method, what)
  if opts == nil then return end
  if type(opts) ~= "table" then raise(3, fmt("ex:%s: %s must be a table such as { from = r }", method, what or "the options")) end
  local allowed = EX_OPTS[what and "block" or method]
  for k in pairs(opts) do
    if not allowed[k] then
      local names = {}
      for a in pairs(allowed) do names[#names + 1] = a end
      sort(names)
      raise(3, fmt("ex:%s: unknown %s '%s'%s (%s: %s)", method, what and "field of a block" or "option", tostring(k),
                   mean(k, names), what and "fields" or "options", concat(names, ", ")))
    end
  end
end

local STYLES = set { "measured", "simulated", "theoretical", "reference" }
-- The style says how a value was obtained. `from = result` takes it from a measurement's own
-- `simulated` flag; with neither, a value follows the backend (SIMULATED on the simulator), so a
-- model is never passed off as a measurement by default.
local function style(opts, self)
  local s = opts and opts.style
  if not s and opts and type(opts.from) == "table" then s = opts.from.simulated and "simulated" or "measured" end
  s = s or (self.simulated and "simulated" or "measured")
  if not STYLES[s] then raise(3, "style must be measured, simulated, theoretical or reference") end
  return s
end

-- opts.peak: the theoretical peak this bar is measured against, drawn as a marker on its row
function Ex:bar(panel, label, value, opts)
  check_panel(self, panel)
  check_opts(opts, "bar")
  local peak = opts and opts.peak
  if peak ~= nil and not (type(peak) == "number" and peak > 0 and peak < huge) then error("peak must be a positive number", 2) end
  emit { type = "bar", panel = panel, series = tostring(label), value = value, style = style(opts, self),
         unit = opts and opts.unit or self.panels[panel].unit, max = peak }
end
function Ex:point(panel, series, x, y, opts)
  check_panel(self, panel)
  check_opts(opts, "point")
  -- the panel's axis labels go with each point: a recording's results then give x and y their units
  local def = self.panels[panel]
  emit { type = "point", panel = panel, series = tostring(series), x = x, y = y, style = style(opts, self),
         text = def.x, unit = def.y }
end
local function finite(v, what, method)
  if type(v) ~= "number" or v ~= v or v == huge or v == -huge then raise(3, fmt("ex:%s: %s must be a finite number", method, what)) end
end
-- What a curve's section is about, on the curve: a labelled point (n½, a knee, a peak), drawn
-- with a guide down to the x axis and its values listed under the legend
function Ex:mark(panel, label, x, y, opts)
  check_panel(self, panel)
  check_opts(opts, "mark")
  finite(x, "x", "mark") finite(y, "y", "mark")
  emit { type = "mark", panel = panel, series = tostring(label), x = x, y = y, style = style(opts, self) }
end
-- A labelled stretch of a curve's x axis, x0 to x1 (the phases of a step)
function Ex:band(panel, label, x0, x1)
  check_panel(self, panel)
  finite(x0, "x0", "band") finite(x1, "x1", "band")
  emit { type = "band", panel = panel, series = tostring(label), x = x0, max = x1 }
end
-- A line across a bars panel at value (a device's capacity): each bar fits under it or not
function Ex:limit(panel, label, value, opts)
  check_panel(self, panel)
  check_opts(opts, "limit")
  finite(value, "value", "limit")
  emit { type = "limit", panel = panel, series = tostring(label), value = value, style = style(opts, self),
         unit = opts and opts.unit or self.panels[panel].unit }
end
-- A row or a map larger than the panels keep is the lesson's error, said where it calls
local function check_items(what, n)
  if n > EVENT.max_items then raise(3, fmt("%s: %d %s; at most %d", what, n, what == "ex:row" and "cells" or "blocks", EVENT.max_items)) end
end
function Ex:row(panel, cells)
  check_panel(self, panel)
  local out = {}
  for i, c in ipairs(cells) do out[i] = tostring(c) end
  check_items("ex:row", #out)
  emit { type = "row", panel = panel, cells = out }
end
function Ex:gauge(panel, label, value, max, opts)
  check_panel(self, panel)
  check_opts(opts, "gauge")
  emit { type = "gauge", panel = panel, series = tostring(label), value = value, max = max,
         unit = opts and opts.unit or self.panels[panel].unit, style = style(opts, self) }
end
-- blocks: { owner =, state = "allocated"|"cached"|"free"|"used", bytes =, seg = }, read as they
-- are (typed: no text in between that a reader would have to parse back)
function Ex:map(panel, blocks, total)
  check_panel(self, panel)
  local out = {}
  for i, b in ipairs(blocks) do
    if type(b) ~= "table" then raise(2, fmt("ex:map: block %d is not a table", i)) end
    check_opts(b, "map", "block " .. i)
    if b.state ~= nil and not EVENT.states[b.state] then raise(2, fmt("ex:map: block %d: state '%s' (one of %s)", i, tostring(b.state), STATE_NAMES)) end
    out[i] = { owner = b.owner ~= nil and tostring(b.owner) or "?", state = b.state or "allocated",
               bytes = type(b.bytes) == "number" and b.bytes or 0, seg = math.type(b.seg) == "integer" and b.seg or nil }
  end
  check_items("ex:map", #out)
  emit { type = "map", panel = panel, blocks = out, value = total }
end
-- A span of time on a timeline panel: lane (an engine or a stream) busy from t0 to t1 seconds;
-- opts.kind is its legend entry (default: the lane), opts.n the item it works on (a chunk, a
-- batch: drawn in the bar), opts.total the run's length (the axis's end, so that a run revealed
-- step by step keeps its scale). Lanes, kinds and spans are counted per panel until ex:clear.
local TL = EVENT.timeline
function Ex:span(panel, lane, t0, t1, opts)
  check_panel(self, panel)
  local kind = self.panels[panel].kind
  if kind ~= "timeline" then raise(2, fmt("ex:span: panel '%s' is a %s panel; a span goes on a timeline panel", tostring(panel), tostring(kind))) end
  check_opts(opts, "span")
  if lane == nil or lane == "" then raise(2, "ex:span: the lane (an engine or a stream) is missing") end
  local function time(v, what)
    if type(v) ~= "number" or v ~= v or v < 0 or v == huge then raise(3, fmt("ex:span: %s must be a time in seconds, 0 or more (got %s)", what, tostring(v))) end
  end
  time(t0, "the start") time(t1, "the finish")
  if t1 < t0 then raise(2, fmt("ex:span: the finish (%s s) is before the start (%s s)", tostring(t1), tostring(t0))) end
  opts = opts or {}
  local n = opts.n
  if n ~= nil and not (math.type(n) == "integer" and n >= 0 and n < 1e9) then raise(2, "ex:span: n (the chunk or batch) must be a whole number, 0 or more") end
  local total = opts.total
  if total ~= nil and not (type(total) == "number" and total > 0 and total < huge) then raise(2, "ex:span: total (the run's length) must be a positive number of seconds") end
  lane = tostring(lane)
  local k = opts.kind ~= nil and tostring(opts.kind) or lane
  local st = self.tl[panel]
  if not st then st = { lanes = {}, kinds = {}, nl = 0, nk = 0, n = 0 }; self.tl[panel] = st end
  local function count(set_, key, field, max, what)
    if set_[key] then return end
    if st[field] == max then raise(3, fmt("ex:span: %d %s in panel '%s'; at most %d", max + 1, what, panel, max)) end
    set_[key] = true
    st[field] = st[field] + 1
  end
  count(st.lanes, lane, "nl", TL.lanes, "lanes")
  count(st.kinds, k, "nk", TL.kinds, "kinds")
  if st.n == TL.spans then raise(2, fmt("ex:span: %d spans in panel '%s'; at most %d (ex:clear starts again)", TL.spans + 1, panel, TL.spans)) end
  st.n = st.n + 1
  emit { type = "span", panel = panel, series = lane, text = k, x = t0, y = t1, value = n or -1, max = total or 0,
         style = style(opts, self) }
end
function Ex:note(panel, text)
  check_panel(self, panel)
  emit { type = "note", panel = panel, text = tostring(text) }
end
function Ex:status(text) emit { type = "status", text = tostring(text) } end
function Ex:clear(panel)
  check_panel(self, panel)
  self.tl[panel] = nil
  emit { type = "clear", panel = panel }
end
function Ex:pause(seconds)
  if type(seconds) ~= "number" then error("ex:pause(seconds) needs a number", 2) end
  pause(seconds)
end
function Ex:t(v)
  if type(v) ~= "table" then return tostring(v) end
  -- the pair is kept: the tutor can show the results in the other language without a new run
  if tr and type(v.en) == "string" and type(v.zh) == "string" then tr(v.en, v.zh) end
  return v[self.lang] or v.en or v.zh
end

function M.new_ex(exp, lang, simulated)
  local panels = {}
  for _, p in ipairs(exp.panels) do panels[p.id] = p end
  return setmetatable({ id = exp.id, lang = lang, panels = panels, simulated = simulated, tl = {} }, Ex)
end

--- Grading. Returns ok, feedback (in lang). `simulated` is the simulated device's name (its
-- profile), or false on a real GPU.
local function pick(v, lang) return type(v) == "table" and (v[lang] or v.en or v.zh) or tostring(v) end

local TXT = {
  right = { en = "Right.", zh = "答对了。" },
  wrong = { en = "Not quite.", zh = "还不对。" },
  choose = { en = "Type a number from 1 to %d.", zh = "请输入 1 到 %d 之间的数字。" },
  reveal = { en = "The answer: ", zh = "答案：" },
  measured = { en = "Measured on this machine: %s %s (measured). Your prediction: %s %s.", zh = "本机实测：%s %s（实测）。你的预测：%s %s。" },
  simulated = { en = "Simulated (%s profile): %s %s. Your prediction: %s %s.", zh = "模拟（%s 配置）：%s %s。你的预测：%s %s。" },
  model = { en = "Computed by vramlab's allocator model (the same on every machine): %s %s. Your prediction: %s %s.",
            zh = "由 vramlab 的分配器模型算出（在任何机器上都一样）：%s %s。你的预测：%s %s。" },
  close_measured = { en = "Within %d%% of the measurement.", zh = "与实测相差不到 %d%%。" },
  close_simulated = { en = "Within %d%% of the simulated figure.", zh = "与模拟值相差不到 %d%%。" },
  close_model = { en = "Within %d%% of the model's figure.", zh = "与模型算出的值相差不到 %d%%。" },
  code_err = { en = "Your code has an error: %s", zh = "你的代码有错误：%s" },
  broken = { en = "This exercise is broken, tell your teacher: %s (this try does not count)",
             zh = "这道练习本身有错误，请告诉老师：%s（这次不算作答）" },
  no_entry = { en = "Define a function named '%s'.", zh = "请定义名为“%s”的函数。" },
}

local function t(key, lang, ...) return fmt(TXT[key][lang] or TXT[key].en, ...) end

-- An answer's error as text, never through its metamethods (an error object whose __tostring
-- says "Right." must not write the feedback).
local function errtext(e)
  if type(e) == "string" then return e end
  return "error object is a " .. type(e) .. " value"
end

-- What an answer hands to the check is plain data: tables without metatables (copied, so the
-- answer cannot change them later), functions guarded in turn; a table with __eq, __lt or
-- __tostring could otherwise make any comparison in the check come out right.
local guard
-- The last error the learner's function raised (through guard): an error of the check that is not
-- this one is the check's own, the teacher's mistake, not the learner's.
local LEARNER_ERR
local function learner_error(msg)
  LEARNER_ERR = msg
  error(msg, 0)
end
local function clean(v, seen, depth)
  local ty = type(v)
  if ty == "function" then return guard(v) end
  if ty == "thread" then learner_error("your function returned a coroutine: an answer returns plain values") end
  if ty ~= "table" then return v end
  if getmt(v) ~= nil then learner_error("your function returned a table with a metatable: an answer returns plain values") end
  if seen[v] then return seen[v] end
  if depth > 32 then learner_error("your function returned tables nested deeper than 32") end
  local c = {}
  seen[v] = c
  for k, x in next, v do c[clean(k, seen, depth + 1)] = clean(x, seen, depth + 1) end
  return c
end

-- fn as the check sees it: errors become plain text, results plain data, and an argument table
-- the answer gave a metatable is refused.
guard = function(fn)
  return function(...)
    local args, plain = pack(...), {}
    for i = 1, args.n do
      if type(args[i]) == "table" and getmt(args[i]) == nil then plain[#plain + 1] = args[i] end
    end
    local r = pack(pcall(fn, ...))
    if not r[1] then learner_error(errtext(r[2])) end
    for _, a in ipairs(plain) do
      if getmt(a) ~= nil then learner_error("your function set a metatable on its argument") end
    end
    local seen = {}
    for i = 2, r.n do r[i] = clean(r[i], seen, 0) end
    return unpack(r, 2, r.n)
  end
end

-- What the last grading found beyond ok and its feedback, for C (lt_lesson_answer_info): the kind
-- of mistake a wrong number or predict answer is (grading.kind), the exercise's own error when
-- its checking code raised (broken: not the learner's mistake, not a try), the mistake's words
-- in both languages without the hint (an exam's results), a predict's figure and its label.
local LAST = {}
function M.last() return LAST end

-- The lesson's own code (a check, a measure) raised `e`: the learner is told the exercise is
-- broken, with where, and the try does not count.
local function broken(ex, e, lang, field)
  e = errtext(e)
  if not match(e, "^[^\n]-:%d+: ") then
    local bm = BLOCKS[ex] and at(BLOCKS[ex], field)
    if bm then e = fmt("%s:%d: exercise '%s': %s", bm.file, bm.line, ex.id, e) end
  end
  LAST.broken = e
  return nil, t("broken", lang, e)
end

function M.grade(ex, input, lang, tries, simulated)
  lang = lang == "zh" and "zh" or "en"
  input = tostring(input or ""):match("^%s*(.-)%s*$")
  LAST = {}
  local ok, detail
  if ex.kind == "choice" then
    local n = tonumber(input)
    if not n or n % 1 ~= 0 or n < 1 or n > #ex.choices then return nil, t("choose", lang, #ex.choices) end
    ok = n == ex.answer
    if not ok and ex.why and ex.why[n] then detail = pick(ex.why[n], lang) end
    if not ok then
      LAST.mistake = fmt("choice %d", n)
      LAST.detail = ex.why and ex.why[n] and { en = pick(ex.why[n], "en"), zh = pick(ex.why[n], "zh") } or nil
    end
  elseif ex.kind == "number" then
    local v, how = grading.read(ex, input, lang)
    if not v then return nil, how end
    local tol = ex.tolerance or 0.02
    ok = grading.right(v, how, ex.answer, tol)
    if not ok then
      detail = grading.explain(ex, v, how, ex.answer, tol, lang)
      LAST.mistake = grading.kind(ex, v, how, ex.answer, tol)
      LAST.detail = { en = grading.explain(ex, v, how, ex.answer, tol, "en"), zh = grading.explain(ex, v, how, ex.answer, tol, "zh") }
    end
  elseif ex.kind == "predict" then
    local v, how = grading.read(ex, input, lang)
    if not v then return nil, how end
    -- measured once: a later try is graded against the figure the feedback showed, not a new
    -- measurement that may differ by the machine's noise
    local m = MEASURED[ex]
    if not m then
      local okm, value, from = pcall(ex.measure)
      if not okm then return broken(ex, value, lang, "measure") end
      if type(value) ~= "number" or value ~= value then
        return broken(ex, fmt("measure() must return a number, not %s", type(value) == "number" and "nan" or type(value)), lang, "measure")
      end
      -- the label follows the figure: host numbers are real even on the simulator; "model" is
      -- vramlab's allocator on a model device, the same everywhere; `simulated` names the profile
      local how = simulated and "simulated" or "measured"
      if type(from) == "table" then how = from.simulated and "simulated" or "measured"
      elseif type(from) == "boolean" then how = from and "simulated" or "measured"
      elseif from == "model" then how = "model" end
      m = { value = value, how = how, profile = type(simulated) == "string" and simulated or "simulator" }
      MEASURED[ex] = m
    end
    local measured = m.value
    local tol = ex.tolerance or 0.5
    ok = grading.right(v, how, measured, tol)
    LAST.figure, LAST.how, LAST.profile = measured, m.how, m.profile
    if not ok then
      LAST.mistake = grading.kind(ex, v, how, measured, tol)
      LAST.detail = { en = grading.explain(ex, v, how, measured, tol, "en"), zh = grading.explain(ex, v, how, measured, tol, "zh") }
    end
    local fig, unit, guess = fmt("%.4g", measured), ex.unit or "", fmt("%.4g", v)
    if m.how == "simulated" then detail = t("simulated", lang, m.profile, fig, unit, guess, unit)
    else detail = t(m.how, lang, fig, unit, guess, unit) end
    if ok then detail = detail .. " " .. t("close_" .. m.how, lang, math.floor(tol * 100 + 0.5))
    else
      local say = grading.explain(ex, v, how, measured, tol, lang)
      if say then detail = detail .. (lang == "zh" and "" or " ") .. say end
    end
  elseif ex.kind == "code" then
    -- The answer runs in an environment of its own (fresh copies of the libraries and modules,
    -- its own _G): nothing it does reaches the lesson's globals, the check's helpers or the
    -- lesson VM after this grading.
    local env = answer_env()
    local chunk, err = load(input, "=answer", "t", env)
    LAST.mistake = "error"
    if not chunk then return false, t("code_err", lang, err) end
    local okrun, rerr = pcall(chunk)
    if not okrun then return false, t("code_err", lang, errtext(rerr)) end
    local fn = rawget(env, ex.entry)
    LAST.mistake = "no_entry"
    if type(fn) ~= "function" then return false, t("no_entry", lang, ex.entry) end
    LAST.mistake = nil
    LEARNER_ERR = nil
    local okc, res, msg = pcall(ex.check, guard(fn))
    if not okc and (LEARNER_ERR == nil or res ~= LEARNER_ERR) then return broken(ex, res, lang, "check") end
    if not okc then ok, detail = false, t("code_err", lang, errtext(res))
    else ok, detail = res and true or false, msg and pick(msg, lang) or nil end
    if not ok then
      LAST.detail = { en = okc and msg and pick(msg, "en") or t("code_err", "en", errtext(res)),
                      zh = okc and msg and pick(msg, "zh") or t("code_err", "zh", errtext(res)) }
      LAST.mistake = okc and "wrong_result" or "error"
    end
  end
  -- a sentence that may end without a full stop (a check's message, a choice's text, the
  -- answer's figure) must not run into the next one
  local function sentence(x)
    x = x:gsub("%s+$", "")
    if not x:find("[%.!?%)。！？）]$") then x = x .. (lang == "zh" and "。" or ".") end
    return x
  end
  local parts = { t(ok and "right" or "wrong", lang) }
  if detail then parts[#parts + 1] = sentence(detail) end
  if ok or tries + 1 >= 3 then
    if not ok and ex.kind == "choice" then parts[#parts + 1] = sentence(t("reveal", lang) .. pick(ex.choices[ex.answer], lang)) end
    if not ok and ex.kind == "number" then parts[#parts + 1] = sentence(t("reveal", lang) .. fmt("%.4g %s", ex.answer, ex.unit or "")) end
    parts[#parts + 1] = pick(ex.explain, lang)
  else
    parts[#parts + 1] = pick(ex.hints[(tries % #ex.hints) + 1], lang)
  end
  return ok, concat(parts, lang == "zh" and "" or " ") -- Chinese sentences need no space
end

--- For `vramlab check --run`: a predict exercise's measure() run once, and its figure held to the
-- exercise's unit. A figure that is a field of the result it returns (r.bytes_per_s / 1e6) in
-- another scale (MB/s for a GB/s question) or of another kind (a latency for a rate) would grade a
-- learner's right prediction wrong: it is reported. The result is the one measure() returns
-- beside its figure, or any a gpu.* or host.* call returned while it ran (wrapped for that run). Returns nil and "" (sound, or nothing to
-- compare: a computed figure, a ratio), or nil and "file:line: what".
local SCALES = {
  rate = { { "B/s", 1 }, { "KB/s", 1e3 }, { "MB/s", 1e6 }, { "GB/s", 1e9 }, { "TB/s", 1e12 }, { "KiB/s", 2^10 },
           { "MiB/s", 2^20 }, { "GiB/s", 2^30 }, { "TiB/s", 2^40 }, { "Mb/s", 1e6 / 8 }, { "Gb/s", 1e9 / 8 } },
  size = { { "B", 1 }, { "KB", 1e3 }, { "MB", 1e6 }, { "GB", 1e9 }, { "TB", 1e12 }, { "KiB", 2^10 }, { "MiB", 2^20 },
           { "GiB", 2^30 }, { "TiB", 2^40 } },
  time = { { "s", 1 }, { "ms", 1e-3 }, { "us", 1e-6 }, { "ns", 1e-9 } },
}
local RESULT_FIELDS = { -- a result's figures: kind, and what one of its units is in the base unit
  { "bytes_per_s", "rate", 1 }, { "rw_bytes_per_s", "rate", 1 }, { "median_bytes_per_s", "rate", 1 },
  { "bytes", "size", 1 }, { "moved_bytes", "size", 1 }, { "footprint_bytes", "size", 1 },
  { "seconds", "time", 1 }, { "median_seconds", "time", 1 }, { "ns_per_load", "time", 1e-9 },
  { "median_ns_per_load", "time", 1e-9 }, { "total_bytes", "size", 1 }, { "free_bytes", "size", 1 },
  { "peak_reserved", "size", 1 }, { "peak_allocated", "size", 1 },
}
local KIND_WORD = { rate = "a rate", size = "a size", time = "a time" }
function M.measure_check(ex)
  local bm = BLOCKS[ex]
  local where = bm and at(bm, "measure") or { file = "?", line = 0 }
  local function say(msg, ...) return nil, fmt("%s:%d: exercise '%s': " .. msg, where.file, where.line, ex.id, ...) end
  -- the results the experiments return while measure() runs: a figure taken from one of them is
  -- held to the unit even when measure() does not return that result beside it
  local seen, wrapped = {}, {}
  local env = debug.getregistry()["lt.env"] -- the lesson VM's environment, where measure() runs
  for i = 1, math.huge do
    local n, v = debug.getupvalue(ex.measure, i)
    if not n then break end
    if n == "_ENV" and type(v) == "table" then env = v break end
  end
  for _, name in ipairs { "gpu", "host" } do
    local m = type(env) == "table" and rawget(env, name)
    if type(m) == "table" then
      for k, f in pairs(m) do
        if type(f) == "function" then
          wrapped[#wrapped + 1] = { m, k, f }
          m[k] = function(...)
            local res = pack(f(...))
            if type(res[1]) == "table" then seen[#seen + 1] = res[1] end
            return unpack(res, 1, res.n)
          end
        end
      end
    end
  end
  local ok, value, r = pcall(ex.measure)
  for _, w in ipairs(wrapped) do w[1][w[2]] = w[3] end
  if not ok then return say("measure() raised: %s", errtext(value)) end
  if type(value) ~= "number" or value ~= value then return say("measure() returns %s, not a number", tostring(value)) end
  local u = grading.unit_of(ex)
  if not SCALES[u.kind] or value == 0 then return nil, "" end
  local results = { type(r) == "table" and r or nil }
  for i = #seen, 1, -1 do if seen[i] ~= r then results[#results + 1] = seen[i] end end
  for _, res in ipairs(results) do
    for _, f in ipairs(RESULT_FIELDS) do
      local c = rawget(res, f[1])
      if type(c) == "number" and c ~= 0 then
        local base = c * f[3]
        for _, sc in ipairs(SCALES[f[2]]) do
          if abs(value - base / sc[2]) <= 1e-9 * abs(value) then
            if f[2] ~= u.kind then
              return say("measure() returns r.%s (%s, in %s) for a question in %s (%s): the figure and the unit are not the same kind",
                         f[1], KIND_WORD[f[2]], sc[1], ex.unit, KIND_WORD[u.kind])
            end
            if abs(sc[2] - u.one) > 1e-9 * u.one then
              return say("measure() returns r.%s in %s (r.%s / %.6g), but the exercise's unit is %s: a right prediction would be graded %.4gx off (return the figure in %s: r.%s / %.6g)",
                         f[1], sc[1], f[1], sc[2] / f[3], ex.unit, u.one / sc[2] >= 1 and u.one / sc[2] or sc[2] / u.one, ex.unit, f[1], u.one / f[3])
            end
            return nil, ""
          end
        end
      end
    end
  end
  return nil, ""
end

--- Reference answers (docs/lesson-format.md, "Reference answers"): the file beside a lesson,
-- N.M-slug.answers.lua, a list of `answer "exercise-id" { right = ..., wrong = ... }`. Returns
-- the cases `vramlab check --answers` grades, in lesson order: {block = (0-based), line =,
-- input =, right = true|false (nil: a predict's figure), says =, figure =, what =}; or nil and
-- a list of "file:line: what". `lesson` is the snapshot C reads, `lfile` its file.
local FIGURES = set { "measured", "simulated", "model" }
function M.answers(src, file, lesson, lfile)
  local errs, by_id, exercises = {}, {}, {}
  local function bad(line, msg, ...) errs[#errs + 1] = fmt("%s:%d: " .. msg, file, line, ...) end
  for i = 1, #lesson do
    local bm = BLOCKS[lesson[i]]
    if bm and bm.kind == "exercise" then
      exercises[#exercises + 1] = { block = i - 1, ex = lesson[i], line = bm.line }
      by_id[lesson[i].id] = exercises[#exercises]
    end
  end
  local function names()
    local l = {}
    for _, e in ipairs(exercises) do l[#l + 1] = e.ex.id end
    return #l > 0 and concat(l, ", ") or "none"
  end
  local function list(v) return type(v) == "string" and { v } or v end
  local env = {}
  env.answer = function(id)
    local line = getinfo(2, "l").currentline
    return function(t)
      local e = by_id[id]
      if type(id) ~= "string" or type(t) ~= "table" then
        return bad(line, "write answer \"exercise-id\" { right = ..., wrong = ... }")
      end
      if not e then
        local ids = {}
        for _, x in ipairs(exercises) do ids[#ids + 1] = x.ex.id end
        return bad(line, "lesson %s has no exercise '%s'%s (its exercises: %s)", lesson.id, id, mean(id, ids), names())
      end
      if e.answers then return bad(line, "exercise '%s' has answers already (line %d)", id, e.answers.line) end
      e.answers = { line = line } -- filled in below when valid (else the error above is the one)
      for k in pairs(t) do
        if k ~= "right" and k ~= "wrong" and k ~= "figure" then
          return bad(line, "answer '%s': unknown field '%s'%s (fields: figure, right, wrong)", id, tostring(k),
                     mean(k, { "figure", "right", "wrong" }))
        end
      end
      -- one answer alone, or a list: "x", { "x", says = "..." }, { "x", { "y", says = "..." } }
      local right = list(t.right)
      local wrong = (type(t.wrong) == "table" and t.wrong.says ~= nil) and { t.wrong } or list(t.wrong)
      if e.ex.kind == "predict" then
        if right ~= nil or not FIGURES[t.figure] then
          return bad(line, "answer '%s': a predict exercise's right answer is the figure it measures: give figure = \"measured\", \"simulated\" or \"model\" (where that figure comes from on the simulator) and wrong guesses, no 'right'", id)
        end
      else
        if t.figure ~= nil then return bad(line, "answer '%s': 'figure' is for predict exercises", id) end
        if type(right) ~= "table" or #right == 0 then return bad(line, "answer '%s': give at least one right answer (right = \"...\")", id) end
        for i, r in pairs(right) do
          if type(r) ~= "string" or type(i) ~= "number" then return bad(line, "answer '%s': right answers are strings, as a learner types them", id) end
        end
      end
      if type(wrong) ~= "table" or #wrong == 0 then
        return bad(line, "answer '%s': give at least one wrong answer, a real mistake (wrong = { { \"...\", says = \"the feedback\" } })", id)
      end
      for i, w in pairs(wrong) do
        local ok = type(i) == "number" and (type(w) == "string" or (type(w) == "table" and type(w[1]) == "string"
          and (w.says == nil or type(w.says) == "string") and #w == 1))
        if ok and type(w) == "table" then for k in pairs(w) do ok = ok and (k == 1 or k == "says") end end
        if not ok then return bad(line, "answer '%s': wrong answer %s must be a string or { \"answer\", says = \"part of its feedback\" }", id, tostring(i)) end
      end
      e.answers = { line = line, right = right, wrong = wrong, figure = t.figure }
    end
  end
  local chunk, err = load(src, "@" .. file, "t", env)
  if not chunk then return nil, { err } end
  local ok, rerr = pcall(chunk)
  if not ok then return nil, { type(rerr) == "string" and rerr or file .. ":1: error object is not a string" } end
  local cases = {}
  for _, e in ipairs(exercises) do
    local a = e.answers
    if not a then
      errs[#errs + 1] = fmt("%s:%d: exercise '%s' has no reference answers in %s", lfile, e.line, e.ex.id, file)
    elseif #errs == 0 then
      local function add(input, right, what, says)
        cases[#cases + 1] = { block = e.block, line = a.line, input = input, right = right, what = what, says = says, figure = a.figure }
      end
      for i, w in ipairs(a.wrong) do
        if type(w) == "table" then add(w[1], false, fmt("wrong answer %d", i), w.says)
        else add(w, false, fmt("wrong answer %d", i)) end
      end
      if e.ex.kind == "predict" then add(nil, nil, "the measured figure")
      else for i, r in ipairs(a.right) do add(r, true, fmt("right answer %d", i)) end end
    end
  end
  -- the tolerance audit (grading.audit): generated answers every number exercise must grade as
  -- a careful teacher would, reported at the exercise's line in the lesson
  for _, e in ipairs(#errs == 0 and exercises or {}) do
    if e.ex.kind == "number" then
      for _, c in ipairs(grading.audit(e.ex)) do
        cases[#cases + 1] = { block = e.block, line = e.line, file = lfile, input = c.input, right = c.right,
                              what = fmt("exercise '%s': audit: %s", e.ex.id, c.what),
                              says = c.says and c.says.en, says_zh = c.says and c.says.zh, audit = true }
      end
    end
  end
  if #errs > 0 then return nil, errs end
  return cases
end

--- For `check --answers`: a predict exercise's figure as its feedback shows it, and where it came
-- from ("measured", "simulated", "model"); nil before a grading measured it.
function M.figure(ex)
  local m = MEASURED[ex]
  if not m then return nil end
  return fmt("%.4g", m.value), m.how
end

--- `vramlab new-lesson`: a lesson that passes `check --run --answers` as written, and its answers
-- file. lang nil: both languages; "en" or "zh": a draft in that language, the other missing.
-- Returns the lesson's source, the answers' source and the file name's slug.
function M.scaffold(id, title, lang)
  local ch = match(id, "^(%d+)%.%d+$")
  local slug = title:lower():gsub("[^%w]+", "-"):gsub("^%-+", ""):gsub("%-+$", ""):sub(1, 40):gsub("%-+$", "")
  if slug == "" then slug = "lesson" end
  local function q(str) return fmt("%q", str) end
  -- a { en =, zh = } table as source: one language only in a draft
  local function L(en, zh, long)
    local function one(v)
      if not long then return q(v) end
      local eq = ""
      while v:find("]" .. eq .. "]", 1, true) do eq = eq .. "=" end
      return "[" .. eq .. "[\n" .. v .. "]" .. eq .. "]"
    end
    if lang == "en" then return "{ en = " .. one(en) .. " }" end
    if lang == "zh" then return "{ zh = " .. one(zh) .. " }" end
    return "{ en = " .. one(en) .. ", zh = " .. one(zh) .. " }"
  end
  local en_text = fmt([[
# %s

What this section teaches, in a few short paragraphs. Markup: **emphasis**, `code`, lists, tables
and callouts (docs/lesson-format.md). Predict first: the exercise below asks for a figure before
the experiment measures it.
]], title)
  local zh_text = fmt([[
# %s

本节要讲的内容，写几段短文即可。标记：**强调**、`代码`、列表、表格和提示框（见 docs/lesson-format.md）。
先预测：下面的练习先请学习者估一个数，再由实验测量。
]], title)
  local src = {
    -- the title never goes into a comment (a CR would end it there): only into strings below
    fmt("-- Lesson %s: made by `vramlab new-lesson` (docs/writing-lessons.md). Edit the text, the experiment\n", id),
    "-- and the exercises, then: vramlab --lessons DIR check --run --answers " .. id .. "\n",
    "return lesson {\n",
    fmt("  id = %q,\n  chapter = %s,\n", id, ch),
    fmt("  chapter_title = %s,\n", L("Chapter " .. ch, "第 " .. ch .. " 章")),
    fmt("  title = %s,\n", L(title, title)),
    "  requires = { \"gpu\" },\n",
    lang and fmt("  draft = %q, -- written in %s only: the other language shows \"not yet translated\"\n", lang, lang) or "",
    "\n  text " .. L(en_text, zh_text, true) .. ",\n\n",
    [[
  exercise {
    id = "predict", kind = "predict",
    prompt = ]] .. L("Before you run the experiment: predict the bandwidth of a 64 MiB host-to-device copy, in GB/s.",
                     "运行实验之前，先预测：64 MiB 的主机到设备拷贝带宽是多少 GB/s？") .. [[,
    unit = "GB/s",
    measure = function()
      local r = assert(gpu.copy { dir = "h2d", bytes = "64MiB" })
      return r.bytes_per_s / 1e9, r -- in `unit`; r labels the figure (measured or SIMULATED)
    end,
    hints = { ]] .. L("The copy crosses the PCIe link: what is its peak (gpu.info().pcie_bytes_per_s)?",
                      "拷贝要经过 PCIe 链路：它的峰值是多少（gpu.info().pcie_bytes_per_s）？") .. [[ },
    explain = ]] .. L("A large pinned copy reaches about 80-90 % of the PCIe link's peak per direction.",
                      "大块的锁页拷贝大约能达到 PCIe 单向峰值的 80-90 %。") .. [[,
  },

  experiment {
    id = "copy",
    title = ]] .. L("Host-to-device copies by size", "按大小的主机到设备拷贝") .. [[,
    intro = ]] .. L("Copies of 1 MiB to 64 MiB, host to device: where does the curve flatten?",
                    "从 1 MiB 到 64 MiB 的主机到设备拷贝：曲线在哪里变平？", true) .. [[,
    panels = {
      { id = "bw", kind = "curve", title = ]] .. L("Bandwidth by size", "带宽与大小") .. [[,
        x = "bytes", y = "GB/s", logx = true },
    },
    run = function(ex)
      for _, size in ipairs { "1MiB", "4MiB", "16MiB", "64MiB" } do
        local r = assert(gpu.copy { dir = "h2d", bytes = size })
        ex:point("bw", "h2d", units.parse(size), r.bytes_per_s / 1e9, { from = r })
      end
    end,
  },

  exercise {
    id = "link", kind = "choice",
    prompt = ]] .. L("Which link does a host-to-device copy cross?", "主机到设备的拷贝经过哪条链路？") .. [[,
    choices = {
      ]] .. L("NVLink", "NVLink") .. [[,
      ]] .. L("PCIe", "PCIe") .. [[,
      ]] .. L("The GPU's memory bus (HBM or GDDR)", "GPU 的显存总线（HBM 或 GDDR）") .. [[,
    },
    answer = 2,
    why = { [1] = ]] .. L("NVLink connects GPUs to each other (and to a few CPUs); a PC's GPU talks to the host over PCIe.",
                          "NVLink 连接 GPU 与 GPU（以及少数 CPU）；普通机器上 GPU 经 PCIe 与主机通信。") .. [[ },
    hints = { ]] .. L("What is the card plugged into?", "显卡插在什么插槽上？") .. [[ },
    explain = ]] .. L("Host memory reaches the GPU over PCIe; the memory bus only connects the GPU to its own VRAM.",
                      "主机内存经 PCIe 到达 GPU；显存总线只连接 GPU 和它自己的显存。") .. [[,
  },

  exercise {
    id = "time", kind = "number",
    prompt = ]] .. L("How many ms does a 1 GiB copy take at 25 GB/s?", "以 25 GB/s 拷贝 1 GiB 需要多少毫秒？") .. [[,
    answer = 2^30 / 25e9 * 1e3, unit = "ms", tolerance = 0.02,
    mistakes = { "gib_gb", "x1000" },
    hints = { ]] .. L("Time = bytes / (bytes per second); 1 GiB is 2^30 bytes, 1 GB/s is 10^9 B/s.",
                      "时间 = 字节数 / 每秒字节数；1 GiB 是 2^30 字节，1 GB/s 是 10^9 B/s。") .. [[ },
    explain = ]] .. L("2^30 B / 25e9 B/s = 42.9 ms.", "2^30 B / 25e9 B/s = 42.9 ms。") .. [[,
  },

  exercise {
    id = "seconds", kind = "code",
    prompt = ]] .. L("Write `copy_seconds(bytes, bytes_per_s)`: the seconds a copy takes.",
                     "编写 `copy_seconds(bytes, bytes_per_s)`：一次拷贝所需的秒数。") .. [[,
    entry = "copy_seconds",
    starter = "function copy_seconds(bytes, bytes_per_s)\n  return 0\nend\n",
    check = function(fn)
      for _, c in ipairs { { 2^30, 25e9 }, { 4096, 1e9 } } do
        local want, got = c[1] / c[2], fn(c[1], c[2])
        if type(got) ~= "number" or math.abs(got - want) > 1e-9 * want then
          return false, { en = ("copy_seconds(%g, %g) returned %s, expected %g"):format(c[1], c[2], tostring(got), want),
                          zh = ("copy_seconds(%g, %g) 返回 %s，应为 %g"):format(c[1], c[2], tostring(got), want) }
        end
      end
      return true
    end,
    hints = { ]] .. L("Divide, do not multiply: more bytes per second means less time.",
                      "用除法而不是乘法：每秒字节数越多，时间越短。") .. [[ },
    explain = ]] .. L("bytes / bytes_per_s.", "bytes / bytes_per_s。") .. [[,
  },

  text ]] .. L([[
> [!source] Sources
> - Where each figure of this section comes from: a datasheet, a standard, a paper, a measurement.
]], [[
> [!source] 出处
> - 本节每个数字的来源：数据手册、标准、论文或测量。
]], true) .. ",\n}\n",
  }
  local answers = fmt([[
-- Reference answers of lesson %s: graded by `vramlab check --answers` (docs/lesson-format.md,
-- "Reference answers"). Each exercise: right answers, and wrong ones with what the feedback says.
answer "predict" { figure = "simulated", wrong = "1e-6" } -- on the simulator, the device is simulated
answer "link" { right = "2", wrong = { { "1", says = %q } } }
answer "time" { right = { "42.95", "0.04295 s" }, wrong = { { "40", says = "GB/GiB ratio" }, { "42950", says = "factor of 1000" } } }
answer "seconds" {
  right = "function copy_seconds(bytes, bytes_per_s) return bytes / bytes_per_s end",
  wrong = { "function copy_seconds(bytes, bytes_per_s) return bytes * bytes_per_s end", says = "expected 0.0429" },
}
]], id, lang == "zh" and "NVLink 连接 GPU" or "NVLink connects GPUs") -- `says` is read in English, or the draft's language
  return concat(src), answers, slug
end

--- grade, and the feedback again in the other language (the tutor shows it after L): ok,
-- feedback in lang, feedback in the other. A predict measures once (MEASURED), and a code
-- answer runs again in a fresh environment, so the two agree.
function M.grade2(ex, input, lang, tries, simulated)
  local ok, fb = M.grade(ex, input, lang, tries, simulated)
  local okb, _, fb2 = pcall(M.grade, ex, input, lang == "zh" and "en" or "zh", tries, simulated)
  return ok, fb, okb and type(fb2) == "string" and fb2 or nil
end

--- Install the constructors into a sandbox environment.
function M.install(env)
  env.lesson, env.text, env.experiment, env.exercise = M.lesson, M.text, M.experiment, M.exercise
end

return M
