// libFuzzer harness: the disk cache's entry decoder, `DiskCacheStore.decode(_:key:)`
// (Sources/Courier/Cache/DiskCacheStore.swift).
//
// An entry ends in a checksum of everything before it, so random bytes would rarely get past
// it: the input is the part between the format's magic and the checksum, and the harness adds
// both (and reads the key the entry names, so that the key check passes too). The raw input
// is decoded as well, for the paths before the checksum. With FUZZ_WRITE_SEEDS=<dir> in the
// environment, the harness first writes entries made by `DiskCacheStore.encode` there.
import Foundation
import HTTPTypes

private let magic = Array((DiskCacheStore.encode([], key: "") ?? Data()).prefix(5))

/// libFuzzer's set-up: writes seed entries when `FUZZ_WRITE_SEEDS` names a directory.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutableRawPointer, _ argv: UnsafeMutableRawPointer) -> CInt {
    guard let directory = ProcessInfo.processInfo.environment["FUZZ_WRITE_SEEDS"] else { return 0 }
    var head = HTTPResponse(status: .ok)
    head.headerFields[.contentType] = "application/json"
    head.headerFields[.cacheControl] = "max-age=60"
    head.headerFields[.vary] = "Accept"
    let response = CachedResponse(
        head: head,
        body: Data("{\"a\":1}".utf8),
        url: "https://example.com/a",
        requestTime: Date(timeIntervalSince1970: 1_700_000_000),
        responseTime: Date(timeIntervalSince1970: 1_700_000_001),
        selectingValues: ["accept": "application/json", "authorization": nil]
    )
    var empty = response
    empty.body = Data()
    let entries: [(String, [CachedResponse])] = [
        ("GET https://example.com/a", [response]),
        ("GET https://example.com/b", [response, empty]),
        ("", []),
    ]
    for (index, (key, variants)) in entries.enumerated() {
        guard let entry = DiskCacheStore.encode(variants, key: key) else { continue }
        let content = entry.dropFirst(magic.count).dropLast(8)
        try? Data(content).write(to: URL(fileURLWithPath: directory).appendingPathComponent("encoded-\(index)"))
    }
    return 0
}

/// libFuzzer's entry point: runs one input of `count` bytes at `start`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = Array(UnsafeRawBufferPointer(start: start, count: count))
    _ = DiskCacheStore.decode(Data(input), key: "")

    var bytes = magic + input
    let checksum = FNV1a.hash(bytes)
    for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: checksum >> shift)) }
    var key = ""
    if input.count >= 4 {
        let length = input.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        if length <= input.count - 4 { key = String(decoding: input[4..<(4 + length)], as: UTF8.self) }
    }
    if let variants = DiskCacheStore.decode(Data(bytes), key: key) {
        for variant in variants { _ = variant.cost }
        // What decodes encodes again to the same entry.
        precondition(DiskCacheStore.encode(variants, key: key) != nil, "a decoded entry does not encode")
    }
    return 0
}
