-- grading.lua - how a number or predict answer is read, what its feedback says about the mistake
-- in it, and the tolerance audit `vramlab check --answers` runs over every number exercise
-- (docs/lesson-format.md, "Grading" and "The tolerance audit"). Trusted support code for
-- lesson.lua; lessons do not see it.
--
-- An answer is read by the one unit grammar (units.read, gpu/base/gpu_units.h): a bare number is
-- in the exercise's unit; a number with a unit is converted (912 GB/s, 7296.77 Gb/s and 849.5 GiB/s
-- are the same rate); a unit of another kind, or text that reads two ways ("912 gb/s": bits or
-- bytes?), is refused with a one-line question and is not a try. A wrong answer is explained
-- by the first that fits: the exercise's declared mistakes, the unit typed (bits for bytes, GB
-- for GiB, with the conversion), or what a bare number probably was (the fraction for a
-- percentage, the answer in GB, in bits, in bytes).
local M = {}
local units = require "units"
local fmt, abs, floor, type, ipairs, pairs = string.format, math.abs, math.floor, type, ipairs, pairs
local concat, lower, match, log = table.concat, string.lower, string.match, math.log

local function pick(v, lang) return type(v) == "table" and (v[lang] or v.en or v.zh) or tostring(v) end

-- x to n significant figures as plain decimal text (no exponent, no trailing zeros):
-- sig(24.37, 2) = "24", sig(245, 2) = "250", sig(0.0005285, 3) = "0.000529"
local function sig(x, n)
  if x == 0 or x ~= x or x == math.huge or x == -math.huge then return fmt("%g", x) end
  local r = tonumber(fmt("%." .. (n - 1) .. "e", x)) -- rounded to n figures
  local d = n - 1 - floor(log(abs(r), 10) + 1e-9)
  local s = d > 0 and fmt("%." .. d .. "f", r) or fmt("%.0f", r)
  if s:find("%.") then s = s:gsub("0+$", ""):gsub("%.$", "") end
  return s
end
M.sig = sig

-- x as the feedback shows a number the learner typed or should type: a whole number whole
-- (25769803776), others to 10 figures
local function num(x)
  if x == floor(x) and abs(x) < 2^53 then return fmt("%.0f", x) end
  return sig(x, 10)
end

-- ---- common mistakes ---------------------------------------------------------------------------

