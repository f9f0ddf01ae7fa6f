-- Reference answers of lesson 5.3, "Paged attention": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "reserve" { right = { "24.4", "24 %", "24.37％" }, wrong = { "100", { "16.5", says = "prompt's 161 tokens" }, { "0.244", says = "As a percentage: 24.4 %?" } } }  -- (161+338)/2048; wrong: counted the reservation as used
answer "last-block" { right = "8", wrong = "16" }  -- ceil(1000/16)*16-1000; wrong: "a whole block is wasted"
answer "concurrency" { figure = "simulated", wrong = "8" }  -- serve_sim, a model; wrong: the contiguous figure
answer "why-block" { right = "2", wrong = "1" }  -- wrong: blocks taken for cudaMalloc calls
