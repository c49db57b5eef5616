import Courier
public import CourierImages
public import Foundation

/// Saves the artwork of search results into a directory, through an `ImagePipeline`: as many
/// downloads at once as the pipeline allows, each file written whole or not at all.
///
/// ```swift
/// let saver = ArtworkSaver(pipeline: pipeline)
/// let summary = try await saver.save(found.results, size: .large, to: directory) { done, total in
///     print("\(done)/\(total)")
/// }
/// print(summary.downloaded, summary.cached, summary.failures.count)
/// ```
public struct ArtworkSaver: Sendable {
    /// Which artwork of a result.
    public enum Size: String, Sendable, CaseIterable {
        /// ``SearchResult/imageSmall``.
        case small
        /// ``SearchResult/imageLarge``.
        case large
    }

    /// What saving came to.
    public struct Summary: Sendable, Hashable {
        /// Images fetched from the network.
        public var downloaded = 0
        /// Images from the memory or HTTP cache (revalidated ones included).
        public var cached = 0
        /// Results the store gave no artwork URL for.
        public var withoutArtwork = 0
        /// The results whose artwork could not be fetched or written, with why.
        public var failures: [Failure] = []
        /// The files written, in the results' order.
        public var files: [URL] = []

        /// An empty summary.
        public init() {}
    }

    /// A result whose artwork was not saved.
    public struct Failure: Sendable, Hashable {
        /// The result's name.
        public var name: String
        /// What went wrong, for people.
        public var reason: String
    }

    /// The pipeline images come through.
    public let pipeline: ImagePipeline
    /// Where the results came from: artwork they name is fetched only as a redirect from there
    /// would be followed, by the pipeline's client's policy (no loopback or local-network
    /// address unless the store is one); `nil` to judge the artwork URL alone.
    public let store: URL?

    /// A saver using `pipeline`, for results from `store`.
    public init(pipeline: ImagePipeline, store: URL? = nil) {
        self.pipeline = pipeline
        self.store = store
    }

    /// Saves the `size` artwork of each result to `directory` as `<position> <name>.<format>`,
    /// the extension taken from the image's signature.
    ///
    /// - Parameters:
    ///   - results: The results whose artwork to save.
    ///   - size: The artwork size to save.
    ///   - directory: Where the files go.
    ///   - progress: Called with the results done so far and their total.
    /// - Throws: ``ArtworkDirectoryError`` when the directory cannot be created; a failure for
    ///   one image is in ``Summary/failures`` instead.
    public func save(
        _ results: [SearchResult],
        size: Size,
        to directory: URL,
        progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) async throws(ArtworkDirectoryError) -> Summary {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw ArtworkDirectoryError(path: directory.path, reason: error.localizedDescription)
        }
        let width = String(results.count).count
        let outcomes = await withTaskGroup(of: (Int, Outcome).self) { group in
            for (index, result) in results.enumerated() {
                group.addTask {
                    let stem = Self.fileStem(position: index + 1, width: width, name: result.name)
                    return (index, await save(result, size: size, as: stem, in: directory))
                }
            }
            var outcomes: [(Int, Outcome)] = []
            for await outcome in group {
                outcomes.append(outcome)
                progress(outcomes.count, results.count)
            }
            return outcomes.sorted { $0.0 < $1.0 }.map(\.1)
        }
        var summary = Summary()
        for (result, outcome) in zip(results, outcomes) {
            switch outcome {
            case .saved(let file, let fromCache):
                summary.files.append(file)
                if fromCache { summary.cached += 1 } else { summary.downloaded += 1 }
            case .noArtwork:
                summary.withoutArtwork += 1
            case .failed(let reason):
                summary.failures.append(Failure(name: result.name, reason: reason))
            }
        }
        return summary
    }

    private enum Outcome: Sendable {
        case saved(URL, fromCache: Bool)
        case noArtwork
        case failed(String)
    }

    private func save(_ result: SearchResult, size: Size, as stem: String, in directory: URL) async -> Outcome {
        guard let url = size == .small ? result.imageSmall : result.imageLarge else { return .noArtwork }
        if let store, !pipeline.client.configuration.securityPolicy.allows(url, linkedFrom: store) {
            return .failed(
                "not fetched: the store named \(url.host ?? "a host") over \(url.scheme ?? "?"), which its policy refuses "
                    + "for a link from \(store.host ?? "the store") (loopback, the local network or cleartext)"
            )
        }
        let image: LoadedImage
        do {
            image = try await pipeline.image(for: url)
        } catch {
            return .failed(error.description)
        }
        let file = directory.appendingPathComponent("\(stem).\(image.format.fileExtension)")
        do {
            // Written to a temporary file and renamed: never half a file under the final name.
            try image.data.write(to: file, options: .atomic)
        } catch {
            return .failed("cannot write \(file.path): \(error.localizedDescription)")
        }
        return .saved(file, fromCache: image.source != .network)
    }

    /// `007 Teen Angel`: the position keeps files in the results' order and names unique; the
    /// name loses what a file name cannot hold.
    static func fileStem(position: Int, width: Int, name: String) -> String {
        let number = String(position)
        let padded = String(repeating: "0", count: max(0, width - number.count)) + number
        var cleaned = String(
            name.unicodeScalars.map { scalar -> Character in
                scalar == "/" || scalar == "\\" || scalar == ":" || scalar.properties.generalCategory == .control
                    ? "-" : Character(scalar)
            }
        )
        .trimmingCharacters(in: .whitespaces)
        while cleaned.hasPrefix(".") { cleaned.removeFirst() }
        if cleaned.utf8.count > 120 {
            cleaned = String(cleaned.prefix(60))
        }
        return cleaned.isEmpty ? padded : "\(padded) \(cleaned)"
    }
}

/// A directory artwork cannot be saved in.
public struct ArtworkDirectoryError: Error, Sendable, CustomStringConvertible {
    /// The directory.
    public var path: String
    /// Why.
    public var reason: String

    /// "Cannot save artwork in …: …".
    public var description: String {
        "Cannot save artwork in \(path): \(reason). Pass a directory you can write to."
    }
}
