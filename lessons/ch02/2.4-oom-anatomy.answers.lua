-- Reference answers of lesson 2.4, "Anatomy of an OOM": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "outside" { right = { "0.53", "0.5285 GiB", "541 MiB" }, wrong = { { "0.94", says = "reserved but unallocated are PyTorch's" }, { "0.567", says = "GB/GiB ratio" } } }  -- wrong: forgot the 420 MiB reserved but unallocated
answer "tried" { right = "2", wrong = "3" }  -- wrong: "the driver rounds every allocation to 20 MiB"
answer "context" { figure = "simulated", wrong = "0" }  -- the profile's context; wrong: "no memory"
answer "cublas-streams" { right = { "128", "134 MB" }, wrong = { { "32", says = "That is one workspace" } } }  -- 4096 KiB x 8 x 4 streams
answer "context-left" { right = { "255.3", "255 MiB" }, wrong = { { "223.4", says = "688e6 B = 656.1 MiB" }, { "911.4", says = "NCCL's buffers are outside" } } }  -- 0.89 GiB - 688e6 B
answer "inside-reserved" { right = "3", wrong = { { "1", says = "NCCL allocates its buffers itself" } } }  -- wrong: NCCL's buffers
