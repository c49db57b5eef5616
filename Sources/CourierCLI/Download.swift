import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import Foundation
import HTTPTypes

/// `courier download URL [-o FILE]`: a file to disk, with progress, resumable.
struct Download: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Download a URL to a file, with a progress bar; run it again to resume an interrupted download.",
        discussion: """
            The body streams to FILE.download and becomes FILE only when complete. If the download \
            breaks off, the same command resumes it where the server allows (Range, If-Range); \
            otherwise it starts over.

            Examples:
              courier download https://example.com/big.iso
              courier download https://example.com/data.csv -o data/latest.csv

            \(ExitStatus.help)
            """
    )

    @Argument(help: "The URL to download (http or https).")
    var url: String

    @Option(name: [.customShort("o"), .long], help: "Where to save it (default: the URL's file name, here).")
    var output: String?

    @OptionGroup var transfer: TransferOptions

    func run() async throws {
        let source = try TransferOptions.url(url)
        let name =
            source.lastPathComponent.isEmpty || source.lastPathComponent == "/"
            ? "index.html" : source.lastPathComponent
        let destination = URL(fileURLWithPath: output ?? name)
        let endpoint = Endpoint<Data>(url: source, headers: try HTTPFields(commandLine: transfer.headers))
        let bar = ProgressBar()
        let quiet = transfer.quiet
        let result: DownloadResult
        do {
            result = try await transfer.security.withTransport { transport in
                let client = HTTPClient(
                    transport: transport,
                    configuration: .init(securityPolicy: transfer.security.policy)
                )
                return try await client.download(endpoint, to: destination) { progress in
                    if !quiet { bar.update(progress) }
                }
            }
        } catch let error as RequestError {
            bar.finish()
            throw CommandFailure(error)
        }
        bar.finish()
        guard !quiet else { return }
        let resumed = result.resumedFrom > 0 ? " (resumed after \(ProgressBar.byteCount(result.resumedFrom)))" : ""
        Terminal.error("Saved \(ProgressBar.byteCount(result.bytes)) to \(destination.path)\(resumed).")
    }
}
