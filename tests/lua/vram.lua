-- The `vram` estimators against figures known independently of this code: published parameter
-- counts, model configurations, the ZeRO paper's worked example and vendors' bandwidth figures.
local function eq(a, b, what) assert(a == b, what .. ": got " .. tostring(a) .. ", want " .. tostring(b)) end
local function near(a, b, rel, what)
  assert(math.abs(a - b) <= rel * math.abs(b), what .. ": got " .. tostring(a) .. ", want " .. tostring(b))
end
local function raises(pattern, f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "expected an error matching '" .. pattern .. "'")
  assert(tostring(err):find(pattern), "error '" .. tostring(err) .. "' does not match '" .. pattern .. "'")
end

-- data types
eq(vram.dtype_bytes("fp32"), 4, "fp32"); eq(vram.dtype_bytes("float32"), 4, "float32")
eq(vram.dtype_bytes("fp16"), 2, "fp16"); eq(vram.dtype_bytes("BF16"), 2, "bf16 (case-insensitive)")
eq(vram.dtype_bytes("fp8"), 1, "fp8"); eq(vram.dtype_bytes("int8"), 1, "int8")
eq(vram.dtype_bytes("int4"), 0.5, "int4"); eq(vram.dtype_bytes("fp64"), 8, "fp64")
raises("unknown data type 'fp12' %(valid: fp64, fp32", vram.dtype_bytes, "fp12")
raises("expected a type name", vram.dtype_bytes, 4)

-- weights: 7B parameters in fp16 = 14e9 bytes = 13.04 GiB
eq(vram.weights { params = 7e9, dtype = "fp16" }, 14e9, "7B fp16")
eq(vram.weights { params = 7e9, dtype = "fp32" }, 28e9, "7B fp32")
eq(vram.weights { params = 7e9, dtype = "int4" }, 3.5e9, "7B int4")
eq(string.format("%.2f", vram.weights { params = 7e9, dtype = "fp16" } / 2^30), "13.04", "13.04 GiB")
raises("'params' must be a positive number", vram.weights, { params = -1 })
raises("unknown option 'param'", vram.weights, { param = 7e9 })
raises("unknown dtype", vram.weights, { params = 1, dtype = "fp7" })

-- training state: mixed-precision Adam = 16 bytes/param (ZeRO: 2 + 2 + 12)
local mp = vram.training { params = 7e9, dtype = "fp16", optimizer = "adam", mixed_precision = true }
eq(mp.weights, 14e9, "mp weights"); eq(mp.gradients, 14e9, "mp grads")
eq(mp.master_weights, 28e9, "mp master"); eq(mp.optimizer, 56e9, "mp adam m+v")
eq(mp.total, 112e9, "mp total"); eq(mp.bytes_per_param, 16, "16 B/param")
eq(vram.training { params = 1, mixed_precision = true }.dtype, "fp16", "mp defaults to fp16")
eq(vram.training { params = 1, dtype = "bf16", mixed_precision = true }.total, 16, "bf16 mp adam")
local f32 = vram.training { params = 1e6, dtype = "fp32", optimizer = "adam" }
eq(f32.total, 16e6, "fp32 adam 4+4+8"); eq(f32.master_weights, 0, "no master copy in fp32")
eq(vram.training { params = 1, dtype = "fp32", optimizer = "sgd" }.total, 8, "fp32 sgd 4+4")
eq(vram.training { params = 1, dtype = "fp32", optimizer = "sgd_momentum" }.total, 12, "fp32 momentum 4+4+4")
eq(vram.training { params = 1, mixed_precision = true, optimizer = "sgd_momentum" }.total, 12, "mp momentum 2+2+4+4")
eq(vram.training { params = 1, mixed_precision = true, optimizer = "sgd" }.total, 8, "mp sgd 2+2+4")
eq(vram.training { params = 1, dtype = "bf16", optimizer = "adam" }.total, 8, "pure bf16 adam 2+2+4")
eq(vram.training { params = 7e9, dtype = "fp16", optimizer = "sgd" }.total, 28e9, "fp16 sgd 7B")
raises("unknown optimizer 'lamb'", vram.training, { params = 1, optimizer = "lamb" })
raises("mixed_precision needs dtype fp16 or bf16", vram.training, { params = 1, dtype = "fp32", mixed_precision = true })

