import Benchmark
import GitWire

/// Decoding a protocol v0 advertisement of 50,000 refs: pkt-line framing, then the ref lines.
func gitWireBenchmarks() {
    let objectID = String(repeating: "a1b2c3d4e5", count: 4)
    var stream: [UInt8] = []
    for index in 0..<50_000 {
        var line = "\(objectID) refs/heads/branch-\(index)"
        if index == 0 { line += "\u{0}multi_ack symref=HEAD:refs/heads/main agent=git/2.39.5" }
        stream += (try? PktLine.data(Array((line + "\n").utf8)).encoded()) ?? []
    }
    stream += Array("0000".utf8)
    let bytes = stream

    Benchmark(
        "Git wire: decode pkt-lines of a 50,000-ref advertisement (\(bytes.count / 1000) KB)",
        configuration: .init(metrics: [.wallClock, .instructions, .mallocCountTotal, .throughput])
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            var decoder = PktLineDecoder()
            decoder.append(bytes)
            var count = 0
            while let packet = try? decoder.next() {
                if case .flush = packet { break }
                count += 1
            }
            blackHole(count)
        }
    }

    Benchmark(
        "Git wire: decode and read a 50,000-ref advertisement",
        configuration: .init(metrics: [.wallClock, .instructions, .mallocCountTotal, .throughput])
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            var decoder = PktLineDecoder()
            var reader = AdvertisementReader(address: "git://127.0.0.1/bench.git")
            decoder.append(bytes)
            while reader.state != .finished, let packet = try? decoder.next() {
                blackHole(try? reader.read(packet))
            }
            blackHole(reader.advertisement.refs.count)
        }
    }
}
