-- An exam of the teacher's course (docs/classroom.md, "Exams"): tests/cli/exam.sh and
-- tests/tui/exam.sh take it, as two students would, and check each one's graded results.
return {
  title = { en = "Quiz: bytes and bandwidth", zh = "测验：字节与带宽" },
  minutes = 20,
  questions = {
    "9.1:weights-gib",
    "9.1:dtype",
    "1.1:fp16-gib",
    "9.2",              -- each of its exercises: predict-bw, copy-ms
    "9.3:kv-mib",
    "9.1:bytes-fn",
  },
  show = "score",
}
