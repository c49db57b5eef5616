"""Writes a large RSS 2.0 feed for the benchmark: `python3 generate.py FILE MEGABYTES`."""
import random
import sys

path, megabytes = sys.argv[1], int(sys.argv[2])
random.seed(1)
words = "swift feed parser stream memory bound entry title link river garden voyage".split()
target = megabytes * 1_000_000
with open(path, "w", encoding="utf-8") as out:
    out.write('<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">\n<channel>\n')
    out.write("<title>Benchmark feed</title><link>http://example.test/</link><description>Generated</description>\n")
    written = 0
    n = 0
    while written < target:
        n += 1
        title = " ".join(random.choice(words) for _ in range(6)).capitalize()
        body = " ".join(random.choice(words) for _ in range(60))
        item = (
            f"<item><title>{title} #{n}</title><link>http://example.test/items/{n}</link>"
            f"<guid>http://example.test/items/{n}</guid><pubDate>Sat, 07 Sep 2002 00:00:{n % 60:02d} GMT</pubDate>"
            f"<dc:creator>Author {n % 97}</dc:creator><category>{random.choice(words)}</category>"
            f"<description>&lt;p&gt;{body} &amp;amp; more&lt;/p&gt;</description></item>\n"
        )
        out.write(item)
        written += len(item)
    out.write("</channel>\n</rss>\n")
