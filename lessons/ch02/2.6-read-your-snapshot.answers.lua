-- Reference answers of lesson 2.6, "Read your own snapshot": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "peak" { right = "6.125", wrong = "6.28" }  -- wrong: the reserved peak read instead of the requested one
answer "dominant" { right = "2", wrong = "1" }  -- wrong: "the weights and the optimizer state"
answer "setting" { right = "3", wrong = "1" }  -- wrong: expandable segments cannot fit more live bytes than the card holds
answer "predict-expandable" { figure = "simulated", wrong = "3" }  -- allocator model replay; wrong: "expandable segments halve reserved"
