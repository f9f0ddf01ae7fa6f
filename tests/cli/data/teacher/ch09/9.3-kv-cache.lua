-- A teacher's lesson: a KV cache's size (tests/cli/data/teacher). Data for the tests that check a
-- teacher's course end to end: tests/cli/exam.sh, course.sh, tests/tui/exam.sh.
return lesson {
  id = "9.3",
  chapter = 9,
  chapter_title = { en = "Class A", zh = "A 班" },
  title = { en = "A KV cache", zh = "KV 缓存" },

  text { en = [[
# A KV cache
Each token keeps a key and a value per layer: 2 x layers x hidden x bytes.
]], zh = [[
# KV 缓存
每个 token 在每一层保存一个键和一个值：2 × 层数 × 隐藏维度 × 字节数。
]] },

  exercise {
    id = "kv-mib", kind = "number", unit = "MiB",
    prompt = { en = "How many MiB does one token's KV cache take, K and V together, with 32 layers, hidden size 4096, fp16?",
               zh = "32 层、隐藏维度 4096、fp16 时，一个 token 的 KV 缓存（K 和 V 合计）占多少 MiB？" },
    answer = 2 * 32 * 4096 * 2 / 2^20, tolerance = 0.01,
    mistakes = { "x2" },
    hints = { { en = "K and V: the factor 2.", zh = "K 和 V：乘以 2。" } },
    explain = { en = "2 x 32 x 4096 x 2 B = 524288 B = 0.5 MiB.", zh = "2 × 32 × 4096 × 2 B = 524288 B = 0.5 MiB。" },
  },

  text { en = [[
> [!source] Sources
> - Llama-2-7B's config: 32 layers, hidden size 4096.
]], zh = [[
> [!source] 出处
> - Llama-2-7B 的配置：32 层，隐藏维度 4096。
]] },
}
