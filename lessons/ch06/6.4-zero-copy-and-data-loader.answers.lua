-- Reference answers of lesson 6.4, "Zero-copy and the data loader": for each exercise a right answer
-- and a wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "predict-zerocopy" { figure = "simulated", wrong = "900" }  -- a mapped read on the simulated device; wrong: device memory's rate
answer "mapped-read" { right = { "11.18", "11.2 ms", "0.01118 s" }, wrong = { { "10.67", says = "MB/MiB" } } }  -- 256 MiB / 24 GB/s
answer "busy-share" { right = { "46.9", "46.9 %" }, wrong = { { "23.4", says = "two workers prepare two batches" }, { "19", says = "as if nothing overlapped" } } }
answer "workers-needed" { right = "5", wrong = { { "4", says = "round up" } } }
answer "zerocopy-when" { right = "2", wrong = { { "1", says = "crosses PCIe again" } } }
