-- Reference answers of lesson 2.6, "Read your own snapshot": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "peak" { right = "6.125", wrong = "6.28" }  -- wrong: the reserved peak read instead of the requested one
answer "dominant" { right = "2", wrong = "1" }  -- wrong: "the weights and the optimizer state"
answer "setting" { right = "3", wrong = "1" }  -- wrong: expandable segments cannot fit more live bytes than the card holds
answer "predict-expandable" { figure = "simulated", wrong = "3" }  -- allocator model replay; wrong: "expandable segments halve reserved"
answer "predict-step2" { figure = "simulated", wrong = "1.79" }  -- step 2's backward through this backend's allocator; wrong: step 1's, before Adam's state exists
answer "max-since-reset" { right = "2", wrong = { { "1", says = "restarts the peak at what is live now" } } }  -- wrong: "what backward allocated"
answer "leak-step" { right = { "393", "412 MB" }, wrong = { { "1179", says = "over three steps" } } }  -- 1,236,271,104 B / 3 / 2^20
answer "leak-line" { right = "2", wrong = "1" }  -- wrong: "the model allocates more every step"
answer "leak-code" {
  right = [[
-- what grew minus what went, per step; the groups come largest first
function leak(diff, steps)
  return (diff.grown_bytes - diff.gone_bytes) / steps, diff.grown[1] and diff.grown[1].where
end
]],
  wrong = { [[
-- mistake: the growth over all the steps, not per step
function leak(diff, steps)
  return diff.grown_bytes - diff.gone_bytes, diff.grown[1] and diff.grown[1].where
end
]], says = "per step, want" },
}
