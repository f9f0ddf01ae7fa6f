-- Lesson 1.2: what VRAM holds. Source: the lecture's section 1.2 (model, data, intermediate
-- results; the ResNet-50 example), with ResNet-50 counted from its architecture by vram.resnet50
-- and its training step replayed as real allocations in a live memory map.
local MiB, GiB = units.MiB, units.GiB
local BATCH = 64
local STAGES = { "stem", "layer1", "layer2", "layer3", "layer4", "head" }

-- per-stage sums over vram.resnet50's per-op list
local function by_stage(r)
  local s = {}
  for _, name in ipairs(STAGES) do s[name] = { params = 0, saved = 0, blocks = 0 } end
  for _, l in ipairs(r.layers) do
    local e = s[l.stage]
    e.params = e.params + l.params
    e.saved = e.saved + l.saved_bytes
    e.shape = l.shape -- the last op's output: what the stage hands on
    if l.kind == "add" then e.blocks = e.blocks + 1 end
  end
  return s
end

local function shape_str(sh) return table.concat(sh, "x") end
local function commas(n)
  local s = string.format("%d", n)
  local out = s:reverse():gsub("(%d%d%d)", "%1,"):reverse()
  return (out:gsub("^,", ""))
end

return lesson {
  id = "1.2",
  chapter = 1,
  chapter_title = { en = "VRAM basics", zh = "显存基础概念" },
  title = { en = "What VRAM holds", zh = "显存到底在干什么活" },
  requires = { "gpu" },

  text { en = [[
# What VRAM holds

The lecture sums up VRAM's job as three things:

- **The model**: the network's weights and biases live in VRAM (and, when training, their gradients
  and the optimizer's state).
- **The data**: the training batch, the inputs and outputs of inference.
- **Intermediate results**: the activations of the forward pass and the gradients of the backward
  pass. These temporary tensors are the hungriest of all.

Why must all of it sit in VRAM? The lecture: "the GPU computes too fast to wait for data crawling
over from system memory. VRAM must have the data ready ahead of time, within arm's reach of the
GPU. That is the reason VRAM exists: **to remove the data-movement bottleneck**."

> [!errata] VRAM prepares nothing; prefetching and overlap do
> - Memory is storage: it holds what was copied into it and fetches nothing by itself. Every step's batch still has to cross PCIe from system RAM. What hides that copy is **overlap**: while the GPU computes step k, step k+1's batch is already being prepared and copied.
> - In PyTorch: `DataLoader(num_workers=N)` decodes and augments the next batches in worker processes, each keeping `prefetch_factor` batches ready (2 by default); `pin_memory=True` puts them in page-locked memory, which a copy engine reads by DMA; `x.to("cuda", non_blocking=True)` queues the copy on a stream and lets the CPU go on.
> - With numbers: the batch of 64 images below is 38.5 MB in fp32 (9.6 MB as uint8, normalised on the GPU). A PCIe 4.0 x16 link carries at most 31.5 GB/s per direction, and nvbandwidth measures 24 to 26 GB/s host to device on RTX 4090s: about 1.5 ms for the fp32 batch, 0.4 ms for the uint8 one. Overlapped with a step that computes for longer, the copy costs nothing; not overlapped, it is paid every step.
> - What VRAM really buys is bandwidth next to the GPU: 936 GB/s on an RTX 3090 against PCIe's 31.5 (lesson 1.3).
> - Source: PyTorch docs, `torch.utils.data.DataLoader` (`num_workers`, `prefetch_factor`, `pin_memory`) and "CUDA semantics: Use pinned memory buffers" (`non_blocking`); CUDA C++ Programming Guide, "Asynchronous Concurrent Execution"; NVIDIA nvbandwidth issue #15 (RTX 4090, host_to_device_memcpy_ce 23.9 to 26.4 GB/s).

## The lecture's example: ResNet-50 at batch 64
"Train a ResNet-50 in PyTorch with batch size 64. The model parameters are about 25 MB, but one
224x224 RGB image is 150 KB, 64 of them 9.6 MB. Add each layer's activations and the forward pass
easily reaches a few hundred MB. The backward pass stores gradients too, doubling it."

Those figures need checking, so this lesson counts ResNet-50 from its architecture
(torchvision's `resnet50`): a 7x7/2 convolution and a 3x3/2 max pool, then four stages of
bottleneck blocks, [3, 4, 6, 3] of them, 64/128/256/512 channels wide and 4x that at each block's
output, then global average pooling and a 2048 -> 1000 fully-connected layer. Parameters are the
convolution weights (no biases), each BatchNorm's gamma and beta, and the fc weight and bias.
A BatchNorm's running mean and variance are **buffers**, not parameters (53,120 values).

## What "activations" means here
For training, autograd must **keep** some tensors of the forward pass until the backward pass uses
them. The count below keeps, once per storage:

- every convolution's input and every BatchNorm's input (the convolution output);
- every ReLU's output; torchvision's ReLU is in place, so it overwrites the BatchNorm output and is
  the same storage as the next convolution's input;
- the max pool's input and its argmax indices (int64, 8 bytes each whatever the dtype);
- the fc input and the loss's log-softmax output.

Adds (`out += identity`) keep nothing. Not counted: cuDNN workspaces and allocator rounding. For
inference (`torch.no_grad()`) nothing is kept; the count is instead the peak of tensors alive at
the same moment, each freed after its last use.
]], zh = [[
# 显存到底在干什么活

讲义把显存的作用总结成三件事：

- **存模型**：神经网络的权重、偏置全在显存里待着（训练时还有它们的梯度和优化器状态）。
- **存数据**：训练用的 batch 数据、推理用的输入输出，也得放显存。
- **存中间结果**：前向传播的激活值、反向传播的梯度，这些临时数据最吃显存。

为什么这些东西都得放在显存里？讲义说：“因为 GPU 的计算速度太快了，它不能等数据从内存慢慢搬过来。显存必须提前把数据准备好，GPU 伸手就能拿到。这就是显存存在的根本原因——**消除数据搬运的瓶颈**。”

> [!errata] 显存不会“准备”数据，靠的是预取和重叠
> - 显存只是存储：拷进去什么就存什么，自己不会去取任何东西。每一步的 batch 照样要从系统内存经 PCIe 拷过来。能把这次拷贝藏起来的是**重叠**：GPU 计算第 k 步时，第 k+1 步的 batch 已经在准备、在拷贝了。
> - 在 PyTorch 里：`DataLoader(num_workers=N)` 用工作进程解码、增强后面的 batch，每个进程预先备好 `prefetch_factor` 个（默认 2）；`pin_memory=True` 把它们放进锁页内存，拷贝引擎才能直接 DMA 读取；`x.to("cuda", non_blocking=True)` 把拷贝排进一个流，CPU 不必等待。
> - 用数字说话：下面 64 张图的 batch，fp32 是 38.5 MB（uint8 是 9.6 MB，到 GPU 上再归一化）。PCIe 4.0 x16 每方向最多 31.5 GB/s，nvbandwidth 在 RTX 4090 上测得主机到设备 24–26 GB/s：fp32 的 batch 约 1.5 毫秒，uint8 的约 0.4 毫秒。只要和一个更长的计算步骤重叠，这次拷贝就不花时间；不重叠，每一步都要付出。
> - 显存真正带来的是紧挨着 GPU 的带宽：RTX 3090 是 936 GB/s，PCIe 只有 31.5（第 1.3 节）。
> - 出处：PyTorch 文档 `torch.utils.data.DataLoader`（`num_workers`、`prefetch_factor`、`pin_memory`）与“CUDA semantics：Use pinned memory buffers”（`non_blocking`）；CUDA C++ Programming Guide“Asynchronous Concurrent Execution”；NVIDIA nvbandwidth issue #15（RTX 4090，host_to_device_memcpy_ce 23.9–26.4 GB/s）。

## 讲义的例子：batch 64 的 ResNet-50
“你用 PyTorch 训练一个 ResNet-50，batch size 设为 64。模型参数大概 25MB，但一张 224x224 的 RGB 图像是 150KB，64 张就是 9.6MB。再加上每一层的激活值，前向传播时显存占用轻松飙到几百 MB。反向传播时还要存梯度，又翻一倍。”

这几个数字值得核实一下，所以本节按网络结构把 ResNet-50（torchvision 的 `resnet50`）从头数一遍：一个 7x7、步长 2 的卷积和一个 3x3、步长 2 的最大池化，接着四个 stage 的 bottleneck 块，分别有 [3, 4, 6, 3] 个，宽度 64/128/256/512 通道，每块输出再乘 4，最后是全局平均池化和一个 2048 → 1000 的全连接层。参数包括卷积权重（没有偏置）、每个 BatchNorm 的 gamma 和 beta，以及全连接层的权重和偏置。BatchNorm 的 running mean 和 running var 是 **buffer**，不是参数（共 53,120 个值）。

## 这里说的“激活值”指什么
训练时，autograd 必须把前向传播的一部分张量**留到**反向传播时再用。下面的统计按存储只算一次，保留的是：

- 每个卷积的输入，以及每个 BatchNorm 的输入（即卷积输出）；
- 每个 ReLU 的输出；torchvision 里的 ReLU 是原地（in-place）操作，直接覆盖 BatchNorm 的输出，和下一个卷积的输入是同一块存储；
- 最大池化的输入及其 argmax 索引（int64，不管数据类型是什么，每个都是 8 字节）；
- 全连接层的输入，以及损失函数里 log-softmax 的输出。

残差相加（`out += identity`）不保留任何东西。不计入：cuDNN 的 workspace 和分配器的取整。推理时（`torch.no_grad()`）什么都不保留，统计的是同一时刻同时存活的张量的峰值，每个张量在最后一次使用后即释放。
]] },

  experiment {
    id = "resnet",
    title = { en = "ResNet-50 counted from its architecture", zh = "按网络结构清点 ResNet-50" },
    intro = { en = [[
Runs `vram.resnet50{batch = 64}` (fp32, training) and sums its per-layer list by stage, then sets
the lecture's figures beside the computed ones. These are counts, not measurements.
]], zh = [[
运行 `vram.resnet50{batch = 64}`（fp32，训练），按 stage 汇总逐层结果，再把讲义的数字和计算值并排对照。这些是清点出来的，不是测量值。
]] },
    panels = {
      { id = "st", kind = "table", title = { en = "Per stage, batch 64, fp32", zh = "按 stage 汇总（batch 64，fp32）" } },
      { id = "act", kind = "bars", title = { en = "Saved activations per stage", zh = "各 stage 保留的激活值" }, unit = "GB" },
      { id = "blk", kind = "table", title = { en = "One block up close: layer1.0, batch 64", zh = "细看一个块：layer1.0，batch 64" } },
      { id = "vs", kind = "table", title = { en = "Lecture vs computed", zh = "讲义 vs 计算" } },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local r = vram.resnet50 { batch = BATCH, dtype = "fp32", training = true, optimizer = "sgd_momentum" }
      local ra = vram.resnet50 { batch = BATCH, dtype = "fp32", training = true, optimizer = "adam" }
      local inf = vram.resnet50 { batch = BATCH, dtype = "fp32", training = false }
      local u8 = vram.resnet50 { batch = 1, dtype = "uint8", training = false }
      local s = by_stage(r)
      ex:row("st", { T("Stage", "阶段"), T("Blocks", "块数"), T("Output CxHxW", "输出 CxHxW"), T("Params", "参数量"),
                     T("Saved (64 imgs)", "保留（64 张）"), T("Per image", "每张图") })
      for _, name in ipairs(STAGES) do
        local e = s[name]
        ex:row("st", { name, e.blocks > 0 and tostring(e.blocks) or "-", shape_str(e.shape), commas(e.params),
                       units.si(e.saved), units.si(e.saved / BATCH) })
        ex:bar("act", name, e.saved / 1e9, { style = "theoretical" })
      end
      ex:row("st", { T("total", "合计"), "16", "", commas(r.params), units.si(r.activation_bytes), units.si(r.activation_bytes / BATCH) })
      ex:note("st", T("\"Saved\" = tensors kept for the backward pass (rules above). The stem holds 103 MB of int64 max-pool indices.",
                      "“保留” = 为反向传播留下的张量（规则见上文）。stem 里有 103 MB 是 int64 的最大池化索引。"))

      ex:row("blk", { T("Op", "算子"), T("Output CxHxW", "输出 CxHxW"), T("Output size", "输出大小"), T("Kept for backward", "为反向保留") })
      for _, l in ipairs(r.layers) do
        if l.name:find("^layer1%.0%.") then
          local kept = l.saved_bytes > 0 and units.si(l.saved_bytes)
                       or (l.inplace and T("(in place: same storage)", "（原地：同一块存储）") or "-")
          ex:row("blk", { l.name:sub(10), shape_str(l.shape), units.si(l.out_bytes), kept })
        end
      end
      ex:note("blk", T("A storage is counted once, under the op that created it: a BN's output buffer is overwritten by the in-place ReLU and kept as the ReLU's output; the downsample BN's output is only added to the main path and not kept.",
                       "每块存储只算一次，记在创建它的算子名下：BN 的输出缓冲被原地 ReLU 覆盖，作为 ReLU 的输出保留；downsample 分支 BN 的输出只参与相加，不保留。"))

      local img_vals = 3 * 224 * 224
      ex:row("vs", { T("Quantity", "项目"), T("Lecture", "讲义"), T("Computed", "计算值") })
      ex:row("vs", { T("Parameters", "参数"), T("about 25 MB", "大概 25MB"),
                     commas(r.params) .. T(" params = ", " 个 = ") .. units.si(r.param_bytes) .. " fp32 (" .. units.bytes(r.param_bytes) .. ")" })
      ex:row("vs", { T("One 224x224 RGB image", "一张 224x224 RGB 图"), "150 KB",
                     commas(img_vals) .. T(" values: ", " 个值：") .. units.si(u8.input_bytes) .. " uint8, " .. units.si(img_vals * 4) .. " fp32" })
      ex:row("vs", { T("Batch of 64", "64 张"), "9.6 MB", units.si(img_vals * BATCH) .. " uint8, " .. units.si(r.input_bytes) .. " fp32" })
      ex:row("vs", { T("Forward activations", "前向激活值"), T("a few hundred MB", "几百 MB"),
                     T("inference peak ", "推理峰值 ") .. units.si(inf.activation_bytes) .. T("; training keeps ", "；训练保留 ") .. units.si(r.activation_bytes) })
      ex:row("vs", { T("Backward", "反向传播"), T("doubles it", "又翻一倍"),
                     T("+", "+") .. units.si(r.gradient_bytes) .. T(" weight grads; activation grads transient (~2 x ", " 权重梯度；激活梯度是临时的（约 2 × ") .. units.si(r.largest_bytes) .. T(")", "）") })
      ex:row("vs", { T("Optimizer state", "优化器状态"), T("(not mentioned)", "（未提及）"),
                     T("SGD momentum ", "带动量 SGD ") .. units.si(r.optimizer_bytes) .. ", Adam " .. units.si(ra.optimizer_bytes) })
      ex:row("vs", { T("Training total", "训练合计"), "",
                     units.si(r.total) .. T(" (SGD momentum), ", "（带动量 SGD），") .. units.si(ra.total) .. " (Adam)" })
      ex:note("vs", T("Computed with the `vram` estimator from the architecture; batch 64, fp32 unless stated.",
                      "由 `vram` 估算器按网络结构计算；除特别说明外均为 batch 64、fp32。"))
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
> [!errata] What the ResNet-50 figures should say
> - **"Parameters about 25 MB"**: ResNet-50 has 25,557,032 parameters, about 25.6 **million**. At 4 bytes each (fp32) that is **102.2 MB** (97.5 MiB). "25 MB" is the count in millions, or the size in int8.
> - **"A 224x224 RGB image is 150 KB"**: 224 x 224 x 3 = 150,528 values, so 150.5 KB only at 1 byte per value (uint8, as a JPEG decodes). The network consumes normalised fp32: 602.1 KB per image, **38.5 MB** for the batch of 64 (9.6 MB as uint8).
> - **"The forward pass reaches a few hundred MB"**: true for inference, where a tensor dies once nothing refers to it (peak 668 MB: a block keeps its input until it returns). Training must keep the activations for the backward pass: **5.46 GB** at batch 64 in fp32, about 85 MB per image, ten times "a few hundred MB".
> - **"Backward stores gradients, doubling it"**: the weight gradients add one copy of the parameters (102 MB). The gradients of the activations are transient: each is freed once the layer below has consumed it, and the saved activations are released as the backward pass walks back, so the peak grows by roughly two of the largest tensors (about 0.4 GB), not by 2x. The optimizer adds its own state: SGD with momentum one more copy (102 MB), Adam two (204 MB).
> - Source: the experiment above (`vram.resnet50` counts torchvision's resnet50 op by op, rules in lua/lib/vram.lua); torchvision models/resnet.py.

So for a CNN like this one, **activations dominate**: 5.46 GB against 0.3-0.4 GB for everything
the model owns. They grow linearly with the batch size and with the image area; weights do not.
That is why reducing the batch is the first thing everyone tries after an OOM.

## Watch a training step fill VRAM
The next experiment replays one training step with real allocations on this GPU, one buffer per
owner, and draws the memory map after each step: the model (weights, momentum, gradients), the
data (the input batch) and the intermediate results (activations, stage by stage). Watch the
activations pile up during the forward pass and drain during the backward pass while gradients
appear.
]], zh = [[
> [!errata] ResNet-50 的数字应该这样说
> - **“模型参数大概 25MB”**：ResNet-50 有 25,557,032 个参数，约 2556 **万**个。每个 4 字节（fp32）就是 **102.2 MB**（97.5 MiB）。“25 MB”其实是以百万为单位的参数个数，或者 int8 存储时的大小。
> - **“一张 224x224 的 RGB 图像是 150KB”**：224 × 224 × 3 = 150,528 个值，只有每个值 1 字节（uint8，JPEG 解码出来就是这样）时才是 150.5 KB。网络吃进去的是归一化后的 fp32：每张 602.1 KB，64 张共 **38.5 MB**（uint8 是 9.6 MB）。
> - **“前向传播时显存占用轻松飙到几百 MB”**：推理时没错，张量一旦没人引用就被释放（峰值 668 MB：每个块要到返回时才放开它的输入）。训练则必须把激活值留给反向传播：batch 64、fp32 时是 **5.46 GB**，每张图约 85 MB，是“几百 MB”的十倍。
> - **“反向传播时还要存梯度，又翻一倍”**：权重梯度只多出一份参数大小（102 MB）。激活值的梯度是临时的：下一层（往输入方向）用完就释放，保留的激活值也随着反向传播一路往回走而逐步释放，所以峰值大约只多出两个最大张量的大小（约 0.4 GB），而不是翻倍。优化器另有状态：带动量的 SGD 再多一份（102 MB），Adam 多两份（204 MB）。
> - 出处：上面的实验（`vram.resnet50` 逐个算子清点 torchvision 的 resnet50，规则见 lua/lib/vram.lua）；torchvision models/resnet.py。

所以对这类 CNN 来说，**激活值才是大头**：5.46 GB，而模型自己的东西加起来只有 0.3–0.4 GB。激活值随 batch 大小和图像面积线性增长，权重则不变。这就是为什么一遇到 OOM，大家第一反应都是调小 batch。

## 看一个训练步骤怎样填满显存
下一个实验在本机 GPU 上用真实分配重放一个训练步骤，每个所有者一块缓冲，每一步之后画出显存布局：模型（权重、动量、梯度）、数据（输入 batch）和中间结果（逐个 stage 的激活值）。注意看前向传播时激活值越堆越多，反向传播时又逐步释放，同时梯度出现。
]] },

  experiment {
    id = "map",
    title = { en = "One training step in the memory map", zh = "显存布局中的一个训练步骤" },
    intro = { en = [[
ResNet-50, batch 64, fp32, SGD with momentum (the usual ResNet recipe), sizes from
`vram.resnet50`. It replays a step in the steady state: SGD creates its momentum buffers at the
first `optimizer.step()`, so from the second step on they are there before the forward pass. Each owner is one real buffer from `gpu.alloc`; "used by the driver" is total
minus free as the backend reports it. If this GPU cannot give the whole footprint, every size is
scaled down by the same factor (the map says so).
]], zh = [[
ResNet-50，batch 64，fp32，带动量的 SGD（ResNet 的常规训练配置），大小取自 `vram.resnet50`。重放的是稳态下的一步：SGD 在第一次 `optimizer.step()` 时才创建动量缓冲，从第二步起，它们在前向传播之前就已存在。每个所有者对应一块 `gpu.alloc` 分配的真实缓冲；“驱动看到的已用量”是后端报告的总量减空闲量。如果本机 GPU 给不出全部占用，所有大小按同一比例缩小（布局图会注明）。
]] },
    panels = {
      { id = "m", kind = "map", title = { en = "Device memory: model, data, intermediate results", zh = "显存布局：模型、数据、中间结果" } },
      { id = "steps", kind = "table", title = { en = "Step by step", zh = "逐步记录" } },
      { id = "g", kind = "gauge", title = { en = "Used, as the driver sees it", zh = "驱动看到的已用量" }, unit = "GiB" },
    },
    run = function(ex)
      local T = function(en, zh) return ex:t { en = en, zh = zh } end
      local r = vram.resnet50 { batch = BATCH, dtype = "fp32", training = true, optimizer = "sgd_momentum" }
      local s = by_stage(r)
      local free0, total = gpu.mem()
      local before = total - free0
      local budget = gpu.budget()
      local scale = math.min(1, 0.95 * budget / r.total)
      local live, order = {}, {}
      local function put(key, owner, bytes)
        local want = math.max(1, math.floor(bytes * scale))
        local b, err = gpu.alloc(want)
        if not b then error(err, 0) end
        if not live[key] then order[#order + 1] = key end
        live[key] = { owner = owner, buf = b, bytes = want }
      end
      local function drop(key)
        local e = live[key]
        if e and e.buf then e.buf:free(); e.buf, e.bytes = nil, 0 end
      end
      local peak, peak_blocks, peak_step = 0, nil, nil
      local function show(step)
        local blocks, ours = { { owner = T("CUDA context + others", "CUDA 上下文 + 其他"), state = "used", bytes = before } }, 0
        for _, k in ipairs(order) do
          local e = live[k]
          if e.bytes > 0 then
            blocks[#blocks + 1] = { owner = e.owner, state = "allocated", bytes = e.bytes }
            ours = ours + e.bytes
          end
        end
        local free = gpu.mem()
        blocks[#blocks + 1] = { owner = T("free", "空闲"), state = "free", bytes = free }
        ex:map("m", blocks, total)
        if ours > peak then peak, peak_blocks, peak_step = ours, blocks, step end
        ex:row("steps", { step, units.bytes(ours), units.bytes(total - free) })
        ex:gauge("g", T("used", "已用"), (total - free) / GiB, total / GiB, { unit = "GiB" })
        ex:pause(0.8) -- the tutor shows each step (Space: the next one now); headless runs go on
      end
      ex:row("steps", { T("Step", "步骤"), T("Ours", "本实验"), T("Driver: used", "驱动：已用") })
      local grads = 0
      local ok, err = pcall(function()
        show(T("start", "开始"))
        put("w", T("model: weights", "模型：权重"), r.param_bytes); show(T("model.cuda()", "model.cuda()"))
        -- SGD creates its momentum buffers at the first optimizer.step(): this is the steady state
        put("m", T("model: momentum", "模型：动量"), r.optimizer_bytes); show(T("optimizer state (steady state, from step 2)", "优化器状态（稳态，第 2 步起常驻）"))
        put("x", T("data: input batch", "数据：输入 batch"), r.input_bytes); show(T("batch to GPU", "batch 拷到 GPU"))
        for _, st in ipairs(STAGES) do
          put("a" .. st, T("activations: ", "激活值：") .. st, s[st].saved)
          show(T("forward ", "前向 ") .. st)
        end
        for i = #STAGES, 1, -1 do
          local st = STAGES[i]
          grads = grads + s[st].params * vram.dtype_bytes("fp32")
          drop("g")
          put("g", T("model: gradients", "模型：梯度"), grads)
          drop("a" .. st)
          show(T("backward ", "反向 ") .. st)
        end
        show(T("optimizer.step()", "optimizer.step()"))
        drop("g"); show(T("zero_grad(set_to_none=True)", "zero_grad(set_to_none=True)"))
      end)
      for _, k in ipairs(order) do drop(k) end
      if not ok then error(err, 0) end
      -- the map was redrawn at every step; leave it at the peak, where the lesson's point is
      if peak_blocks then ex:map("m", peak_blocks, total) end
      ex:note("m", T("The map shows the peak, after \"" .. tostring(peak_step) .. "\"; the table lists every step.",
                     "布局图停在峰值时刻（“" .. tostring(peak_step) .. "”之后）；表格列出了每一步。"))
      ex:note("m", T(string.format("Peak of this replay: %s%s. vram.resnet50's total, %s, adds all weight gradients to all saved activations: an upper bound, since gradients appear while activations are freed. Transient activation gradients and cuDNN workspaces are in neither.",
                                   units.bytes(peak), scale < 1 and string.format(" at scale %.3f", scale) or "", vram.both(r.total)),
                     string.format("本次重放的峰值：%s%s。vram.resnet50 的合计 %s 把全部权重梯度和全部保留激活值加在一起，是个上界：梯度出现时激活值已在释放。两者都不含临时的激活梯度和 cuDNN workspace。",
                                   units.bytes(peak), scale < 1 and string.format("（缩放 %.3f）", scale) or "", vram.both(r.total))))
      if gpu.info().simulated then
        ex:note("g", T("SIMULATED backend: allocations are tracked against the profile's capacity, not backed by memory.",
                       "模拟后端：分配按配置的容量记账，不占真实内存。"))
      end
      ex:status(T("done", "完成"))
    end,
  },

  text { en = [[
> [!experience] Look before you train
> The lecturer's habit: call `torch.cuda.memory_summary()` once before training starts to see how memory is split; it helps you spot early who is "stealing" VRAM. The summary reports the caching allocator's totals (allocated, reserved, by pool), not individual layers. To see which layer owns which block, record a snapshot: `torch.cuda.memory._record_memory_history()`, run a step, `torch.cuda.memory._dump_snapshot("snap.pickle")`, and open it at pytorch.org/memory_viz. Lesson 1.5 shows the summary on a live allocator.

> [!source] Sources
> - He et al., "Deep Residual Learning for Image Recognition", CVPR 2016; torchvision `models/resnet.py` (`resnet50`, `Bottleneck` with the stride in its 3x3 convolution, `ReLU(inplace=True)`).
> - PyTorch source: `torch/nn/modules/batchnorm.py` (running mean and variance are buffers), `torch/optim/sgd.py` (`momentum_buffer` created at the first `step()`).
> - PyTorch docs: `torch.cuda.memory_summary`; "Understanding CUDA Memory Usage" (`_record_memory_history`, `_dump_snapshot`, pytorch.org/memory_viz).
> - PyTorch docs: `torch.utils.data.DataLoader`; "CUDA semantics: Use pinned memory buffers"; NVIDIA nvbandwidth issue #15 (host to device copies on RTX 4090).
]], zh = [[
> [!experience] 训练前先看一眼
> 讲师的习惯：训练开始前先用 `torch.cuda.memory_summary()` 看一眼显存分配情况，能帮你提前发现谁在“偷吃”显存。不过它给出的是缓存分配器的汇总（已分配、已预留、按池划分），看不到具体哪一层。想知道哪一层占了哪块显存，就录一份快照：先 `torch.cuda.memory._record_memory_history()`，跑一步，再 `torch.cuda.memory._dump_snapshot("snap.pickle")`，然后在 pytorch.org/memory_viz 打开。第 1.5 节会在真实运行的分配器上展示这份汇总。

> [!source] 出处
> - He 等，《Deep Residual Learning for Image Recognition》，CVPR 2016；torchvision `models/resnet.py`（`resnet50`、步长放在 3x3 卷积里的 `Bottleneck`、`ReLU(inplace=True)`）。
> - PyTorch 源码：`torch/nn/modules/batchnorm.py`（running mean 和 running var 是 buffer）、`torch/optim/sgd.py`（`momentum_buffer` 在第一次 `step()` 时创建）。
> - PyTorch 文档：`torch.cuda.memory_summary`；“Understanding CUDA Memory Usage”（`_record_memory_history`、`_dump_snapshot`、pytorch.org/memory_viz）。
> - PyTorch 文档：`torch.utils.data.DataLoader`；“CUDA semantics：Use pinned memory buffers”；NVIDIA nvbandwidth issue #15（RTX 4090 上的主机到设备拷贝）。
]] },

  exercise {
    id = "image-fp32",
    kind = "number",
    prompt = { en = "A 224x224 RGB image, normalised to fp32 as the network consumes it: how many **KB** (1 KB = 1000 B)?",
               zh = "一张 224x224 的 RGB 图像，按网络实际使用的方式归一化为 fp32：占多少 **KB**（1 KB = 1000 B）？" },
    answer = 602.112, unit = "KB", tolerance = 0.01,
    mistakes = {
      { factor = 4, say = { en = "Off by 4: an fp32 value is 4 bytes, a uint8 pixel 1.", zh = "差了 4 倍：fp32 每个数值 4 字节，uint8 像素才是 1 字节。" } },
      "x1000",
    },
    hints = {
      { en = "First count values: height x width x colour channels.", zh = "先数有多少个值：高 × 宽 × 颜色通道数。" },
      { en = "The lecture's 150 KB assumes one byte per value. How many bytes does fp32 use?", zh = "讲义的 150 KB 假设每个值 1 字节。fp32 每个值几个字节？" },
    },
    explain = { en = "224 x 224 x 3 = 150,528 values x 4 B = 602,112 B = 602.1 KB (588 KiB). As uint8 it is 150.5 KB.",
                zh = "224 × 224 × 3 = 150,528 个值 × 4 B = 602,112 B = 602.1 KB（588 KiB）。uint8 时才是 150.5 KB。" },
  },

  exercise {
    id = "params-mb",
    kind = "number",
    prompt = { en = "ResNet-50 has 25,557,032 parameters. How many **MB** do they take in fp32?",
               zh = "ResNet-50 有 25,557,032 个参数。fp32 下占多少 **MB**？" },
    answer = 102.228128, unit = "MB", tolerance = 0.03,
    mistakes = { { value = 25.557032, say = { en = "That is the count in millions, not a size.", zh = "那是以百万计的参数个数，不是大小。" } } },
    hints = { { en = "A parameter count is not a size: multiply by the bytes each value uses.", zh = "参数个数不等于大小：还要乘以每个值占的字节数。" } },
    explain = { en = "25,557,032 x 4 B = 102,228,128 B = 102.2 MB (97.5 MiB). The lecture's \"25 MB\" is the count in millions.",
                zh = "25,557,032 × 4 B = 102,228,128 B = 102.2 MB（97.5 MiB）。讲义的“25MB”其实是以百万计的参数个数。" },
  },

  exercise {
    id = "dominant",
    kind = "choice",
    prompt = { en = "Training ResNet-50 at batch 64 in fp32 with SGD + momentum: what takes the most VRAM?",
               zh = "用 SGD + 动量、fp32、batch 64 训练 ResNet-50：什么占的显存最多？" },
    choices = {
      { en = "The weights", zh = "权重" },
      { en = "The weight gradients", zh = "权重梯度" },
      { en = "The momentum buffers", zh = "动量缓冲" },
      { en = "The activations saved for the backward pass", zh = "为反向传播保留的激活值" },
      { en = "The input batch", zh = "输入 batch" },
    },
    answer = 4,
    hints = { { en = "Which of these grows with the batch size and the image area, and which does not?", zh = "这几样里，哪些随 batch 大小和图像面积增长，哪些不变？" } },
    explain = { en = "Saved activations: 5.46 GB. Weights, gradients and momentum: 102 MB each; the input batch 38.5 MB.",
                zh = "保留的激活值：5.46 GB。权重、梯度、动量各 102 MB；输入 batch 38.5 MB。" },
  },

  exercise {
    id = "backward",
    kind = "choice",
    prompt = { en = "What does the backward pass add to the memory held at the end of the forward pass?",
               zh = "相比前向传播结束时，反向传播会让显存增加多少？" },
    choices = {
      { en = "As much again: every activation gets a gradient of the same size", zh = "再翻一倍：每个激活值都有一个同样大小的梯度" },
      { en = "About one copy of the weights (their gradients) plus a few transient activation gradients", zh = "大约一份权重大小（权重梯度），外加少量临时的激活梯度" },
      { en = "Nothing: gradients overwrite the activations in place", zh = "不增加：梯度原地覆盖激活值" },
    },
    answer = 2,
    hints = { { en = "When can the gradient of a layer's output be freed, and what happens to the saved activations as backward walks back?",
                zh = "某一层输出的梯度什么时候就可以释放？反向传播一路往回走时，保留的激活值会怎样？" } },
    explain = { en = "Activation gradients live only until the layer below has used them, and saved activations are freed as backward passes their layer. What stays is one gradient per parameter: +102 MB for ResNet-50 in fp32.",
                zh = "激活梯度只活到下一层（往输入方向）用完为止，保留的激活值也在反向传播经过对应层后释放。留下来的是每个参数一个梯度：fp32 的 ResNet-50 多出 102 MB。" },
  },

  exercise {
    id = "bottleneck",
    kind = "code",
    prompt = { en = [[
Write `bottleneck_params(cin, width, downsample)` returning the number of **parameters** of one
ResNet-50 bottleneck block: 1x1 conv cin -> width, 3x3 conv width -> width, 1x1 conv width ->
4 x width, each conv without bias and followed by a BatchNorm; when `downsample` is true the
shortcut adds a 1x1 conv cin -> 4 x width and its BatchNorm. One line works:
`function bottleneck_params(cin, width, downsample) return ... + (downsample and ... or 0) end`
]], zh = [[
写一个函数 `bottleneck_params(cin, width, downsample)`，返回 ResNet-50 一个 bottleneck 块的**参数**个数：1x1 卷积 cin → width，3x3 卷积 width → width，1x1 卷积 width → 4 × width，每个卷积都没有偏置，后面各跟一个 BatchNorm；`downsample` 为 true 时，捷径分支再加一个 1x1 卷积 cin → 4 × width 和它的 BatchNorm。一行就能写完：`function bottleneck_params(cin, width, downsample) return ... + (downsample and ... or 0) end`
]] },
    entry = "bottleneck_params",
    starter = [[
function bottleneck_params(cin, width, downsample)
  local p = 0
  -- a k x k conv from a to b channels: ? weights; a BatchNorm over c channels: ? parameters
  return p
end
]],
    check = function(fn)
      local cases = { { 64, 64, true, 75008 }, { 256, 64, false, 70400 }, { 256, 128, true, 379392 }, { 1024, 256, false, 1117184 } }
      for _, c in ipairs(cases) do
        local got = fn(c[1], c[2], c[3])
        if got ~= c[4] then
          return false, { en = string.format("bottleneck_params(%d, %d, %s) returned %s.", c[1], c[2], tostring(c[3]), tostring(got)),
                           zh = string.format("bottleneck_params(%d, %d, %s) 返回了 %s。", c[1], c[2], tostring(c[3]), tostring(got)) }
        end
      end
      return true
    end,
    hints = {
      { en = "A k x k convolution from a to b channels has a x b x k x k weights; there is no bias here.", zh = "从 a 通道到 b 通道的 k x k 卷积有 a × b × k × k 个权重；这里没有偏置。" },
      { en = "BatchNorm learns a scale and a shift per channel; its running statistics are buffers, not parameters.", zh = "BatchNorm 每个通道学一个缩放和一个平移；running 统计量是 buffer，不是参数。" },
    },
    explain = { en = "cin·w + w·w·9 + w·4w, plus 2w + 2w + 2·4w for the BatchNorms, plus cin·4w + 2·4w with downsample. layer1.0 (64, 64, true) = 75,008; summed over the 16 blocks, the stem and fc you get 25,557,032.",
                zh = "cin·w + w·w·9 + w·4w，加上 BatchNorm 的 2w + 2w + 2·4w，有 downsample 时再加 cin·4w + 2·4w。layer1.0（64, 64, true）= 75,008；把 16 个块、stem 和 fc 加起来就是 25,557,032。" },
  },
}
