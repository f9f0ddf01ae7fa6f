-- Reference answers of lesson 2.2, "The caching allocator": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "round" { right = "1024", wrong = { { "1000", says = "1000 B is the request" } } }  -- wrong: no rounding to 512 B
answer "segment" { right = "3", wrong = "2" }  -- wrong: "4 MiB (rounded up to 2 MiB)"
-- wrong: off by one block at exact multiples of 512
answer "code" {
  right = [[
-- round_size in CUDACachingAllocator.cpp: at least 512 bytes, then up to a multiple of 512
function block_size(n)
  return math.max(512, (n + 511) // 512 * 512)
end
]],
  wrong = { [[
-- mistake: an off-by-one in the rounding, so exact multiples of 512 get one block too many
function block_size(n)
  return (n // 512 + 1) * 512
end
]], says = "block_size(512) returned 1024" },
}
