// The chapter's service, on Node's built-in http module instead of Express (the npm registry
// is not reachable here): it reads and parses the data file on every request and filters with
// toLowerCase().startsWith. For a fair comparison it caps results like courier serve does
// (limit 100 by default, offset) and sends X-Total-Count.
//
//   node faithful.js PORT DATA_DIRECTORY
const http = require("http");
const fs = require("fs");
const path = require("path");
const [port, directory] = process.argv.slice(2);

function search(file, field, query, url) {
  const json = JSON.parse(fs.readFileSync(path.join(directory, file), "utf8"));
  const prefix = (query || "").toLowerCase();
  const matches = json.filter((item) => item[field].toLowerCase().startsWith(prefix));
  const limit = Number(url.searchParams.get("limit") ?? 100);
  const offset = Number(url.searchParams.get("offset") ?? 0);
  return { total: matches.length, body: JSON.stringify(matches.slice(offset, offset + limit)) };
}

http
  .createServer((request, response) => {
    const url = new URL(request.url, "http://localhost");
    let result;
    if (url.pathname === "/catalog") result = search("catalog.json", "title", url.searchParams.get("q"), url);
    else if (url.pathname === "/locations") result = search("locations.json", "country", url.searchParams.get("country"), url);
    if (!result) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "Content-Type": "application/json", "X-Total-Count": result.total });
    response.end(result.body);
  })
  .listen(Number(port), "127.0.0.1");
