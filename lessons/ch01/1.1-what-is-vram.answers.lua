-- Reference answers of lesson 1.1, "What VRAM is": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "fp16-gib" { right = "13.04", wrong = { { "14", says = "14 is the decimal figure" } } }  -- 14e9 B / 2^30; wrong: the decimal 14 GB read as GiB
answer "adam-gb" { right = "112", wrong = { { "84", says = "84 GB is 12 B/param" } } }  -- 16 B/param; wrong: forgot the fp32 master copy (12 B/param)
answer "fits" { right = "2", wrong = { { "4", says = "The batch size shrinks only the activations" } } }  -- wrong: a batch of 1 does not shrink Adam's 16 B/param
answer "kv-gqa" { right = "4", wrong = { { "16", says = "16 GiB counts the 32 query heads" } } }  -- wrong: 32 query heads instead of the 8 KV heads
answer "capacity" { figure = "simulated", wrong = "1e-6" }  -- the simulated card's capacity
