-- A wrong answer (a fixture, not a test): tests/cli/grade.sh checks that the lesson grades it wrong.
-- mistake: full checkpointing without offload - it shrinks activations, but the peak is the
-- optimizer step (model states + foreach temporary), which does not fit on 24 GB
function plan()
  return { precision = "amp_bf16", checkpointing = "full", stage = 0, offload = false }
end
