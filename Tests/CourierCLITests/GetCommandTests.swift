import CourierTestServer
import CourierTestTraits
import Foundation
import Testing

/// `courier get` as a person runs it: the real binary against a loopback server, checking
/// output, messages and exit statuses.
@Suite("courier get", .loadLimited)
struct GetCommandTests {
    @Test func printsTheBody() async throws {
        try await TestServer.withRunning { server in
            let result = try await Courier.run("get", server.url("/json").absoluteString)
            #expect(result.status == 0)
            #expect(
                result.stdout == #"{"id":3,"title":"Dune","release_date":"1965-08-01","tags":["sci-fi","classic"]}"#
            )
            #expect(result.stderr == "")
        }
    }

    @Test func decodesCompressedBodiesAndRefusesSpoiledOnes() async throws {
        try await TestServer.withRunning { server in
            let text = String(decoding: CodingRoutes.text(count: 20_000), as: UTF8.self)
            for transport in ["async-http-client", "urlsession"] {
                let coded = try await Courier.run(
                    "get",
                    server.url("/coded?coding=gzip").absoluteString,
                    "-i",
                    "--transport",
                    transport
                )
                #expect(coded.status == 0, "\(transport): \(coded.stderr)")
                #expect(coded.stdout.hasSuffix("\r\n\r\n" + text) || coded.stdout.hasSuffix("\n\n" + text))
                #expect(!coded.stdout.lowercased().contains("content-encoding"), "the head of the decoded body")
                // The limit is on the decoded bytes: 20,000 arrive as about 2,000.
                let large = try await Courier.run(
                    "get",
                    server.url("/coded?coding=gzip").absoluteString,
                    "--max-size",
                    "19999",
                    "--transport",
                    transport
                )
                #expect(large.status == 6, "\(transport): \(large.stderr)")
                let corrupt = try await Courier.run(
                    "get",
                    server.url("/coded?coding=deflate&shape=corrupt").absoluteString,
                    "--transport",
                    transport
                )
                #expect(corrupt.status == 6, "\(transport)")
                #expect(corrupt.stderr.contains("could not be decompressed"), "\(corrupt.stderr)")
            }
        }
    }

    @Test func prettyPrintsAndPicks() async throws {
        try await TestServer.withRunning { server in
            let url = server.url("/json").absoluteString
            let pretty = try await Courier.run("get", url, "--json")
            #expect(
                pretty.stdout
                    == "{\n  \"id\" : 3,\n  \"title\" : \"Dune\",\n  \"release_date\" : \"1965-08-01\",\n  \"tags\" : [\n    \"sci-fi\",\n    \"classic\"\n  ]\n}\n"
            )
            let sorted = try await Courier.run("get", url, "--json", "--sort-keys")
            #expect(
                sorted.stdout
                    == "{\n  \"id\" : 3,\n  \"release_date\" : \"1965-08-01\",\n  \"tags\" : [\n    \"sci-fi\",\n    \"classic\"\n  ],\n  \"title\" : \"Dune\"\n}\n"
            )
            // Document order holds nothing, so --max-size does not limit it; sorting holds each object.
            #expect(try await Courier.run("get", url, "--json", "--max-size", "10").stdout == pretty.stdout)
            let tooLarge = try await Courier.run("get", url, "--json", "--sort-keys", "--max-size", "10")
            #expect(tooLarge.status == 6)
            #expect(
                tooLarge.stderr
                    == "courier: An object in the response from \(url) is larger than --max-size (10 bytes), and --sort-keys holds each object whole: raise --max-size, or leave out --sort-keys.\n"
            )
            let unsorted = try await Courier.run("get", url, "--sort-keys")
            #expect(unsorted.status == 2 && unsorted.stderr.contains("--sort-keys sorts what --json or --pick prints."))
            #expect(try await Courier.run("get", url, "--pick", "tags[-1]").stdout == "classic\n")
            #expect(try await Courier.run("get", url, "--pick", "tags.1").stdout == "classic\n")
            #expect(try await Courier.run("get", url, "--pick", "tags[0]").stdout == "sci-fi\n")
            #expect(try await Courier.run("get", url, "--pick", "tags").stdout == "[\"sci-fi\",\"classic\"]\n")
            let missing = try await Courier.run("get", url, "--pick", "tags.5")
            #expect(missing.status == 6)
            #expect(missing.stderr == "courier: The response has no value at 'tags.5'.\n")
        }
    }

    @Test func sendsMethodHeadersAndData() async throws {
        try await TestServer.withRunning { server in
            let result = try await Courier.run(
                "get",
                server.url("/echo").absoluteString,
                "-X",
                "PUT",
                "-H",
                "X-Trace: 42",
                "--data",
                #"{"a":1}"#,
                "--pick",
                "body"
            )
            #expect(result.stdout == "{\"a\":1}\n")
            let headers = try await Courier.run(
                "get",
                server.url("/echo").absoluteString,
                "-H",
                "X-Trace: 42",
                "--data",
                "a=1",
                "--json",
                "--pick",
                "headers"
            )
            #expect(headers.stdout.contains(#""x-trace" : "42""#))
            #expect(headers.stdout.contains(#""content-type" : "application/x-www-form-urlencoded""#))
        }
    }

    @Test func eachErrorClassHasItsStatusAndMessage() async throws {
        try await TestServer.withRunning { server in
            let base = "http://127.0.0.1:\(server.port)"
            let cases: [(arguments: [String], status: Int32, message: String)] = [
                (
                    ["get", "\(base)/missing"], 4,
                    "courier: GET \(base)/missing returned 404 Not Found: the request was rejected; check the URL, parameters and body. "
                        + "The server said: 404 Not Found Not Found The page you asked for is not here.\n"
                ),
                (
                    ["get", "\(base)/fail"], 5,
                    "courier: GET \(base)/fail returned 500 Internal Server Error: the server failed; try again later. "
                        + "The server said: database unavailable\n"
                ),
                (
                    ["get", "\(base)/large", "--max-size", "100"], 6,
                    "courier: The response to GET \(base)/large is larger than the 100-byte limit; raise the limit (HTTPClient.Configuration.maxResponseSize) or request less.\n"
                ),
                (
                    ["get", "\(base)/html", "--json"], 6,
                    "courier: The response from \(base)/html is not JSON (line 1, column 1: expected a value, found '<'), so --json and --pick cannot read it.\n"
                ),
                (
                    ["get", "\(base)/slow?ms=5000", "--timeout", "0.2"], 3,
                    "courier: GET \(base)/slow?ms=5000 timed out (after 0.2s); try again, or raise the timeout.\n"
                ),
                (
                    ["get", "http://127.0.0.1:1/"], 3,
                    "courier: Could not connect to 127.0.0.1 for GET http://127.0.0.1:1/ (connection refused): is the server running, and the port right?\n"
                ),
                (
                    ["get", "http://courier.invalid/x"], 3,
                    "courier: Refused cleartext HTTP to courier.invalid (GET http://courier.invalid/x): use https://, or allow this host explicitly with --allow-http courier.invalid.\n"
                ),
                (
                    ["get", "not a url"], 2,
                    "courier: 'not a url' is not a URL: give one like https://example.com/path.\n"
                ),
                (
                    ["get", "\(base)/json", "-H", "nocolon"], 2,
                    "courier: -H 'nocolon' is not a header field: write it as 'Name: value'.\n"
                ),
            ]
            for (arguments, status, message) in cases {
                let result = try await Courier.run(arguments)
                #expect(result.status == status, "\(arguments)")
                #expect(result.stderr == message, "\(arguments)")
                #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Stack dump"))
            }
            // Usage errors from the argument parser exit 2 too.
            #expect(try await Courier.run("get", "\(base)/json", "--timeout", "-1").status == 2)
            #expect(try await Courier.run("get").status == 2)
        }
    }

    @Test func secretsNeverAppearInVerboseOrCurlOutput() async throws {
        try await TestServer.withRunning { server in
            let url = server.url("/echo").absoluteString + "?api_key=SECRET1&token=SECRET2&q=dune"
            let arguments = ["get", url, "-H", "Authorization: Bearer SECRET3", "-H", "Cookie: session=SECRET4"]
            let verbose = try await Courier.run(arguments + ["--verbose"])
            #expect(verbose.status == 0)
            #expect(
                verbose.stderr.contains(
                    "GET http://127.0.0.1:\(server.port)/echo?api_key=REDACTED&token=REDACTED&q=dune"
                )
            )
            #expect(
                verbose.stderr.contains("authorization: REDACTED") || verbose.stderr.contains("Authorization: REDACTED")
            )
            let curl = try await Courier.run(arguments + ["--curl"])
            #expect(
                curl.stdout
                    == "curl 'http://127.0.0.1:\(server.port)/echo?api_key=REDACTED&token=REDACTED&q=dune' -H 'User-Agent: Courier/1.0' "
                    + "-H 'Authorization: REDACTED' -H 'Cookie: REDACTED' --compressed\n"
            )
            // A JSON body's secrets and a URL encoded in a query value (issue 28).
            let body = try await Courier.run(
                "get",
                url + "&next=https%3A%2F%2Fx.test%2F%3Fapi_key%3DSECRET7",
                "-d",
                #"{"user":"ada","password":"SECRET5","nested":{"api_key":"SECRET6"}}"#,
                "--curl"
            )
            #expect(
                body.stdout.contains(
                    #"--data-binary '{"user":"ada","password":"REDACTED","nested":{"api_key":"REDACTED"}}'"#
                )
            )
            // (verbose.stdout is the echo of what the server received, so it is not checked.)
            for output in [verbose.stderr, curl.stdout, curl.stderr, body.stdout, body.stderr] {
                for secret in ["SECRET1", "SECRET2", "SECRET3", "SECRET4", "SECRET5", "SECRET6", "SECRET7"] {
                    #expect(!output.contains(secret))
                }
            }
        }
    }

    /// `--timeout` is the whole request's, body included, whole or formatted as it streams
    /// (issue 28: a body trickled a byte at a time kept the command alive as long as the
    /// server liked).
    @Test func theTimeoutEndsATrickledBody() async throws {
        try await TestServer.withRunning { server in
            for mode in [[], ["--json"]] {
                let url = server.url("/hang?id=cli-trickle-\(mode.count)").absoluteString
                let result = try await Courier.run(["get", url, "--timeout", "0.7"] + mode)
                #expect(result.status == 3, "\(mode): \(result.stderr)")
                #expect(result.stderr.contains("timed out"), "\(mode): \(result.stderr)")
            }
        }
    }

    @Test func retriesTransientFailuresWhenAsked() async throws {
        try await TestServer.withRunning { server in
            let once = try await Courier.run("get", server.url("/flaky/cli-once?failures=1").absoluteString)
            #expect(once.status == 5)
            let retried = try await Courier.run(
                "get",
                server.url("/flaky/cli-retried?failures=1").absoluteString,
                "--retries",
                "1"
            )
            #expect(retried.status == 0)
            #expect(retried.stdout == #"{"attempts":2}"#)
        }
    }

    @Test func includePrintsTheStatusLineAndHeaderFields() async throws {
        try await TestServer.withRunning { server in
            let result = try await Courier.run("get", server.url("/json").absoluteString, "-i")
            let lines = result.stdout.components(separatedBy: "\n")
            #expect(lines.first == "HTTP 200 OK")
            #expect(lines.contains { $0.lowercased() == "content-type: application/json" })
            #expect(
                result.stdout.hasSuffix(
                    "\n\n" + #"{"id":3,"title":"Dune","release_date":"1965-08-01","tags":["sci-fi","classic"]}"#
                )
            )
        }
    }

    @Test func bothTransportsGiveTheSameAnswer() async throws {
        try await TestServer.withRunning { server in
            let url = server.url("/redirect/2").absoluteString
            let viaAHC = try await Courier.run("get", url, "--pick", "title")
            let viaURLSession = try await Courier.run("get", url, "--pick", "title", "--transport", "urlsession")
            #expect(viaAHC.stdout == "Dune\n", "\(viaAHC.stderr)")
            #expect(viaURLSession.stdout == "Dune\n", "\(viaURLSession.stderr)")
        }
    }
}
