-- Reference answers of lesson 7.4, "Pages and TLBs": for each exercise a right answer and a wrong
-- one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "tlb-reach" { right = { "32", "32 MiB" }, wrong = { { "16", says = "16 is the number of entries" } } }  -- 16 x 2 MiB
answer "entries-4k" { right = "262144", wrong = { { "512", says = "512 is with 2 MiB pages" } } }  -- 2^30 / 2^12
answer "predict-1gib" { figure = "simulated", wrong = "1e-6" }  -- gpu.pages on the simulated device
answer "gather" { right = "1", wrong = { { "3", says = "each row starts a new page" } } }  -- TLB misses
