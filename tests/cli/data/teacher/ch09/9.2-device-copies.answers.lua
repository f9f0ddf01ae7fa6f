-- Reference answers of the teacher's lesson 9.2: `check --answers` fails unless each is graded as
-- it says (the predict against this machine's simulated figure; tests/cli/exam.sh, course.sh).
answer "predict-bw" { figure = "simulated", wrong = "1e-6" }
answer "copy-ms" { right = { "2.147", "0.002147 s" }, wrong = { { "2", says = "GB/GiB ratio" } } }
