"""Writes a large attribute-heavy XML document for the benchmark, shaped like an OpenStreetMap
extract in a namespace: `python3 generate.py FILE MEGABYTES`."""
import random
import sys

path, megabytes = sys.argv[1], int(sys.argv[2])
random.seed(1)
keys = "name highway amenity building surface lanes maxspeed oneway source".split()
values = "Rue Cler;residential;cafe;yes;asphalt;2;50;no;survey;Quai Saint-Vincent;library".split(";")
target = megabytes * 1_000_000
with open(path, "w", encoding="utf-8") as out:
    out.write('<?xml version="1.0" encoding="utf-8"?>\n')
    out.write('<osm:osm xmlns:osm="urn:example:osm" xmlns:geo="urn:example:geo" version="0.6">\n')
    written = 0
    n = 0
    while written < target:
        n += 1
        tags = "".join(
            f'<osm:tag k="{random.choice(keys)}" v="{random.choice(values)} &amp; {n % 13}"/>' for _ in range(4)
        )
        node = (
            f'<osm:node id="{n}" geo:lat="{48 + random.random():.7f}" geo:lon="{2 + random.random():.7f}" '
            f'version="{n % 9 + 1}" user="mapper{n % 500}">{tags}</osm:node>\n'
        )
        out.write(node)
        written += len(node)
    out.write("</osm:osm>\n")
