import Foundation
import MapCore
import Testing

@Suite struct CSSColorTests {
    func rgba(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) -> Color { Color(r: r, g: g, b: b, a: a) }

    @Test func namedColoursAndTransparent() {
        #expect(Color(css: "red") == rgba(1, 0, 0))
        #expect(Color(css: "RebeccaPurple") == rgba(0.4, 0.2, 0.6))
        #expect(Color(css: "aliceblue") == rgba(240.0 / 255, 248.0 / 255, 1))
        #expect(Color(css: "  Gray\n") == rgba(128.0 / 255, 128.0 / 255, 128.0 / 255))
        #expect(Color(css: "yellowgreen") == rgba(154.0 / 255, 205.0 / 255, 50.0 / 255))
        #expect(Color(css: "transparent") == rgba(0, 0, 0, 0))
        #expect(Color(css: "TRANSPARENT") == rgba(0, 0, 0, 0))
        #expect(Color(css: "grey") == Color(css: "gray"))
        #expect(Color(css: "redd") == nil)
        #expect(Color(css: "") == nil)
    }

    @Test func all148NamedColoursParse() {
        let names = """
        aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown burlywood
        cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray
        darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen
        darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue
        firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew
        hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan
        lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray
        lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine mediumblue
        mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred
        midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid
        palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple
        rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue
        slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white
        whitesmoke yellow yellowgreen
        """.split(whereSeparator: \.isWhitespace).map(String.init)
        #expect(names.count == 148)
        #expect(names.filter { Color(css: $0) == nil } == [])
        #expect(names.allSatisfy { Color(css: $0)?.a == 1 })
    }

    @Test func hexForms() {
        #expect(Color(css: "#f00") == rgba(1, 0, 0))
        #expect(Color(css: "#F008") == rgba(1, 0, 0, 136.0 / 255))
        #expect(Color(css: "#00ff00") == rgba(0, 1, 0))
        #expect(Color(css: "#FF000080") == rgba(1, 0, 0, 128.0 / 255))
        #expect(Color(css: "#ff00") == rgba(1, 1, 0, 0))
        #expect(Color(css: "#12345") == nil)
        #expect(Color(css: "#gg0000") == nil)
        #expect(Color(css: "#") == nil)
    }

    @Test func rgbWithNumbersAndPercentages() {
        #expect(Color(css: "rgb(255, 0, 0)") == rgba(1, 0, 0))
        #expect(Color(css: "rgb(255,128,0)") == rgba(1, 128.0 / 255, 0))
        #expect(Color(css: "rgb(100%, 50%, 0%)") == rgba(1, 0.5, 0))
        #expect(Color(css: "rgba(255, 0, 0, 0.5)") == rgba(1, 0, 0, 0.5))
        #expect(Color(css: "rgba(255,0,0,50%)") == rgba(1, 0, 0, 0.5))
        #expect(Color(css: "RGB( 1e2 , 0 , 0 )") == rgba(100.0 / 255, 0, 0))
        #expect(Color(css: "rgba(26, 207, 26, .73)") == rgba(26.0 / 255, 207.0 / 255, 26.0 / 255, 0.73))
    }

    @Test func rgbSpaceAndSlashSyntax() {
        #expect(Color(css: "rgb(255 0 0)") == rgba(1, 0, 0))
        #expect(Color(css: "rgb(255 0 0 / 50%)") == rgba(1, 0, 0, 0.5))
        #expect(Color(css: "rgba(0 0 255 / .25)") == rgba(0, 0, 1, 0.25))
        #expect(Color(css: "rgb(100% 0% 100% /.6)") == rgba(1, 0, 1, 0.6))
        // Separators must not be mixed, nor numbers with percentages.
        #expect(Color(css: "rgb(255 0, 0)") == nil)
        #expect(Color(css: "rgba(255 0 0, 0.5)") == nil)
        #expect(Color(css: "rgba(255, 0, 0 / 0.5)") == nil)
        #expect(Color(css: "rgb(255, 50%, 0)") == nil)
        #expect(Color(css: "rgb(1, 2)") == nil)
        #expect(Color(css: "rgb(1, 2, 3, 4, 5)") == nil)
        #expect(Color(css: "rgb(1-2, 0, 0)") == nil)
        #expect(Color(css: "rgb(0, 0, 0) x") == nil)
    }

    @Test func clampsAsMapLibre() {
        #expect(Color(css: "rgb(300, -20, 0)") == rgba(1, 0, 0))
        #expect(Color(css: "rgb(150%, 0%, 0%)") == rgba(1, 0, 0))
        #expect(Color(css: "rgba(0, 0, 0, 2)") == rgba(0, 0, 0, 1))
        #expect(Color(css: "rgba(0, 0, 0, -1)") == rgba(0, 0, 0, 0))
        #expect(Color(css: "hsl(0, 150%, 50%)") == rgba(1, 0, 0))
    }

    @Test func hslForms() {
        #expect(Color(css: "hsl(120, 100%, 50%)") == rgba(0, 1, 0))
        #expect(Color(css: "hsl(240deg 100% 50%)") == rgba(0, 0, 1))
        #expect(Color(css: "hsla(240deg, 100%, 50%, 0.25)") == rgba(0, 0, 1, 0.25))
        #expect(Color(css: "hsl(0 100% 50% / 50%)") == rgba(1, 0, 0, 0.5))
        #expect(Color(css: "hsl(-120, 100%, 50%)") == rgba(0, 0, 1))
        #expect(Color(css: "hsl(480, 100%, 50%)") == rgba(0, 1, 0))
        #expect(Color(css: "hsl(0, 0%, 83%)") == rgba(0.83, 0.83, 0.83))
        #expect(Color(css: "hsl(120, 100, 50)") == nil)
        #expect(Color(css: "hsl(120 100%, 50%)") == nil)
    }
}
