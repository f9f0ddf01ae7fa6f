-- Reference answers of lesson 6.3, "Unified memory": for each exercise a right answer and a wrong
-- one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "predict-fault-rate" { figure = "simulated", wrong = "900" }  -- a managed pass on the simulated device; wrong: device memory's rate
answer "prefetch-saves" { right = { "390", "390.4 ms", "0.39 s" }, wrong = { { "146.4", says = "how long the prefetch takes" }, { "363.6", says = "GB/GiB" } } }
answer "weights-fault" { right = { "2.33", "2.333 s", "2333 ms" }, wrong = { { "0.333", says = "only the 2 GB that do not fit" } } }
answer "lru" { right = "2", wrong = { { "1", says = "a buffer that fits is fast" } } }
