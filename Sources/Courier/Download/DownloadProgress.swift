public import Foundation
public import HTTPTypes

/// How far a download has come.
public struct DownloadProgress: Sendable, Hashable {
    /// Bytes on disk so far, a resumed download's earlier bytes included.
    public var bytesReceived: Int64
    /// The size of the whole file, when the server says.
    public var expectedBytes: Int64?

    /// Creates a progress report.
    public init(bytesReceived: Int64, expectedBytes: Int64?) {
        self.bytesReceived = bytesReceived
        self.expectedBytes = expectedBytes
    }

    /// From 0 to 1, when the size is known.
    public var fractionCompleted: Double? {
        expectedBytes.map { $0 > 0 ? min(1, Double(bytesReceived) / Double($0)) : 1 }
    }
}

/// A finished download.
public struct DownloadResult: Sendable {
    /// Where the file is.
    public var file: URL
    /// Its size in bytes.
    public var bytes: Int64
    /// How many of them an earlier, interrupted download had already fetched; 0 for a fresh start.
    public var resumedFrom: Int64
    /// The status and header fields of the response that completed it.
    public var head: HTTPResponse
}
