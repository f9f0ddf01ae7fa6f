-- A right answer (a fixture, not a test): tests/cli/grade.sh checks that the lesson grades it right.
-- K and V, per layer, per KV head (query heads when the config names no KV heads), head_dim each
function kv_per_token(cfg, bytes)
  local kv = cfg.num_key_value_heads or cfg.num_attention_heads
  local head_dim = cfg.hidden_size // cfg.num_attention_heads
  return 2 * cfg.num_hidden_layers * kv * head_dim * bytes
end
