-- units.lua - sizes, rates and times, with SI (GB = 1e9 B) and binary (GiB = 2^30 B) kept apart.
-- Preloaded into every sandbox as `units`. Bandwidth is always SI: 1 GB/s = 1e9 B/s.
local M = {}
local fmt, abs, tonumber, type = string.format, math.abs, tonumber, type
local lower, match = string.lower, string.match

-- Byte factors are integers, so a whole size prints as one (17179869184, not 17179869184.0).
local factors = {
  b = 1, byte = 1, bytes = 1, bit = 1 / 8, bits = 1 / 8,
  kb = 1000, mb = 1000000, gb = 1000000000, tb = 1000000000000, pb = 1000000000000000,
  kib = 1 << 10, mib = 1 << 20, gib = 1 << 30, tib = 1 << 40, pib = 1 << 50,
  k = 1 << 10, m = 1 << 20, g = 1 << 30, -- shell-style shorthands (as dd and numfmt read them)
}
local BIT_PREFIX = { [""] = 1, k = 1e3, K = 1e3, M = 1e6, G = 1e9, T = 1e12, P = 1e15 }
M.KiB, M.MiB, M.GiB, M.TiB = 1 << 10, 1 << 20, 1 << 30, 1 << 40
M.KB, M.MB, M.GB, M.TB = 1000, 1000000, 1000000000, 1000000000000

-- times, in seconds; "µs" and "μs" (micro sign, Greek mu) are UTF-8, hence the wider unit match
local times = { ns = 1e-9, us = 1e-6, ["µs"] = 1e-6, ["μs"] = 1e-6, ms = 1e-3, s = 1, sec = 1 }

--- units.parse("16GiB") -> 17179869184, "size"; units.parse("936 GB/s") -> 936e9, "rate";
-- units.parse("100 Gbps") -> 12.5e9, "rate" (bits: a lower-case b in a rate, Gb/s, Mbps);
-- units.parse("2 ms") -> 0.002, "time"; units.parse("512") -> 512, "count".
-- Returns value (bytes, bytes/s, seconds or the plain number), kind, or nil, message.
-- A Lua number is taken as bytes ("size"), as the modules pass sizes.
function M.parse(s)
  if type(s) == "number" then return s, "size" end
  if type(s) ~= "string" then return nil, "expected a string such as '16GiB', '936 GB/s' or '2 ms'" end
  local num, unit = match(s, "^%s*([%d%.eE%+%-]+)%s*(%S-)%s*$")
  local v = tonumber(num or "")
  if not v then return nil, fmt("cannot read '%s' as a size, rate or time (try '16GiB', '1.5 GB', '936 GB/s', '2 ms')", s) end
  -- a rate's case matters: b is a bit, B a byte (Gbps, Gb/s = 1e9 bits/s = 125 MB/s; decimal)
  local p = match(unit, "^([kKMGTP]?)bps$") or match(unit, "^([kKMGTP]?)b/s$") or match(unit, "^([kKMGTP]?)bits?/s$")
  if p then return v * BIT_PREFIX[p] / 8, "rate" end
  unit = lower(unit or "")
  if unit == "" then return v, "count" end
  if times[unit] then return v * times[unit], "time" end
  local kind = "size"
  local base = match(unit, "^(.-)/s$") or match(unit, "^(.-)ps$")
  if base then unit, kind = base, "rate" end
  local f = factors[unit]
  if not f then return nil, fmt("unknown unit '%s' in '%s' (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB; GB/s, GiB/s; ns, us, ms, s)", unit, s) end
  v = v * f
  -- a whole size is an integer (1.5 MiB = 1572864); past 2^53 a float is no longer exact
  if kind == "size" and abs(v) < 2^53 then v = math.tointeger(v) or v end
  return v, kind
end

-- The one byte formatter (gpu_fmt_bytes in C, which the screens and the command line use too):
-- three significant digits, "512 B", "1.50 GiB", "16.0 GiB", "512 MiB"; digits fixes the decimals.
local cfmt = __lt_fmt_bytes

--- units.bytes(n) -> "16.0 GiB" (binary, as capacity is counted)
function M.bytes(n, digits) return cfmt(n, "bin", digits) end
--- units.si(n) -> "17.2 GB" (decimal, as vendors print capacity)
function M.si(n, digits) return cfmt(n, "dec", digits) end
--- units.rate(bytes_per_s) -> "936 GB/s" (always decimal: 1 GB/s = 1e9 B/s)
function M.rate(n, digits)
  if n == nil then return "n/a" end
  return cfmt(n, "rate", digits)
end
--- units.ns(seconds) -> "93.4 ns"; units.time(seconds) -> "12.5 ms"
function M.time(s)
  if s == nil then return "n/a" end
  local a = abs(s)
  if a < 1e-6 then return fmt("%.1f ns", s * 1e9) end
  if a < 1e-3 then return fmt("%.2f us", s * 1e6) end
  if a < 1 then return fmt("%.2f ms", s * 1e3) end
  return fmt("%.3f s", s)
end
function M.gbs(n) return n and n / 1e9 end
function M.gib(n) return n and n / 2^30 end

return M
