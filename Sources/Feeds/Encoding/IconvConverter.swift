#if canImport(Glibc)
import CourierXML
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's `iconv`, converting one encoding to UTF-8 in pieces: it knows the encodings
/// Foundation lacks on Linux (EUC-KR, GB2312, Big5, KOI8-R…), and says where a piece ends inside
/// a character, so a stream can be decoded as it arrives.
///
/// A class because the conversion descriptor must be closed once; not shared between tasks.
final class IconvConverter {
    /// Why a conversion stopped before the end of its input.
    enum Stop: Equatable {
        /// Everything was converted.
        case none
        /// The input ends inside a character: the rest waits for more bytes.
        case incomplete
        /// The byte at the stopping point starts no character of the encoding.
        case invalid
    }

    private let descriptor: iconv_t
    /// Where each call writes, reused: a stream of bytes the encoding rejects calls once a byte.
    private var piece = [UInt8](repeating: 0, count: 1 << 16)

    /// A converter from `encoding` (an IANA name), or `nil` when the system does not know it.
    init?(from encoding: String) {
        // Only a name that looks like one (a charset comes from the network).
        guard encoding.utf8.count <= 40,
            encoding.utf8.allSatisfy({ ByteScan.isAlphanumeric($0) || "._:-".utf8.contains($0) })
        else { return nil }
        let descriptor = iconv_open("UTF-8", encoding)
        guard let descriptor, descriptor != iconv_t(bitPattern: -1) else { return nil }
        self.descriptor = descriptor
    }

    deinit {
        iconv_close(descriptor)
    }

    /// Converts `input` from its start, appending UTF-8 to `output`: returns how many bytes were
    /// read and why it stopped.
    func convert(_ input: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) -> (read: Int, stop: Stop) {
        guard let base = input.baseAddress, !input.isEmpty else { return (0, .none) }
        var read = 0
        while read < input.count {
            var inLeft = input.count - read
            var outLeft = piece.count
            let result = piece.withUnsafeMutableBufferPointer { out -> Int in
                // iconv's signature takes mutable pointers but does not write through `source`.
                var source: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(mutating: base + read)
                    .assumingMemoryBound(to: CChar.self)
                var target: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(out.baseAddress)?
                    .assumingMemoryBound(to: CChar.self)
                return iconv(descriptor, &source, &inLeft, &target, &outLeft)
            }
            let failure = result == -1 ? errno : 0
            read = input.count - inLeft
            output.append(contentsOf: piece[..<(piece.count - outLeft)])
            switch failure {
            case 0: return (read, .none)
            case E2BIG: continue
            case EINVAL: return (read, .incomplete)
            default: return (read, .invalid)
            }
        }
        return (read, .none)
    }

    /// Ends the input: what a stateful decoder still holds (a base letter waiting for a
    /// combining mark) is written out.
    func finish(into output: inout [UInt8]) {
        var outLeft = piece.count
        let result = piece.withUnsafeMutableBufferPointer { out -> Int in
            var target: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(out.baseAddress)?
                .assumingMemoryBound(to: CChar.self)
            return iconv(descriptor, nil, nil, &target, &outLeft)
        }
        if result != -1 { output.append(contentsOf: piece[..<(piece.count - outLeft)]) }
    }
}
