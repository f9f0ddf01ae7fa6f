-- Reference answers of lesson 2.1, "cudaMalloc: cost and granularity": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "align" { right = "2", wrong = "4" }  -- wrong: "exactly 2 MiB"
answer "segments" { figure = "simulated", wrong = "200" }  -- wrong: one cudaMalloc per request
answer "context" { right = "536", wrong = { { "792", says = "792 MiB still holds the 256 MiB buffer" } } }  -- 1304-512-256; wrong: forgot the 256 MiB buffer
