import CourierTestTraits
import Foundation
import Testing

/// Every numeric option of every subcommand, given what cannot be used (infinity, NaN, negative,
/// zero, absurdly large, not a number): a usage error (exit status 2) naming the option, the value
/// and the accepted range, never a crash. The values are rejected while the arguments are read,
/// so no server is needed.
@Suite("Numeric options", .loadLimited)
struct NumericOptionTests {
    private static let seconds = "give a number of seconds from 0.001 to 86400."

    /// Runs `courier arguments` and checks that it fails with a usage error whose first line is
    /// `Error: The value 'VALUE' is invalid for 'OPTION': MESSAGE`.
    private static func expectRejected(
        _ arguments: [String],
        value: String,
        option: String,
        _ message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let result = try await Courier.run(arguments)
        #expect(result.status == 2, "\(arguments)", sourceLocation: sourceLocation)
        let firstLine = result.stderr.split(separator: "\n", maxSplits: 1).first.map(String.init)
        #expect(
            firstLine == "Error: The value '\(value)' is invalid for '\(option)': \(message)",
            "\(arguments)",
            sourceLocation: sourceLocation
        )
        #expect(result.stdout == "", sourceLocation: sourceLocation)
    }

    @Test(arguments: ["1e10", "inf", "-inf", "nan", "-1", "0", "0.0001", "86401", "1e400", "ten"])
    func everyTimeoutTakesAMillisecondToADay(_ value: String) async throws {
        let timeout = "--timeout <timeout>"
        try await Self.expectRejected(
            ["get", "http://127.0.0.1:9/", "--timeout=\(value)"],
            value: value,
            option: timeout,
            Self.seconds
        )
        try await Self.expectRejected(
            ["ls-remote", "git://127.0.0.1:9/r.git", "--timeout=\(value)"],
            value: value,
            option: timeout,
            Self.seconds
        )
        try await Self.expectRejected(
            ["store", "king", "--timeout=\(value)"],
            value: value,
            option: timeout,
            Self.seconds
        )
        for movies in [["movies", "top-rated"], ["movies", "show", "129"], ["movies", "refresh"]] {
            try await Self.expectRejected(movies + ["--timeout=\(value)"], value: value, option: timeout, Self.seconds)
        }
        try await Self.expectRejected(
            ["movies", "add", "--member", "Anna", "Dune", "--timeout=\(value)"],
            value: value,
            option: timeout,
            Self.seconds
        )
    }

    @Test func getsCountsAndSizes() async throws {
        let url = "http://127.0.0.1:9/"
        let retries = "give a whole number from 0 to 10."
        for value in ["-1", "11", "9223372036854775807", "1.5"] {
            try await Self.expectRejected(
                ["get", url, "--retries=\(value)"],
                value: value,
                option: "--retries <retries>",
                retries
            )
        }
        let size = "give a whole number from 1 to 4294967296."
        for value in ["0", "-1", "4294967297", "1e9"] {
            try await Self.expectRejected(
                ["get", url, "--max-size=\(value)"],
                value: value,
                option: "--max-size <max-size>",
                size
            )
        }
        // The ends of each range are accepted (--curl prints the request instead of sending it).
        let edges = try await Courier.run(
            "get",
            url,
            "--curl",
            "--timeout",
            "86400",
            "--retries",
            "10",
            "--max-size",
            "4294967296"
        )
        #expect(edges.status == 0)
        #expect(edges.stdout == "curl 'http://127.0.0.1:9/' -H 'User-Agent: Courier/1.0' --compressed\n")
        #expect(try await Courier.run("get", url, "--curl", "--timeout", "0.001", "--retries", "0").status == 0)
    }

    @Test func feedAndLibraryLimits() async throws {
        for value in ["-1", "1000001"] {
            try await Self.expectRejected(
                ["feed", "feed.xml", "--limit=\(value)"],
                value: value,
                option: "--limit <limit>",
                "give a whole number from 0 to 1000000."
            )
        }
        for command in ["locations", "catalog"] {
            for value in ["-1", "1001", "99999999999999999999"] {
                try await Self.expectRejected(
                    [command, "--limit=\(value)"],
                    value: value,
                    option: "--limit <limit>",
                    "give a whole number from 0 to 1000."
                )
            }
            for value in ["-1", "1000000001", "9223372036854775807"] {
                try await Self.expectRejected(
                    [command, "--offset=\(value)"],
                    value: value,
                    option: "--offset <offset>",
                    "give a whole number from 0 to 1000000000."
                )
            }
        }
    }

    @Test func storeLimit() async throws {
        for value in ["0", "201", "-5", "inf"] {
            try await Self.expectRejected(
                ["store", "king", "--limit=\(value)"],
                value: value,
                option: "--limit <limit>",
                "give a whole number from 1 to 200."
            )
        }
    }

    @Test func ports() async throws {
        for value in ["70000", "65536", "-1", "8080.5"] {
            let message = "give a whole number from 0 to 65535."
            try await Self.expectRejected(
                ["serve", "--port=\(value)"],
                value: value,
                option: "--port <port>",
                message
            )
            try await Self.expectRejected(
                ["replay", "movies.json", "--port=\(value)"],
                value: value,
                option: "--port <port>",
                message
            )
        }
    }

    @Test func moviesPagesIdsConcurrencyAndStaleness() async throws {
        for value in ["0", "501", "-1"] {
            try await Self.expectRejected(
                ["movies", "top-rated", "--page=\(value)"],
                value: value,
                option: "--page <page>",
                "give a whole number from 1 to 500."
            )
        }
        for value in ["0", "-550", "2147483648", "nan"] {
            try await Self.expectRejected(
                ["movies", "show", "--", value],
                value: value,
                option: "<id>",
                "give a whole number from 1 to 2147483647."
            )
        }
        for value in ["0", "65", "-4", "1e3"] {
            try await Self.expectRejected(
                ["movies", "refresh", "--concurrency=\(value)"],
                value: value,
                option: "--concurrency <concurrency>",
                "give a whole number from 1 to 64."
            )
        }
        for value in ["inf", "nan", "-1", "-1d", "3651d", "1e400d", "1e300d", "soon", "d"] {
            try await Self.expectRejected(
                ["movies", "refresh", "--stale-after=\(value)"],
                value: value,
                option: "--stale-after <stale-after>",
                "give a duration such as 7d, 12h, 30m, 45s or 0, at most 3650d."
            )
        }
    }
}
