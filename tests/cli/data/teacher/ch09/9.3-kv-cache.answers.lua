-- Reference answers of the teacher's lesson 9.3: `check --answers` fails unless each is graded as
-- it says (tests/cli/exam.sh, course.sh).
answer "kv-mib" { right = { "0.5", "512 KiB" }, wrong = { { "1", says = "factor of 2" } } }
