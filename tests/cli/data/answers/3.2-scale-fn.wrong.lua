-- A wrong answer (a fixture, not a test): tests/cli/grade.sh checks that the lesson grades it wrong.
-- mistake: adds the write-allocate read of the destination array, which STREAM does not count
function stream_bytes(kernel, n)
  local arrays = { copy = 3, scale = 3, add = 4, triad = 4 }
  return arrays[kernel] * 8 * n
end
