-- A teacher's lesson: a predict exercise measured on the device (tests/cli/data/teacher).
return lesson {
  id = "9.2",
  chapter = 9,
  chapter_title = { en = "Class A", zh = "A 班" },
  title = { en = "Device copies", zh = "设备内拷贝" },
  requires = { "gpu" },

  text { en = [[
# Device copies
A copy inside device memory reads and writes every byte: its rate is bounded by the memory's.
]], zh = [[
# 设备内拷贝
显存内的拷贝要读写每一个字节：速率受显存带宽限制。
]] },

  exercise {
    id = "predict-bw", kind = "predict", unit = "GB/s",
    prompt = { en = "Predict the bandwidth of a 64 MiB device-to-device copy on this GPU, in GB/s (bytes copied per second).",
               zh = "预测本 GPU 上 64 MiB 设备到设备拷贝的带宽，单位 GB/s（每秒拷贝的字节数）。" },
    measure = function()
      local r = assert(gpu.copy { dir = "d2d", bytes = "64MiB" })
      return r.bytes_per_s / 1e9, r
    end,
    hints = { { en = "gpu.info() gives the memory's peak.", zh = "gpu.info() 给出显存峰值。" } },
    explain = { en = "About half the memory's peak: each byte is read and written.", zh = "大约是显存峰值的一半：每个字节读一次、写一次。" },
  },

  experiment {
    id = "copy",
    title = { en = "One device copy", zh = "一次设备内拷贝" },
    panels = { { id = "bw", kind = "bars", title = { en = "Bandwidth", zh = "带宽" }, unit = "GB/s" } },
    run = function(ex)
      local r = assert(gpu.copy { dir = "d2d", bytes = "64MiB" })
      ex:bar("bw", ex:t { en = "64 MiB copy", zh = "64 MiB 拷贝" }, r.bytes_per_s / 1e9, { from = r })
    end,
  },

  exercise {
    id = "copy-ms", kind = "number", unit = "ms",
    prompt = { en = "How many ms does copying 1 GiB take at 500 GB/s?", zh = "以 500 GB/s 拷贝 1 GiB 需要多少毫秒？" },
    answer = 2^30 / 500e9 * 1e3, tolerance = 0.03,
    mistakes = { "gib_gb" },
    hints = { { en = "Time = bytes / rate.", zh = "时间 = 字节数 / 速率。" } },
    explain = { en = "2^30 B / 500e9 B/s = 2.147 ms.", zh = "2^30 B / 500e9 B/s = 2.147 ms。" },
  },

  text { en = [[
> [!source] Sources
> - The experiment above, gpu.copy.
]], zh = [[
> [!source] 出处
> - 上面的实验，gpu.copy。
]] },
}
