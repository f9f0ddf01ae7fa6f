-- A wrong answer (a fixture, not a test): tests/cli/grade.sh checks that the lesson grades it wrong.
-- mistake: an off-by-one in the rounding, so exact multiples of 512 get one block too many
function block_size(n)
  return (n // 512 + 1) * 512
end
