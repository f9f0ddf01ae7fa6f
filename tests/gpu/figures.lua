-- figures.lua - put before a check of tests/gpu/ by run.sh when the report's figures are there
-- (make gpu-report): FIGURES is the table of tests/gpu/report.lua's "key<TAB>value" lines, and
-- these read a result back from it in the shape the lesson API returns (figure_access: one of
-- chapter 7's, every field its acc_<name>_ lines hold), so a check judges
-- the report's measurement instead of making its own (no figure is measured twice). Without
-- FIGURES (make test-gpu alone) they return nil and the check measures. run.sh joins this file
-- onto one line ahead of the check's first line (a comment), so the check's line numbers stay;
-- keep its code free of "--" comments.
function figure(key)
  local F = FIGURES
  if not F or F[key .. "_bytes_per_s"] == nil then return nil end
  return { bytes = F[key .. "_bytes"], bytes_per_s = F[key .. "_bytes_per_s"],
           rw_bytes_per_s = F[key .. "_rw_bytes_per_s"], median_bytes_per_s = F[key .. "_median_bytes_per_s"],
           seconds = F[key .. "_seconds"], median_seconds = F[key .. "_median_seconds"],
           samples = F[key .. "_samples"], reps = F[key .. "_reps"], spread = F[key .. "_spread"],
           moved_bytes = F[key .. "_moved_bytes"], dot = F[key .. "_dot"],
           validated = F[key .. "_validated"] == true, simulated = F.simulated == true,
           numa_node = F[key .. "_numa_node"], warnings = {}, from_report = true }
end
function figure_ladder()
  local F, pts = FIGURES, {}
  if not F then return nil end
  for k = 1, 99 do
    local line = F[string.format("lat_%02d", k)]
    if not line then break end
    local n, mn, md, mx, cyc, mhz, sms, clk = line:match("^(%S+) (%S+) (%S+) (%S+) (%S+) (%S+) (%S+) (%S+)$")
    if not n then return nil end
    local list = {}
    for s in sms:gmatch("%d+") do list[#list + 1] = tonumber(s) end
    pts[#pts + 1] = { bytes = math.tointeger(tonumber(n)), ns_per_load = tonumber(mn), min_ns_per_load = tonumber(mn),
                      median_ns_per_load = tonumber(md), max_ns_per_load = tonumber(mx),
                      cycles_per_load = tonumber(cyc), sm_clock_mhz = tonumber(mhz), sms = list,
                      low_clock = clk == "low", simulated = F.simulated == true, from_report = true }
  end
  return #pts > 0 and pts or nil
end
function figure_access(key)
  local F, r, p = FIGURES, { warnings = {}, from_report = true }, key .. "_"
  if not F or (F[p .. "bytes_per_s"] == nil and F[p .. "ns_per_load"] == nil) then return nil end
  for k, v in pairs(F) do
    if k:sub(1, #p) == p then r[k:sub(#p + 1)] = v end
  end
  local list = {}
  for s in tostring(r.sms or ""):gmatch("%d+") do list[#list + 1] = tonumber(s) end
  r.sms, r.simulated = list, F.simulated == true
  return r
end
