import Courier
import CourierTestTraits
import Foundation
import HTTPTypes
import Testing

/// The one redaction rule, on what earlier releases let through.
@Suite(.loadLimited)
struct RedactionTests {
    /// A URL carried percent-encoded in a query value (`redirect_uri=`, `next=`) is decoded once
    /// and redacted by the same rule.
    @Test(arguments: [
        (
            "https://a.test/go?to=https%3A%2F%2Fx%3Fapi_key%3DSECRET&page=2",
            "https://a.test/go?to=https%3A%2F%2Fx%3Fapi_key%3DREDACTED&page=2"
        ),
        (
            "https://a.test/auth?redirect_uri=https%3A%2F%2Fapp.test%2Fcb%3Fcode%3DSECRET%26state%3Dxyz",
            "https://a.test/auth?redirect_uri=https%3A%2F%2Fapp.test%2Fcb%3Fcode%3DREDACTED%26state%3Dxyz"
        ),
        (
            "https://a.test/go?next=https%3A%2F%2Fuser%3Asecret%40x.test%2F",
            "https://a.test/go?next=https%3A%2F%2FREDACTED%40x.test%2F"
        ),
        (
            "https://a.test/go?to=https%3A%2F%2Fx%2Fplain&q=a%20b",
            "https://a.test/go?to=https%3A%2F%2Fx%2Fplain&q=a%20b"
        ),
        ("https://a.test/go?to=%ZZ%3Fapi_key%3DS", "https://a.test/go?to=%25ZZ%3Fapi_key%3DREDACTED"),
    ])
    func encodedURLsInQueryValuesAreRedacted(url: String, shown: String) {
        #expect(Redaction.redactingURL(url) == shown)
    }

    /// The same in a form body and in free text (a log line, a `Location`).
    @Test func encodedURLsInFormsAndTextAreRedacted() {
        let form = Data("grant_type=authorization_code&redirect_uri=https%3A%2F%2Fa.test%2Fcb%3Ftoken%3DT1".utf8)
        #expect(
            String(
                decoding: Redaction.redactingBody(form, contentType: "application/x-www-form-urlencoded"),
                as: UTF8.self
            )
                == "grant_type=authorization_code&redirect_uri=https%3A%2F%2Fa.test%2Fcb%3Ftoken%3DREDACTED"
        )
        #expect(
            Redaction.redactingURLs(in: "moved to https://a.test/x?u=https%3A%2F%2Fb%3Fsecret%3DS now")
                == "moved to https://a.test/x?u=https%3A%2F%2Fb%3Fsecret%3DREDACTED now"
        )
    }

    /// Nested items inside one long form value are decoded with it, once: linear work.
    @Test(.hangGuard) func nestedValuesAreDecodedOnce() {
        let value = String(repeating: "?a=%3F", count: 50_000)
        let form = Data("x=\(value)&token=T".utf8)
        let redacted = Redaction.redactingBody(form, contentType: "application/x-www-form-urlencoded")
        #expect(String(decoding: redacted, as: UTF8.self).hasSuffix("&token=REDACTED"))
    }

    /// `application/octet-stream` says nothing of the bytes (`--data-binary`): they are read as
    /// a body without a type, JSON or a form when they look like one.
    @Test func octetStreamBodiesAreReadForWhatTheyAre() {
        let json = Data(#"{"password":"hunter2","api_key":"K"}"#.utf8)
        #expect(
            String(decoding: Redaction.redactingBody(json, contentType: "application/octet-stream"), as: UTF8.self)
                == #"{"password":"REDACTED","api_key":"REDACTED"}"#
        )
        let form = Data("user=ada&password=hunter2".utf8)
        #expect(
            String(decoding: Redaction.redactingBody(form, contentType: "application/octet-stream"), as: UTF8.self)
                == "user=ada&password=REDACTED"
        )
        let image = Data([0x89, 0x50, 0x4E, 0x47, 0x3D])
        #expect(Redaction.redactingBody(image, contentType: "application/octet-stream") == image)
    }
}
