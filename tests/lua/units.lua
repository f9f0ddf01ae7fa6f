-- units: SI vs binary kept apart, parse/format round trips, clear errors.
local function eq(a, b, what) assert(a == b, what .. ": got " .. tostring(a) .. ", want " .. tostring(b)) end
eq(units.parse("16GiB"), 16 * 2^30, "16GiB")
eq(units.parse("16 GB"), 16e9, "16 GB")
eq(units.parse("512"), 512, "bare number")
eq(units.parse("1.5MiB"), 1.5 * 2^20, "1.5MiB")
local v, kind = units.parse("936 GB/s")
eq(v, 936e9, "rate value"); eq(kind, "rate", "rate kind")
local bad, msg = units.parse("lots")
assert(bad == nil and msg:find("cannot read 'lots'"), "bad input message: " .. tostring(msg))
local bad2, msg2 = units.parse("3 parsecs")
assert(bad2 == nil and msg2:find("unknown unit"), tostring(msg2))
eq(units.bytes(2^30), "1 GiB", "bytes")
eq(units.bytes(1.5 * 2^30), "1.50 GiB", "bytes, not whole")
eq(units.bytes(2^30, 2), "1.00 GiB", "bytes, fixed decimals")
eq(units.bytes(512), "512 B", "small bytes")
eq(units.si(16 * 2^30), "17.18 GB", "si")
eq(units.rate(936e9), "936 GB/s", "rate")
eq(units.rate(4.8e12), "4.80 TB/s", "TB/s")
eq(units.time(93.4e-9), "93.4 ns", "ns")
eq(units.gib(2^31), 2, "gib")
-- kinds: sizes, rates (SI and binary), times (ns, us, µs, μs, ms, s) and plain counts
local function kind(s, want_v, want_k)
  local v, k = units.parse(s)
  assert(k == want_k, s .. ": kind " .. tostring(k) .. ", want " .. want_k)
  assert(math.abs(v - want_v) <= 1e-12 * math.abs(want_v), s .. ": got " .. tostring(v))
end
kind("2 ms", 2e-3, "time"); kind("15ns", 15e-9, "time"); kind("3 us", 3e-6, "time")
kind("3 µs", 3e-6, "time"); kind("3 μs", 3e-6, "time"); kind("1.5 s", 1.5, "time")
kind("1 GiB/s", 2^30, "rate"); kind("2 TB/s", 2e12, "rate"); kind("5 KB/s", 5e3, "rate")
kind("4 TiB", 2^42, "size"); kind("512", 512, "count")
local bad3, msg3 = units.parse("3 fortnights")
assert(bad3 == nil and msg3:find("ns, us, ms, s"), tostring(msg3))
-- a size argument of another kind is an error naming the kind, not a size read from its number
local okr, er = pcall(gpu.alloc, "936 GB/s")
assert(not okr and tostring(er):find("'936 GB/s' is a rate, not a size"), tostring(er))
local okt, et = pcall(gpu.alloc, "2 ms")
assert(not okt and tostring(et):find("'2 ms' is a time, not a size"), tostring(et))
local buf = gpu.alloc("4096"); eq(buf:size(), 4096, "a plain count is bytes"); buf:free()

-- bits vs bytes in a rate: a lower-case b is a bit (Gbps, Gb/s: decimal, 1/8 of a byte)
for _, c in ipairs { { "100 Gbps", 12.5e9 }, { "100 Gb/s", 12.5e9 }, { "1 Mbit/s", 125e3 }, { "1 kbps", 125 },
                     { "100 GB/s", 100e9 }, { "100 GBps", 100e9 } } do
  local v, k = units.parse(c[1])
  eq(v, c[2], c[1]); eq(k, "rate", c[1] .. " is a rate")
end
local vb, kb = units.parse("4 bits")
eq(vb, 0.5, "4 bits is half a byte"); eq(kb, "size", "bits are a size")
