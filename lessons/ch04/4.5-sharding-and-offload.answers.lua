-- Reference answers of lesson 4.5, "Sharding and offload": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "zero2" { right = { "16.64", "17 GB" }, wrong = { { "31.4", says = "That is stage 1" }, { "15.5", says = "GB/GiB ratio" } } }  -- 2psi + 14psi/64; wrong: stage 1's figure (gradients not sharded)
answer "zero3-comm" { right = "3", wrong = "1" }  -- wrong: "none: sharding only changes where the state lives"
answer "breakeven" { right = "4187", wrong = "2093" }  -- 4 F MFU / (6 B); wrong: one direction of the traffic only
answer "predict-pcie" { figure = "simulated", wrong = "1" }  -- copies to the simulated device; wrong: the optimizer swap's order of magnitude
answer "predict-ddp" { figure = "model", wrong = "20.43" }  -- the allocator model's reserved peak; wrong: the live bytes, as if the allocator had no rounding or cache
answer "ddp-buckets" { right = { "2.45", "2.63 GB" }, wrong = { { "0.306", says = "every rank's buckets hold every gradient" }, { "2.63", says = "GB/GiB ratio" } } }  -- 2 B x params / 2^30; wrong: sharded by 8, the GB figure
answer "bucket-view" { right = "2", wrong = { { "1", says = "late in backward, or the optimizer step" } } }  -- wrong: views always save the gradients' size
answer "nccl-ring" { right = { "147", "154 MB" }, wrong = { { "64", says = "Simple protocol's 4 MiB" }, { "9.19", says = "That is one connection" } } }  -- 16 x 9,633,792 B / 2^20
answer "offload-gpu" { right = { "3.84", "3.58 GiB" }, wrong = { { "5.26", says = "streams them to the host" }, { "2.63", says = "The parameters alone" } } }  -- 2 psi + 1e9 + 2 x 50257 x 2048
