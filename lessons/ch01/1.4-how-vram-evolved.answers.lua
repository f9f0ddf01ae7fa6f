-- Reference answers of lesson 1.4, "How VRAM evolved": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "peak-from-clock" { right = "912.096", wrong = { { "456.048", says = "Off by 2: GDDR moves data on both clock edges (double data rate)." } } }  -- wrong: forgot double data rate
answer "why-hbm" { right = "2", wrong = "1" }  -- wrong: "HBM has lower latency"
answer "lpddr" { right = "2", wrong = "1" }  -- wrong: "higher bandwidth per watt"
answer "pct-peak" { figure = "simulated", wrong = "1e-6" }  -- a device copy on the simulated card
-- wrong: forgot double data rate
answer "peak-code" {
  right = [[
-- double data rate: two transfers per clock on each of bus_bits / 8 bytes
function peak_gbs(bus_bits, clock_mhz)
  return 2 * clock_mhz * 1e6 * bus_bits / 8 / 1e9
end
]],
  wrong = { [[
-- mistake: takes the reported clock as the per-pin rate (forgets DDR's two transfers per clock)
function peak_gbs(bus_bits, clock_mhz)
  return clock_mhz * 1e6 * bus_bits / 8 / 1e9
end
]], says = "peak_gbs(384, 9751) returned 468.048" },
}