-- ZeRO, Rajbhandari et al. 2020, figure 1: 7.5B parameters on 64 GPUs
local P = 7.5e9
eq(vram.zero { params = P, gpus = 64, stage = 0 }, 120e9, "baseline 120 GB")
near(vram.zero { params = P, gpus = 64, stage = 1 }, 31.4e9, 0.002, "P_os 31.4 GB")
near(vram.zero { params = P, gpus = 64, stage = 2 }, 16.6e9, 0.003, "P_os+g 16.6 GB")
near(vram.zero { params = P, gpus = 64, stage = 3 }, 1.9e9, 0.02, "P_os+g+p 1.9 GB")
raises("'stage' must be 0, 1, 2 or 3", vram.zero, { params = P, gpus = 8, stage = 4 })

-- KV cache: Llama-2-7B (32 layers, 32 KV heads, head_dim 128) at 4096 tokens, fp16, batch 1 = 2 GiB
eq(vram.kv_cache { layers = 32, kv_heads = 32, head_dim = 128, tokens = 4096, batch = 1, dtype = "fp16" },
   2147483648, "Llama-2-7B KV cache")
-- Llama-3-8B: grouped-query attention, 8 KV heads -> a quarter: 512 MiB
eq(vram.kv_cache { layers = 32, kv_heads = 8, head_dim = 128, tokens = 4096 }, 512 * 2^20, "Llama-3-8B KV cache")
eq(vram.kv_cache { layers = 32, kv_heads = 8, head_dim = 128, tokens = 4096, batch = 4, dtype = "fp8" }, 2^30, "batch x fp8")
raises("'tokens' must be a whole number", vram.kv_cache, { layers = 32, kv_heads = 8, head_dim = 128, tokens = 10.5 })
raises("'layers' must be a positive number", vram.kv_cache, { kv_heads = 8, head_dim = 128, tokens = 10 })

-- ResNet-50: torchvision's resnet50 has 25,557,032 parameters
local r = vram.resnet50 { batch = 64, dtype = "fp32", training = true }
eq(r.params, 25557032, "ResNet-50 parameters")
eq(r.param_bytes, 25557032 * 4, "fp32 weights")
eq(r.buffers, 53120, "BN running mean + var")
eq(r.input_bytes, 64 * 3 * 224 * 224 * 4, "input batch")
eq(r.gradient_bytes, r.param_bytes, "weight gradients = weights")
eq(r.optimizer_bytes, r.param_bytes, "SGD momentum: one buffer")
eq(vram.resnet50 { optimizer = "adam" }.optimizer_bytes, 2 * r.param_bytes, "Adam: two buffers")
-- layer shapes and parameter sums per layer
local params, by_name = 0, {}
for _, l in ipairs(r.layers) do params = params + l.params; by_name[l.name] = l end
eq(params, 25557032, "sum of per-layer params")
eq(table.concat(by_name.conv1.shape, "x"), "64x112x112", "conv1 out")
eq(table.concat(by_name.maxpool.shape, "x"), "64x56x56", "maxpool out")
eq(table.concat(by_name["layer2.0.conv2"].shape, "x"), "128x28x28", "stride in the 3x3 (v1.5)")
eq(table.concat(by_name["layer4.2.relu3"].shape, "x"), "2048x7x7", "last block")
eq(by_name.fc.params, 2048 * 1000 + 1000, "fc weight + bias")
eq(by_name.conv1.params, 3 * 64 * 49, "conv1 no bias")

-- saved activations, recomputed here from the counting rules stated in vram.resnet50's comment
local function saved_per_image()
  local e = 64 * 112 * 112 * 2 + 64 * 56 * 56 -- conv1 out, relu out (in place over bn1), maxpool out
  local idx = 64 * 56 * 56                    -- maxpool argmax indices, int64
  local hin = 56
  for li, w in ipairs { 64, 128, 256, 512 } do
    local n = ({ 3, 4, 6, 3 })[li]
    local h = li == 1 and 56 or hin // 2
    -- block 1: conv1 at the input resolution, stride in conv2, plus the downsample conv output
    e = e + 2 * w * hin * hin + 2 * w * h * h + 2 * 4 * w * h * h + 4 * w * h * h
    e = e + (n - 1) * (2 * w * h * h + 2 * w * h * h + 2 * 4 * w * h * h)
    hin = h
  end
  e = e + 2048 + 1000 -- fc input, log_softmax output
  return e, idx
