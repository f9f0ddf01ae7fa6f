-- A teacher's course (docs/classroom.md, "A course of one's own"): the class sees these sections,
-- in this order, built-in or the teacher's; tests/cli/course.sh and exam.sh use it and check that
-- the menu, list, progress and exams follow it.
return {
  title = { en = "GPU memory in four sections", zh = "四节课讲 GPU 显存" },
  sections = { "9.1", "1.1", "9.2", "9.3" },
  cap = "2GiB",
}
