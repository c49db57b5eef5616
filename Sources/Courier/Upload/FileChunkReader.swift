import Foundation

/// Reads a file in pieces on the file I/O thread, checking that it keeps the size it had when
/// the request was prepared (a `Content-Length` was sent for that size).
actor FileChunkReader {
    static let chunkSize = 256 << 10

    private let handle: FileHandle
    private let path: String
    private let size: Int64
    private var read: Int64 = 0

    nonisolated var unownedExecutor: UnownedSerialExecutor { FileIOExecutor.shared.asUnownedSerialExecutor() }

    init(url: URL, size: Int64) throws(RequestError) {
        path = url.path
        self.size = size
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw .fileSystem(path: url.path, reason: "it cannot be read (\(error.localizedDescription))")
        }
    }

    /// The next piece, or `nil` once `size` bytes were read.
    func next() throws(RequestError) -> Data? {
        guard read < size else {
            try? handle.close()
            return nil
        }
        let data: Data
        do {
            data = try handle.read(upToCount: Int(min(Int64(Self.chunkSize), size - read))) ?? Data()
        } catch {
            throw .fileSystem(path: path, reason: "reading it failed (\(error.localizedDescription))")
        }
        guard !data.isEmpty else {
            throw .fileSystem(path: path, reason: "it shrank from \(size) to \(read) bytes while it was being sent")
        }
        read += Int64(data.count)
        return data
    }

    deinit {
        try? handle.close()
    }
}
