import Benchmark
import LibraryKit
import LibrarySearch

/// The library service's search without HTTP: prefix lookups and page serialisation over one
/// million synthetic books (`SyntheticData`, the same set Benchmarks/compare/library serves).
/// Run with `COURIER_BENCHMARKS=1 swift package benchmark --target LibraryBenchmarks`.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .instructions, .throughput],
        maxDuration: .seconds(2)
    )

    let books = SyntheticData.books(count: 1_000_000)
    let catalog = SearchableList(books, key: \.title)
    // Prefixes with many, few and no matches, accented and not, each folded per lookup.
    let prefixes = ["the silent", "A golden", "über", "la dark river", "zzz", "the", "ó étrange", ""]

    Benchmark("Prefix lookup in 1M books (range and total, 8 prefixes)") { benchmark in
        for _ in benchmark.scaledIterations {
            for prefix in prefixes {
                blackHole(catalog.search(prefix, limit: 100, offset: 0))
            }
        }
    }

    Benchmark("Prefix lookup and 100-book JSON page in 1M books (8 prefixes)") { benchmark in
        for _ in benchmark.scaledIterations {
            for prefix in prefixes {
                let result = catalog.search(prefix, limit: 100, offset: 0)
                blackHole(catalog.json(for: result))
            }
        }
    }

    Benchmark(
        "Index 100k books (fold, sort, encode)",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal, .instructions], maxIterations: 5)
    ) { benchmark in
        let sample = Array(books.prefix(100_000))
        for _ in benchmark.scaledIterations {
            blackHole(SearchableList(sample, key: \.title))
        }
    }
}
