-- A right answer (a fixture, not a test): tests/cli/grade.sh checks that the lesson grades it right.
-- double data rate: two transfers per clock on each of bus_bits / 8 bytes
function peak_gbs(bus_bits, clock_mhz)
  return 2 * clock_mhz * 1e6 * bus_bits / 8 / 1e9
end
