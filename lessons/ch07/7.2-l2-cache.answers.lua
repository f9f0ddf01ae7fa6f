-- Reference answers of lesson 7.2, "The L2 cache": for each exercise a right answer and a wrong
-- one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "reuse-fit" { right = { "25", "25 MiB" }, wrong = { { "50", says = "the reuse distance is twice the table" } } }  -- 2 x table <= 50 MiB
answer "hit-ratio" { right = { "0.625", "0.63" }, wrong = { { "1.6", says = "set-aside / window" } } }  -- 30 / 48; wrong: inverted
answer "predict-l2" { figure = "simulated", wrong = "1e-6" }  -- gpu.reread over half the simulated L2
answer "memory-bound" { right = "2", wrong = { { "1", says = "only the bytes that come from DRAM" } } }  -- the L2's roof
