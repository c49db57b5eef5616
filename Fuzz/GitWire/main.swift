// libFuzzer harness: the pkt-line decoder, the advertisement reader, the reader of an HTTP
// `info/refs` answer (smart or dumb) and ref patterns (Sources/GitWire).
//
// The input is a server's answer. It is fed to `PktLineDecoder` in chunks whose sizes come from
// the input itself, every packet goes to an `AdvertisementReader` (with limits that the input
// can reach), and the result is printed as `git ls-remote` would. Checked on the way:
// - a data packet re-encodes to the bytes it was decoded from;
// - the decoder never holds more than one chunk and one incomplete packet;
// - the same bytes decode to the same packets in one piece and in chunks;
// - an `info/refs` answer (smart or dumb, by the input's first byte) reads to the same refs
//   in one piece and in chunks;
// - a pattern taken from the input's start matches the names of the refs read without
//   trapping, in time linear in the name for each pattern byte.

/// libFuzzer's entry point: runs one input of `count` bytes at `start`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let whole = packets(bytes, chunkSizes: [max(1, bytes.count)])
    var seed = UInt64(truncatingIfNeeded: bytes.count) &* 0x9E37_79B9_7F4A_7C15
    for byte in bytes.prefix(8) { seed = seed &* 31 &+ UInt64(byte) }
    var sizes: [Int] = []
    for _ in 0..<16 {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        sizes.append(Int(seed >> 33) % 97 + 1)
    }
    let chunked = packets(bytes, chunkSizes: sizes)
    precondition(whole == chunked, "chunking changed the packets")
    // One input in four meets a low ref limit, one in four a low byte limit.
    do {
        let mode = Int(bytes.last ?? 0) % 4
        let limits = GitLimits(maximumRefs: mode == 0 ? 3 : 1_000_000, maximumBytes: mode == 1 ? 200 : 256 << 20)
        var reader = AdvertisementReader(address: "git://127.0.0.1/fuzz.git", limits: limits)
        for packet in whole.packets {
            do {
                _ = try reader.read(packet)
            } catch {
                _ = error.description
                break
            }
        }
        let advertisement = reader.advertisement
        for flags in 0..<16 {
            _ = advertisement.lsRemoteOutput(
                heads: flags & 1 != 0,
                tags: flags & 2 != 0,
                refsOnly: flags & 4 != 0,
                symref: flags & 8 != 0
            )
        }
        _ = advertisement == advertisement
        var hasher = Hasher()
        advertisement.hash(into: &hasher)
        _ = hasher.finalize()
        let pattern = RefPattern(String(decoding: bytes.prefix(Int(bytes.first ?? 0) % 64), as: UTF8.self))
        for ref in advertisement.refs.prefix(64) { _ = pattern.matches(ref.name) }
        _ = advertisement.lsRemoteOutput(symref: true, patterns: [pattern])
    }
    let smart = (bytes.first ?? 0) & 1 == 0
    let read = infoRefs(bytes, smart: smart, chunkSizes: [max(1, bytes.count)])
    precondition(read == infoRefs(bytes, smart: smart, chunkSizes: sizes), "chunking changed the info/refs refs")
    return 0
}

/// The refs an `info/refs` answer of `bytes` gives, appended `chunkSizes` at a time, and
/// whether it was read to its end without an error.
func infoRefs(_ bytes: [UInt8], smart: Bool, chunkSizes: [Int]) -> [AdvertisedRef]? {
    let type = smart ? "application/x-git-upload-pack-advertisement" : "text/plain"
    guard var reader = try? InfoRefsReader(contentType: type, address: "https://fuzz", limits: GitLimits(maximumRefs: 1000))
    else { return nil }
    var refs: [AdvertisedRef] = []
    var offset = 0
    var turn = 0
    do {
        while offset < bytes.count, !reader.isComplete {
            let end = min(bytes.count, offset + chunkSizes[turn % chunkSizes.count])
            turn += 1
            refs += try reader.read(bytes[offset..<end])
            offset = end
        }
        try reader.finish()
    } catch {
        _ = error.description
        return nil
    }
    if reader.kind == .dumb {
        refs = (try? reader.dumbAdvertisement(head: Array(bytes.suffix(45))))?.refs ?? []
    }
    return refs
}

struct Decoded: Equatable {
    var packets: [PktLine] = []
    var error: PktLineError?
}

/// The packets in `bytes`, appended `chunkSizes` at a time (cycling), until an error.
func packets(_ bytes: [UInt8], chunkSizes: [Int]) -> Decoded {
    var decoder = PktLineDecoder()
    var decoded = Decoded()
    var offset = 0
    var turn = 0
    while offset < bytes.count {
        let size = chunkSizes[turn % chunkSizes.count]
        turn += 1
        let end = min(bytes.count, offset + size)
        decoder.append(bytes[offset..<end])
        offset = end
        do {
            while let packet = try decoder.next() {
                if case .data(let payload) = packet {
                    let encoded = try packet.encoded()
                    precondition(encoded.count == payload.count + 4, "a data packet re-encodes to its length")
                }
                decoded.packets.append(packet)
            }
        } catch {
            _ = error.description
            decoded.error = error
            return decoded
        }
        precondition(decoder.pendingByteCount < PktLine.maximumLength, "the decoder holds more than a packet")
    }
    return decoded
}
