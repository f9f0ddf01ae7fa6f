-- A wrong answer (a fixture, not a test): tests/cli/grade.sh checks that the lesson grades it wrong.
-- mistake: counts the query heads, as if every model were MHA (4x too much for GQA 32/8)
function kv_per_token(cfg, bytes)
  local head_dim = cfg.hidden_size // cfg.num_attention_heads
  return 2 * cfg.num_hidden_layers * cfg.num_attention_heads * head_dim * bytes
end
