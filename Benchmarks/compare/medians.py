"""Medians of load-generator lines `client req_per_s p50_ms p99_ms`, one per client and round,
for the run.sh scripts of Benchmarks/compare (client, http2)."""
import statistics


def medians(path):
    """{client: (req/s, p50 ms, p99 ms)}, each the median over the client's rounds."""
    rows = {}
    for line in open(path):
        client, rps, p50, p99 = line.split()
        rows.setdefault(client, []).append((float(rps), float(p50), float(p99)))
    return {c: tuple(statistics.median(r[i] for r in v) for i in range(3)) for c, v in rows.items()}
