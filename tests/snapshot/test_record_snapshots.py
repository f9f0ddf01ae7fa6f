#!/usr/bin/env python3
"""test_record_snapshots.py VRAMLAB - the pure helpers of docs/record_snapshots.py, without torch:
the parameter count against vramlab's own vram.transformer (run through VRAMLAB eval), the memory
fraction, the file names against the shipped examples, the --only parser and the DDP saving.
Importing the script must not import torch (it is imported only when recording)."""
import importlib.util
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VRAMLAB = None


def load():
    spec = importlib.util.spec_from_file_location("record_snapshots", os.path.join(ROOT, "docs", "record_snapshots.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def vram_params(s):
    code = ("print(vram.transformer { layers = %d, hidden = %d, heads = %d, vocab = %d, positions = %d }.total)"
            % (s["layers"], s["d"], s["heads"], s["vocab"], s["positions"]))
    out = subprocess.check_output([VRAMLAB, "--backend", "sim", "eval", "-"], input=code.encode())
    return int(out.split()[0])


class Helpers(unittest.TestCase):
    def setUp(self):
        self.r = load()

    def test_no_torch_at_import(self):
        self.assertNotIn("torch", sys.modules)

    def test_param_count_matches_vramlab(self):
        for kind in ("train", "phases"):
            s = self.r.SETTINGS[kind]
            self.assertEqual(self.r.param_count(s["layers"], s["d"], s["vocab"], s["positions"]), vram_params(s), kind)

    def test_param_count_gpt2_small(self):
        # GPT-2 small's published count: 124,439,808 parameters
        self.assertEqual(self.r.param_count(12, 768, 50257, 1024), 124439808)

    def test_memory_fraction(self):
        self.assertAlmostEqual(self.r.memory_fraction(8 << 30, 80 << 30), 0.1)
        self.assertEqual(self.r.memory_fraction(100, 50), 1.0)
        with self.assertRaises(ValueError):
            self.r.memory_fraction(0, 10)

    def test_outputs_are_the_shipped_names(self):
        shipped = set(os.listdir(os.path.join(ROOT, "assets", "snapshots")))
        for name in self.r.outputs(["train", "oom", "leak"]):
            self.assertIn(name, shipped)
        self.assertEqual(len(self.r.outputs()), 7)  # 4 snapshots, 3 JSON files

    def test_leak_steps_match_the_names(self):
        steps = self.r.SETTINGS["leak"]["steps"]
        for step, name in zip(steps, self.r.OUTPUTS["leak"]):
            self.assertIn("step%d" % step, name)

    def test_parse_only(self):
        self.assertIsNone(self.r.parse_only(""))
        self.assertEqual(self.r.parse_only("leak, phases"), ["leak", "phases"])
        with self.assertRaises(ValueError):
            self.r.parse_only("leaks")

    def test_rows_and_saving(self):
        row = self.r.phase_row(2, "backward", 2.5, 1, 3, 4)
        self.assertEqual(row, {"step": 2, "phase": "backward", "max_memory_allocated": 2, "memory_allocated": 1,
                               "memory_reserved": 3, "mem_get_info_free": 4})
        self.assertEqual(self.r.bucket_bytes(3089, 2988), 101)


if __name__ == "__main__":
    VRAMLAB = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=1)
