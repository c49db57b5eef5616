import Foundation

/// A streamed body written to a private temporary file, for transports that upload only from
/// files (URLSession).
enum TemporaryBodyFile {
    /// Writes the body's pieces to a new file readable only by this user; returns its URL.
    static func write(_ body: StreamedBody, for request: RequestSummary) async throws(RequestError) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-upload-\(UUID().uuidString)")
        let path = url.path
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw .fileSystem(path: path, reason: "a temporary file for the upload cannot be created")
        }
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
        return url
    }
}
