-- Reference answers of lesson 3.2, "STREAM: sustainable memory bandwidth": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "bytes" { right = "24", wrong = { { "16", says = "16 GB/s counts two arrays" } } }  -- 3 arrays x 8 B x 1e7 / 10 ms; wrong: two arrays
answer "llc" { right = "2", wrong = "1" }  -- wrong: "so the timer has enough ticks"
-- wrong: write-allocate traffic counted
answer "scale-fn" {
  right = [[
-- STREAM counts the arrays each kernel touches, 8 bytes per double: copy and scale two, add and
-- triad three
function stream_bytes(kernel, n)
  local arrays = { copy = 2, scale = 2, add = 3, triad = 3 }
  return arrays[kernel] * 8 * n
end
]],
  wrong = { [[
-- mistake: adds the write-allocate read of the destination array, which STREAM does not count
function stream_bytes(kernel, n)
  local arrays = { copy = 3, scale = 3, add = 4, triad = 4 }
  return arrays[kernel] * 8 * n
end
]], says = " over 1 doubles: got " },
}
