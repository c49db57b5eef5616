#!/usr/bin/env bash
# Builds the libFuzzer harnesses and runs each for SECONDS.
#
#   Fuzz/run.sh SECONDS [harness...]     harnesses: gitwire feeds xml json headers images diskcache events names coding
#
# Each harness is its module's sources compiled with `swiftc -sanitize=fuzzer,address` together
# with Fuzz/<Harness>/main.swift (so internal API is reachable and the code under test is
# instrumented). Harnesses whose sources import packages (HTTPTypes, Logging, Crypto, collections) link those packages'
# objects from the package's debug build (`swift build --target Courier` makes them).
#
# Binaries go to Fuzz/.build/, working corpora to Fuzz/corpus/<harness>/ (both ignored by git):
# seeds are copied in from Fuzz/seeds/<harness>/, the test fixtures and, when present,
# /work/shared/conformance. Crashes and timeouts land in Fuzz/.build/artifacts/<harness>/;
# move the ones worth keeping to Fuzz/findings/<harness>/.
#
# Environment: FUZZ_TIMEOUT (seconds one input may take before libFuzzer calls it a timeout,
# default 2: small enough to flag super-linear work on 64 KiB inputs), FUZZ_KEEP_GOING=1 (fork
# mode: go on after a crash or timeout, to collect several; it runs fewer inputs a second),
# FUZZ_KEEP_GOING_FOR (harnesses run that way whatever FUZZ_KEEP_GOING says), FUZZ_CONFORMANCE (the conformance
# directory, default /work/shared/conformance), FUZZ_STRICT=1 (exit 1 when a kept finding fails again or
# the run finds a crash or timeout: what CI sets).
#
# Before fuzzing, each harness runs the inputs kept in Fuzz/findings/<harness>/ once: they are
# regression tests, and one that crashes or times out again is reported.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
seconds=${1:?usage: Fuzz/run.sh SECONDS [harness...]}
shift
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=(gitwire feeds xml json headers images diskcache events names coding)
timeout=${FUZZ_TIMEOUT:-2}
conformance=${FUZZ_CONFORMANCE:-/work/shared/conformance}
out=Fuzz/.build
mkdir -p "$out"

flags=(
    -sanitize=fuzzer,address -parse-as-library -O -g
    -swift-version 6 -package-name courier
    -enable-upcoming-feature ExistentialAny
    -enable-upcoming-feature InternalImportsByDefault
    -enable-upcoming-feature MemberImportVisibility
    -use-ld=lld
)

# The package's debug build, for HTTPTypes and Logging.
debug_build() {
    local bin
    bin=$(swift build --show-bin-path)
    if [ ! -e "$bin/Modules/HTTPTypes.swiftmodule" ] || [ ! -e "$bin/Modules/Logging.swiftmodule" ]; then
        swift build --target Courier >&2
    fi
    echo "$bin"
}

# JSONValue and JSONSyntax without LossyArray (which needs the rest of Courier).
json_sources=(Sources/Courier/JSON/{UTF8Sequence,JSONSyntax,JSONValue,JSONValue+Codable,JSONPath}.swift)
json_formatter_sources=(Sources/CourierJSON/{JSONFormatter,JSONFormatter+Tokens,JSONFormatter+SortedWriter,JSONFormatter+Escapes}.swift)

courier_sources() { find Sources/Courier -name '*.swift' | sort; }

# Reads source paths on standard input and prints the paths of copies without `import MODULE`
# (a module whose sources the harness builds into its own): written only when they change, so
# that a harness is rebuilt only when a source is.
without_import() {
    local module=$1 directory="$out/sources"
    mkdir -p "$directory"
    while IFS= read -r file; do
        local copy="$directory/${file//\//_}"
        grep -v -E "^(@_exported )?(public |package )?import $module\$" "$file" >"$copy.new" || true
        if cmp -s "$copy.new" "$copy"; then rm "$copy.new"; else mv "$copy.new" "$copy"; fi
        echo "$copy"
    done
}

