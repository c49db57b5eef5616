-- wrk script: requests the paths in the file named by $URLS, in turn, one per request.
local paths = {}
for line in io.lines(os.getenv("URLS")) do
  if line ~= "" then paths[#paths + 1] = line end
end
local next_path = 0
request = function()
  next_path = next_path % #paths + 1
  return wrk.format("GET", paths[next_path])
end
