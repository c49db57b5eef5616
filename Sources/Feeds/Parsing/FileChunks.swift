public import Foundation

/// A file read in pieces of 64 KiB, as an asynchronous sequence: the input of
/// `FeedParser().entries(in: fileHandle)`.
public struct FileChunks: AsyncSequence {
    /// A piece of the file.
    public typealias Element = Data

    let handle: FileHandle

    /// The pieces of the file `handle` reads, from where it is.
    public init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// Starts reading.
    public func makeAsyncIterator() -> Iterator { Iterator(handle: handle) }

    /// Reads the next piece when asked.
    public struct Iterator: AsyncIteratorProtocol {
        let handle: FileHandle

        /// The next piece, or `nil` at the end of the file.
        public mutating func next() async throws -> Data? {
            let chunk = try handle.read(upToCount: 1 << 16) ?? Data()
            return chunk.isEmpty ? nil : chunk
        }
    }
}
