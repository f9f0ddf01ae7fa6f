-- Reference answers of lesson 1.5, "Why memory management matters": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "del" { right = "2", wrong = "1" }  -- wrong: "reserved and nvidia-smi drop too"
answer "reserved" { figure = "simulated", wrong = "0" }  -- wrong: believing del returns the segment
-- wrong: forgot the fp32 master copy
answer "adam-code" {
  right = [[
-- fp16 weights (2) + fp16 gradients (2) + fp32 master copy (4) + Adam's two fp32 moments (4 + 4)
function adam_bytes(params)
  return (2 + 2 + 4 + 4 + 4) * params
end
]],
  wrong = { [[
-- mistake: forgets the fp32 master copy of the weights (12 bytes per parameter instead of 16)
function adam_bytes(params)
  return (2 + 2 + 4 + 4) * params
end
]], says = "adam_bytes(1) returned 12" },
}
answer "amp" { right = "3", wrong = "2" }  -- wrong: "the model states halve"
answer "checkpoint" { right = { "1000", "1 GB" }, wrong = { { "950", says = "first segment's input" }, { "500", says = "both are held" } } }  -- 10 checkpoints + one segment of 10 layers; wrong: the first input left out; one of the two only
answer "zero3" { right = "14", wrong = "38.5" }  -- 112 GB / 8; wrong: shards only the optimizer states (ZeRO-1)