-- Mistakes a number or predict exercise may name in `mistakes` (docs/lesson-format.md,
-- "Mistakes"). A factor matches the answer multiplied or divided by it; %s is the exercise's unit.
-- The unit ones also apply without being named, to every exercise asked in a unit they concern.
local MISTAKES = {
  kib_kb = { factor = 1.024,
    say = { en = "That is off by the KB/KiB ratio (2^10/10^3 = 1.024): 1 KB is 10^3 bytes, 1 KiB is 2^10 bytes; the question asks in %s.",
            zh = "差了 KB 与 KiB 之比（2^10/10^3 = 1.024）：1 KB 是 10^3 字节，1 KiB 是 2^10 字节；题目要的单位是 %s。" } },
  mib_mb = { factor = 2^20 / 1e6,
    say = { en = "That is off by the MB/MiB ratio (2^20/10^6 = 1.049): 1 MB is 10^6 bytes, 1 MiB is 2^20 bytes; the question asks in %s.",
            zh = "差了 MB 与 MiB 之比（2^20/10^6 = 1.049）：1 MB 是 10^6 字节，1 MiB 是 2^20 字节；题目要的单位是 %s。" } },
  gib_gb = { factor = 2^30 / 1e9,
    say = { en = "That is off by the GB/GiB ratio (2^30/10^9 = 1.074): 1 GB is 10^9 bytes, 1 GiB is 2^30 bytes; the question asks in %s.",
            zh = "差了 GB 与 GiB 之比（2^30/10^9 = 1.074）：1 GB 是 10^9 字节，1 GiB 是 2^30 字节；题目要的单位是 %s。" } },
  tib_tb = { factor = 2^40 / 1e12,
    say = { en = "That is off by the TB/TiB ratio (2^40/10^12 = 1.100): 1 TB is 10^12 bytes, 1 TiB is 2^40 bytes; the question asks in %s.",
            zh = "差了 TB 与 TiB 之比（2^40/10^12 = 1.100）：1 TB 是 10^12 字节，1 TiB 是 2^40 字节；题目要的单位是 %s。" } },
  x1000 = { factor = 1000,
    say = { en = "That is off by a factor of 1000: check the unit prefix (k, M, G; ms, us, ns); the question asks in %s.",
            zh = "差了 1000 倍：检查单位前缀（k、M、G；ms、us、ns）；题目要的单位是 %s。" } },
  x2 = { factor = 2,
    say = { en = "That is off by a factor of 2: check what is counted once and what twice (K and V, read and write, n vs 2n bytes moved).",
            zh = "差了 2 倍：检查哪些该算一次、哪些该算两次（K 和 V、读和写、搬运 n 还是 2n 字节）。" } },
  x4 = { factor = 4,
    say = { en = "That is off by a factor of 4: check the bytes per element (fp32 = 4 B, fp16/bf16 = 2 B, fp8/int8 = 1 B).",
            zh = "差了 4 倍：检查每个元素的字节数（fp32 = 4 B，fp16/bf16 = 2 B，fp8/int8 = 1 B）。" } },
  x8 = { factor = 8,
    say = { en = "That is off by a factor of 8: bits or bytes? 1 byte is 8 bits.",
            zh = "差了 8 倍：是位还是字节？1 字节 = 8 位。" } },
}
M.MISTAKES = MISTAKES
local SIBLING = { "kib_kb", "mib_mb", "gib_gb", "tib_tb" } -- by prefix power

-- ---- messages ----------------------------------------------------------------------------------

local TXT = {
  number = { en = "Type a number%s, e.g. %s.", zh = "请输入一个数字%s，例如 %s。" },
  kind = { en = "This answer is %s%s; %s is %s.", zh = "这道题的答案是%s%s；%s 是%s。" },
  q_bits = { en = "'%s': bits or bytes? Type %s for bytes or %s for bits (B is a byte, b a bit).",
             zh = "“%s”是位还是字节？字节请写 %s，位请写 %s（B 是字节，b 是位）。" },
  q_prefix = { en = "'%s': decimal or binary? Type %s (%s bytes) or %s (%s bytes).",
               zh = "“%s”是十进制还是二进制单位？请写 %s（%s 字节）或 %s（%s 字节）。" },
  q_comma = { en = "'%s': is the comma a decimal point? Type %s, or %s (a comma groups thousands: 1,024).",
              zh = "“%s”里的逗号是小数点吗？请写 %s 或 %s（逗号只用来分隔千位：1,024）。" },
  pct = { en = "As a percentage: %s %%?", zh = "换成百分数：%s %%？" },
  frac = { en = "As a fraction: %s?", zh = "换成小数：%s？" },
  factor = { en = "As a factor: %sx?", zh = "换成倍数：%sx？" },
  bits = { en = "%s counts bits, not bytes: %s = %s %s (1 byte = 8 bits).",
           zh = "%s 数的是位（bit），不是字节：%s = %s %s（1 字节 = 8 位）。" },
  bytes = { en = "%s counts bytes, not bits: %s = %s %s (1 byte = 8 bits).",
            zh = "%s 数的是字节，不是位（bit）：%s = %s %s（1 字节 = 8 位）。" },
  decbin = { en = "%s = %s %s: %s and %s differ by %s %% (1 %s = %s B, 1 %s = %s B).",
             zh = "%s = %s %s：%s 与 %s 相差 %s %%（1 %s = %s B，1 %s = %s B）。" },
  conv = { en = "%s = %s %s.", zh = "%s = %s %s。" },
  bare_bytes = { en = "A bare number is read in %s: if %s is in bytes, type %s.",
                 zh = "不带单位的数字按 %s 计：如果 %s 是字节数，请写成 %s。" },
}
local function t(key, lang, ...) return fmt(TXT[key][lang] or TXT[key].en, ...) end
M.t = t

