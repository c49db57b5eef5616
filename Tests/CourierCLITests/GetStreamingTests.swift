import CourierTestServer
import CourierTestTraits
import Foundation
import Testing

/// `courier get --stream | --lines | --events | --json-lines`: bodies printed as they arrive.
@Suite("courier get, streaming", .loadLimited)
struct GetStreamingTests {
    @Test func streamPrintsWhatArrivedAndCtrlCEndsIt() async throws {
        try await TestServer.withRunning { server in
            let url = server.url("/stream/held/cli?first=hello-first&rest=never").absoluteString
            let courier = try BackgroundCourier(["get", url, "--stream"])
            // The server holds the rest: what is printed arrived while the body was open.
            try await courier.waitForOutput(timeout: .seconds(30)) { $0.contains("hello-first") }
            let status = await courier.stop(with: SIGINT)
            await server.events.release("cli")
            #expect(status == 130)
            #expect(courier.text == "hello-first")
        }
    }

    @Test func linesAndJSONLines() async throws {
        try await TestServer.withRunning { server in
            let lines = try await Courier.run("get", server.url("/stream/lines?count=3&crlf").absoluteString, "--lines")
            #expect(lines.status == 0)
            #expect(lines.stdout == "line 1\nline 2\nline 3\n")
            let logged = try await Courier.run(
                "get",
                server.url("/stream/lines?count=1").absoluteString,
                "--stream",
                "--verbose"
            )
            #expect(logged.stdout == "line 1\n")
            #expect(logged.stderr.contains(" ms, streamed)"))

            var components = URLComponents(url: server.url("/stream/text"), resolvingAgainstBaseURL: false)!
            components.queryItems = [URLQueryItem(name: "body", value: "{\"b\":[1],\"a\":\"\\u001b\"}\n\n{}\n")]
            let json = try await Courier.run("get", components.url!.absoluteString, "--json-lines")
            #expect(json.status == 0)
            #expect(json.stdout == "{\n  \"a\" : \"\\u001b\",\n  \"b\" : [\n    1\n  ]\n}\n{\n\n}\n")
        }
    }

    @Test func eventsPrintOneJSONObjectPerEventAndReportReconnections() async throws {
        try await TestServer.withRunning { server in
            let url = server.url("/events/cli?count=3&per_connection=2&retry=1").absoluteString
            let result = try await Courier.run("get", url, "--events")
            #expect(result.status == 0)
            #expect(
                result.stdout == """
                    {"data":"event 1","id":"1","type":"message"}
                    {"data":"event 2","id":"2","type":"message"}
                    {"data":"event 3","id":"3","type":"message"}

                    """
            )
            #expect(result.stderr.hasPrefix("courier: reconnecting in 0.1 s from event 2 (The connection for GET "))
            // The second connection ended early too: the wait doubles, with up to half more.
            #expect(
                result.stderr.contains(
                    /courier: reconnecting in 0\.[23]\d* s from event 3 \(the server closed the stream\)\n/
                ),
                "\(result.stderr)"
            )
            #expect(await server.events.queries(for: "events:cli") == ["-", "2", "3"])
        }
    }

    @Test func jsonIsFormattedAsItArrivesAndPickStopsAtItsValue() async throws {
        try await TestServer.withRunning { server in
            var components = URLComponents(url: server.url("/stream/held/json"), resolvingAgainstBaseURL: false)!
            components.queryItems = [
                URLQueryItem(name: "first", value: #"{"b": [1, 2], "a": {"y": "é", "x""#),
                URLQueryItem(name: "rest", value: #": null}}"#),
            ]
            let courier = try BackgroundCourier(["get", components.url!.absoluteString, "--json"])
            // The server holds the rest: what is printed was formatted while the body was open.
            try await courier.waitForOutput(timeout: .seconds(30)) { $0.contains(#""y" : "é""#) }
            await server.events.release("json")
            #expect(await courier.waitForExit() == 0)
            #expect(
                courier.text
                    == "{\n  \"b\" : [\n    1,\n    2\n  ],\n  \"a\" : {\n    \"y\" : \"é\",\n    \"x\" : null\n  }\n}\n"
            )

            // --pick ends at its value's end: it does not wait for the rest, which is never sent.
            components.path = "/stream/held/pick"
            let picked = try await Courier.run("get", components.url!.absoluteString, "--pick", "b")
            await server.events.release("pick")
            #expect(picked.status == 0)
            #expect(picked.stdout == "[1,2]\n")
        }
    }

    @Test func streamingRefusesOptionsThatNeedTheWholeBody() async throws {
        let result = try await Courier.run("get", "https://example.com/", "--stream", "--json")
        #expect(result.status != 0)
        #expect(result.stderr.contains("--stream prints the body as it arrives, so it cannot be used with --json."))
        let two = try await Courier.run("get", "https://example.com/", "--lines", "--events")
        #expect(two.stderr.contains("Choose one of --lines, --events."))
    }
}