build() {
    local name=$1 binary="$out/$1"
    local -a sources linked=()
    case $name in
        gitwire)
            sources=(Sources/GitWire/Protocol/{PktLine,AdvertisementReader,RefAdvertisement,RefAdvertisement+Wire,GitWireError,GitLimits,RefPattern}.swift
                Sources/GitWire/HTTP/InfoRefsReader.swift)
            module=GitWire main=Fuzz/GitWire/main.swift ;;
        feeds)
            # JSONFeedReader imports Courier for JSONValue: the module is named Courier so that
            # the import names itself, and CourierXML (the tokenizer, built in) names it too.
            mapfile -t sources < <(find Sources/Feeds Sources/CourierXML -name '*.swift' | sort | without_import CourierXML)
            sources+=("${json_sources[@]}" Sources/Courier/Cache/CivilDate.swift)
            module=Courier main=Fuzz/Feeds/main.swift ;;
        xml)
            mapfile -t sources < <(find Sources/CourierXML -name '*.swift' | sort)
            module=CourierXML main=Fuzz/XML/main.swift ;;
        json)
            sources=("${json_sources[@]}" "${json_formatter_sources[@]}")
            module=Courier main=Fuzz/JSON/main.swift ;;
        headers | diskcache | names)
            mapfile -t sources < <(courier_sources)
            # A cassette's recorded origins, rewritten in replayed text (CourierReplay).
            [ "$name" = headers ] && sources+=(Sources/CourierCassettes/{Cassette,RecordedOrigins}.swift)
            local bin
            bin=$(debug_build)
            linked=(-I "$bin/Modules")
            # The packages Courier imports, and theirs (swift-crypto's BoringSSL, collections).
            for product in HTTPTypes Logging Crypto CryptoBoringWrapper CCryptoBoringSSL CCryptoBoringSSLShims CXKCP CXKCPShims \
                DequeModule InternalCollectionsUtilities ContainersPreview; do
                mapfile -t -O "${#linked[@]}" linked < <(find "$bin/$product.build" -name '*.o' | sort)
            done
            module=Courier
            case $name in
                headers) main=Fuzz/Headers/main.swift ;;
                diskcache) main=Fuzz/DiskCache/main.swift ;;
                names) main=Fuzz/Names/main.swift ;;
            esac ;;
        coding)
            # ContentDecoder imports Courier for ContentCoding: the module is named Courier so
            # that the import names itself. compress-nio, zlib and NIOCore come linked, not
            # instrumented: the harness explores the decoder's own paths.
            sources=(Sources/CourierAsyncHTTPClient/ContentDecoder.swift Sources/Courier/Transport/ContentCoding.swift)
            local bin
            bin=$(debug_build)
            [ -e "$bin/Modules/CompressNIO.swiftmodule" ] || swift build --target CourierAsyncHTTPClient >&2
            linked=(-I "$bin/Modules" -lz)
            for map in "$bin"/{CCompressZlib,CNIOAtomics,CNIOLinux,CNIODarwin,CNIOWASI,CNIOWindows}.build/module.modulemap \
                .build/checkouts/swift-atomics/Sources/_AtomicsShims/include/module.modulemap; do
                [ -e "$map" ] && linked+=(-Xcc "-fmodule-map-file=$map")
            done
            for product in HTTPTypes CompressNIO CCompressZlib NIOCore _NIODataStructures _NIOBase64 NIOConcurrencyHelpers \
                Atomics _AtomicsShims CNIOAtomics CNIOLinux CNIODarwin CNIOWindows CNIOWASI DequeModule \
                InternalCollectionsUtilities ContainersPreview; do
                [ -d "$bin/$product.build" ] || continue
                mapfile -t -O "${#linked[@]}" linked < <(find "$bin/$product.build" -name '*.o' | sort)
            done
            module=Courier main=Fuzz/Coding/main.swift ;;
        events)
            sources=(Sources/Courier/Streaming/{LineSplitter,ServerSentEvent}.swift)
            module=Courier main=Fuzz/Events/main.swift ;;
        images)
            sources=(Sources/CourierImages/{ImageHeader,ImageFormat}.swift)
            module=CourierImages main=Fuzz/Images/main.swift ;;
        *) echo "unknown harness $name" >&2; return 1 ;;
    esac
    # Rebuild only when a source is newer than the binary.
    if [ -x "$binary" ] && [ -z "$(find "${sources[@]}" "$main" -newer "$binary" 2>/dev/null)" ]; then return 0; fi
    echo "== building $name" >&2
    if ! swiftc "${flags[@]}" -module-name "$module" "${sources[@]}" "$main" "${linked[@]}" -o "$binary" \
        >"$out/$name.build.log" 2>&1; then
        grep -v 'Cannot export local symbol' "$out/$name.build.log" >&2
        echo "build of $name failed" >&2
        return 1
    fi
}