local KIND = { size = { en = "a size", zh = "大小" }, rate = { en = "a rate", zh = "速率" },
               time = { en = "a time", zh = "时间" }, count = { en = "a plain number", zh = "纯数字" } }

-- ---- the exercise's unit -----------------------------------------------------------------------

-- What the exercise's unit is to the grammar: { kind, one (its value in the base unit), unit,
-- bits, binary, decimal, power, percent, times } or, for a word the grammar does not know
-- ("tok/s", "calls"), { kind = "word", word }.
local function unit_of(ex)
  local u = ex.unit or ""
  if u == "" then return { kind = "count", one = 1, unit = "", power = 0 } end
  local r = units.read("1" .. u)
  if r and r.value and not r.word then
    return { kind = r.kind, one = r.value, unit = u, bits = r.bits, binary = r.binary, decimal = r.decimal,
             power = r.power or 0, percent = r.percent, times = r.times }
  end
  return { kind = "word", one = 1, unit = u, word = u, power = 0 }
end
M.unit_of = unit_of

-- an exercise's own word typed with the answer: any case, singular or plural ("3 GPU", "28 seqs")
local SYN = { tokens = "tok", token = "tok", sequences = "seq", sequence = "seq", seqs = "seq" }
local function word_key(w)
  w = lower(w):gsub("%s+", "")
  local base, per = match(w, "^(.-)(/.*)$")
  if not base then base, per = w, "" end
  base = SYN[base] or base:gsub("s$", "")
  return base .. per
end

local function number_help(ex, lang)
  local u = ex.unit or ""
  if u == "" then return t("number", lang, "", "12") end
  return t("number", lang, lang == "zh" and "（" .. u .. "）" or " (" .. u .. ")",
           "12" .. (lang == "zh" and " 或 " or " or ") .. "12 " .. u)
end
M.number_help = number_help

-- 10^9 and 2^30 for a prefix power
local function pow_text(power, binary) return binary and fmt("2^%d", 10 * power) or fmt("10^%d", 3 * power) end

-- The question for text that reads two ways.
local function question(r, input, lang)
  local n = num(r.number)
  if r.ambiguous == "comma" then return t("q_comma", lang, input, r.alt[1], r.alt[2]) end
  if r.ambiguous == "prefix" then
    return t("q_prefix", lang, input, n .. " " .. r.alt[1], pow_text(r.power or 0, false),
             n .. " " .. r.alt[2], pow_text(r.power or 0, true))
  end
  return t("q_bits", lang, input, n .. " " .. r.alt[1], n .. " " .. r.alt[2])
end

--- read(ex, input, lang) -> v (in the exercise's unit), how = { bare =, typed = (units.read's
-- table), unit = (unit_of) }; or nil, the message that refuses it (not a try).
function M.read(ex, input, lang)
  local r = units.read(input)
  if not r then return nil, number_help(ex, lang) end
  local u = unit_of(ex)
  if r.ambiguous then
    if r.ambiguous == "prefix" and u.kind == "word" then return nil, number_help(ex, lang) end
    return nil, question(r, input, lang)
  end
  if r.word then
    if u.kind == "word" and word_key(r.word) == word_key(u.word) then return r.number, { bare = false, typed = r, unit = u } end
    return nil, number_help(ex, lang)
  end
  if r.unit == "" then return r.number, { bare = true, typed = r, unit = u } end
  local want = u.kind == "word" and "count" or u.kind
  if r.kind ~= want then
    local uu = u.unit ~= "" and fmt(lang == "zh" and "（%s）" or " (%s)", u.unit) or ""
    return nil, t("kind", lang, pick(KIND[want], lang), uu, input, pick(KIND[r.kind], lang))
  end
  return r.value / u.one, { bare = false, typed = r, unit = u }
end

local function near(v, x, tol) return abs(v - x) <= tol * abs(x) + 1e-12 end

