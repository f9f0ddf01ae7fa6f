-- estimate.lua - what the vram estimators share: argument checks whose errors name the function
-- and the valid choices ("vram.kv: unknown model 'llama-9' (models: ...)"), the table of data
-- types, and small helpers (fresh copies, a seeded generator). Trusted support code, loaded before
-- vram.lua and not reachable from sandboxed code (require "estimate" is refused there).
local M = {}
local fmt, floor, huge = string.format, math.floor, math.huge
local type, pairs, ipairs, error, tostring, concat, sort = type, pairs, ipairs, error, tostring, table.concat, table.sort
local lower = string.lower
local getinfo = debug.getinfo -- trusted code keeps the debug library; sandboxed code has none

-- The estimators' own files: an error is reported at the first frame outside them, so a message
-- points at the learner's line however deep inside the estimators the check ran.
local OWN = {}
for _, f in ipairs { "estimate", "vram", "vram_train", "vram_infer", "vram_serve", "vram_plan", "vram_feed", "vram_dist" } do
  OWN["@lua/lib/" .. f .. ".lua"] = true
end

function M.raise(msg)
  local lv = 2
  while true do
    local info = getinfo(lv, "S")
    if not info or not OWN[info.source] then break end
    lv = lv + 1
  end
  error(msg, lv)
end
local raise = M.raise

-- Bytes per stored value. Packed formats (int4, fp4, nf4) hold two values per byte; their
-- quantisation constants (scales, zero points, absmax) are extra: vram.quantized counts them.
M.DTYPES = {
  fp64 = 8, float64 = 8, double = 8,
  fp32 = 4, float32 = 4, float = 4, tf32 = 4, -- tf32 is stored as fp32: only the math is narrower
  fp16 = 2, float16 = 2, half = 2,
  bf16 = 2, bfloat16 = 2,
  fp8 = 1, float8 = 1, e4m3 = 1, e5m2 = 1,
  int64 = 8, int32 = 4, int16 = 2,
  int8 = 1, uint8 = 1,
  int4 = 0.5, uint4 = 0.5, fp4 = 0.5, nf4 = 0.5,
}
M.DTYPE_LIST = { "fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int64", "int32", "int16",
                 "int8", "uint8", "int4", "fp4", "nf4" }

function M.set(list) local s = {} for _, v in ipairs(list) do s[v] = true end return s end

-- The checks raise at level 3: the caller of the vram.* function that called them.
function M.opts(fn, t)
  if type(t) ~= "table" then raise(fmt("vram.%s expects a table: vram.%s{ ... }", fn, fn)) end
  return t
end

function M.known(fn, t, allowed)
  for k in pairs(t) do
    if not allowed[k] then
      local names = {}
      for a in pairs(allowed) do names[#names + 1] = a end
      sort(names)
      raise(fmt("vram.%s: unknown option '%s' (options: %s)", fn, tostring(k), concat(names, ", ")))
    end
  end
end

local function finite(v) return type(v) == "number" and v == v and v ~= huge and v ~= -huge end

function M.count(fn, t, key, default)
  local v = t[key]
  if v == nil then v = default end
  if not finite(v) or v <= 0 then
    raise(fmt("vram.%s: '%s' must be a positive number (got %s)", fn, key, tostring(t[key])))
  end
  return v
end

-- a count: a whole number from 1 to 2^53 (beyond, doubles skip integers); limit= caps it lower
-- where a bigger value would only exhaust the sandbox's memory
function M.whole(fn, t, key, default, limit)
  local v = t[key]
  if v == nil then v = default end
  if not finite(v) or v <= 0 then
    raise(fmt("vram.%s: '%s' must be a positive number (got %s)", fn, key, tostring(t[key])))
  end
  if v % 1 ~= 0 then raise(fmt("vram.%s: '%s' must be a whole number (got %s)", fn, key, tostring(v))) end
  if v > (limit or 2^53) then raise(fmt("vram.%s: '%s' is too large (%.15g; at most %.15g)", fn, key, v, limit or 2^53)) end
  return floor(v)
end

-- zero allowed (a workspace of 0 bytes, no context)
function M.nonneg(fn, t, key, default)
  local v = t[key]
  if v == nil then v = default end
  if not finite(v) or v < 0 then
    raise(fmt("vram.%s: '%s' must be a number of at least 0 (got %s)", fn, key, tostring(t[key])))
  end
  return v
end

function M.fraction(fn, t, key, default)
  local v = t[key]
  if v == nil then v = default end
  if not finite(v) or v <= 0 or v > 1 then
    raise(fmt("vram.%s: '%s' must be a fraction in (0, 1] (got %s)", fn, key, tostring(t[key])))
  end
  return v
end

function M.bool(fn, t, key, default)
  local v = t[key]
  if v == nil then return default end
  if type(v) ~= "boolean" then raise(fmt("vram.%s: '%s' must be true or false (got %s)", fn, key, tostring(v))) end
  return v
end

-- one of a list of names (case-insensitive); the error lists them in the list's order
function M.choice(fn, t, key, default, list)
  local v = t[key]
  if v == nil then v = default end
  if type(v) == "string" then
    local l = lower(v)
    for _, name in ipairs(list) do if name == l then return l end end
  end
  raise(fmt("vram.%s: '%s' must be one of %s (got %s)", fn, key, concat(list, ", "), tostring(t[key])))
end

function M.dtype(fn, t, key, default)
  local d = t[key]
  if d == nil then d = default end
  if type(d) ~= "string" or not M.DTYPES[lower(d)] then
    raise(fmt("vram.%s: unknown %s '%s' (valid: %s)", fn, key, tostring(d), concat(M.DTYPE_LIST, ", ")))
  end
  return lower(d), M.DTYPES[lower(d)]
end

-- a whole number of bytes as an integer (prints without ".0"), anything else unchanged
function M.int(v) return math.tointeger(v) or v end

-- a fresh deep copy of plain data (the estimators never hand out their own tables)
function M.copy(v)
  if type(v) ~= "table" then return v end
  local c = {}
  for k, x in pairs(v) do c[k] = M.copy(x) end
  return c
end

-- A seeded generator independent of math.random (which sandboxed code may reseed): xorshift64*
-- (Vigna 2016) on Lua 5.4 integers. rng() -> a float in [0, 1), the same sequence for a seed on
-- every machine.
function M.rng(seed)
  local s = floor(seed) ~ 0x2545F4914F6CDD1D
  if s == 0 then s = 0x9E3779B97F4A7C15 end
  return function()
    s = s ~ (s >> 12); s = s ~ (s << 25); s = s ~ (s >> 27)
    local r = (s * 0x2545F4914F6CDD1D) >> 11 -- 53 bits
    return r / 9007199254740992.0
  end
end

return M
