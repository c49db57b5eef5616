import CourierTestServer
import CourierTestTraits
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `courier get` through a real proxy (tinyproxy): `--proxy`, the variables curl reads,
/// `--noproxy`, and messages that never show the proxy's password.
@Suite("courier get through a proxy", .loadLimited, .enabled(if: TinyProxy.isAvailable, "needs tinyproxy"))
struct ProxyCommandTests {
    @Test func takesTheProxyFromTheOptionOrTheEnvironment() async throws {
        try await TinyProxy.withRunning { proxy in
            try await TestServer.withRunning { server in
                let url = server.url("/echo").absoluteString
                let given = try await Courier.run("get", url, "--proxy", proxy.url)
                #expect(given.status == 0, "\(given.stderr)")
                #expect(given.stdout.contains("tinyproxy"), "\(given.stdout)")

                let environment = ["http_proxy": proxy.url]
                for transport in ["async-http-client", "urlsession"] {
                    // URLSession's libcurl reads the variables from the process's own
                    // environment: a process of its own.
                    let read = try await Courier.run(
                        ["get", url, "--transport", transport],
                        environment: environment,
                        asProcess: transport == "urlsession"
                    )
                    #expect(read.status == 0, "\(transport): \(read.stderr)")
                    #expect(read.stdout.contains("tinyproxy"), "\(transport): \(read.stdout)")
                }

                let bypassed = try await Courier.run(["get", url, "--noproxy", "127.0.0.1"], environment: environment)
                #expect(bypassed.status == 0, "\(bypassed.stderr)")
                #expect(!bypassed.stdout.contains("tinyproxy"), "\(bypassed.stdout)")
                let none = try await Courier.run(["get", url, "--proxy", ""], environment: environment)
                #expect(none.status == 0, "\(none.stderr)")
                #expect(!none.stdout.contains("tinyproxy"), "\(none.stdout)")
            }
        }
    }

    @Test func aProxyThatCannotBeUsedIsRefusedWithoutItsPassword() async throws {
        let scheme = try await Courier.run(
            "get",
            "http://127.0.0.1:1/",
            "--proxy",
            "socks5://me:pa55word@127.0.0.1:1080"
        )
        #expect(scheme.status == 2)
        #expect(scheme.stderr.contains("only HTTP proxies (http://) are supported"), "\(scheme.stderr)")
        #expect(!scheme.stderr.contains("pa55word"))

        let variable = try await Courier.run(
            ["get", "http://127.0.0.1:1/"],
            environment: ["https_proxy": "http://me:pa55word@127.0.0.1:0"]
        )
        #expect(variable.status == 2)
        #expect(variable.stderr.contains("The proxy URL in https_proxy cannot be used"), "\(variable.stderr)")
        #expect(!variable.stderr.contains("pa55word"))

        let transport = try await Courier.run(
            "get",
            "http://127.0.0.1:1/",
            "--transport",
            "urlsession",
            "--proxy",
            "http://127.0.0.1:3128"
        )
        #expect(transport.status == 2)
        #expect(transport.stderr.contains("--proxy and --noproxy work with the async-http-client transport"))

        let curl = try await Courier.run(
            "get",
            "http://127.0.0.1:1/",
            "--curl",
            "--proxy",
            "http://me:pa55word@127.0.0.1:3128",
            "--noproxy",
            "localhost, .internal"
        )
        #expect(
            curl.stdout
                == "curl 'http://127.0.0.1:1/' -H 'User-Agent: Courier/1.0' --compressed -x 'http://REDACTED@127.0.0.1:3128' --noproxy 'localhost,.internal'\n"
        )

        let (socket, nowhere) = try LoopbackPort.refusing()
        defer { close(socket) }
        let unreachable = try await Courier.run(
            "get",
            "http://127.0.0.1:1/",
            "--proxy",
            "http://me:pa55word@127.0.0.1:\(nowhere)"
        )
        #expect(unreachable.status == 3, "\(unreachable.stderr)")
        #expect(
            unreachable.stderr.contains("could not connect to the proxy http://REDACTED@127.0.0.1:\(nowhere)"),
            "\(unreachable.stderr)"
        )
        #expect(!unreachable.stderr.contains("pa55word"))
    }
}
