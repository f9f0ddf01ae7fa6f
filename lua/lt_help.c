/* lt_help.c - help() in the sandbox (the REPL and `vramlab eval`): the modules, a module's
 * functions a line each, or one function's line and an example, in the learner's language,
 * printed through the sandbox's print. The table below is the text; the functions are found by
 * name or by value, read raw (no metamethod runs: plot outside the tutor raises on access). */
#include "lt.h"
#include "lt_int.h"

#include <string.h>

#include "gpu_buf.h"
#include "gpu_suggest.h"

#define HELP_MAX 32768 /* help(vram) in Chinese is about 12 KB */

static void puts_(struct gpu_buf *o, const char *s) { gpu_buf_add(o, s, strlen(s)); }

/* One line and one example per public function of gpu, host, alloc, vram, units and plot
 * (docs/lua-api.md and docs/vram-*.md have the full text; tests/cli/help_docs.sh fails on a
 * function missing here or there, and runs every vram and units example). */
static const struct {
    const char *name, *doc, *example, *zh;
} docs[] = {
    {"gpu.backend", "the backend's name: \"cuda\" or \"sim\"", "gpu.backend()",
     "后端的名字：“cuda” 或 “sim”"},
    {"gpu.info", "the device: name, memory, clocks, bus, caches, PCIe (nil when unknown)", "gpu.info().total_bytes",
     "设备：名称、显存、频率、位宽、缓存、PCIe（未知时为 nil）"},
    {"gpu.mem", "free and total device memory in bytes", "free, total = gpu.mem()",
     "设备的空闲显存和总显存，单位字节"},
    {"gpu.budget", "bytes an experiment may allocate (the cap)", "gpu.budget()",
     "一个实验最多可以分配的字节数（上限）"},
    {"gpu.alloc", "allocate device memory: a buffer, or nil, message", "b = gpu.alloc(\"1GiB\")",
     "分配显存：返回一块缓冲，或 nil 和原因"},
    {"gpu.copy", "measure a copy {dir = h2d|d2h|d2d, bytes, method = ce|sm, pinned, trials, reps, single}", "gpu.copy{dir = \"h2d\", bytes = \"256MiB\"}",
     "测一次拷贝 {dir = h2d|d2h|d2d, bytes, method = ce|sm, pinned, trials, reps, single}"},
    {"gpu.latency", "pointer-chase latency over {bytes, load = global|generic}", "gpu.latency{bytes = \"64MiB\"}",
     "在 {bytes, load = global|generic} 上做指针追逐，测延迟"},
    {"gpu.overlap", "does a device copy run while a kernel holds every SM (a copy engine)? {bytes, busy_ms}", "gpu.overlap{bytes = \"256MiB\"}",
     "一个核函数占满所有 SM 时，显存内拷贝还能同时进行吗（拷贝引擎）？{bytes, busy_ms}"},
    {"gpu.clocks", "SM and memory clocks now and their maxima, in MHz (NVML)", "gpu.clocks().sm_mhz",
     "当前的 SM 与显存频率及其上限，单位 MHz（NVML）"},
    {"gpu.free_tolerance", "how far free memory may come back off after allocating and freeing n bytes: max(2 MiB, 0.01 %)", "gpu.free_tolerance(\"16GiB\")",
     "分配再释放 n 字节后，空闲显存允许偏离多少：max(2 MiB, 0.01%)"},
    {"gpu.stream", "STREAM kernels on the device {kernel = copy|scale|add|triad|dot, bytes, trials}", "gpu.stream{kernel = \"triad\", bytes = \"256MiB\"}",
     "设备上的 STREAM 核函数 {kernel = copy|scale|add|triad|dot, bytes, trials}"},
    {"gpu.plateaus", "group latency points {{bytes, ns}} into cache levels {where = gpu|host, levels}", "gpu.plateaus(points, {where = \"host\"})",
     "把延迟点 {{bytes, ns}} 分成各级缓存 {where = gpu|host, levels}"},
    {"gpu.peak", "theoretical bandwidth from memory clock (kHz) and bus width (bits)", "gpu.peak(9751000, 384)",
     "由显存频率（kHz）和位宽（bit）算出的理论带宽"},
    {"gpu.profiles", "the simulator's GPU profiles", "gpu.profiles()",
     "模拟器的 GPU 配置列表"},
    {"gpu.profile", "one simulator profile's figures", "gpu.profile(\"h100-sxm\")",
     "一个模拟器配置里的数字"},
    {"gpu.strided", "read 4-byte words at a stride {stride = 1..1024, offset, bytes, trials}: effective bandwidth, sectors per request", "gpu.strided{stride = 8, bytes = \"32MiB\"}",
     "按步长读 4 字节的字 {stride = 1..1024, offset, bytes, trials}：有效带宽、每次请求的扇区数"},
    {"gpu.random", "read every word of an array once, in a random order {bytes, trials}", "gpu.random{bytes = \"256MiB\"}",
     "以随机顺序把数组的每个字读一遍 {bytes, trials}"},
    {"gpu.layout", "particles as an array of structs or a struct of arrays {layout = aos|soa, particles, fields, trials}", "gpu.layout{layout = \"soa\", particles = 2^22}",
     "粒子按结构体数组或数组结构体存放 {layout = aos|soa, particles, fields, trials}"},
    {"gpu.reread", "read a working set again and again through L2 {bytes, trials}", "gpu.reread{bytes = \"4MiB\"}",
     "经由 L2 反复读一个工作集 {bytes, trials}"},
    {"gpu.persist", "a hot array re-read beside a streamed cold one, with an L2 persistence window {hot, cold, window, hit_ratio, trials}", "gpu.persist{hot = \"4MiB\", cold = \"256MiB\"}",
     "冷数组流式读一遍，旁边反复读热数组，可加 L2 持久化窗口 {hot, cold, window, hit_ratio, trials}"},
    {"gpu.transpose", "an n x n matrix copied or transposed {kernel = copy|naive|tiled|padded, n, trials}", "gpu.transpose{kernel = \"padded\", n = 4096}",
     "n x n 矩阵的拷贝或转置 {kernel = copy|naive|tiled|padded, n, trials}"},
    {"gpu.banks", "shared-memory reads at a word stride: bank conflicts {stride, loads, trials}", "gpu.banks{stride = 32}",
     "按字步长读共享内存：存储体（bank）冲突 {stride, loads, trials}"},
    {"gpu.fma", "a polynomial of fmas FMAs per element: arithmetic intensity {fmas, bytes, trials}", "gpu.fma{fmas = 64, bytes = \"64MiB\"}",
     "每个元素做 `fmas` 次 FMA 的多项式：算术强度 {fmas, bytes, trials}"},
    {"gpu.pages", "pointer chase with lines step bytes apart: TLB reach {bytes, step, trials}", "gpu.pages{bytes = \"1GiB\", step = \"2MiB\"}",
     "各行相隔 `step` 字节的指针追逐：TLB 覆盖范围 {bytes, step, trials}"},
    {"gpu.sectors", "32-byte sectors one warp's load touches (stride bytes, element bytes, offset bytes)", "gpu.sectors(8)",
     "一个线程束（warp）的一次加载碰到的 32 字节扇区数（步长字节、元素字节、偏移字节）"},
    {"gpu.bank_ways", "ways a warp's shared-memory load is split at a word stride: gcd(stride, 32)", "gpu.bank_ways(32)",
     "按字步长读共享内存时一个线程束（warp）的加载被拆成几路：gcd(stride, 32)"},
    {"gpu.program", "run buffers and copies, kernels, prefetches, events on streams; a timeline {buffers, ops}", "gpu.program{buffers = {d = {\"device\", \"1MiB\"}}, ops = {{\"fill\", \"d\"}}}",
     "在流上运行缓冲区与拷贝、核函数、预取、事件；返回时间线 {buffers, ops}"},
    {"gpu.pin", "the cost of pinning host memory {bytes, kind = pinned|registered|mapped|managed|pageable, trials}", "gpu.pin{bytes = \"1GiB\"}",
     "锁页主机内存的开销 {bytes, kind = pinned|registered|mapped|managed|pageable, trials}"},
    {"host.info", "this CPU: threads, RAM, last-level cache", "host.info()",
     "这颗 CPU：线程数、内存、末级缓存"},
    {"host.copy", "host memory copy bandwidth {method = memcpy|loop, bytes, trials, threads}", "host.copy{bytes = \"64MiB\"}",
     "主机内存拷贝带宽 {method = memcpy|loop, bytes, trials, threads}"},
    {"host.stream", "STREAM on the CPU {kernel = copy|scale|add|triad|dot, bytes, trials, threads}", "host.stream{kernel = \"add\", bytes = \"64MiB\"}",
     "CPU 上的 STREAM {kernel = copy|scale|add|triad|dot, bytes, trials, threads}"},
    {"host.triad", "STREAM triad on all threads {bytes, trials, threads}", "host.triad{bytes = \"64MiB\"}",
     "所有线程上的 STREAM triad {bytes, trials, threads}"},
    {"host.latency", "host pointer-chase latency {bytes, trials, threads}", "host.latency{bytes = \"8MiB\"}",
     "主机上的指针追逐延迟 {bytes, trials, threads}"},
    {"host.caches", "this CPU's data caches (one core's), smallest first", "host.caches()",
     "这颗 CPU 的数据缓存（单核可用的），从小到大"},
    {"host.budget", "bytes one host experiment may take in all its arrays", "host.stream{bytes = host.budget() // 3}",
     "一个主机实验的全部数组最多可用的字节数"},
    {"alloc.caching", "PyTorch's caching allocator on this device {max_split_size_mb, roundup_power2_divisions, expandable_segments, memory_fraction, conf, capacity}", "a = alloc.caching()",
     "本设备上的 PyTorch 缓存分配器 {max_split_size_mb, roundup_power2_divisions, expandable_segments, memory_fraction, conf, capacity}"},
    {"alloc.model", "the caching allocator on a model device {capacity, ...}", "a = alloc.model{capacity = \"80GiB\"}",
     "模型设备上的缓存分配器 {capacity, ...}"},
    {"alloc.raw", "plain cudaMalloc/cudaFree, no cache {capacity}", "r = alloc.raw()",
     "直接调用 cudaMalloc/cudaFree，不缓存 {capacity}"},
    {"alloc.async_pool", "a stream-ordered pool (cudaMallocAsync) {capacity, release_threshold, reuse_*}", "p = alloc.async_pool{capacity = \"24GiB\"}",
     "流有序内存池（cudaMallocAsync）{capacity, release_threshold, reuse_*}"},
    {"alloc.trace_replay", "replay an allocation trace into a model allocator", "alloc.trace_replay(text, {capacity = \"80GiB\"})",
     "把一份分配轨迹重放到模型分配器里"},
    {"alloc.ledger", "where device memory went (driver, allocator, other)", "alloc.ledger(a).text",
     "显存去了哪里（驱动、分配器、其他）"},
    {"alloc.format_size", "PyTorch's format_size text", "alloc.format_size(\"1GiB\")",
     "PyTorch 的 format_size 文本"},
    {"alloc.snapshot", "read a shipped PyTorch memory snapshot, or yours {device, top, columns, replay, capacity, diff = a second one}", "alloc.snapshot(\"assets/snapshots/gpt-train.pickle\").peak",
     "读取随附的 PyTorch 显存快照，或你自己的 {device, top, columns, replay, capacity, diff = 第二个快照}"},
    {"alloc.round_size", "the block size, pool and segment a request gets", "alloc.round_size(\"1000B\")",
     "一次申请得到的块大小、池和段"},
    {"vram.activations", "activation bytes one transformer layer keeps for the backward pass, by part (Korthikanti et al. 2022) {seq, hidden, heads, batch, tp, sp, recompute, flash}", "vram.activations{seq = 2048, hidden = 12288, heads = 96}.total",
     "一个 Transformer 层为反向传播保存的激活字节数，按部分给出（Korthikanti 等 2022）{seq, hidden, heads, batch, tp, sp, recompute, flash}"},
    {"vram.both", "bytes in decimal and binary units at once: 14 GB (13.04 GiB)", "vram.both(14e9)",
     "同时用十进制和二进制单位写字节数：14 GB (13.04 GiB)"},
    {"vram.bytes_per_param", "bytes per parameter of weights, gradients, master copy and optimizer state {precision, optimizer}", "vram.bytes_per_param{precision = \"amp_bf16\", optimizer = \"adam\"}.total",
     "每个参数的字节数：权重、梯度、主副本、优化器状态 {precision, optimizer}"},
    {"vram.checkpoint_cost", "each checkpointing mode's peak memory against its extra compute, for a step's shape on a gpu", "vram.checkpoint_cost{layers = 12, hidden = 768, heads = 12, seq = 1024, batch = 8, gpu = \"a100-80gb\"}[1].peak",
     "每种检查点模式的峰值显存与额外计算量，按一步的形状和 gpu 计算"},
    {"vram.checkpointing", "peak activation memory with gradient checkpointing (Chen et al. 2016) {activations, outputs, segments}", "vram.checkpointing{activations = {1, 2, 3, 4}, segments = 2}.peak",
     "梯度检查点下的激活峰值（Chen 等 2016）{activations, outputs, segments}"},
    {"vram.cublas_workspace", "cuBLAS workspaces PyTorch keeps, one per (handle, stream), from CUBLAS_WORKSPACE_CONFIG {config, cc, handles, streams}", "vram.cublas_workspace{config = \":4096:8\", streams = 4}.total",
     "PyTorch 保留的 cuBLAS 工作区，每个（句柄，流）一个，由 CUBLAS_WORKSPACE_CONFIG 决定 {config, cc, handles, streams}"},
    {"vram.ddp_buckets", "DDP's gradient buckets: one more copy of the gradients unless gradient_as_bucket_view {params or grad_bytes, precision, bucket_view, bucket_mb}", "vram.ddp_buckets{params = 1.3e9}.extra",
     "DDP 的梯度桶：除非用 gradient_as_bucket_view，否则是梯度的又一份拷贝 {params 或 grad_bytes, precision, bucket_view, bucket_mb}"},
    {"vram.decode", "one decode step against the roofline: bytes, FLOPs, arithmetic intensity, tokens/s {model, context, batch, gpu}", "vram.decode{model = \"llama-2-7b\", context = 4096, gpu = \"h100-sxm\"}.tokens_per_s",
     "一次解码步对照屋顶线：字节、FLOP、算术强度、每秒 token 数 {model, context, batch, gpu}"},
    {"vram.deepspeed_buffers", "DeepSpeed's ZeRO reduce buckets and ZeRO-Offload's GPU buffer, at DeepSpeed 0.19.6's defaults {reduce_bucket_size, overlap_comm, dtype, largest_param, offload}", "vram.deepspeed_buffers{overlap_comm = true}.total",
     "DeepSpeed 的 ZeRO 归约桶和 ZeRO-Offload 的 GPU 缓冲区，按 DeepSpeed 0.19.6 的默认值 {reduce_bucket_size, overlap_comm, dtype, largest_param, offload}"},
    {"vram.device_spec", "this device's row of vram.gpu_specs() (its profile's published figures), or nil", "vram.device_spec(gpu.info())",
     "本设备在 vram.gpu_specs() 中的那一行（其配置的公开数字），或 nil"},
    {"vram.dtype_bytes", "bytes per value of a data type: fp32 4, bf16 2, fp8 1, int4 0.5", "vram.dtype_bytes(\"bf16\")",
     "一种数据类型每个值的字节数：fp32 为 4，bf16 为 2，fp8 为 1，int4 为 0.5"},
    {"vram.dtypes", "the data types vram knows, widest first", "vram.dtypes()",
     "vram 认识的数据类型，从宽到窄"},
    {"vram.fsdp_transient", "what FSDP holds unsharded: the gathered blocks (computing and prefetched) and one block's gradients {layer_params, precision, prefetch, stage}", "vram.fsdp_transient{layer_params = 5e7}.total",
     "FSDP 未切分持有的：收集完整的块（正在计算的和预取的）以及一个块的梯度 {layer_params, precision, prefetch, stage}"},
    {"vram.gpu_spec", "one GPU's published figures: capacity as CUDA reports it, FLOP/s, bandwidth, PCIe", "vram.gpu_spec(\"a100-80gb\").capacity",
     "一块 GPU 的公开数字：CUDA 报告的容量、FLOP/s、带宽、PCIe"},
    {"vram.gpu_specs", "the published figures of six GPUs, T4 to H200", "vram.gpu_specs()",
     "六块 GPU（T4 到 H200）的公开数字"},
    {"vram.inference_memory", "weights + KV cache + one forward + the runtime, and whether it fits {model, scheme, context, batch, gpu or capacity}", "vram.inference_memory{model = \"llama-2-7b\", context = 4096, gpu = \"t4\"}.fits",
     "权重 + KV 缓存 + 一次前向 + 运行时，以及是否装得下 {model, scheme, context, batch, gpu 或 capacity}"},
    {"vram.kv", "a published model's KV cache: bytes per token (MHA, GQA, MQA, MLA) and in all {model, tokens, batch, dtype, window}", "vram.kv{model = \"llama-3-8b\", tokens = 8192}.total",
     "公开模型的 KV 缓存：每个 token 的字节数（MHA、GQA、MQA、MLA）和总量 {model, tokens, batch, dtype, window}"},
    {"vram.kv_cache", "KV cache bytes: 2 x layers x kv_heads x head_dim x tokens x batch x bytes per value", "vram.kv_cache{layers = 32, kv_heads = 8, head_dim = 128, tokens = 4096}",
     "KV 缓存字节数：2 × 层数 × KV 头数 × 头维度 × token 数 × batch × 每值字节数"},
    {"vram.kv_growth", "the KV cache growing token by token, as allocator events (torch.cat against preallocated) {model, prompt, new_tokens, mode}", "vram.kv_growth{model = \"llama-2-7b\", prompt = 512, new_tokens = 64, mode = \"concat\"}.peak",
     "KV 缓存逐 token 增长，写成分配器事件（torch.cat 与预分配对比）{model, prompt, new_tokens, mode}"},
    {"vram.loader", "a PyTorch-style data loader batch by batch: does the GPU wait for data? {workers, worker_seconds, h2d_seconds, compute_seconds, ...}", "vram.loader{workers = 2, worker_seconds = 0.2, h2d_seconds = 0.02, compute_seconds = 0.06}.step_seconds",
     "逐批模拟 PyTorch 式数据加载器：GPU 会不会等数据？{workers, worker_seconds, h2d_seconds, compute_seconds, ...}"},
    {"vram.memory_types", "one example card per memory generation (GDDR5 to GDDR7, HBM to HBM3e, LPDDR5/5X) with its figures", "vram.memory_types()[1].name",
     "每代显存一张示例卡（GDDR5 到 GDDR7，HBM 到 HBM3e，LPDDR5/5X）及其数字"},
    {"vram.model", "one published model's shape, from its config.json", "vram.model(\"llama-3-8b\").layers",
     "一个公开模型的形状，来自它的 config.json"},
    {"vram.models", "the published model shapes vram knows", "vram.models()",
     "vram 认识的公开模型形状"},
    {"vram.nccl", "NCCL's receive buffers: LL + LL128 + Simple per connection (NCCL 2.30.7), per channel and communicator {channels, algorithm, protocols, buffsize, communicators}", "vram.nccl{channels = 16}.buffers",
     "NCCL 的接收缓冲区：每个连接 LL + LL128 + Simple（NCCL 2.30.7），按通道和通信器计 {channels, algorithm, protocols, buffsize, communicators}"},
    {"vram.offload", "CPU offload per step: PCIe time against the step's compute {params, tokens, mode, gpu or pcie}", "vram.offload{params = 1.3e9, tokens = 4096, mode = \"zero_offload\", gpu = \"rtx3090\"}.pays",
     "每步的 CPU 卸载：PCIe 传输时间对比这一步的计算 {params, tokens, mode, gpu 或 pcie}"},
    {"vram.offload_activations", "activation offloading (save_on_cpu, or overlapped) against recomputation at a link: time added per layer, break-even bandwidth {layers, hidden, heads, seq, d2h, h2d, gpu}", "vram.offload_activations{layers = 1, hidden = 4096, heads = 32, seq = 2048, flash = true, gpu = \"a100-80gb\", d2h = 25e9, h2d = 25e9}.cheaper_sync",
     "激活卸载（save_on_cpu，或重叠）对比重计算，按某条链路：每层增加的时间、平衡带宽 {layers, hidden, heads, seq, d2h, h2d, gpu}"},
    {"vram.outside_torch", "what nvidia-smi shows beyond memory_reserved(): the CUDA context (lazy or eager loading), NCCL, other processes {loading, context, nccl, other_processes}", "vram.outside_torch{loading = \"eager\", nccl = 688e6}.total",
     "nvidia-smi 显示的超出 memory_reserved() 的部分：CUDA 上下文（延迟或立即加载）、NCCL、其他进程 {loading, context, nccl, other_processes}"},
    {"vram.overlap", "copies and kernels cut into chunks and overlapped on streams, against one after the other {h2d, kernel, d2h, chunks, engines}", "vram.overlap{h2d = 0.008, kernel = 0.012, chunks = 4}.overlapped",
     "把拷贝和核函数切块，在流上重叠执行，对比依次执行 {h2d, kernel, d2h, chunks, engines}"},
    {"vram.pcie", "a PCIe link's theoretical bytes/s per direction (generation, lanes)", "vram.pcie(4, 16)",
     "PCIe 链路每个方向的理论字节/秒（代数、通道数）"},
    {"vram.peak", "theoretical memory bandwidth in bytes/s: bus width / 8 x data rate per pin (Gbit/s)", "vram.peak(384, 21)",
     "理论显存带宽（字节/秒）：位宽 / 8 × 每针数据速率（Gbit/s）"},
    {"vram.pin_breakeven", "after how many copies pinning a buffer pays for itself {bytes, pinned_bps, pageable_bps, pin_s_per_gib}", "vram.pin_breakeven{bytes = 2^30, pinned_bps = 25e9, pageable_bps = 10e9, pin_s_per_gib = 0.35}.copies",
     "一块缓冲被拷贝多少次后锁页才划算 {bytes, pinned_bps, pageable_bps, pin_s_per_gib}"},
    {"vram.plan", "every combination of precision, checkpointing, ZeRO stage and offload that fits, fastest first {a model's shape, gpu, gpus, ...}", "vram.plan{layers = 24, hidden = 2048, heads = 16, seq = 2048, batch = 2, gpu = \"rtx3090\"}.plans[1].precision",
     "所有装得下的精度、检查点、ZeRO 阶段和卸载组合，最快的在前 {模型形状, gpu, gpus, ...}"},
    {"vram.plan_check", "whether a learner's plan fits the problem, and why not", "vram.plan_check({layers = 24, hidden = 2048, heads = 16, seq = 2048, batch = 2, gpu = \"rtx3090\"}, {precision = \"fp32\"}).fits",
     "学习者的方案是否装得下，装不下的原因"},
    {"vram.preemption", "what evicting a sequence costs: swapping its KV out and back against recomputing it {model, tokens, gpu}", "vram.preemption{model = \"llama-2-7b\", tokens = 2048, gpu = \"a100-80gb\"}.cheaper",
     "驱逐一个序列的代价：把它的 KV 换出再换入，对比重新计算 {model, tokens, gpu}"},
    {"vram.prefill", "one prefill of a prompt against the roofline: bytes, FLOPs, arithmetic intensity {model, tokens, gpu}", "vram.prefill{model = \"llama-2-7b\", tokens = 2048, gpu = \"h100-sxm\"}.intensity",
     "一次预填充（prefill）对照屋顶线：字节、FLOP、算术强度 {model, tokens, gpu}"},
    {"vram.quantized", "weights at a precision, every quantisation constant counted {model or params, scheme, bits, group}", "vram.quantized{model = \"llama-2-7b\", scheme = \"gptq\", bits = 4, group = 128}.total",
     "某种精度下的权重，计入每个量化常数 {model 或 params, scheme, bits, group}"},
    {"vram.replay", "allocator events through the caching allocator (this backend's, or a model device), the stats after", "vram.replay(vram.train_step{layers = 2, hidden = 256, heads = 4, seq = 128, batch = 2}.events, {model = true, capacity = \"8GiB\"}).peak_reserved",
     "把分配器事件送进缓存分配器（本后端的，或模型设备），返回之后的统计"},
    {"vram.resnet50", "ResNet-50 counted from its architecture: weights, activations, gradients, optimizer state {batch, dtype, training, optimizer}", "vram.resnet50{batch = 64}.total",
     "按结构计算的 ResNet-50：权重、激活、梯度、优化器状态 {batch, dtype, training, optimizer}"},
    {"vram.roofline", "attainable FLOP/s at an arithmetic intensity, the ridge point and what bounds it {intensity, gpu}", "vram.roofline{intensity = 10, gpu = \"a100-80gb\"}.bound",
     "某一算术强度下可达的 FLOP/s、屋脊点和瓶颈 {intensity, gpu}"},
    {"vram.serve_sim", "a paged-attention serving simulation: a stream of requests sharing one KV pool {requests, model, kv_bytes or tokens, policy, ...}", "vram.serve_sim{requests = 200, model = \"llama-2-7b\", kv_bytes = 16 * 2^30}.throughput",
     "分页注意力（paged attention）服务模拟：一串请求共享一个 KV 池 {requests, model, kv_bytes 或 tokens, policy, ...}"},
    {"vram.serving", "the KV pool left in a GPU's budget after weights and runtime, and how many sequences fit {model, gpu, context}", "vram.serving{model = \"llama-2-7b\", gpu = \"a100-80gb\"}.max_seqs",
     "扣除权重和运行时后 GPU 预算中剩下的 KV 池，以及能容纳多少序列 {model, gpu, context}"},
    {"vram.sharding", "per-GPU model states under ZeRO, tensor and pipeline parallelism {params, gpus, stage, tp, pp}", "vram.sharding{params = 7e9, gpus = 8, stage = 3}.total",
     "ZeRO、张量并行和流水线并行下每块 GPU 的模型状态 {params, gpus, stage, tp, pp}"},
    {"vram.timeline", "a timeline as text, a row a lane, revealed up to a time (items with lane, start, finish)", "vram.timeline({{lane = \"h2d\", start = 0, finish = 2, label = \"in\"}}, {width = 10}).rows[1].bar",
     "把时间线画成文本，每条泳道一行，可只显示到某一时刻（条目含 lane、start、finish）"},
    {"vram.trace_events", "a step's events in the form alloc.trace_replay reads", "vram.trace_events(vram.train_step{layers = 2, hidden = 256, heads = 4, seq = 128, batch = 2}.events)",
     "把一步的事件转成 alloc.trace_replay 读取的形式"},
    {"vram.train_step", "a training step as allocator events, its peak and the phase it falls in {layers, hidden, heads, seq, batch, precision, ...}", "vram.train_step{layers = 12, hidden = 768, heads = 12, seq = 1024, batch = 8}.peak",
     "一个训练步写成分配器事件，给出峰值及其所在阶段 {layers, hidden, heads, seq, batch, precision, ...}"},
    {"vram.training", "model states for training: weights, gradients, master weights, optimizer state {params, dtype, optimizer, mixed_precision}", "vram.training{params = 7e9, optimizer = \"adam\", mixed_precision = true}.total",
     "训练时的模型状态：权重、梯度、主权重、优化器状态 {params, dtype, optimizer, mixed_precision}"},
    {"vram.transformer", "a GPT-2-style model's parameters by part, and its parameter tensors {layers, hidden, heads, ...}", "vram.transformer{layers = 12, hidden = 768, heads = 12, positions = 1024}.total",
     "GPT-2 式模型按部分统计的参数，以及它的参数张量 {layers, hidden, heads, ...}"},
    {"vram.vllm_startup", "vLLM V1's start-up step by step: context, weights, profile run, graph estimate, KV pool, CUDA graphs, sampler {model, gpu, context, tp, kv_cache_dtype, enforce_eager}", "vram.vllm_startup{model = \"llama-2-7b\", gpu = \"rtx3090\", context = 4096}.smi_idle",
     "vLLM V1 的启动过程，一步一步：上下文、权重、剖析运行、CUDA 图估算、KV 缓存池、CUDA 图、采样器 {model, gpu, context, tp, kv_cache_dtype, enforce_eager}"},
    {"vram.weights", "weight bytes: params x bytes per value of dtype", "vram.weights{params = 7e9, dtype = \"fp16\"}",
     "权重字节数：参数个数 × dtype 每值字节数"},
    {"vram.zero", "per-GPU model states of mixed-precision Adam under ZeRO stage 0-3 {params, gpus, stage}", "vram.zero{params = 7.5e9, gpus = 64, stage = 3}",
     "ZeRO 0–3 阶段下混合精度 Adam 每块 GPU 的模型状态 {params, gpus, stage}"},
    {"vram.zerocopy", "a kernel reading mapped host memory on every pass, against copying it first {bytes, passes, link_bps, device_bps}", "vram.zerocopy{bytes = 2^30, passes = 1, link_bps = 25e9, device_bps = 900e9}.winner",
     "核函数每一遍都读映射的主机内存，对比先拷贝再读 {bytes, passes, link_bps, device_bps}"},
    {"units.parse", "a size, rate, time or count from text: value, kind (nil, message when unreadable)", "units.parse(\"16GiB\")",
     "从文本读出大小、速率、时间或数量：值和种类（读不懂时为 nil 和原因）"},
    {"units.read", "how a quantity was written: value, number, unit, bits/binary/decimal, percent; or the two readings of '912 gb/s'", "units.read(\"912 Gb/s\")",
     "一个量是怎么写的：值、数字、单位、位/二进制/十进制、百分数；或“912 gb/s”的两种读法"},
    {"units.bytes", "bytes in binary units, as capacity is counted", "units.bytes(7e9 * 2)",
     "以二进制单位写字节数，容量按这种方式计"},
    {"units.si", "bytes in decimal units, as vendors print capacity", "units.si(7e9 * 2)",
     "以十进制单位写字节数，厂商标称容量用这种方式"},
    {"units.rate", "bytes per second in GB/s (decimal)", "units.rate(936e9)",
     "以 GB/s（十进制）写每秒字节数"},
    {"units.time", "seconds as ns, us, ms or s", "units.time(93.4e-9)",
     "以 ns、us、ms 或 s 写秒数"},
    {"units.gbs", "n / 1e9", "units.gbs(936e9)",
     "n / 1e9"},
    {"units.gib", "n / 2^30", "units.gib(gpu.info().total_bytes)",
     "n / 2^30"},
    {"plot.point", "add a curve point (series, x, y [, {style=, from=, x=, y=}])", "plot.point(\"memcpy\", 2^20, 12.5)",
     "给曲线加一个点 (series, x, y [, {style=, from=, x=, y=}])"},
    {"plot.bar", "set a bar (label, value, unit or {unit=, style=, from=})", "plot.bar(\"triad\", 41.2, \"GB/s\")",
     "设置一根柱 (label, value, unit 或 {unit=, style=, from=})"},
    {"plot.gauge", "set a gauge (label, value, max, unit or {unit=, style=})", "plot.gauge(\"used\", 3, 24, \"GiB\")",
     "设置一个仪表 (label, value, max, unit 或 {unit=, style=})"},
    {"plot.row", "add a table row (the first is the header)", "plot.row{\"size\", \"GB/s\"}",
     "给表格加一行（第一行是表头）"},
    {"plot.note", "a line under the panels", "plot.note(\"pinned beats pageable\")",
     "面板下方的一行注释"},
    {"plot.clear", "empty every panel", "plot.clear()",
     "清空所有面板"},
};

