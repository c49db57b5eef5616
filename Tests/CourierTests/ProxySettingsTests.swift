import CourierTestTraits
import Foundation
import Testing

@testable import Courier

/// Proxy settings as curl reads them from the environment, and which hosts bypass them.
@Suite(.loadLimited)
struct ProxySettingsTests {
    @Test func theEnvironmentIsReadAsCurlReadsIt() throws {
        let settings = try ProxySettings(environment: [
            "http_proxy": "http://plain.proxy:3128",
            "HTTP_PROXY": "http://ignored.proxy:1",  // a CGI request's Proxy: header; curl ignores it
            "HTTPS_PROXY": "secure.proxy:8443",
            "https_proxy": "http://lower.wins:8080",
            "NO_PROXY": "internal.example",
            "no_proxy": "localhost, .corp.example ,10.0.0.0/8",
        ])
        #expect(settings.http == ProxyServer(host: "plain.proxy", port: 3128))
        #expect(settings.https == ProxyServer(host: "lower.wins", port: 8080))
        #expect(settings.bypass == ["localhost", ".corp.example", "10.0.0.0/8"])

        let all = try ProxySettings(environment: [
            "ALL_PROXY": "proxy.example", "HTTP_PROXY": "http://x:1", "https_proxy": " ",
        ])
        #expect(all.http == ProxyServer(host: "proxy.example", port: 1080), "curl's default proxy port")
        #expect(all.https == all.http, "an empty value is not set")
        #expect(try ProxySettings(environment: ["HTTP_PROXY": "http://x:1"]).isEmpty)
        #expect(try ProxySettings(environment: [:]) == .none)

        let error = #expect(throws: ProxyError.self) {
            try ProxySettings(environment: ["HTTPS_PROXY": "socks5://me:hunter2@socks.example"])
        }
        #expect(error?.variable == "HTTPS_PROXY")
        #expect(error?.description.contains("hunter2") == false)

        // all_proxy is read only for a scheme without its own, as curl reads it: one this type
        // cannot use does not matter then.
        let both = try ProxySettings(environment: [
            "http_proxy": "http://h:1", "https_proxy": "http://s:2", "all_proxy": "socks5://127.0.0.1:7890",
        ])
        #expect(both.http?.host == "h" && both.https?.host == "s")
        #expect(throws: ProxyError.self) {
            try ProxySettings(environment: ["http_proxy": "http://h:1", "all_proxy": "socks5://127.0.0.1:7890"])
        }
    }

    @Test func credentialsNeverPrint() throws {
        let proxy = try ProxyServer(url: "http://me:hunter2@proxy.example:3128")
        var dumped = ""
        dump(proxy, to: &dumped)
        for text in [dumped, "\(proxy)", String(reflecting: proxy), "\(String(describing: proxy.credentials))"] {
            #expect(!text.contains("hunter2") && !text.contains("\"me\""), "\(text)")
        }
    }

    @Test(arguments: [
        ("*", "anything.example", true),
        ("*", "10.0.0.1", true),
        ("example.com", "example.com", true),
        ("example.com", "api.example.com", true),
        ("example.com", "badexample.com", false),
        (".example.com", "example.com", true),
        (".example.com", "deep.api.example.com", true),
        ("EXAMPLE.com.", "Api.Example.COM.", true),
        ("10.1.2.3", "10.1.2.3", true),
        ("10.1.2.3", "10.1.2.30", false),
        ("10.0.0.0/8", "10.200.1.1", true),
        ("10.0.0.0/8", "11.0.0.1", false),
        ("10.0.0.0/8", "ten.example", false),
        ("192.168.0.0/33", "192.168.0.1", false),
        ("fd00::/8", "[fd12::1]", true),
        ("fd00::/8", "[fe80::1]", false),
        ("::1", "[::1]", true),
        ("0:0::1", "::1", true),
        ("0.1", "10.0.0.1", false),
        ("example.com", "10.0.0.1", false),
        ("", "example.com", false),
        (".", "example.com", false),
    ])
    func noProxyEntries(entry: String, host: String, bypassed: Bool) {
        let settings = ProxySettings(ProxyServer(host: "proxy", port: 3128), bypass: [entry])
        #expect(settings.bypasses(host) == bypassed)
        #expect((settings.proxy(forScheme: "https", host: host) == nil) == bypassed)
    }

    @Test func aStarAmongOtherEntriesIsJustAName() {
        let settings = ProxySettings(ProxyServer(host: "proxy", port: 3128), bypass: ["*", "internal.example"])
        #expect(!settings.bypasses("example.com"))
        #expect(settings.bypasses("internal.example"))
    }

    @Test func eachSchemeHasItsProxy() {
        let settings = ProxySettings(http: ProxyServer(host: "h", port: 1), https: nil)
        #expect(settings.proxy(forScheme: "http", host: "a.example")?.host == "h")
        #expect(settings.proxy(forScheme: "HTTPS", host: "a.example") == nil)
    }

    @Test func proxyURLs() throws {
        let full = try ProxyServer(url: "http://u%40corp:p%3Ass@proxy.example:8080/")
        #expect(full.host == "proxy.example")
        #expect(full.port == 8080)
        #expect(full.credentials == ProxyServer.Credentials(user: "u@corp", password: "p:ss"))
        #expect(full.description == "http://REDACTED@proxy.example:8080")
        #expect(try ProxyServer(url: "[::1]:3128") == ProxyServer(host: "::1", port: 3128))
        #expect(try ProxyServer(url: "[::1]:3128").description == "http://[::1]:3128")
        for (text, reason) in [
            ("https://proxy.example", "only HTTP proxies"),
            ("socks5://proxy.example", "only HTTP proxies"),
            ("http://", "no host"),
            ("http://proxy.example:99999", "outside 1…65535"),
            ("http://proxy.example:3128/path", "nothing after the port"),
            ("http://proxy.example:3128?q=1", "nothing after the port"),
            ("http://evil%2F.example:3128", "percent-encoded"),
        ] {
            let error = #expect(throws: ProxyError.self, "\(text)") { try ProxyServer(url: text) }
            #expect(error?.reason.contains(reason) == true, "\(text): \(error?.reason ?? "")")
        }
    }
}
