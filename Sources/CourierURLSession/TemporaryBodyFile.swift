import Courier
import Foundation

/// A streamed body written to a private temporary file, for transports that upload only from
/// files (URLSession).
enum TemporaryBodyFile {
    /// Writes the body's pieces to a new file readable only by this user; returns its URL.
    static func write(_ body: StreamedBody, for request: RequestSummary) async throws(RequestError) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-upload-\(UUID().uuidString)")
        let path = url.path
        // Created private and new in one step: no other user can open it, even for a moment.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .fileSystem(path: path, reason: "a temporary file for the upload cannot be created")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        defer { try? handle.close() }
        var unreported = body
        unreported.progress = nil  // progress is the upload's, not this copy's
        do {
            for try await chunk in unreported.chunks(for: request) {
                try handle.write(contentsOf: chunk)
            }
        } catch let error as RequestError {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            let reason = "writing the upload's temporary file failed (\(error.localizedDescription))"
            throw .fileSystem(path: path, reason: reason)
        }
        if let length = body.length, let size = try? RequestBody.fileSize(url), size != length {
            try? FileManager.default.removeItem(atPath: path)
            throw .invalidBody(
                request,
                reason: "its sequence of chunks gave \(size) bytes, not the \(length) it declared"
            )
        }
        return url
    }
}