# Copies the seeds of `name` into its working corpus (files up to 64 KiB).
seed() {
    local name=$1 corpus="Fuzz/corpus/$1"
    mkdir -p "$corpus"
    local -a from=("Fuzz/seeds/$name")
    case $name in
        feeds) from+=("$conformance/feeds/corpus") ;;
        json) from+=(Tests/CourierTestServer/Resources Tests/CourierTestingTests/Fixtures) ;;
        xml) from+=("Fuzz/seeds/feeds" "$conformance/feeds/corpus") ;;
        headers | gitwire | images | diskcache | events | names | coding) ;;
    esac
    for directory in "${from[@]}"; do
        [ -d "$directory" ] || continue
        find "$directory" -type f -size -65537c -print0 | while IFS= read -r -d '' file; do
            local target
            target="$corpus/seed-$(sha1sum "$file" | cut -c1-16)"
            [ -e "$target" ] || cp "$file" "$target"
        done
    done
    if [ "$name" = json ] && [ -d "$conformance/feeds/corpus" ]; then
        find "$conformance/feeds/corpus" -name '*.json' -size -65537c -exec cp -n {} "$corpus/" \;
    fi
    large_seeds "$name" "$corpus"
    if [ "$name" = diskcache ]; then FUZZ_WRITE_SEEDS="$corpus" "$out/diskcache" -runs=0 "$corpus" >/dev/null 2>&1 || true; fi
}

# `text` repeated to 64 KiB, as the seed `corpus/large-<label>`: inputs that make super-linear
# work show at once (libFuzzer's mutations take long to grow inputs that large).
repeat() {
    local corpus=$1 label=$2 text=$3
    [ -e "$corpus/large-$label" ] || { yes -- "$text" | tr -d '\n' | head -c 65536 >"$corpus/large-$label" || true; }
}

large_seeds() {
    local name=$1 corpus=$2
    case $name in
        gitwire)
            repeat "$corpus" empty-packets 0004
            repeat "$corpus" refs "0043$(printf 'a1%.0s' {1..20}) refs/heads/branch-0001"
            repeat "$corpus" capabilities "000dversion 2" ;;
        feeds)
            repeat "$corpus" open-tags '<a>'
            repeat "$corpus" entities '&amp;&#x41;&lt;&unknown;'
            repeat "$corpus" comments '<!--'
            repeat "$corpus" attributes '<a b="1" c="&amp;" '
            repeat "$corpus" cdata '<![CDATA[x]]>'
            repeat "$corpus" items '<rss><channel><item><title>t</title><link>l</link></item>' ;;
        xml)
            repeat "$corpus" open-tags '<a>'
            repeat "$corpus" namespaces '<a xmlns:x="urn:x" xmlns="urn:d">'
            repeat "$corpus" entities '&amp;&#x41;&lt;&unknown;'
            repeat "$corpus" comments '<!--'
            repeat "$corpus" instructions '<?p d?>'
            repeat "$corpus" paths '<a><b x="1">t</b></a>' ;;
        json)
            repeat "$corpus" arrays '['
            repeat "$corpus" objects '{"a":'
            repeat "$corpus" escapes '"\u00e9\\\n'
            repeat "$corpus" numbers '1234567890' ;;
        headers)
            repeat "$corpus" directives 'max-age=1, '
            repeat "$corpus" quotes 'a="\"'
            repeat "$corpus" separators ', ; - ' ;;
        images)
            { printf '\xff\xd8'; yes -- $'\xff' | tr -d '\n' | head -c 65530; } >"$corpus/large-jpeg-fill" 2>/dev/null || true
            { printf '\xff\xd8'; for _ in $(seq 16000); do printf '\xff\xe0\x00\x02'; done; } >"$corpus/large-jpeg-segments" ;;
        events)
            repeat "$corpus" crs $'\r'
            repeat "$corpus" data-lines $'data: x\r\n'
            repeat "$corpus" long-line 'data: aaaaaaaa'
            repeat "$corpus" ids $'id: 1\nretry: 99999999999999999999\n\n' ;;
        names)
            repeat "$corpus" dots '..%2F'
            repeat "$corpus" colons '[::1]:'
            repeat "$corpus" labels 'xn--a.' ;;
        coding)
            # zeros that inflate far: the limit's path.
            [ -e "$corpus/large-bomb" ] || { printf '\x00'; head -c 1048576 /dev/zero | gzip -9; } >"$corpus/large-bomb"
            # gzip members one after another: the reset path.
            [ -e "$corpus/large-members" ] || { printf '\x00'; for _ in $(seq 2000); do printf 'x' | gzip; done; } \
                >"$corpus/large-members" ;;
        diskcache) ;;
    esac
}

