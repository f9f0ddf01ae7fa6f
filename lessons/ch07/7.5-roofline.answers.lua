-- Reference answers of lesson 7.5, "The roofline of a kernel": for each exercise a right answer
-- and a wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "soa-intensity" { right = { "0.3125", "0.31" }, wrong = { { "0.4167", says = "The bytes written count too" } } }  -- 5 / 16
answer "ridge-3090" { right = { "38", "38.0" }, wrong = { { "75.9", says = "FP16 tensor-core ridge" } } }  -- 35.6e12 / 936e9
answer "fmas-ridge" { right = "152", wrong = { { "304", says = "An FMA is two FLOPs" } } }  -- 2k / 8 = 38
answer "predict-soa" { figure = "simulated", wrong = "1e-6" }  -- gpu.layout soa on the simulated device
answer "decode-side" { right = "1", wrong = { { "2", says = "38 times left of the ridge" } } }  -- the memory side
