/// Turns a feed's bytes into UTF-8 as they arrive, in the encoding ``FeedEncoding`` chose: UTF-8
/// is checked and passed through, other encodings go through the system's `iconv`. Memory is
/// constant: only a character cut by the end of a piece waits for the next.
///
/// A stream cannot be checked whole before it is read, so two rules stand in for
/// ``EncodingCheck``'s:
/// - A byte that is not part of a character of the encoding is read as windows-1252 (the
///   encoding feedparser falls back to), and makes the document not well-formed; the rest is
///   still read in the encoding.
/// - A document said to be ISO-8859-1, windows-1252 or US-ASCII whose first non-ASCII
///   character is a valid UTF-8 sequence is read as UTF-8: generators often declare Latin-1 and
///   write UTF-8, while text really in Latin-1 is almost never valid UTF-8 (`é` is `E9`, which
///   UTF-8 cannot follow with ASCII). Everything before that character is ASCII and reads the
///   same either way, so the choice needs no look back.
struct FeedDecoder {
    /// The encoding the document is read in (after the Latin-1 rule, `utf-8`).
    private(set) var encoding: String
    /// Why the document is not well-formed, as far as its encoding tells.
    private(set) var problem: String?
    /// Whether a byte did not belong to the encoding.
    private(set) var failed = false
    /// Whether anything but ASCII was read.
    private(set) var sawNonASCII = false

    private enum Mode {
        case utf8
        /// Declared Latin-1, windows-1252 or US-ASCII: UTF-8 until a non-ASCII byte says.
        case guessing
        case converter(IconvConverter)
        /// By table: the system's tables read its five unassigned bytes, as feedparser's do not.
        case windows1252
    }

    private var mode: Mode
    /// A character cut by the end of the last piece.
    private var pending: [UInt8] = []
    /// Bytes of the byte order mark still to skip.
    private var markLeft: Int

    /// Whether `name` is an encoding a UTF-8 document is often mislabelled with.
    static func isSingleByteLatin(_ name: String) -> Bool {
        name == "iso-8859-1" || name == "windows-1252" || name == "us-ascii"
    }

    init(_ choice: FeedEncoding.Choice) {
        encoding = choice.encoding
        problem = choice.problem
        markLeft = choice.byteOrderMarkLength
        if choice.encoding == "utf-8" {
            mode = .utf8
        } else if choice.guessesUTF8, Self.isSingleByteLatin(choice.encoding) {
            mode = .guessing
        } else if let mode = Self.mode(for: choice.encoding) {
            self.mode = mode
        } else {
            mode = .utf8
            encoding = "utf-8"
        }
    }

    /// Decodes the next bytes; `emit` receives the UTF-8 in pieces.
    mutating func decode<Failure: Error>(
        _ bytes: UnsafeBufferPointer<UInt8>,
        emit: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Void
    ) throws(Failure) {
        var input = bytes
        if markLeft > 0 {
            let skipped = min(markLeft, input.count)
            markLeft -= skipped
            input = UnsafeBufferPointer(rebasing: input[skipped...])
        }
        guard !pending.isEmpty else { return try run(input, final: false, emit: emit) }
        var joined = pending
        pending = []
        joined.append(contentsOf: input)
        try joined.withUnsafeBufferPointer { joined throws(Failure) in try run(joined, final: false, emit: emit) }
    }

    /// Ends the document: a character cut short is read as windows-1252.
    mutating func finish<Failure: Error>(
        emit: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Void
    ) throws(Failure) {
        if !pending.isEmpty {
            let rest = pending
            pending = []
            try rest.withUnsafeBufferPointer { rest throws(Failure) in try run(rest, final: true, emit: emit) }
        }
        if case .converter(let converter) = mode {
            var output: [UInt8] = []
            converter.finish(into: &output)
            if !output.isEmpty { try output.withUnsafeBufferPointer { output throws(Failure) in try emit(output) } }
        }
    }