end
local e, idx = saved_per_image()
eq(r.activation_bytes, 64 * (4 * e + 8 * idx), "saved activations, fp32 batch 64")
near(r.activation_bytes, 5.46e9, 0.001, "about 5.46 GB")
eq(r.largest_bytes, 64 * 256 * 56 * 56 * 4, "largest tensor: layer1 output")
eq(r.total, 3 * r.param_bytes + r.input_bytes + r.activation_bytes, "training total, SGD momentum: w + g + m")
local h = vram.resnet50 { batch = 64, dtype = "fp16" }
eq(h.activation_bytes, 64 * (2 * e + 8 * idx), "fp16 activations; indices stay int64")
eq(h.param_bytes + h.gradient_bytes + h.master_bytes + h.optimizer_bytes, 25557032 * 12, "mp momentum 12 B/param")
-- inference: peak of live tensors in layer1.0's downsample: bn3 out, downsample conv, its BN
-- (3 x 256 channels) and the block input (64 channels), which Bottleneck.forward holds to its end
local inf = vram.resnet50 { batch = 64, training = false }
eq(inf.activation_bytes, 64 * (3 * 256 + 64) * 56 * 56 * 4, "inference peak")
near(inf.activation_bytes, 668e6, 0.001, "about 668 MB")
eq(inf.total, inf.param_bytes + inf.input_bytes + inf.activation_bytes, "inference total")
assert(inf.activation_bytes < r.activation_bytes / 8, "training keeps far more than inference")
raises("'batch' must be a whole number", vram.resnet50, { batch = 0.5 })
raises("'training' must be true or false", vram.resnet50, { training = "yes" })

-- checkpointing: 16 equal layers in 4 segments keep 3 boundaries + recompute 4 layers
local c = vram.checkpointing { activations = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 } }
eq(c.segments, 4, "sqrt(16)"); eq(c.kept, 3, "boundaries"); eq(c.recompute, 4, "one segment")
eq(c.peak, 7, "2 sqrt(L) - 1"); eq(c.full, 16, "no checkpointing")
eq(vram.checkpointing { activations = { 5, 1, 1 }, segments = 3 }.peak, 5 + 1 + 5, "uneven layers")
raises("'segments' must be a whole number from 1 to 3", vram.checkpointing, { activations = { 1, 1, 1 }, segments = 4 })

-- memory generations: peak = bus/8 x per-pin rate, within 1 % of every published figure
eq(vram.peak(384, 21), 1008e9, "RTX 4090 peak 1008 GB/s")
eq(vram.peak(256, 10), 320e9, "GTX 1080 320 GB/s")
local rows = vram.memory_types()
assert(#rows >= 14, "memory table rows")
local seen = {}
for _, m in ipairs(rows) do
  seen[m.name] = true
  near(m.peak_bytes_per_s, m.published_gbs * 1e9, 0.01, m.card .. " peak vs published")
  assert(type(m.source) == "string" and #m.source > 20, m.card .. " has a source")
  assert(m.year >= 2014 and m.year <= 2025 and m.bus_bits % 32 == 0, m.card .. " year/bus")
end
for _, g in ipairs { "GDDR5", "GDDR5X", "GDDR6", "GDDR6X", "GDDR7", "HBM", "HBM2", "HBM2e", "HBM3", "HBM3e", "LPDDR5", "LPDDR5X" } do
  assert(seen[g], "memory table lacks " .. g)
end
rows[1].gbps = 1e9 -- a copy: the module's own data is untouched
assert(vram.memory_types()[1].gbps == 7.0, "memory_types hands out copies")
eq(vram.both(14e9), "14 GB (13.04 GiB)", "both")

-- the module exposes only functions (no tables a lesson could use to reach trusted state)
for k, v in pairs(vram) do assert(type(v) == "function", "vram." .. k .. " is a " .. type(v)) end
print("vram: all checks passed")
