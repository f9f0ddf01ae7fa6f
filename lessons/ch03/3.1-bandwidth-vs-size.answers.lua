-- Reference answers of lesson 3.1, "Bandwidth vs transfer size": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "nhalf" { right = "250", wrong = { { "250000", says = "That is off by a factor of 1000" } } }  -- t0*B; wrong: answered in bytes, not KB
answer "pinned" { right = "2", wrong = "1" }  -- wrong: "a slower DIMM"
answer "predict-h2d" { figure = "simulated", wrong = "1e-6" }  -- a copy to the simulated device
