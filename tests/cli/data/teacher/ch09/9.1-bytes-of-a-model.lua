-- A teacher's lesson: sizes of a model's weights (tests/cli/data/teacher).
local GiB = units.GiB
return lesson {
  id = "9.1",
  chapter = 9,
  chapter_title = { en = "Class A", zh = "A 班" },
  title = { en = "Bytes of a model", zh = "模型的字节数" },

  text { en = [[
# Bytes of a model
A model's weights take its parameter count times the bytes of one value: 2 for fp16, 4 for fp32.
]], zh = [[
# 模型的字节数
模型权重占的字节数是参数个数乘以每个数值的字节数：fp16 是 2，fp32 是 4。
]] },

  exercise {
    id = "weights-gib", kind = "number",
    prompt = { en = "How many **GiB** do the fp16 weights of a 3e9-parameter model take?",
               zh = "30 亿（3e9）参数模型的 fp16 权重占多少 **GiB**？" },
    answer = 6e9 / GiB, unit = "GiB", tolerance = 0.01,
    mistakes = { { value = 6, say = { en = "6 is the decimal figure, 6e9 B / 10^9 = 6 GB; a GiB is 2^30 B.",
                                      zh = "6 是十进制的数字：6e9 B / 10^9 = 6 GB；1 GiB 是 2^30 B。" } } },
    hints = { { en = "Bytes first: 3e9 values of 2 bytes each.", zh = "先算字节：3e9 个数值，每个 2 字节。" } },
    explain = { en = "3e9 x 2 B = 6e9 B = 5.588 GiB.", zh = "3e9 × 2 B = 6e9 B = 5.588 GiB。" },
  },

  exercise {
    id = "dtype", kind = "choice",
    prompt = { en = "Which type takes 4 bytes a value?", zh = "哪种类型每个数值占 4 字节？" },
    choices = { { en = "fp16", zh = "fp16" }, { en = "fp32", zh = "fp32" }, { en = "int8", zh = "int8" } },
    answer = 2,
    why = { [1] = { en = "fp16 is 2 bytes.", zh = "fp16 是 2 字节。" } },
    hints = { { en = "The number is in bits.", zh = "数字是位数。" } },
    explain = { en = "fp32: 32 bits, 4 bytes.", zh = "fp32：32 位，即 4 字节。" },
  },

  exercise {
    id = "bytes-fn", kind = "code", entry = "weight_bytes",
    prompt = { en = "Write `weight_bytes(params, bytes_per_value)`: the bytes the weights take.",
               zh = "编写 `weight_bytes(params, bytes_per_value)`：权重占的字节数。" },
    starter = "function weight_bytes(params, bytes_per_value)\n  return 0\nend\n",
    check = function(fn)
      if fn(3e9, 2) ~= 6e9 then return false, { en = "weight_bytes(3e9, 2) should be 6e9", zh = "weight_bytes(3e9, 2) 应为 6e9" } end
      return true
    end,
    hints = { { en = "Multiply.", zh = "相乘。" } },
    explain = { en = "params x bytes_per_value.", zh = "params × bytes_per_value。" },
  },

  text { en = [[
> [!source] Sources
> - IEEE 754: binary16 and binary32 are 16 and 32 bits.
]], zh = [[
> [!source] 出处
> - IEEE 754：binary16 和 binary32 分别是 16 位和 32 位。
]] },
}
