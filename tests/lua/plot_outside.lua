-- plot draws on the tutor's sandbox panels only: in eval (and a lesson) a use says where it works
-- instead of "attempt to index a nil value".
local ok, err = pcall(function() return plot.point("x", 1, 2) end)
assert(not ok, "plot outside the sandbox did not raise")
assert(tostring(err):find("plot.point is only available in the tutor's sandbox", 1, true), tostring(err))
print("plot outside ok")
