import Courier
import CourierJSON
import Foundation

/// `courier get --json` and `--pick`: a JSON body formatted onto standard output as it arrives.
///
/// Memory stays flat in the body's size: in document order nothing is held; `--sort-keys` holds
/// each outermost object, and a picked string is held to be printed as text, both up to
/// `--max-size`.
struct JSONOutput {
    private var formatter: JSONFormatter
    /// The URL and the path, for messages.
    private let url: String
    private let pick: String?
    private let maxSize: Int
    private var sink: Sink

    init(url: String, pick: String?, path: [String]?, pretty: Bool, sortingKeys: Bool, maxSize: Int) {
        self.formatter = JSONFormatter(
            compact: !pretty,
            sortingKeys: sortingKeys,
            picking: path,
            maximumObjectSize: maxSize
        )
        self.url = url
        self.pick = pick
        self.maxSize = maxSize
        self.sink = Sink(picking: pick != nil)
    }

    /// Formats the next piece of the body; `false` once the rest need not be read.
    mutating func read(_ chunk: Data) throws -> Bool {
        var sink = self.sink
        self.sink = Sink(picking: false)  // so that the local one is the only one
        defer { self.sink = sink }
        let more = try Self.readingJSON(from: url, maxSize: maxSize) { () throws(JSONSyntaxError) in
            try formatter.format(chunk) { sink.write($0) }
        }
        // The string's JSON text, less its quotes and the line feed after it.
        if let string = sink.string, string.count - 3 > maxSize {
            throw CommandFailure(
                "The string at '\(pick ?? "")' is larger than --max-size (\(maxSize) bytes): raise --max-size.",
                status: .invalidResponse
            )
        }
        return more
    }

    /// Ends the body: an error if it is cut short or has nothing at the path.
    mutating func finish() throws {
        var sink = self.sink
        try Self.readingJSON(from: url, maxSize: maxSize) { () throws(JSONSyntaxError) in
            try formatter.finish { sink.write($0) }
        }
        if let pick, !formatter.foundValue {
            throw CommandFailure("The response has no value at '\(pick)'.", status: .invalidResponse)
        }
        // A picked string is text from the network shown as text: escaped like any other.
        if let string = sink.string,
            let text = JSONFormatter.string(string.last == 0x0A ? string.dropLast() : string[...])
        {
            Terminal.output(text)
        }
    }

    /// Where the output goes: standard output, or a picked string kept to be printed as text
    /// rather than JSON.
    private struct Sink {
        let picking: Bool
        var string: [UInt8]?
        var started = false

        init(picking: Bool) {
            self.picking = picking
        }

        mutating func write(_ piece: ArraySlice<UInt8>) {
            if picking, !started {
                started = true
                if piece.first == UInt8(ascii: "\"") { string = [] }
            }
            if string != nil {
                string?.append(contentsOf: piece)
            } else {
                Terminal.write(json: piece)
            }
        }
    }

    /// Runs `body`, turning a syntax error into the command's failure: "not JSON", or valid JSON
    /// past the nesting limit or with an object larger than `maxSize` to sort.
    static func readingJSON<Result>(
        from url: String,
        maxSize: Int = 0,
        _ body: () throws(JSONSyntaxError) -> Result
    ) throws -> Result {
        do throws(JSONSyntaxError) {
            return try body()
        } catch {
            if error.exceedsSizeLimit {
                throw CommandFailure(
                    "An object in the response from \(url) is larger than --max-size (\(maxSize) bytes), and "
                        + "--sort-keys holds each object whole: raise --max-size, or leave out --sort-keys.",
                    status: .invalidResponse
                )
            }
            if error.exceedsNestingLimit {
                throw CommandFailure(
                    "The response from \(url) nests arrays and objects deeper than the \(JSONSyntax.maximumDepth) "
                        + "levels --json and --pick read; print it as it is, without them.",
                    status: .invalidResponse
                )
            }
            throw CommandFailure(
                "The response from \(url) is not JSON (\(error)), so --json and --pick cannot read it.",
                status: .invalidResponse
            )
        }
    }
}
