import Foundation
import MapData
import Testing
@testable import nightmap

/// `--alerts-url` and `--contact`: parsed, refused with one line, and config lines.
@Suite struct WarningsOptionsTests {
    static func message(_ args: [String]) -> String {
        do { _ = try Options.parse(args); return "" } catch { return "\(error)" }
    }

    @Test func alertsURLAndContact() throws {
        #expect(try Options.parse(["state"]).alertsURL == "https://api.weather.gov")
        #expect(try Options.parse(["state", "--alerts-url", "none"]).alertsURL == nil)
        #expect(try Options.parse(["state", "--alerts-url=http://127.0.0.1:8080"]).alertsURL == "http://127.0.0.1:8080")
        #expect(Self.message(["state", "--alerts-url", "ftp://x/y"]) == "option --alerts-url: 'ftp://x/y' is not an http or https URL, nor none")
        #expect(try Options.parse(["state", "--contact", "me@example.org"]).contact == "me@example.org")
        #expect(Self.message(["state", "--contact", "a\nb"]).hasPrefix("option --contact: give an email address or a URL on one line"))
        #expect(Options.usage.contains("--alerts-url URL") && Options.usage.contains("--contact TEXT"))
        #expect(HTTPGet.userAgent == "nightmap/\(Options.version)")
        #expect(HTTPGet.userAgent(contact: "me@example.org") == "nightmap/0.1.0 (me@example.org)")
        #expect(HTTPGet.userAgent(contact: " ") == "nightmap/0.1.0")
    }

    @Test func configLines() throws {
        #expect(try ConfigFile.arguments(text: "alerts-url = none\ncontact = https://example.org/me\n")
                == ["--alerts-url=none", "--contact=https://example.org/me"])
        #expect(throws: (any Error).self) { try ConfigFile.arguments(text: "alerts-url = gopher://x\n") }
    }
}
