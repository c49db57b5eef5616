"""The peer for Benchmarks/compare/movies: the same refresh written the usual Python way —
sqlite3 and urllib from the standard library, a thread pool of CONCURRENCY, each rating
committed in its own transaction, best match = exact title (case-insensitive) else the first.

    python3 peer.py DATABASE SERVICE_URL CONCURRENCY     (token from TMDB_ACCESS_TOKEN)
"""
import concurrent.futures, datetime, json, os, sqlite3, sys, urllib.parse, urllib.request

database, service, concurrency = sys.argv[1], sys.argv[2].rstrip("/"), int(sys.argv[3])
token = os.environ["TMDB_ACCESS_TOKEN"]

def connect():
    connection = sqlite3.connect(database, timeout=10, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    return connection

def rate(movie):
    movie_id, title = movie
    query = urllib.parse.urlencode({"query": title, "page": 1})
    request = urllib.request.Request(f"{service}/3/search/movie?{query}", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=15) as response:
        results = json.load(response)["results"]
    match = next((r for r in results if r["title"].lower() == title.lower()), results[0] if results else None)
    connection = connect()
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]
    with connection:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute(
            "UPDATE movie SET tmdb_id = ?, popularity = ?, fetched_at = ?, last_error = NULL WHERE id = ?",
            (match["id"], match["popularity"], now, movie_id),
        )
    connection.close()

movies = connect().execute("SELECT id, title FROM movie WHERE popularity IS NULL ORDER BY id").fetchall()
with concurrent.futures.ThreadPoolExecutor(max_workers=concurrency) as pool:
    list(pool.map(rate, movies))
print(f"rated {len(movies)}")
