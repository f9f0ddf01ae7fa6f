-- A wrong answer (a fixture, not a test): tests/cli/grade.sh checks that the lesson grades it wrong.
-- mistake: counts BatchNorm's running mean and variance as parameters (4 per channel instead of 2);
-- they are buffers
function bottleneck_params(cin, width, downsample)
  local w = width
  return cin * w + w * w * 9 + w * 4 * w + 4 * w + 4 * w + 4 * 4 * w
         + (downsample and cin * 4 * w + 4 * 4 * w or 0)
end
