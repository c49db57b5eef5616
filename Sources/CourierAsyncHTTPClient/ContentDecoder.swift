import CompressNIO
package import Courier
package import NIOCore

/// Undoes a body's content codings (gzip, deflate, or a chain of them) as its pieces arrive,
/// in bounded memory: each piece of input is decoded a window at a time, and the caller takes
/// each window before the next is made, so a small body that inflates to gigabytes never
/// occupies more than a window beyond what the caller keeps.
///
/// ```
/// let decoder = ContentDecoder(codings: [.gzip], limit: 16 << 20)
/// for try await piece in body {
///     decoder.push(piece)
///     while let window = try decoder.next() { use(window) }
/// }
/// try decoder.finish()   // a stream cut short is an error, not a shorter body
/// ```
///
/// The zlib codecs are compress-nio's; this type drives them, checks the limit, tells a
/// stream that ended from one cut short, reads `deflate` in the zlib format or, as browsers
/// do, raw, and reads a gzip body of several members whole (RFC 1952 §2.2).
package final class ContentDecoder {
    /// What went wrong, in terms a transport maps to a ``RequestError``.
    package enum Failure: Error, Equatable {
        /// The data is not valid in `coding`.
        case corrupt(ContentCoding)
        /// The body ended inside a compressed stream.
        case truncated(ContentCoding)
        /// Bytes followed the end of the compressed stream.
        case trailingData(ContentCoding)
        /// The decoded body (or an inner layer of it) passed the limit.
        case tooLarge

        /// For people: the coding and what was wrong with it.
        package var detail: String {
            switch self {
            case .corrupt(let coding): "\(coding): the data is corrupt"
            case .truncated(let coding): "\(coding): the compressed data ends early"
            case .trailingData(let coding): "\(coding): stray bytes follow the compressed data"
            case .tooLarge: "larger than the limit once decompressed"
            }
        }
    }

    /// The most bytes one call to ``next()`` returns.
    static let windowSize = 64 << 10

    /// The layers, the outermost (the coding applied last, undone first) first.
    private let layers: [Layer]
    private let limit: Int

    /// - Parameters:
    ///   - codings: The codings to undo, the last applied first
    ///     (`ContentCoding.codingsToUndo(in:method:)`, which keeps to decodable ones: any
    ///     coding but gzip is read as deflate).
    ///   - limit: The most bytes any layer may produce.
    package init(codings: [ContentCoding], limit: Int) {
        self.layers = codings.map(Layer.init)
        self.limit = limit
    }

    /// Hands over the next piece of the body. Take the output with ``next()`` until it returns
    /// `nil` before pushing more.
    package func push(_ piece: ByteBuffer) {
        guard piece.readableBytes > 0, let outermost = layers.first else { return }
        outermost.append(piece)
    }

    /// The next window of decoded bytes, or `nil` when every byte pushed so far is decoded.
    package func next() throws(Failure) -> ByteBuffer? {
        try read(layer: layers.count - 1)
    }

    /// Checks, once the body has ended and ``next()`` returned `nil`, that every compressed
    /// stream ended too.
    package func finish() throws(Failure) {
        // An empty body is empty; but a layer inside one that wrote nothing is a stream cut
        // short (`deflate, gzip` whose gzip holds zero bytes).
        let bodyStarted = layers.first?.hasStarted ?? false
        for (index, layer) in layers.enumerated() { try layer.finish(mustHaveStarted: index > 0 && bodyStarted) }
    }

    private func read(layer index: Int) throws(Failure) -> ByteBuffer? {
        guard index >= 0 else { return nil }
        let layer = layers[index]
        while true {
            if let window = try layer.inflate() {
                guard layer.produced <= limit else { throw .tooLarge }
                return window
            }
            // The layer needs more input: the output of the layer outside it, if any is left.
            guard let input = try read(layer: index - 1) else { return nil }
            layer.append(input)
        }
    }
}

extension ContentDecoder {
    /// One coding's decompression: its input not yet consumed and its zlib stream.
    private final class Layer {
        let coding: ContentCoding
        private var input = ByteBuffer()
        /// Made once the format is known: for `deflate`, from its first two bytes.
        private var inflater: ZlibDecompressor?
        /// Whether the stream is known to have ended (input was left over after its end).
        private var ended = false
        /// Whether any input arrived.
        private var started = false
        /// Whether zlib filled the last window, and so may hold more output without more input.
        private var holdsOutput = false
        /// Bytes produced so far.
        private(set) var produced = 0

