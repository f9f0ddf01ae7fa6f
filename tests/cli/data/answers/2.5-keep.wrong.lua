-- A wrong answer (a fixture, not a test): tests/cli/grade.sh checks that the lesson grades it wrong.
-- mistake: takes a threshold of 0 for "no limit"; 0 is the default, which releases everything
function keep_memory(pool)
  pool:set_release_threshold(0)
end
