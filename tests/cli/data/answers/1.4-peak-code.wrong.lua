-- A wrong answer (a fixture, not a test): tests/cli/grade.sh checks that the lesson grades it wrong.
-- mistake: takes the reported clock as the per-pin rate (forgets DDR's two transfers per clock)
function peak_gbs(bus_bits, clock_mhz)
  return clock_mhz * 1e6 * bus_bits / 8 / 1e9
end
