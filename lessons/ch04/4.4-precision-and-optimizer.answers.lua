-- Reference answers of lesson 4.4, "Precision and optimizer state": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "amp-states" { right = "2", wrong = "1" }  -- wrong: "they halve: everything is stored in 16 bits"
answer "adam8bit-7b" { right = { "218.75", "219 MB", "0.219 GB" }, wrong = { { "27.34", says = "blocks of 2048" }, { "109.4", says = "own scales" } } }  -- 2 x 7e9/256 x 4 B; wrong: the paper's 2048-value blocks, one state only
answer "predict-amp" { figure = "simulated", wrong = "2" }  -- two steps through the allocator; wrong: "AMP halves memory"
