-- Reference answers of lesson 7.3, "Shared memory and bank conflicts": for each exercise a right
-- answer and a wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "ways-34" { right = "2", wrong = { { "1", says = "shifts each row by two banks" }, { "16", says = "how many banks" } } }  -- gcd(34, 32); wrong: padding always helps; the banks used
answer "ways-12" { right = "4", wrong = { { "12", says = "gcd(12, 32)" }, { "8", says = "how many banks" } } }  -- wrong: the stride itself; the banks used
answer "naive-slow" { right = "1", wrong = { { "2", says = "uses no shared memory" } } }  -- the uncoalesced stores
answer "predict-padded" { figure = "simulated", wrong = "1e-6" }  -- gpu.transpose padded on the simulated device