static const char *const help_modules[] = {"gpu", "host", "alloc", "vram", "units", "plot"};

/* One function's line: "gpu.copy: what it does\n  e.g. example". */
static void put_doc(struct gpu_buf *b, size_t i, bool zh)
{
    puts_(b, docs[i].name);
    puts_(b, zh ? "：" : ": ");
    puts_(b, zh ? docs[i].zh : docs[i].doc);
    puts_(b, zh ? "\n  例：" : "\n  e.g. ");
    puts_(b, docs[i].example);
}

/* A module's functions, a line each (where the longer text is, for vram). */
static void put_module(size_t m, bool zh, struct gpu_buf *b)
{
    const char *name = help_modules[m];
    size_t len = strlen(name);
    puts_(b, name);
    puts_(b, ":");
    for (size_t i = 0; i < sizeof docs / sizeof *docs; i++)
        if (!strncmp(docs[i].name, name, len) && docs[i].name[len] == '.') {
            puts_(b, "\n  ");
            puts_(b, docs[i].name);
            puts_(b, "  ");
            puts_(b, zh ? docs[i].zh : docs[i].doc);
        }
    if (!strcmp(name, "vram"))
        puts_(b, zh ? "\n  （带示例的详细说明见 docs/vram-api.md、vram-train.md 和 vram-infer.md）"
                    : "\n  (more, with examples, in docs/vram-api.md, vram-train.md and vram-infer.md)");
}