--- Is v right? A percentage typed where the exercise does not count in % is wrong, whatever
-- its value ("85 %" where a fraction is asked: the hint says "as a fraction: 0.85?").
function M.right(v, how, answer, tol)
  if how.typed.percent and not how.unit.percent then return false end
  return near(v, answer, tol)
end

-- the first declared mistake v matches, as text in lang, and its name (a built-in's, or
-- "mistake N" for the Nth of the list); or nil
local function declared(ex, v, right, tol, lang)
  if not ex.mistakes then return nil end
  for i, k in ipairs(ex.mistakes) do
    local d = type(k) == "string" and MISTAKES[k] or k
    if (d.value and near(v, d.value, tol)) or (d.factor and (near(v, right * d.factor, tol) or near(v, right / d.factor, tol))) then
      local say = pick(d.say, lang)
      return type(k) == "string" and fmt(say, ex.unit and ex.unit ~= "" and ex.unit or (lang == "zh" and "题目给的单位" or "the one given")) or say,
             type(k) == "string" and k or fmt("mistake %d", i)
    end
  end
end
M.declared = declared

local function builtin(name, ex, lang)
  return fmt(pick(MISTAKES[name].say, lang), ex.unit and ex.unit ~= "" and ex.unit or (lang == "zh" and "题目给的单位" or "the one given"))
end

-- the prefix symbol of a power in a family: "G" / "Gi"
local function prefix(power, binary) return ({ "K", "M", "G", "T", "P" })[power] .. (binary and "i" or "") end

-- "24 GB = 22.35 GiB: GB and GiB differ by 7.4 % (1 GB = 10^9 B, 1 GiB = 2^30 B)."
local function decbin(typed, v, u, lang)
  local p = u.power
  local dec, bin = prefix(p, false) .. "B", prefix(p, true) .. "B"
  return t("decbin", lang, typed, sig(v, 4), u.unit, dec, bin, sig((1.024 ^ p - 1) * 100, 2), dec,
           pow_text(p, false), bin, pow_text(p, true))
end

-- "A bare number is read in GiB: if 567474094 is in bytes, type 567474094 B."
local function bare_bytes(u, v, lang)
  local n = num(v)
  return t("bare_bytes", lang, u.unit, n, n .. (u.kind == "rate" and " B/s" or " B"))
end

