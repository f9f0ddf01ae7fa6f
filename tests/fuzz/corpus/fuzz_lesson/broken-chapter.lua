return lesson {
  id = "9.2",
  chapter = "nine",
}
