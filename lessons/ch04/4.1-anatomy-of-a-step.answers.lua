-- Reference answers of lesson 4.1, "Anatomy of a step": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "states" { right = "20.8", wrong = "15.6" }  -- 16 B/param x 1.3e9; wrong: forgot the fp32 master copy (12 B/param)
answer "where-peak" { right = "3", wrong = "2" }  -- wrong: "at the end of backward, when all the gradients exist"
answer "predict-reserved" { figure = "simulated", wrong = "4200" }  -- the caching allocator on the simulated card; wrong: "twice the live peak"