--- The mistake in a wrong answer v (read as `how`), as text in lang, and the kind of mistake it
-- is (see M.kind); or nil. `right` is the answer (or a predict's measurement), `tol` its
-- tolerance.
function M.explain(ex, v, how, right, tol, lang)
  local u, r = how.unit, how.typed
  -- a percentage where none is asked
  if r.percent and not u.percent then
    if near(r.value, right, tol) then return t(u.times and "factor" or "frac", lang, sig(r.value, 4)), "percent_fraction" end
    return nil
  end
  local sized = u.kind == "size" or u.kind == "rate"
  local typed = num(r.number) .. " " .. (r.unit or "")
  -- a unit typed that counts bits for bytes, or GB for GiB: that is the mistake to name
  if not how.bare and sized and r.unit ~= u.unit then
    if (r.bits and true or false) ~= (u.bits and true or false) then
      return t(r.bits and "bits" or "bytes", lang, typed, typed, sig(v, 4), u.unit), "bits_bytes"
    end
    if r.power == u.power and u.power > 0 and (r.binary and true or false) ~= (u.binary and true or false) then
      return decbin(typed, v, u, lang), SIBLING[u.power] or "gib_gb"
    end
  end
  local d, dk = declared(ex, v, right, tol, lang)
  if d then return d, dk end
  if not how.bare then
    if r.unit == u.unit then return nil end
    return t("conv", lang, typed, sig(v, 4), u.unit), nil
  end
  if u.percent and near(v * 100, right, tol) then return t("pct", lang, sig(v * 100, 4)), "percent_fraction" end
  if u.unit == "" and right > 0 and right <= 1 and near(v / 100, right, tol) then return t("frac", lang, sig(v / 100, 4)), "percent_fraction" end
  if sized and (u.binary or u.decimal) and SIBLING[u.power] then
    local f = MISTAKES[SIBLING[u.power]].factor
    if near(v, right * f, tol) or near(v, right / f, tol) then return builtin(SIBLING[u.power], ex, lang), SIBLING[u.power] end
  end
  if sized and (near(v, right * 8, tol) or near(v, right / 8, tol)) then return builtin("x8", ex, lang), "bits_bytes" end
  if sized and u.one > 1 and near(v, right * u.one, tol) then return bare_bytes(u, v, lang), "in_bytes" end
  return nil
end

--- The kind of mistake a wrong answer is, for a class's results grouped by mistake (the kinds of
-- the tolerance audit): the one the feedback names (gib_gb, mib_mb, kib_kb, tib_tb, bits_bytes,
-- percent_fraction, in_bytes, a declared mistake's name or "mistake N"), else the answer off by
-- a factor (x2, x4, x8, x10, x1000), else "other"; nil for a right answer.
local FACTORS = { { "x2", 2 }, { "x4", 4 }, { "x8", 8 }, { "x10", 10 }, { "x1000", 1000 } }
function M.kind(ex, v, how, right, tol)
  if M.right(v, how, right, tol) then return nil end
  local _, k = M.explain(ex, v, how, right, tol, "en")
  if k then return k end
  for _, f in ipairs(FACTORS) do
    if near(v, right * f[2], tol) or near(v, right / f[2], tol) then return f[1] end
  end
  return "other"
end

-- ---- the tolerance audit -----------------------------------------------------------------------

--- The audit of a number exercise: a list of { input, right = bool, what, says = { en, zh } or
-- nil }. Right: the answer, its roundings to 3 and 2 significant figures (a whole-number answer
-- is typed whole), with its unit, in the other units of its kind (bytes, bits, the other of GB
-- and GiB). Wrong: x2 and /2; for a size or rate, the answer in the other of GB and GiB (MB/MiB,
-- KB/KiB) and in bits, bare and with that unit typed; for a percentage, the fraction; for a
-- fraction, the percentage; every declared mistake. Each wrong one must say its mistake where
-- the grader has one for it.
function M.audit(ex)
  local out = {}
  local a, tol, u = ex.answer, ex.tolerance or 0.02, unit_of(ex)
  local U = u.unit
  local function says(v, name, fallback)
    -- the hint the grader gives first: a declared mistake before the built-in one
    local en = declared(ex, v, a, tol, "en")
    if en then return { en = en, zh = declared(ex, v, a, tol, "zh") } end
    return fallback
  end
  local function right(input, what) out[#out + 1] = { input = input, right = true, what = what } end
  local function wrong(input, what, hint) out[#out + 1] = { input = input, right = false, what = what, says = hint } end
  local whole = a == floor(a)
  right(num(a), "the answer")
  if not whole then
    right(sig(a, 3), "the answer to 3 significant figures")
    right(sig(a, 2), "the answer to 2 significant figures")
  end
  local a3 = whole and num(a) or sig(a, 3)
  if U ~= "" then right(a3 .. " " .. U, "the answer with its unit") end
  local sized = u.kind == "size" or u.kind == "rate"
  local per = u.kind == "rate" and "/s" or ""
  if sized then
    local bytes = a * u.one
    right(sig(bytes, 8) .. " B" .. per, "the answer in bytes")
    -- in bits, with a capital where there is a prefix (a lower-case "gb" is asked about)
    local p = u.power
    local scale = p > 0 and (u.binary and 1024 ^ p or 1000 ^ p) or 1
    if not u.bits then right(sig(bytes * 8 / scale, 8) .. " " .. (p > 0 and prefix(p, u.binary) or "") .. "bit" .. per, "the answer in bits") end
    local function both(f, x, y) return { en = f(x, y, "en"), zh = f(x, y, "zh") } end
    if p > 0 and SIBLING[p] then
      local other = prefix(p, not u.binary) .. (u.bits and "bit" or "B") .. per
      local f = u.binary and (1024 / 1000) ^ p or (1000 / 1024) ^ p
      right(sig(a * f, 8) .. " " .. other, "the answer in " .. other)
      -- the number a learner gets working in the other family, typed bare; the conversion made
      -- the wrong way; the right number with the other family's unit ("24 GB" for 24 GiB)
      local g = MISTAKES[SIBLING[p]].factor
      local hint = both(builtin, SIBLING[p], ex)
      local v = u.binary and a * g or a / g
      wrong(sig(v, 10), "the number in " .. other .. " typed bare", says(v, nil, hint))
      wrong(sig(v, 3), "the number in " .. other .. " to 3 significant figures")
      local v2 = u.binary and a / g or a * g
      wrong(sig(v2, 10), "the conversion made the wrong way", says(v2, nil, hint))
      local typed = num(a) .. " " .. units.read("1" .. other).unit
      wrong(num(a) .. " " .. other, "the answer's number with " .. other,
            { en = decbin(typed, a / f, u, "en"), zh = decbin(typed, a / f, u, "zh") })
    end
    -- bits for bytes: the number x8 or /8 bare, and the right number with a bit (byte) unit
    local x8 = both(builtin, "x8", ex)
    wrong(sig(a * 8, 10), "x8 (bits for bytes)", says(a * 8, nil, x8))
    wrong(sig(a / 8, 10), "/8 (bytes for bits)", says(a / 8, nil, x8))
    local swapped = (p > 0 and prefix(p, u.binary) or "") .. (u.bits and "B" or "bit") .. per
    local typed = num(a) .. " " .. units.read("1" .. swapped).unit
    local sv = u.bits and a * 8 or a / 8
    wrong(num(a) .. " " .. swapped, "the answer's number in " .. (u.bits and "bytes" or "bits"),
          { en = t(u.bits and "bytes" or "bits", "en", typed, typed, sig(sv, 4), U),
            zh = t(u.bits and "bytes" or "bits", "zh", typed, typed, sig(sv, 4), U) })
    if u.one > 1 then
      wrong(num(a * u.one), "the answer in bytes typed bare", says(a * u.one, nil, both(bare_bytes, u, a * u.one)))
    end
  end
  if u.percent then
    local f = a / 100
    wrong(sig(f, 10), "the fraction for a percentage", says(f, nil, { en = t("pct", "en", sig(a, 4)), zh = t("pct", "zh", sig(a, 4)) }))
  elseif U == "" and a > 0 and a <= 1 then
    local fr = { en = t("frac", "en", sig(a, 4)), zh = t("frac", "zh", sig(a, 4)) }
    wrong(sig(a * 100, 10) .. " %", "the percentage for a fraction", fr)
    wrong(sig(a * 100, 10), "the percentage for a fraction typed bare", says(a * 100, nil, fr))
  end
  wrong(sig(a * 2, 10), "x2", says(a * 2))
  wrong(sig(a / 2, 10), "/2", says(a / 2))
  for i, k in ipairs(ex.mistakes or {}) do
    local d = type(k) == "string" and MISTAKES[k] or k
    local name = type(k) == "string" and k or fmt("mistake %d", i)
    -- its own hint: a mistake an earlier one shadows is never named, which is a failure
    local function own(lang)
      local say = pick(d.say, lang)
      return type(k) == "string" and fmt(say, U ~= "" and U or (lang == "zh" and "题目给的单位" or "the one given")) or say
    end
    local function hint() return { en = own("en"), zh = own("zh") } end
    if d.value then
      wrong(num(d.value), name .. fmt(" (%s)", sig(d.value, 6)), hint())
      wrong(sig(d.value, 3), name .. " to 3 significant figures")
    else
      wrong(num(a * d.factor), name .. " (x" .. sig(d.factor, 4) .. ")", hint())
      wrong(num(a / d.factor), name .. " (/" .. sig(d.factor, 4) .. ")", hint())
    end
  end
  return out
end

return M