        init(coding: ContentCoding) {
            self.coding = coding
        }

        func append(_ piece: ByteBuffer) {
            started = true
            if input.readableBytes == 0 {
                input = piece
            } else {
                var piece = piece
                input.writeBuffer(&piece)
            }
        }

        /// Decompresses input into one window; `nil` when the input is used up and zlib holds
        /// no more output.
        func inflate() throws(Failure) -> ByteBuffer? {
            while input.readableBytes > 0 || holdsOutput {
                if ended, input.readableBytes > 0 {
                    // Another gzip member may follow (RFC 1952 §2.2); anything else is stray.
                    guard coding == .gzip, input.getInteger(at: input.readerIndex, as: UInt8.self) == 0x1F else {
                        throw .trailingData(coding)
                    }
                    guard let second = input.getInteger(at: input.readerIndex + 1, as: UInt8.self) else { return nil }
                    guard second == 0x8B else { throw .trailingData(coding) }
                    do { try inflater?.reset() } catch { throw .corrupt(coding) }
                    ended = false
                }
                guard let inflater = try inflaterForInput() else { return nil }
                // Small bodies get small windows; none is larger than `windowSize`.
                var window = ByteBuffer()
                window.reserveCapacity(min(ContentDecoder.windowSize, max(4096, input.readableBytes * 8)))
                let before = input.readableBytes
                do {
                    // With no input left, zlib writes what it still holds (the rest of a long
                    // match, say) from its state; the empty buffer still has storage to point at.
                    try inflater.inflate(from: &input, to: &window)
                    holdsOutput = false
                    // A normal return with input left means zlib reached the end of the stream.
                    if input.readableBytes > 0 { ended = true }
                } catch let error as CompressNIOError {
                    switch error {
                    case .bufferOverflow: holdsOutput = true  // the window is full; there may be more
                    case .inputBufferOverflow: holdsOutput = false  // no input, nothing more to write
                    default: throw .corrupt(coding)
                    }
                } catch {
                    throw .corrupt(coding)
                }
                if window.readableBytes > 0 {
                    produced += window.readableBytes
                    return window
                }
                // zlib read input but wrote nothing (headers, empty blocks): go on. Had it
                // neither read nor written, asking again would change nothing.
                if before > 0, input.readableBytes == before, !ended { throw .corrupt(coding) }
            }
            return nil
        }

        /// The zlib stream for this layer, made on its first input; `nil` while too few bytes
        /// have come to tell a zlib `deflate` stream from a raw one.
        private func inflaterForInput() throws(Failure) -> ZlibDecompressor? {
            if let inflater { return inflater }
            let algorithm: ZlibAlgorithm
            if coding == .gzip {
                algorithm = .gzip
            } else {
                guard let first = input.getInteger(at: input.readerIndex, as: UInt8.self),
                    let second = input.getInteger(at: input.readerIndex + 1, as: UInt8.self)
                else { return nil }
                algorithm = Self.isZlibHeader(first, second) ? .zlib : .deflate
            }
            do {
                let made = try ZlibDecompressor(algorithm: algorithm, windowSize: 15)
                inflater = made
                return made
            } catch {
                throw .corrupt(coding)
            }
        }

        /// RFC 1950 §2.2: compression method 8 with a window of at most 32 KiB, and a check
        /// value that makes the two bytes a multiple of 31.
        private static func isZlibHeader(_ cmf: UInt8, _ flg: UInt8) -> Bool {
            cmf & 0x0F == 8 && cmf >> 4 <= 7 && (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0
        }

        /// Whether any input arrived.
        var hasStarted: Bool { started }

        /// Throws unless the stream ended (or no input ever came, when that is allowed: an empty
        /// body).
        func finish(mustHaveStarted: Bool) throws(Failure) {
            guard started else {
                if mustHaveStarted { throw .truncated(coding) }
                return
            }
            guard input.readableBytes == 0 else {
                throw ended ? .trailingData(coding) : .truncated(coding)
            }
            if ended { return }
            guard let inflater else { throw .truncated(coding) }
            // zlib has consumed every byte, which it also does when the stream ended exactly
            // there. One more byte tells: a finished stream leaves it unread.
            var probe = ByteBuffer(integer: UInt8(0))
            var sink = ByteBuffer()
            sink.reserveCapacity(64)
            do {
                try inflater.inflate(from: &probe, to: &sink)
            } catch {
                throw .truncated(coding)
            }
            guard probe.readableBytes == 1, sink.readableBytes == 0 else { throw .truncated(coding) }
            ended = true
        }
    }
}
