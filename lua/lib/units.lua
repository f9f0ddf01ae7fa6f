-- units.lua - sizes, rates and times, with SI (GB = 1e9 B) and binary (GiB = 2^30 B) kept apart.
-- Preloaded into every sandbox as `units`. Bandwidth is always SI: 1 GB/s = 1e9 B/s.
local M = {}
local fmt, abs = string.format, math.abs

M.KiB, M.MiB, M.GiB, M.TiB = 1 << 10, 1 << 20, 1 << 30, 1 << 40
M.KB, M.MB, M.GB, M.TB = 1000, 1000000, 1000000000, 1000000000000

--- units.parse("16GiB") -> 17179869184, "size"; units.parse("936 GB/s") -> 936e9, "rate";
-- units.parse("100 Gbps") -> 12.5e9, "rate" (b is a bit, B a byte); units.parse("2 ms") ->
-- 0.002, "time"; units.parse("512") -> 512, "count"; units.parse("85 %") -> 0.85, "count".
-- Returns value (bytes, bytes/s, seconds or the plain number), kind, or nil, message; text that
-- reads two ways ("100 gb/s": bits or bytes?) is nil and the question. A Lua number is taken as
-- bytes ("size"), as the modules pass sizes.
-- units.read(text) says how the quantity was written: { value, number, kind, unit, bits,
-- binary, decimal, percent, times, power }, { word, number } for a number and a word that is no
-- unit, or { ambiguous = "bits"|"prefix"|"comma", alt = { ..., ... }, message }.
-- Both are the one grammar in C (gpu/base/gpu_units.h) that the command line reads sizes with.
M.parse, M.read = __lt_units_parse, __lt_units_read

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