    private mutating func run<Failure: Error>(
        _ input: UnsafeBufferPointer<UInt8>,
        final: Bool,
        emit: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Void
    ) throws(Failure) {
        var start = 0
        while start < input.count {
            switch mode {
            case .utf8:
                let (end, stop) = UTF8Scan.validPrefix(input, from: start)
                if end > start {
                    if !sawNonASCII, UTF8Scan.asciiPrefix(input, from: start) < end { sawNonASCII = true }
                    try emit(UnsafeBufferPointer(rebasing: input[start..<end]))
                }
                switch stop {
                case .none:
                    return
                case .incomplete where !final:
                    pending = Array(input[end...])
                    return
                case .incomplete, .invalid:
                    try fallback(input[end], emit: emit)
                    start = end + 1
                }
            case .guessing:
                let end = UTF8Scan.asciiPrefix(input, from: start)
                if end > start { try emit(UnsafeBufferPointer(rebasing: input[start..<end])) }
                guard end < input.count else { return }
                let (sequenceEnd, stop) = UTF8Scan.validPrefix(input, from: end, scalars: 1)
                if stop == .incomplete, sequenceEnd == end, !final {
                    pending = Array(input[end...])
                    return
                }
                if sequenceEnd > end {
                    problem = problem ?? "the document says it is \(encoding) but is written in UTF-8; read as UTF-8"
                    encoding = "utf-8"
                    mode = .utf8
                } else {
                    mode = Self.mode(for: encoding) ?? .utf8
                }
                start = end
            case .windows1252:
                let end = UTF8Scan.asciiPrefix(input, from: start)
                if end > start { try emit(UnsafeBufferPointer(rebasing: input[start..<end])) }
                guard end < input.count else { return }
                let byte = input[end]
                if Windows1252.c1[UInt32(byte)] == nil, byte < 0xA0 {
                    try fallback(byte, emit: emit)
                } else {
                    sawNonASCII = true
                    try emitScalar(Windows1252.scalar(byte), emit: emit)
                }
                start = end + 1
            case .converter(let converter):
                var output: [UInt8] = []
                let (read, stop) = converter.convert(UnsafeBufferPointer(rebasing: input[start...]), into: &output)
                if !output.isEmpty {
                    sawNonASCII = sawNonASCII || output.contains { $0 >= 0x80 }
                    try output.withUnsafeBufferPointer { output throws(Failure) in try emit(output) }
                }
                start += read
                switch stop {
                case .none:
                    return
                case .incomplete where !final:
                    pending = Array(input[start...])
                    return
                case .incomplete, .invalid:
                    // A code unit of UTF-16 or UTF-32 is passed over whole, so the rest stays aligned.
                    let unit = min(unitSize, input.count - start)
                    if unit > 1 {
                        try replace(input[start..<(start + unit)], emit: emit)
                    } else {
                        try fallback(input[start], emit: emit)
                    }
                    start += unit
                }
            }
        }
    }

    /// The size of the encoding's code unit: 2 for UTF-16, 4 for UTF-32, 1 otherwise.
    private var unitSize: Int {
        encoding.hasPrefix("utf-16") ? 2 : encoding.hasPrefix("utf-32") ? 4 : 1
    }

    /// A code unit the encoding does not read (a lone surrogate): U+FFFD.
    private mutating func replace<Failure: Error>(
        _ unit: some Collection<UInt8>,
        emit: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Void
    ) throws(Failure) {
        failed = true
        sawNonASCII = true
        let hex = unit.map { String($0, radix: 16, uppercase: true) }.joined(separator: " ")
        problem = problem ?? "the document is not valid \(encoding) (bytes \(hex)); read leniently"
        try emitScalar("\u{FFFD}", emit: emit)
    }

    /// A byte the encoding does not read, as windows-1252 reads it.
    private mutating func fallback<Failure: Error>(
        _ byte: UInt8,
        emit: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Void
    ) throws(Failure) {
        failed = true
        sawNonASCII = true
        let hex = String(byte, radix: 16, uppercase: true)
        problem = problem ?? "the document is not valid \(encoding) (byte 0x\(hex)); read leniently"
        try emitScalar(Windows1252.scalar(byte), emit: emit)
    }

    private func emitScalar<Failure: Error>(
        _ scalar: Unicode.Scalar,
        emit: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Void
    ) throws(Failure) {
        var utf8: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        var count = 0
        UTF8.encode(scalar) { byte in
            withUnsafeMutableBytes(of: &utf8) { $0[count] = byte }
            count += 1
        }
        try withUnsafeBytes(of: &utf8) { raw throws(Failure) in
            try emit(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[..<count]))
        }
    }

    /// How to read `encoding` other than UTF-8; `nil` when the system does not know it.
    private static func mode(for encoding: String) -> Mode? {
        if encoding == "windows-1252" { return .windows1252 }
        return IconvConverter(from: encoding).map(Mode.converter)
    }
}
