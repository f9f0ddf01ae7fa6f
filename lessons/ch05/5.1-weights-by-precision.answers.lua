-- Reference answers of lesson 5.1, "Weights by precision": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "bits" { right = { "0.156", "0.16 bit" }, wrong = { { "0.125", says = "the scale alone" }, "4.156" } }  -- 16/128 + 4/128; wrong: the zero point forgotten; the whole weight's bits
answer "load" { right = "2", wrong = "1" }  -- wrong: optimizer states at load time
answer "context" { figure = "simulated", wrong = "1000" }  -- from the simulated device's free memory
