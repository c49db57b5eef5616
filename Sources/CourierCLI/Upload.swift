import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import Foundation
import HTTPTypes

/// `courier upload URL FILE`: a file sent as the request body, read in pieces, with progress.
struct Upload: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Upload a file as a request body (PUT by default), with a progress bar; print the answer.",
        discussion: """
            The file is read in pieces while it is sent, with its size as Content-Length, so any \
            size goes through in little memory. The response body is printed as `courier get` prints it.

            Examples:
              courier upload https://uploads.example.com/backups/db.tar.gz db.tar.gz
              courier upload https://api.example.com/photos photo.jpg -X POST --content-type image/jpeg

            \(ExitStatus.help)
            """
    )

    @Argument(help: "Where to send it (http or https).")
    var url: String

    @Argument(help: "The file to send.")
    var file: String

    @Option(name: [.customShort("X"), .long], help: "PUT (the default) or POST.")
    var method: String = "PUT"

    @Option(name: .customLong("content-type"), help: "The file's media type (default application/octet-stream).")
    var contentType: String = "application/octet-stream"

    @OptionGroup var transfer: TransferOptions

    func run() async throws {
        let target = try TransferOptions.url(url)
        let methodName = method.uppercased()
        guard methodName == "PUT" || methodName == "POST", let method = HTTPRequest.Method(methodName) else {
            throw CommandFailure("--method '\(method)' is not PUT or POST.", status: .usage)
        }
        let bar = ProgressBar()
        let quiet = transfer.quiet
        let body = RequestBody.file(URL(fileURLWithPath: file), contentType: contentType).reportingProgress {
            progress in
            if !quiet {
                bar.update(DownloadProgress(bytesReceived: progress.bytesSent, expectedBytes: progress.expectedBytes))
            }
        }
        let endpoint = Endpoint<Data>(
            method: method,
            url: target,
            headers: try HTTPFields(commandLine: transfer.headers),
            body: body
        )
        let started = ContinuousClock.now
        let response: DecodedResponse<Data>
        do {
            response = try await transfer.security.withTransport { transport in
                // No total timeout: a large file takes its time; the transport's read timeout
                // still ends a stalled exchange.
                let configuration = HTTPClient.Configuration(securityPolicy: transfer.security.policy, timeout: nil)
                return try await HTTPClient(transport: transport, configuration: configuration).response(for: endpoint)
            }
        } catch let error as RequestError {
            bar.finish()
            if case .fileSystem = error { throw CommandFailure(error.message, status: .usage) }
            throw CommandFailure(error)
        }
        bar.finish()
        if !response.value.isEmpty { Terminal.write(response.value) }
        guard !quiet else { return }
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value ?? 0
        let elapsed = ContinuousClock.now - started
        Terminal.error(
            "Sent \(ProgressBar.byteCount(size)) in \(elapsed.formatted(.units(allowed: [.seconds, .milliseconds])))"
                + " (HTTP \(response.head.status.code))."
        )
    }
}
