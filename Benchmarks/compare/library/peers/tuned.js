// The chapter's service done well in Node: data loaded once, search keys folded once (NFKD,
// marks removed, lowercased, the same rule courier serve uses for most text), items sorted by
// key and serialised once; each request scans the keys linearly and joins the page's
// pre-serialised items. Same result cap and X-Total-Count as courier serve.
//
//   node tuned.js PORT DATA_DIRECTORY
const http = require("http");
const fs = require("fs");
const path = require("path");
const [port, directory] = process.argv.slice(2);

const fold = (text) => text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();

function load(file, field) {
  const items = JSON.parse(fs.readFileSync(path.join(directory, file), "utf8"))
    .map((item) => ({ key: fold(item[field]), json: JSON.stringify(item) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { keys: items.map((item) => item.key), json: items.map((item) => item.json) };
}
const catalog = load("catalog.json", "title");
const locations = load("locations.json", "country");

function search(list, query, url) {
  const prefix = fold(query || "");
  const limit = Number(url.searchParams.get("limit") ?? 100);
  const offset = Number(url.searchParams.get("offset") ?? 0);
  const page = [];
  let total = 0;
  for (let i = 0; i < list.keys.length; i++) {
    if (list.keys[i].startsWith(prefix)) {
      if (total >= offset && page.length < limit) page.push(list.json[i]);
      total++;
    }
  }
  return { total, body: "[" + page.join(",") + "]" };
}

http
  .createServer((request, response) => {
    const url = new URL(request.url, "http://localhost");
    let result;
    if (url.pathname === "/catalog") result = search(catalog, url.searchParams.get("q"), url);
    else if (url.pathname === "/locations") result = search(locations, url.searchParams.get("country"), url);
    if (!result) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "Content-Type": "application/json", "X-Total-Count": result.total });
    response.end(result.body);
  })
  .listen(Number(port), "127.0.0.1");
