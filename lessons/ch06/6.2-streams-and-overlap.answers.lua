-- Reference answers of lesson 6.2, "Streams and overlap": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "predict-speedup" { figure = "simulated", wrong = "10" }  -- gpu.program, 1 vs 3 streams; wrong: "the streams multiply"
answer "bpg" { right = { "14", "14 ms", "0.014 s" }, wrong = { { "20", says = "the sequential version" }, { "11", says = "the shorter one that hides" } } }
answer "one-engine" { right = { "1.4", "1.4 x" }, wrong = { { "2.8", says = "with two copy engines" }, { "3", says = "each have an engine of their own" } } }
answer "pageable-overlap" { right = "2", wrong = "1" }  -- wrong: copy engines cannot run with kernels
answer "event-order" { right = "3", wrong = { { "1", says = "every other stream's overlap is lost" } } }
