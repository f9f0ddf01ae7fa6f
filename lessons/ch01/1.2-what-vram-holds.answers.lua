-- Reference answers of lesson 1.2, "What VRAM holds": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "image-fp32" { right = "602.112", wrong = { { "150.528", says = "Off by 4: an fp32 value is 4 bytes" } } }  -- 224*224*3*4 B; wrong: one byte per value
answer "params-mb" { right = { "102.228", "102 MB" }, wrong = { { "25.557", says = "count in millions" }, { "97.49", says = "MB/MiB ratio" } } }  -- wrong: the parameter count in millions taken as MB
answer "dominant" { right = "4", wrong = "1" }  -- wrong: the weights
answer "backward" { right = "2", wrong = "1" }  -- wrong: "every activation gets a gradient"
-- wrong: BatchNorm's running statistics counted as parameters
answer "bottleneck" {
  right = [[
-- three convolutions without bias (cin -> w 1x1, w -> w 3x3, w -> 4w 1x1), a BatchNorm after each
-- (a scale and a shift per channel), and with downsample a 1x1 cin -> 4w shortcut and its BatchNorm
function bottleneck_params(cin, width, downsample)
  local w = width
  return cin * w + w * w * 9 + w * 4 * w + 2 * w + 2 * w + 2 * 4 * w
         + (downsample and cin * 4 * w + 2 * 4 * w or 0)
end
]],
  wrong = { [[
-- mistake: counts BatchNorm's running mean and variance as parameters (4 per channel instead of 2);
-- they are buffers
function bottleneck_params(cin, width, downsample)
  local w = width
  return cin * w + w * w * 9 + w * 4 * w + 4 * w + 4 * w + 4 * 4 * w
         + (downsample and cin * 4 * w + 4 * 4 * w or 0)
end
]], says = "bottleneck_params(64, 64, true) returned 76288" },
}
