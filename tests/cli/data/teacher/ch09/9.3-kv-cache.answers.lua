answer "kv-mib" { right = { "0.5", "512 KiB" }, wrong = { { "1", says = "factor of 2" } } }
