import Foundation
import MapData
import Testing

/// HTTP dates in the three forms RFC 9110 asks recipients to read, and what is not a date.
@Suite struct HTTPDateTests {
    @Test func theThreeFormsGiveTheSameInstant() {
        let expected = 784_111_777.0                       // 1994-11-06 08:49:37 UTC
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == 0)
        #expect(HTTPDate.parse("Tue, 29 Feb 2028 23:59:60 GMT") == 1_835_481_600)    // (a leap second: the next midnight)
        // Two-digit years: 1970 - 2069.
        #expect(HTTPDate.parse("Friday, 01-Jan-27 00:00:00 GMT") == 1_798_761_600)
    }

    @Test func anythingElseIsNotADate() {
        for text in ["", "0", "not a date", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 6 Nov 1994 08:49:37 GMT",
                     "Sun, 31 Nov 1994 08:49:37 GMT", "Sun, 29 Feb 2100 00:00:00 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
                     "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Nov +994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
                     "Sun, 06 Nov 1994 08:-9:37 GMT", "Sun Nov 6 08:49:37 94", "Sunday, 06-Nov-1994 08:49:37 GMT"] {
            #expect(HTTPDate.parse(text) == nil, "\(text)")
        }
    }
}
