# Sourced by run.sh and http.sh: times `git ls-remote` against `courier ls-remote` with
# hyperfine for each repository size in `sizes` and protocols 0 and 2, after checking that both
# print the same refs, and prints the medians and their ratio.
#
#   compare_ls_remote BASE RUNS     BASE/refs-<size>.git is each repository's address

compare_ls_remote() {
    local base=$1 runs=$2 refs version url
    for refs in "${sizes[@]}"; do
        url="$base/refs-$refs.git"
        for version in 0 2; do
            # Same output first: the comparison is only fair if both print the same refs.
            diff <(git -c protocol.version=$version ls-remote "$url") \
                <(.build/release/courier ls-remote --protocol $version "$url") >/dev/null
            hyperfine --warmup 3 --runs "$runs" --export-json "$work/v$version.json" -N \
                "git -c protocol.version=$version ls-remote $url" \
                ".build/release/courier ls-remote --protocol $version $url" >/dev/null 2>&1
            python3 - "$work/v$version.json" "$version" "$refs" <<'PY'
import json, sys
path, version, refs = sys.argv[1], sys.argv[2], int(sys.argv[3])
results = json.load(open(path))["results"]
git, courier = (r["median"] for r in results)
print(f"{refs:>7,} refs, protocol {version}: git {git * 1000:6.1f} ms, courier {courier * 1000:6.1f} ms (medians); courier / git time = {courier / git:.2f}")
PY
        done
    done
}
