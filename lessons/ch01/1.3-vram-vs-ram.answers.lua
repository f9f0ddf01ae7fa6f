-- Reference answers of lesson 1.3, "VRAM vs system RAM": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "ratio" { right = "37.44", wrong = "30" }  -- 936/25; wrong: the lecture's rounded "1/30"
answer "path" { right = "2", wrong = "1" }  -- wrong: the DDR bandwidth
answer "predict-ram" { figure = "measured", wrong = "1e-6" }  -- STREAM triad on the host: real on the simulator
