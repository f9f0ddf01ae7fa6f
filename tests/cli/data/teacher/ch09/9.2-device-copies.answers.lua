answer "predict-bw" { figure = "simulated", wrong = "1e-6" }
answer "copy-ms" { right = { "2.147", "0.002147 s" }, wrong = { { "2", says = "GB/GiB ratio" } } }
