import Foundation

/// An interrupted download kept for resuming: the bytes so far in `<file>.download` and what
/// is needed to ask for the rest in `<file>.download.json` (the URL, and the validator that
/// proves the rest belongs to the same file).
struct PartialDownload: Sendable {
    struct Metadata: Codable, Sendable, Equatable {
        var url: String
        /// A strong entity tag or a Last-Modified date, for `If-Range`.
        var validator: String?
        var expectedBytes: Int64?
        /// The `Content-Encoding` the file's bytes are in, as the first answer's head said:
        /// `nil` for bytes as they are, or decoded by the transport (which removes the field).
        /// The rest of the file must come in the same coding.
        var contentEncoding: String?
    }

    let destination: URL
    var data: URL { destination.appendingPathExtension("download") }
    var metadata: URL { destination.appendingPathExtension("download.json") }

    /// How many bytes can be resumed for `url`, with the validator to send; `nil` (and the
    /// leftovers removed) when there is nothing usable: no partial file, another URL, no
    /// validator to make the resumption safe, more bytes than the file has, or a partial file
    /// that is not a regular file (a symbolic link is never followed).
    func resumable(for url: String) -> (offset: Int64, validator: String, total: Int64?, contentEncoding: String?)? {
        let attributes = try? FileManager.default.attributesOfItem(atPath: data.path)
        guard let bytes = try? Data(contentsOf: metadata),
            let saved = try? JSONDecoder().decode(Metadata.self, from: bytes),
            saved.url == url, let validator = saved.validator,
            attributes?[.type] as? FileAttributeType == .typeRegular,
            let size = (attributes?[.size] as? NSNumber)?.int64Value, size > 0,
            size < saved.expectedBytes ?? .max
        else {
            discard()
            return nil
        }
        return (size, validator, saved.expectedBytes, saved.contentEncoding)
    }

    /// Writes the metadata readable by its owner only (it holds the URL, which may carry a
    /// token), replacing the previous one in one step.
    func save(_ metadata: Metadata) throws(RequestError) {
        do {
            try PrivateFile.replace(self.metadata.path, with: try JSONEncoder().encode(metadata))
        } catch {
            throw .fileSystem(path: self.metadata.path, reason: "\(error)")
        }
    }

    /// Moves the finished bytes into place in one step and forgets the metadata. Without
    /// `replacingExisting`, the bytes are linked under the destination's name, which fails if
    /// anything holds it (no check-then-write race), and then unlinked from the partial name; on
    /// a file system without hard links, the name is checked and then renamed to.
    func complete(replacingExisting: Bool = true) throws(RequestError) {
        if replacingExisting {
            guard rename(data.path, destination.path) == 0 else {
                throw .fileSystem(path: destination.path, reason: String(cString: strerror(errno)))
            }
        } else if link(data.path, destination.path) == 0 {
            unlink(data.path)
        } else {
            let code = errno
            if code == EEXIST { throw existsFailure }
            // A file system without hard links (FAT, SMB, some FUSE mounts): checked, then
            // renamed, with the small window that leaves.
            guard [EPERM, ENOTSUP, EOPNOTSUPP, EXDEV, ENOSYS].contains(code) else {
                throw .fileSystem(path: destination.path, reason: String(cString: strerror(code)))
            }
            try checkNothingAtDestination()
            guard rename(data.path, destination.path) == 0 else {
                throw .fileSystem(path: destination.path, reason: String(cString: strerror(errno)))
            }
        }
        try? FileManager.default.removeItem(at: metadata)
    }

    /// Throws when anything (a file, a directory, a link, even a dangling one) has the
    /// destination's name.
    func checkNothingAtDestination() throws(RequestError) {
        var status = stat()
        if lstat(destination.path, &status) == 0 { throw existsFailure }
    }

    private var existsFailure: RequestError {
        .fileSystem(path: destination.path, reason: "it exists already, and replacing it was not asked for")
    }

    /// Removes the partial bytes and their metadata.
    func discard() {
        try? FileManager.default.removeItem(at: data)
        try? FileManager.default.removeItem(at: metadata)
    }
}
