-- Reference answers of lesson 4.2, "Activation memory of a transformer": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "gpt3-layer" { right = "2.87", wrong = "0.856" }  -- sbh x 114; wrong: 34sbh only, the attention scores forgotten
answer "crossover" { right = "870", wrong = "6.8" }  -- 34h/(5a); wrong: the ratio s/d, not s
answer "flash" { right = "2", wrong = "1" }  -- wrong: "all of them: it recomputes the whole layer"
answer "predict-double" { figure = "simulated", wrong = "2" }  -- two steps through the allocator; wrong: "linear in s"
