-- Reference answers of lesson 2.3, "Fragmentation and its cures": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "reserved" { right = "256", wrong = "128" }  -- wrong: the 16 MiB segments reused for 32 MiB requests
answer "expandable" { right = "3", wrong = "1" }  -- wrong: max_split_size_mb
answer "empty" { figure = "model", wrong = "13" }  -- allocator model; wrong: the default's count
