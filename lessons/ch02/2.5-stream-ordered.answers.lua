-- Reference answers of lesson 2.5, "Stream-ordered allocation": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "default" { right = "2", wrong = "1" }  -- wrong: "the pool keeps it until exit"
answer "maps" { right = "100", wrong = "1" }  -- wrong: believing the pool keeps the 1 GiB
-- wrong: threshold 0 taken for "no limit"
answer "keep" {
  right = [[
-- cudaMemPoolAttrReleaseThreshold = UINT64_MAX: never release at synchronisation
function keep_memory(pool)
  pool:set_release_threshold("max")
end
]],
  wrong = { [[
-- mistake: takes a threshold of 0 for "no limit"; 0 is the default, which releases everything
function keep_memory(pool)
  pool:set_release_threshold(0)
end
]], says = "the pool mapped memory 10 times in 10 iterations" },
}
