-- Reference answers of lesson 4.5, "Sharding and offload": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "zero2" { right = { "16.64", "17 GB" }, wrong = { { "31.4", says = "That is stage 1" }, { "15.5", says = "GB/GiB ratio" } } }  -- 2psi + 14psi/64; wrong: stage 1's figure (gradients not sharded)
answer "zero3-comm" { right = "3", wrong = "1" }  -- wrong: "none: sharding only changes where the state lives"
answer "breakeven" { right = "4187", wrong = "2093" }  -- 4 F MFU / (6 B); wrong: one direction of the traffic only
answer "predict-pcie" { figure = "simulated", wrong = "1" }  -- copies to the simulated device; wrong: the optimizer swap's order of magnitude
