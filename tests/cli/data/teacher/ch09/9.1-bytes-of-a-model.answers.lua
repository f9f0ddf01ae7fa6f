-- Reference answers of the teacher's lesson 9.1: `check --answers` fails unless each right one is
-- graded right and each wrong one wrong with its message (tests/cli/exam.sh, course.sh).
answer "weights-gib" { right = { "5.588", "6 GB" }, wrong = { { "6", says = "6 is the decimal figure" } } }
answer "dtype" { right = "2", wrong = { { "1", says = "fp16 is 2 bytes" } } }
answer "bytes-fn" {
  right = "function weight_bytes(p, b) return p * b end",
  wrong = { "function weight_bytes(p, b) return p + b end", says = "should be 6e9" },
}
