"""Reads wrk --latency output on stdin; prints 'requests/s p50_ms p99_ms errors'."""
import re, sys

text = sys.stdin.read()
units = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}

def latency(percent):
    match = re.search(rf"^\s+{percent}%\s+([\d.]+)(us|ms|s|m)\s*$", text, re.M)
    return float(match.group(1)) * units[match.group(2)] if match else float("nan")

rps = re.search(r"Requests/sec:\s+([\d.]+)", text)
errors = 0
non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
if non2xx:
    errors += int(non2xx.group(1))
socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
if socket:
    errors += sum(int(g) for g in socket.groups())
print(f"{float(rps.group(1)) if rps else 0.0} {latency(50):.3f} {latency(99):.3f} {errors}")
