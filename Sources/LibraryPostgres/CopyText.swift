import NIOCore
import PostgresNIO

/// Rows in `COPY … FROM STDIN`'s text format: fields separated by tabs, rows by newlines,
/// backslash, tab, newline and carriage return escaped, `\N` for NULL.
enum CopyText {
    /// One row being written.
    struct Row {
        fileprivate var buffer: ByteBuffer
        fileprivate var isFirst = true

        /// Appends a field; `nil` is NULL.
        mutating func field(_ value: String?) {
            if !isFirst { buffer.writeInteger(UInt8(ascii: "\t")) }
            isFirst = false
            guard let value else {
                buffer.writeStaticString("\\N")
                return
            }
            var utf8 = value.utf8[...]
            while let special = utf8.firstIndex(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
                buffer.writeBytes(utf8[..<special])
                buffer.writeInteger(UInt8(ascii: "\\"))
                switch utf8[special] {
                case 0x09: buffer.writeInteger(UInt8(ascii: "t"))
                case 0x0A: buffer.writeInteger(UInt8(ascii: "n"))
                case 0x0D: buffer.writeInteger(UInt8(ascii: "r"))
                default: buffer.writeInteger(UInt8(ascii: "\\"))
                }
                utf8 = utf8[utf8.index(after: special)...]
            }
            buffer.writeBytes(utf8)
        }
    }

    /// About how many bytes go to the server at a time.
    static let chunkSize = 1 << 20

    /// Writes a row per item, as `encode` fills it, in chunks of about ``chunkSize`` bytes.
    static func write<Item>(
        _ items: [Item],
        to writer: PostgresCopyFromWriter,
        encode: (Item, inout Row) -> Void
    ) async throws {
        var row = Row(buffer: ByteBuffer())
        row.buffer.reserveCapacity(chunkSize + 4096)
        for item in items {
            row.isFirst = true
            encode(item, &row)
            row.buffer.writeInteger(UInt8(ascii: "\n"))
            if row.buffer.readableBytes >= chunkSize {
                try await writer.write(row.buffer)
                row.buffer.clear()
            }
        }
        if row.buffer.readableBytes > 0 { try await writer.write(row.buffer) }
    }

    /// The text of `rows` as `encode` writes them, for tests.
    static func text<Item>(_ items: [Item], encode: (Item, inout Row) -> Void) -> String {
        var row = Row(buffer: ByteBuffer())
        for item in items {
            row.isFirst = true
            encode(item, &row)
            row.buffer.writeInteger(UInt8(ascii: "\n"))
        }
        return String(buffer: row.buffer)
    }
}
