// libFuzzer harness: ContentDecoder (Sources/CourierAsyncHTTPClient), over compress-nio's zlib.
//
// The first byte picks the codings (gzip, deflate, both) and how the rest is cut into pieces.
// Two properties are checked on every input:
// - read as a compressed body, whole and in pieces, it decodes to the same bytes or fails
//   (the same way, for one coding), and never hands over more than the 1 MiB limit or a
//   window above 64 KiB;
// - compressed by zlib and read back in pieces, it is itself again.
import CompressNIO
import NIOCore

enum Outcome: Equatable, CustomStringConvertible {
    case decoded([UInt8])
    case failed(ContentDecoder.Failure)

    var description: String {
        switch self {
        case .decoded(let bytes): "\(bytes.count) bytes"
        case .failed(let failure): "\(failure)"
        }
    }
}

let limit = 1 << 20

func decode(_ pieces: [ArraySlice<UInt8>], _ codings: [ContentCoding]) -> Outcome {
    let decoder = ContentDecoder(codings: codings, limit: limit)
    var output: [UInt8] = []
    do {
        for piece in pieces {
            decoder.push(ByteBuffer(bytes: piece))
            while let window = try decoder.next() {
                precondition(window.readableBytes <= ContentDecoder.windowSize, "a window larger than its size")
                output += window.readableBytesView
                precondition(output.count <= limit, "more than the limit was handed over")
            }
        }
        try decoder.finish()
        return .decoded(output)
    } catch {
        return .failed(error)
    }
}

func cut(_ bytes: ArraySlice<UInt8>, seed: UInt8) -> [ArraySlice<UInt8>] {
    var pieces: [ArraySlice<UInt8>] = []
    var offset = bytes.startIndex
    var step = Int(seed % 13) + 1
    while offset < bytes.endIndex {
        let end = min(bytes.endIndex, offset + step)
        pieces.append(bytes[offset..<end])
        offset = end
        step = step * 5 % 23 + 1
    }
    return pieces
}

func compress(_ bytes: ArraySlice<UInt8>, _ algorithm: ZlibAlgorithm) -> [UInt8] {
    var input = ByteBuffer(bytes: bytes)
    var output = ByteBuffer()
    output.reserveCapacity(bytes.count + 1024)
    guard let compressor = try? ZlibCompressor(algorithm: algorithm) else { return [] }
    do {
        try compressor.deflate(from: &input, to: &output, flush: .finish)
    } catch {
        preconditionFailure("zlib could not compress \(bytes.count) bytes into \(output.capacity): \(error)")
    }
    return Array(output.readableBytesView)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = Array(UnsafeRawBufferPointer(start: start, count: count))
    guard let seed = input.first else { return 0 }
    let body = input.dropFirst()
    let codings: [ContentCoding] =
        switch seed % 3 {
        case 0: [.gzip]
        case 1: [.deflate]
        default: [.gzip, .deflate]
        }
    let whole = decode([body], codings)
    let pieces = decode(cut(body, seed: seed), codings)
    switch (whole, pieces) {
    case (.failed(let first), .failed(let second)) where codings.count > 1 || first == .tooLarge || second == .tooLarge:
        // Both failed, in a chain or at the limit: which layer saw the damage first, or whether
        // the limit came before it, depends on how much had been written when it was met.
        break
    default:
        precondition(whole == pieces, "decoding in pieces (\(pieces)) differs from decoding whole (\(whole))")
    }

    // Round trips: what zlib writes, the decoder reads back, however it is cut.
    let gzip = compress(body, .gzip)
    precondition(decode(cut(gzip[...], seed: seed), [.gzip]) == .decoded(Array(body)), "gzip round trip")
    let raw = compress(body, .deflate)
    precondition(decode(cut(raw[...], seed: seed), [.deflate]) == .decoded(Array(body)), "raw deflate round trip")
    return 0
}
