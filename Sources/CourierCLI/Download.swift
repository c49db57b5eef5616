import ArgumentParser
import Courier
import CourierAsyncHTTPClient
import Foundation
import HTTPTypes

/// `courier download URL [-o FILE]`: a file to disk, with progress, resumable.
struct Download: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download a URL to a file, with a progress bar; run it again to resume an interrupted download.",
        discussion: """
            The body streams to FILE.download and becomes FILE only when complete. If the download \
            breaks off, the same command resumes it where the server allows (Range, If-Range); \
            otherwise it starts over.

            Without -o, the file is named after the URL's last path segment, made safe: one \
            name in the current directory (no '/', '..' or control characters; 'index.html' \
            for a URL that names a directory). An existing file of that name is not replaced \
            unless --overwrite is given; a file named with -o always is. -o DIR saves into DIR \
            under that name.

            Examples:
              courier download https://example.com/big.iso
              courier download https://example.com/data.csv -o data/latest.csv

            \(ExitStatus.help)
            """
    )

    @Argument(help: "The URL to download (http or https).")
    var url: String

    @Option(
        name: [.customShort("o"), .long],
        help: "Where to save it: a file, or a directory to save into (default: the URL's file name, here)."
    )
    var output: String?

    @Flag(help: "Replace an existing file that has the URL's file name (a file named with -o is always replaced).")
    var overwrite = false

    @OptionGroup var transfer: TransferOptions

    func run() async throws {
        let source = try TransferOptions.url(url)
        let (destination, named) = Self.destination(for: source, output: output)
        let replacing = named || overwrite
        var status = stat()
        if !replacing, lstat(destination.path, &status) == 0 {
            // The library refuses too, and again as it moves the file into place (no race).
            throw CommandFailure(
                "\(TerminalText.escaped(destination.path, as: .line)) exists already: give --overwrite to replace it, "
                    + "or -o FILE to save elsewhere.",
                status: .usage
            )
        }
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
                return try await client.download(endpoint, to: destination, replacingExisting: replacing) { progress in
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
        Terminal.error(
            "Saved \(ProgressBar.byteCount(result.bytes)) to \(TerminalText.escaped(destination.path, as: .line))\(resumed)."
        )
    }

    /// Where the file goes, and whether the person named it: `-o FILE` as given; `-o DIR` (an
    /// existing directory) or no `-o`, the URL's safe file name in that directory or here.
    static func destination(for source: URL, output: String?) -> (URL, named: Bool) {
        let name = DownloadFileName.suggested(by: source)
        guard let output else { return (URL(fileURLWithPath: name), false) }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory), isDirectory.boolValue {
            return (URL(fileURLWithPath: output, isDirectory: true).appendingPathComponent(name), false)
        }
        return (URL(fileURLWithPath: output), true)
    }
}
