-- Reference answers of lesson 4.4, "Precision and optimizer state": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "amp-states" { right = "2", wrong = "1" }  -- wrong: "they halve: everything is stored in 16 bits"
answer "adam8bit-7b" { right = "70.2", wrong = "56" }  -- 10.03 B/param; wrong: the fp32 master copy forgotten (8 B/param)
answer "predict-amp" { figure = "simulated", wrong = "2" }  -- two steps through the allocator; wrong: "AMP halves memory"
