import Foundation
import Logging

extension Terminal {
    /// A logger writing to standard error with every log line escaped: the `--verbose` header
    /// fields of `courier get` and the access logs of `courier serve` quote what a server or a
    /// client sent.
    static func logger(label: String, level: Logger.Level) -> Logger {
        var logger = Logger(label: label) { label in
            StreamLogHandler(label: label, stream: StandardErrorLines(), metadataProvider: nil)
        }
        logger.logLevel = level
        return logger
    }

    /// Log lines for standard error, each escaped onto one line.
    private struct StandardErrorLines: TextOutputStream, Sendable {
        mutating func write(_ string: String) {
            let line = string.hasSuffix("\n") ? String(string.dropLast()) : string
            Terminal.write(Data((TerminalText.escaped(line, as: .line) + "\n").utf8), to: .standardError)
        }
    }
}
