-- Reference answers of lesson 6.1, "Pinned vs pageable memory": for each exercise a right answer
-- and a wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "predict-pageable" { figure = "simulated", wrong = "1e-6" }  -- gpu.copy h2d pageable on the simulated device
answer "pin-rate" { right = { "0.35", "0.35 s", "350 ms" }, wrong = { { "0.326", says = "divides by 8.59 GB" } } }  -- 2.8 s / 8 GiB
answer "breakeven" { right = "6", wrong = { { "5", says = "round up" }, { "9", says = "the difference between pageable and pinned" } } }
answer "pin-everything" { right = "2", wrong = "1" }  -- wrong: pinned memory is slower for the CPU
