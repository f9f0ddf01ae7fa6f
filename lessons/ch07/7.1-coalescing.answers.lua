-- Reference answers of lesson 7.1, "Coalescing": for each exercise a right answer and a wrong one
-- (a mistake a learner makes, with what its feedback says), graded by `vramlab check --answers`
-- (docs/lesson-format.md, "Reference answers").

answer "sectors-double" { right = "16", wrong = { { "8", says = "That counts 4-byte words" }, { "512", says = "the bytes the warp spans" },
                                                  { "4", says = "128-byte cache lines" } } }  -- 32 lanes x 16 B = 512 B; wrong: 4-byte words, bytes, lines
answer "efficiency-stride4" { right = { "25", "25 %" }, wrong = { { "75", says = "the share wasted" } } }  -- 128 B used of 512 B moved
answer "predict-stride8" { figure = "simulated", wrong = "1e-6" }  -- gpu.strided at stride 8 on the simulated device
answer "fix-aos" { right = "1", wrong = { { "2", says = "still costs a whole sector" } } }  -- wrong: pad to 64 bytes
answer "sectors-fn" {
  right = [[
function sectors(stride) return math.min(4 * stride, 32) end
]],
  wrong = { [[
function sectors(stride) return 4 * stride end
]], says = "sectors(9) returned 36" },
}
