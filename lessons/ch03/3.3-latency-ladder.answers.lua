-- Reference answers of lesson 3.3, "The latency ladder": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "little" { right = "1", wrong = { { "1000", says = "That is off by a factor of 1000" } } }  -- 2e12 B/s x 500e-9 s = 1e6 B; wrong: answered in KB
answer "why-random" { right = "1", wrong = "2" }  -- wrong: "random addresses are faster to compute"
answer "predict-dram" { figure = "measured", wrong = "1e-6" }  -- pointer chase on the host: real on the simulator
