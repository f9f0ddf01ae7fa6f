-- Reference answers of lesson 2.4, "Anatomy of an OOM": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "outside" { right = { "0.53", "0.5285 GiB", "541 MiB" }, wrong = { { "0.94", says = "reserved but unallocated are PyTorch's" }, { "0.567", says = "GB/GiB ratio" } } }  -- wrong: forgot the 420 MiB reserved but unallocated
answer "tried" { right = "2", wrong = "3" }  -- wrong: "the driver rounds every allocation to 20 MiB"
answer "context" { figure = "simulated", wrong = "0" }  -- the profile's context; wrong: "no memory"
