import CourierTestServer
import Foundation

// Helper for Benchmarks/compare/git/http.sh:
//   git-http-bench serve ROOT     Debian's git http-backend for the repositories in ROOT, on a
//                                 free loopback port printed as "port N", until killed

let arguments = CommandLine.arguments.dropFirst()

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("git-http-bench: \(message)\n".utf8))
    exit(1)
}

guard arguments.count == 2, arguments.first == "serve", let root = arguments.last else { fail("serve ROOT") }
try await GitHTTPServer.withRunning(root: URL(fileURLWithPath: root)) { server in
    // Written straight to the descriptor: the script waits for this line.
    FileHandle.standardOutput.write(Data("port \(server.port)\n".utf8))
    while true { try await Task.sleep(for: .seconds(3600)) }
}
