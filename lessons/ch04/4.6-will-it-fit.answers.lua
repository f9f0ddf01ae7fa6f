-- Reference answers of lesson 4.6, "Will it fit? The planner": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "states-gib" { right = { "19.61", "20 GiB" }, wrong = { { "21.05", says = "GB/GiB ratio" }, { "17.16", says = "gradients count too" } } }  -- 16 B/param / 2^30; wrong: the same bytes in GB (1e9)
answer "one-change" { right = "4", wrong = "1" }  -- wrong: "micro-batch 1": the peak is the optimizer step
-- wrong: full checkpointing without offload (optimizer peak)
answer "keep-master" {
  right = [[
-- the master copy and Adam's state go to the host; selective recomputation drops the attention scores
function plan()
  return { precision = "amp_bf16", checkpointing = "selective", stage = 0, offload = true }
end
]],
  wrong = { [[
-- mistake: full checkpointing without offload - it shrinks activations, but the peak is the
-- optimizer step (model states + foreach temporary), which does not fit on 24 GB
function plan()
  return { precision = "amp_bf16", checkpointing = "full", stage = 0, offload = false }
end
]], says = "the optimizer state dominates" },
}
answer "predict-reserved" { figure = "simulated", wrong = "16.1" }  -- replayed on a model of the 3090; wrong: the planner's live bytes
answer "accum-steps" { right = { "6", "6 steps" }, wrong = { { "48", says = "forgets the eight GPUs" }, { "12", says = "with a micro-batch of 1" } } }  -- 96 / (8 x 2)
answer "accum-peak" { right = "3", wrong = { { "2", says = "model states do not shrink" } } }  -- wrong: everything scales with the micro-batch
