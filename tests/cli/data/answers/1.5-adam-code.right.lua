-- A right answer (a fixture, not a test): tests/cli/grade.sh checks that the lesson grades it right.
-- fp16 weights (2) + fp16 gradients (2) + fp32 master copy (4) + Adam's two fp32 moments (4 + 4)
function adam_bytes(params)
  return (2 + 2 + 4 + 4 + 4) * params
end
