-- A right answer (a fixture, not a test): tests/cli/grade.sh checks that the lesson grades it right.
-- the master copy and Adam's state go to the host; selective recomputation drops the attention scores
function plan()
  return { precision = "amp_bf16", checkpointing = "selective", stage = 0, offload = true }
end
