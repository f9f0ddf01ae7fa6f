-- Reference answers of lesson 5.4, "Decode is bandwidth-bound": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "h100" { right = "248.5", wrong = "74900" }  -- 3.35e12/13.48e9; wrong: from the FLOP/s (989.4e12 / 2 / 6.6e9)
answer "ridge" { right = "295", wrong = "0.0034" }  -- 989.4e12/3.35e12; wrong: bandwidth over FLOP/s
answer "predict-decode" { figure = "simulated", wrong = "10" }  -- the simulated device's dot bandwidth
answer "batch" { right = "2", wrong = "3" }  -- wrong: "decode was short of FLOP/s"
answer "fraction-a100" { right = { "69.3", "69 %" }, wrong = { { "83.2", says = "1,700 GB/s" } } }  -- 104.9 / (2039/13.48)
answer "tp-weights" { right = { "32.12", "34.5 GB" }, wrong = { { "128.5", says = "That is the whole model" } } }  -- 2 B x 68.98e9 / 4 / 2^30
answer "tp-fraction" { right = "2", wrong = "1" }  -- wrong: "each GPU reads the whole model"
