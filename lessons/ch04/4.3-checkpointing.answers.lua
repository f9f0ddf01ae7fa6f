-- Reference answers of lesson 4.3, "Checkpointing": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "full-cost" { right = "33.3", wrong = "100" }  -- 2 of 6; wrong: "the forward runs twice, so the step doubles"
answer "sqrt-k" { right = "8", wrong = "32" }  -- sqrt(64); wrong: n/2
answer "selective-why" { right = "2", wrong = "1" }  -- wrong: "those ops have no weights"
answer "predict-full" { figure = "simulated", wrong = "2" }  -- through the allocator; wrong: the model states alone
answer "save-on-cpu-ms" { right = { "22.8", "23 ms" }, wrong = { { "11.4", says = "That is one direction" } } }  -- 2 x 285 MB / 25 GB/s
answer "breakeven-link" { right = { "79.7", "80 GB/s" }, wrong = { { "39.9", says = "overlapped break-even" } } }  -- 2A/F
answer "wide-layers" { right = "2", wrong = "1" }  -- wrong: "wide layers save fewer bytes"
