-- Reference answers of lesson 5.5, "Serving within a budget": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "a100" { right = "29", wrong = { { "28", says = "subtracts the CUDA context" }, { "32", says = "90 % of 79.15 GiB" } } }  -- (0.9*79.15-12.55-0.66)/2; wrong: the context subtracted (vLLM ~0.9), the 90 % budget forgotten
answer "swap" { figure = "simulated", wrong = "1" }  -- simulated PCIe copies; wrong: "PCIe is instant"
answer "gpus" { right = "3", wrong = "2" }  -- 4/s * 20 s = 80 in flight / 28; wrong: rounded 2.86 down
answer "recompute" { right = "2", wrong = "1" }  -- wrong: replaying every decode step
answer "graphs" { right = { "86", "86 graphs" }, wrong = { { "51", says = "piecewise ones" }, { "35", says = "full decode graphs only" } } }  -- 51 + 35
answer "fp8-seqs" { right = { "8", "8 seqs" }, wrong = { { "4", says = "fp16's 2 GiB" }, { "9", says = "round down" } } }  -- 8.59 GiB / 1 GiB
answer "smi-full" { right = "2", wrong = { { "1", says = "whole KV pool up front" } } }  -- wrong: "a leak"
