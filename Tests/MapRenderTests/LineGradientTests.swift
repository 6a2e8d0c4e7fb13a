import Foundation
import MapCore
import MapRender
import Raster
import Testing

/// `line-gradient`: each pixel of the line coloured by its progress along the line.
extension StyleDocumentRenderTests {
    /// A line across the view from longitude -20 to 20 (x 3.56 to 60.44 in a 64-px view at
    /// zoom 0), 8 px wide.
    func gradientLine(_ gradient: String, lineMetrics: Bool = true, geometry: String? = nil, extra: String = "") throws -> Pixmap {
        let g = geometry ?? #"{"type": "LineString", "coordinates": [[-20, 0], [20, 0]]}"#
        return try render(#"""
        {"version": 8, "zoom": 0, "center": [0, 0],
         "sources": {"l": {"type": "geojson", "lineMetrics": \#(lineMetrics), "data": \#(g)}},
         "layers": [{"id": "l", "type": "line", "source": "l",
                     "paint": {"line-width": 8, "line-gradient": \#(gradient)\#(extra)}}]}
        """#)
    }

    static let lineStart = 32 - 20.0 / 360 * 512, lineLength = 40.0 / 360 * 512

    @Test func linearGradientFollowsTheProgress() throws {
        let pm = try gradientLine(#"["interpolate", ["linear"], ["line-progress"], 0, "blue", 1, "red"]"#)
        for x in 6...58 {
            let progress = (Double(x) + 0.5 - Self.lineStart) / Self.lineLength
            let c = pm.color(atX: x, y: 32)
            #expect(c.a == 255, "x \(x)")
            #expect(abs(Double(c.r) - 255 * progress) <= 3, "x \(x): \(c)")
            #expect(abs(Double(c.b) - 255 * (1 - progress)) <= 3, "x \(x): \(c)")
            #expect(c.g == 0)
        }
        // Outside the line's width nothing is drawn.
        #expect(pm.color(atX: 32, y: 22).a == 0)
        #expect(pm.color(atX: 32, y: 29).a == 255)
    }

    @Test func stepGradientChangesAtItsStop() throws {
        let pm = try gradientLine(#"["step", ["line-progress"], "blue", 0.5, "red"]"#)
        for x in 6...58 where abs(Double(x) + 0.5 - 32) > 1 {
            #expect(pm.color(atX: x, y: 32) == (Double(x) + 0.5 < 32 ? RGBA8(0, 0, 255) : RGBA8(255, 0, 0)), "x \(x)")
        }
    }

    @Test func gradientOpacityAndParts() throws {
        // Opacity fades the gradient's colours.
        let faded = try gradientLine(#"["interpolate", ["linear"], ["line-progress"], 0, "blue", 1, "red"]"#, extra: #", "line-opacity": 0.5"#)
        #expect(abs(Int(faded.color(atX: 10, y: 32).a) - 128) <= 1)
        // Each line of a MultiLineString runs 0 to 1 on its own.
        let multi = #"{"type": "MultiLineString", "coordinates": [[[-20, 0], [0, 0]], [[0, 10], [20, 10]]]}"#
        let pm = try gradientLine(#"["interpolate", ["linear"], ["line-progress"], 0, "blue", 1, "red"]"#, geometry: multi)
        let firstEnd = pm.color(atX: 30, y: 32), secondStart = pm.color(atX: 34, y: 18)
        #expect(firstEnd.r > 200 && firstEnd.b < 55, "\(firstEnd)")
        #expect(secondStart.b > 200 && secondStart.r < 55, "\(secondStart)")
        // Without lineMetrics the progress is 0 everywhere.
        let unmeasured = try gradientLine(#"["interpolate", ["linear"], ["line-progress"], 0, "blue", 1, "red"]"#, lineMetrics: false)
        #expect(unmeasured.color(atX: 50, y: 32) == RGBA8(0, 0, 255))
    }
}

extension StyleDocumentRenderTests {
    @Test func dashedGradientDrawsOnlyTheDashes() throws {
        // Dashes of 2 widths (16 px) and gaps of 2 widths from the line's start at x 3.56.
        let pm = try gradientLine(#"["interpolate", ["linear"], ["line-progress"], 0, "blue", 1, "red"]"#,
                                  extra: #", "line-dasharray": [2, 2]"#)
        for x in 4...59 {
            let u = (Double(x) + 0.5 - Self.lineStart).truncatingRemainder(dividingBy: 32)
            guard min(abs(u - 16), u, 32 - u) > 1 else { continue }
            let c = pm.color(atX: x, y: 32)
            if u < 16 {
                let progress = (Double(x) + 0.5 - Self.lineStart) / Self.lineLength
                #expect(c.a == 255 && abs(Double(c.r) - 255 * progress) <= 3, "x \(x): \(c)")
            } else {
                #expect(c.a == 0, "x \(x): \(c)")
            }
        }
    }
}
