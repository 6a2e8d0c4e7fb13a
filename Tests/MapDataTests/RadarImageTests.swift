import Foundation
import MapCore
import MapData
import Raster
import Testing

/// Radar answers told apart before they can stand in for the weather (issue 20).
@Suite struct RadarImageTests {
    static func png(_ width: Int, _ height: Int, _ paint: (Pixmap) -> Void = { _ in }) -> Data {
        let p = Pixmap(width: width, height: height)
        paint(p)
        return try! PNGCodec.encode(p)
    }

    static func message(_ data: Data, size: (Int, Int)? = (8, 8)) -> String {
        do { _ = try RadarImage.decode(data, name: "http://x/wms", size: size.map { (width: $0.0, height: $0.1) }); return "decoded" } catch {
            return "\(error)"
        }
    }

    @Test func serviceExceptionsAndErrorPagesAreNamed() {
        let v111 = #"<?xml version='1.0' encoding="UTF-8"?><ServiceExceptionReport version="1.1.1"><ServiceException code="LayerNotDefined">"#
            + "\n   msWMSLoadGetMapParams(): WMS server error. Invalid layer(s) given in the LAYERS parameter.\n</ServiceException></ServiceExceptionReport>"
        #expect(Self.message(Data(v111.utf8)) == "http://x/wms: WMS service exception: msWMSLoadGetMapParams(): WMS server error. Invalid layer(s) given in the LAYERS parameter.")
        let ows = #"<ows:ExceptionReport><ows:Exception exceptionCode="InvalidParameterValue"><ows:ExceptionText>Time out of range</ows:ExceptionText></ows:Exception></ows:ExceptionReport>"#
        #expect(Self.message(Data(ows.utf8)) == "http://x/wms: WMS service exception: Time out of range")
        #expect(Self.message(Data("\u{FEFF}  <!DOCTYPE html><html><body>502</body></html>".utf8)) == "http://x/wms: an HTML page, not an image")
        #expect(Self.message(Data("<?xml version=\"1.0\"?><a/>".utf8)) == "http://x/wms: an XML document, not an image")
        #expect(Self.message(Data()) == "http://x/wms: empty answer")
        #expect(Self.message(Data([0x00, 0x01, 0x02])) == "http://x/wms: not a PNG or GIF image (3 bytes starting 00 01 02)")
    }

    @Test func sizeAndTransparencyAreChecked() {
        #expect(Self.message(Self.png(8, 8)) == "decoded")
        #expect(Self.message(Self.png(16, 8)) == "http://x/wms: image is 16x8, asked for 8x8")
        let opaque = Self.png(8, 8) { $0.clear(RGBA8(10, 20, 30, 255).premultiplied) }
        #expect(Self.message(opaque).contains("no transparent pixels"))
        // A header that declares a huge image is refused before it is decoded.
        var huge = Self.png(8, 8)
        huge.replaceSubrange(16..<24, with: [0, 0, 0x40, 0, 0, 0, 0x40, 0] as [UInt8])
        #expect(Self.message(huge, size: nil).contains("more than the 16777216 pixels"))
        let cut = Self.png(8, 8)
        #expect(Self.message(cut.prefix(cut.count - 20)).contains("PNG"))
    }

    /// A mosaic at 0.025° a pixel over 126° W - 65° W, 23° N - 50° N with magenta squares at
    /// known places, cropped to 80° W - 72° W, 38° N - 46° N in 160 x 200 pixels.
    @Test func aMosaicIsCroppedToTheBoxAsItIsRead() throws {
        let grid = RadarImage.Grid(west: -126, north: 50, dx: 0.025, dy: 0.025)
        let places = [(-76.0, 42.0), (-79.9, 45.9), (-72.1, 38.1), (-100.0, 40.0)]      // the last is outside the box
        let mosaic = Self.png(2440, 1080) { p in
            for (lon, lat) in places {
                let x = Int((lon - grid.west) / grid.dx), y = Int((grid.north - lat) / grid.dy)
                for yy in (y - 2)...(y + 2) { for xx in (x - 2)...(x + 2) { p[xx, yy] = RGBA8(255, 0, 255).premultiplied.packed } }
            }
        }
        let box = LngLatBounds(west: -80, south: 38, east: -72, north: 46)
        let image = try RadarImage.decode(mosaic, name: "n0q.png", grid: grid, box: box, width: 160, height: 200)
        #expect(image.width == 160 && image.height == 200)
        func pixel(_ lon: Double, _ lat: Double) -> RGBA8 {
            image.color(atX: Int((lon - box.west) / (box.east - box.west) * 160), y: Int((box.north - lat) / (box.north - box.south) * 200))
        }
        for (lon, lat) in places.prefix(3) { #expect(pixel(lon, lat) == RGBA8(255, 0, 255), "\(lon), \(lat)") }
        #expect(pixel(-74, 40).a == 0)
        var magenta = 0
        for i in 0..<image.count where image.pixels[i] != 0 { magenta += 1 }
        #expect(magenta > 0 && magenta < 3 * 30, "only the three squares in the box: \(magenta) pixels")
        // A box reaching past the mosaic is clear there.
        let wide = try RadarImage.decode(mosaic, name: "n0q.png", grid: grid, box: LngLatBounds(west: -70, south: 45, east: -60, north: 55),
                                         width: 100, height: 100)
        #expect(wide.color(atX: 90, y: 5).a == 0)
        // Corrupt data is a named error.
        #expect(throws: RadarImage.Failure.self) {
            _ = try RadarImage.decode(mosaic.prefix(mosaic.count / 2), name: "n0q.png", grid: grid, box: box, width: 160, height: 200)
        }
    }

    @Test func worldFilesGiveTheGrid() throws {
        // IEM's archive: 0.005° a pixel, the top-left pixel's centre at 126° W, 50° N.
        let g = try WorldFile.grid("0.005\n0.0\n0.0\n-0.005\n-126.0\n50.0\n", origin: "n0q.wld")
        #expect(abs(g.west - -126.0025) < 1e-12 && abs(g.north - 50.0025) < 1e-12 && g.dx == 0.005 && g.dy == 0.005)
        let b = try WorldFile.parse("0.005\n0.0\n0.0\n-0.005\n-126.0\n50.0\n", width: 12200, height: 5400, origin: "n0q.wld")
        #expect(abs(b.east - -65.0025) < 1e-9 && abs(b.south - 23.0025) < 1e-9)
        #expect(throws: WorldFile.Failure.self) { _ = try WorldFile.grid("1 2 3", origin: "x.wld") }
    }
}
