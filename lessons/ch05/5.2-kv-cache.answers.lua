-- Reference answers of lesson 5.2, "The KV cache": for each exercise a right answer and a
-- wrong one (a mistake a learner makes, with what its feedback says), graded by
-- `vramlab check --answers` (docs/lesson-format.md, "Reference answers").

answer "kv-7b" { right = "2", wrong = "1" }  -- 2*32*32*128*2 B*4096; wrong: forgot the 2 for K and V
answer "kv-gqa" { right = "128", wrong = "512" }  -- wrong: 32 query heads instead of the 8 KV heads
answer "mla" { right = "3", wrong = "2" }  -- wrong: MLA taken for MQA
answer "segments" { figure = "simulated", wrong = "30000" }  -- allocator on the simulated device; wrong: one cudaMalloc per tensor
-- wrong: query heads counted as KV heads
answer "from-config" {
  right = [[
-- K and V, per layer, per KV head (query heads when the config names no KV heads), head_dim each
function kv_per_token(cfg, bytes)
  local kv = cfg.num_key_value_heads or cfg.num_attention_heads
  local head_dim = cfg.hidden_size // cfg.num_attention_heads
  return 2 * cfg.num_hidden_layers * kv * head_dim * bytes
end
]],
  wrong = { [[
-- mistake: counts the query heads, as if every model were MHA (4x too much for GQA 32/8)
function kv_per_token(cfg, bytes)
  local head_dim = cfg.hidden_size // cfg.num_attention_heads
  return 2 * cfg.num_hidden_layers * cfg.num_attention_heads * head_dim * bytes
end
]], says = "llama-3-8b, 2 B per element: got 524288, want 131072" },
}
