import MapCore

/// The colour scales the radar's legend shows: the source's own ramp, as its frames are coloured.
public enum RadarLegend {
    /// The legend for a series: IEM's N0Q ramp for the IEM mosaic (live or cached), the NWS
    /// base-reflectivity table for the bundled demo frames, none for other sources (their ramp
    /// is not known here).
    public static func legend(for series: RadarSeries) -> ColorLegend? {
        if let own = series.legend { return own }
        if series.origin == .demo { return nws }
        if series.provider == RadarFeed.Source.iemProvider { return n0q }
        return nil
    }

    /// IEM's NEXRAD N0Q composite ramp, 0 to 80 dBZ in its 0.5 dBZ steps (palette index
    /// i = (dBZ + 32.5) x 2; IEM's own table, composite_n0q.txt in pyIEM).
    public static let n0q = ColorLegend(bins: hexColors(n0qHex).enumerated().map { .init(from: Double($0.offset) * 0.5, color: $0.element) },
                                           upTo: 80.5, ticks: [0, 20, 40, 60, 80], unit: "dBZ")

    /// The NWS WSR-88D base reflectivity table (5 dBZ bins from 5 dBZ, as the demo frames are
    /// coloured).
    public static let nws = ColorLegend(bins: hexColors(nwsHex).enumerated().map { .init(from: 5 + Double($0.offset) * 5, color: $0.element) },
                                           upTo: 80, ticks: [5, 20, 35, 50, 65, 80], unit: "dBZ")

    /// RainViewer's colour scheme 2 (Universal Blue), the only one it serves: 5 dBZ bins from
    /// -10 dBZ (drizzle, translucent grey-beige) to 80 and above (purple). The colours and
    /// alphas are its table's at each bin's start (rainviewer_api_colors_table.csv, as LibreWXR
    /// copies it); the translucent bins' alphas are drawn as they are.
    public static let universalBlue = ColorLegend(
        bins: [("636159", 0x11), ("797460", 0x44), ("928871", 0x88), ("cec087", 0xcc), ("88ddee", 255), ("0099cc", 255),
               ("0077aa", 255), ("005588", 255), ("ffee00", 255), ("ffaa00", 255), ("ff7700", 255), ("ff4400", 255),
               ("ee0000", 255), ("990000", 255), ("ffaaff", 255), ("ff77ff", 255), ("ff44ff", 255), ("ff00ff", 255), ("aa00aa", 255)]
            .enumerated().map { k, c in
                var color = hexColors(c.0)[0]
                color.a = Double(c.1) / 255
                return .init(from: -10 + Double(k) * 5, color: color)
            },
        upTo: 85, ticks: [-10, 10, 30, 50, 70], unit: "dBZ")

    /// 0 ... 80 dBZ by 0.5: 161 colours, six hex digits each.
    static let n0qHex = [
        "9098b48c95b38892b2808cb07c89af7886ae7483ac7080ab6c7daa6779a96376a85f73a75b70a6576da44f67a24b64a1",
        "4761a0435e9f415b9e4361a24568a6486faa4a76ae4d7db24f84b6518bbb5699c3599fc75ba6cb5eadcf60b4d462bbd8",
        "65c2dc67c9e06ad0e46fd6e868d6d759d6b352d6a24bd69043d67e3cd66d35d65b11d51811d11710cd1710c81610c416",
        "0fbc150fb7140eb3140eaf130eab130da6120da2120d9e110c99110c95100c91100b880f0b840e0a800e0a7c0d0a770d",
        "09730c096f0c096b0b08660b08620a095e09327308467d085b88076f9207849d0698a806adb205c1bd05d6c704ead204",
        "ffe200ffd800ffd300ffce00ffc900ffc400ffc000ffbb00ffb600ffb100ffac00ffa700ffa200ff9900ff9400ff8f00",
        "ff8a00ff8500ff8000ff0000f80000f10000ea0000e30000d50000cd0000c60000bf0000b80000b10000aa0000a30000",
        "9b00009400008d00007f0000780000710000fffffffff5ffffeaffffdfffffd4ffffc9ffffbeffffb3ffff9dffff92ff",
        "ff75fffc6bfdf960faf656f7f34bf4f040f1ed36efea2bece720e9e10be3b200ffac00fca400f79b00f49300ef8800ea",
        "8300e87900e27200dd6900db05ecf005ebf005eaf005dde005dce005dbe005cdd005ccd004bdc004bcc004bbc004aeb0",
        "04adb0"
    ].joined()

    /// 5, 10, ... 75 dBZ.
    static let nwsHex = "04e9e7019ff40300f402fd0201c501008e00fdf802e5bc00fd9500fd0000d40000bc0000f800fd9854c6fdfdfd"

    static func hexColors(_ s: String) -> [Color] {
        let digits = Array(s.utf8)
        return stride(from: 0, to: digits.count - 5, by: 6).map { i in
            func byte(_ k: Int) -> Double {
                func v(_ c: UInt8) -> Int { c <= 57 ? Int(c) - 48 : Int(c) - 87 }
                return Double(v(digits[i + k]) * 16 + v(digits[i + k + 1])) / 255
            }
            return Color(r: byte(0), g: byte(2), b: byte(4), a: 1)
        }
    }
}