/* help([module or function, or its name]): prints what it knows, through the sandbox's print
 * (the REPL's transcript, eval's stdout). */
int lt_help(lua_State *L)
{
    bool given_nil = lua_gettop(L) >= 1 && lua_isnil(L, 1); /* help(vram.kv_cahce): a nil name */
    lua_settop(L, 1);
    /* the text in a userdata at 2 (collected if anything below raises), printed a line at a
     * time: one print carries at most LT_EV_TEXT_MAX bytes */
    char *text = lua_newuserdatauv(L, HELP_MAX, 0);
    text[0] = 0;
    struct gpu_buf b = GPU_BUF_FIXED(text, HELP_MAX);
    bool zh = !strcmp(lt_runtime_lang(lt_vm_of(L)->rt), "zh");
    const size_t nmod = sizeof help_modules / sizeof *help_modules;
    if (lua_type(L, 1) == LUA_TSTRING) { /* help("gpu.copy"), help("plot") outside the tutor */
        const char *name = lua_tostring(L, 1);
        for (size_t i = 0; !*text && i < sizeof docs / sizeof *docs; i++)
            if (!strcmp(docs[i].name, name)) put_doc(&b, i, zh);
        for (size_t m = 0; !*text && m < nmod; m++)
            if (!strcmp(name, help_modules[m])) put_module(m, zh, &b);
        struct gpu_suggest sg; /* help("vram.kv_cahce"): did you mean vram.kv_cache? */
        gpu_suggest_init(&sg, name);
        for (size_t i = 0; !*text && i < sizeof docs / sizeof *docs; i++) gpu_suggest_add(&sg, docs[i].name);
        for (size_t m = 0; !*text && m < nmod; m++) gpu_suggest_add(&sg, help_modules[m]);
        if (!*text && sg.best) {
            puts_(&b, zh ? "没有这一项的帮助；是不是 " : "no help for that; did you mean ");
            puts_(&b, sg.best);
            puts_(&b, zh ? "？" : "?");
        }
    } else if (given_nil) {
        puts_(&b, zh ? "这个名字是 nil：拼错了吗？help(vram) 列出一个模块的函数。"
                     : "that name is nil: mistyped? help(vram) lists a module's functions.");
    } else if (lua_isnoneornil(L, 1)) {
        puts_(&b, zh ? "模块：gpu（设备）、host（这颗 CPU）、alloc（分配器）、vram（显存估算）、"
                       "units（大小）、plot（沙箱面板；仅在教学界面）。help(gpu) 列出一个模块，"
                       "help(gpu.copy) 显示一个函数。"
                     : "modules: gpu (the device), host (this CPU), alloc (allocators), vram "
                       "(memory estimates), units (sizes), plot (the sandbox panel; tutor only). "
                       "help(gpu) lists a module, help(gpu.copy) shows one function.");
    } else if (lua_istable(L, 1) || lua_isfunction(L, 1)) {
        lua_getfield(L, LUA_REGISTRYINDEX, "lt.env"); /* 3 */
        bool table = lua_istable(L, 1);
        for (size_t m = 0; table && !*text && m < nmod; m++) {
            lua_pushstring(L, help_modules[m]);
            if (lua_rawget(L, 3) != LUA_TNIL && lua_rawequal(L, -1, 1)) put_module(m, zh, &b);
            lua_settop(L, 3);
        }
        for (size_t i = 0; !table && !*text && i < sizeof docs / sizeof *docs; i++) {
            const char *dot = strchr(docs[i].name, '.');
            lua_pushlstring(L, docs[i].name, (size_t)(dot - docs[i].name));
            /* read raw: plot outside the tutor raises on access */
            if (lua_rawget(L, 3) == LUA_TTABLE) {
                lua_pushstring(L, dot + 1);
                if (lua_rawget(L, -2) != LUA_TNIL && lua_rawequal(L, -1, 1)) put_doc(&b, i, zh);
            }
            lua_settop(L, 3);
        }
    }
    if (!*text)
        puts_(&b, zh ? "没有这一项的帮助：help() 列出所有模块" : "no help for that: help() lists the modules");
    lua_getfield(L, LUA_REGISTRYINDEX, "lt.env");
    int env = lua_gettop(L);
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        lua_getfield(L, env, "print");
        lua_pushlstring(L, p, n);
        lua_call(L, 1, 0);
        p += n + (p[n] == '\n');
    }
    return 0;
}
