-- A wrong answer (a fixture, not a test): tests/cli/grade.sh checks that the lesson grades it wrong.
-- mistake: forgets the fp32 master copy of the weights (12 bytes per parameter instead of 16)
function adam_bytes(params)
  return (2 + 2 + 4 + 4) * params
end