summary=()
failed=0
for name in "${harnesses[@]}"; do
    build "$name"
    seed "$name"
    if [ -d "Fuzz/findings/$name" ]; then
        mapfile -t kept < <(find "Fuzz/findings/$name" -type f | sort)
        if [ ${#kept[@]} -gt 0 ] && ! "$out/$name" -timeout="$timeout" -rss_limit_mb=2048 "${kept[@]}" \
            >"$out/$name.findings.log" 2>&1; then
            echo "$name: a kept finding fails again (see $out/$name.findings.log)" >&2
            failed=1
        fi
    fi
    artifacts="$out/artifacts/$name/"
    mkdir -p "$artifacts"
    log="$out/$name.log"
    touch "$out/.started-$name"  # artifacts newer than this are this run's
    echo "== fuzzing $name for ${seconds}s" >&2
    keep_going=()
    if [ "${FUZZ_KEEP_GOING:-0}" = 1 ] || [[ " ${FUZZ_KEEP_GOING_FOR:-} " == *" $name "* ]]; then keep_going=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1); fi
    set +e
    "$out/$name" "Fuzz/corpus/$name" -max_total_time="$seconds" -timeout="$timeout" -max_len=65536 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts" "${keep_going[@]}" >"$log" 2>&1
    status=$?
    set -e
    # (greps that find nothing must not end the script: set -e and pipefail are on)
    last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | awk '{ s += $2 } END { print s + 0 }' || true)
    [ "${execs:-0}" = 0 ] && execs=$(echo "$last" | sed -E 's/^#([0-9]+).*/\1/')
    cov=$(echo "$last" | grep -o 'cov: [0-9]*' | cut -d' ' -f2 || true)
    ft=$(echo "$last" | grep -o 'ft: [0-9]*' | cut -d' ' -f2 || true)
    crashes=$(find "$artifacts" \( -name 'crash-*' -o -name 'oom-*' -o -name 'leak-*' \) -newer "$out/.started-$name" | wc -l)
    timeouts=$(find "$artifacts" \( -name 'timeout-*' -o -name 'slow-unit-*' \) -newer "$out/.started-$name" | wc -l)
    if [ "$crashes" != 0 ] || [ "$timeouts" != 0 ]; then failed=1; fi
    summary+=("$(printf '%-10s execs %-10s cov %-6s ft %-7s crashes %-3s timeouts %-3s exit %s' \
        "$name" "$execs" "${cov:-?}" "${ft:-?}" "$crashes" "$timeouts" "$status")")
done

echo
printf '%s\n' "${summary[@]}"
echo "(logs in $out/<harness>.log, reproducers in $out/artifacts/<harness>/)"
if [ "${FUZZ_STRICT:-0}" = 1 ] && [ "$failed" = 1 ]; then
    echo "error: fuzzing found a crash or timeout, or a kept finding failed again" >&2
    exit 1
fi
