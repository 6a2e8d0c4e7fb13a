import Foundation
import MapCore
import Raster

/// What each pixel of a band shows of the frame's fill-extrusion layers: the nearest surface's
/// window depth (24-bit, 0 near ... 2^24 - 1 far), shared by the frame's layers so that a later
/// layer hides behind an earlier one's buildings, and the face it lies on. A layer's faces are
/// first rasterized into it (visibility only: a depth and a face number per pixel), then each
/// pixel the layer won is coloured once: colour is paid per pixel shown, not per face drawn
/// over it, and a translucent layer shows each pixel's nearest surface once without a second
/// pass over its faces. Both steps go a few rows at a time (see `shade`), so that the rows'
/// depth, face numbers and pixels stay in the core's cache.
struct ExtrusionSurfaces {
    /// How a face is coloured: the face's plane (screen (x, y, 1) to (u / w, v / w, 1 / w)) and
    /// its colours from `bottom` (v = 0) to `top` (v = 1), before opacity.
    struct Face {
        var inverse: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)
        var bottom: SIMD3<Double>, top: SIMD3<Double>
        /// The opaque colour packed, when one colour covers the face.
        var packed: UInt32?
        /// Its pattern in `patterns` (-1: none).
        var pattern: Int
    }

    private var depth: [UInt32] = []
    /// Rows are taken `step` at a time; which of these steps' depth is cleared for this frame.
    private var step = 1, cleared: [Bool] = []
    /// Whether the depth is kept for the frame's other fill-extrusion layers; if not (the frame
    /// has one), it holds one step of rows, cleared for each: it stays in the core's cache
    /// instead of 4 bytes a pixel going to memory.
    private var kept = true
    /// The number of the face each pixel of the rows being drawn shows (`k + 1` for `faces[k]`;
    /// 0: none of this layer's); all 0 between steps.
    private var owner: [UInt32] = []
    private var faces: [Face] = []
    /// The faces taken and not yet rasterized, in order (`pending[k]` is `faces[k]`): their
    /// edges in `edges` and the rows they may cover.
    private struct Pending {
        var edges: Range<Int>, rows: Range<Int>, convex: Bool
    }
    private var pending: [Pending] = []
    private var edges: [ExtrusionFace.Edge] = [], active: [Int32] = [], crossings: [SIMD2<Double>] = []
    /// Scratch: the faces of each band of rows (`bandFaces[bandStarts[b]..<bandStarts[b + 1]]`).
    private var bandStarts: [Int] = [], bandFaces: [Int32] = []
    private var patterns: [ExtrusionPattern] = []
    /// How the runs of each face's pixels are coloured, worked out once per face for `shade`:
    /// one colour written, or one colour blended, else pixel by pixel (`shadeRun`).
    private struct RunPaint {
        enum Kind { case fill, blend, perPixel }
        var kind = Kind.perPixel
        var packed: UInt32 = 0
        /// The colour blended, premultiplied, opacity applied, and what the pixel under it keeps (over 255).
        var src = SIMD4<Double>(), k = 0.0
    }
    private var paints: [RunPaint] = []
    /// Per band row, the columns this layer's faces reached (lower, upper).
    private var reach: [SIMD2<Int>] = []
    private var frame = -1, rows = 0..<0, width = 0
    /// Whether, between faces at the same depth, the first drawn keeps the pixel (translucent
    /// layers, as MapLibre's depth pass then colour pass: each pixel coloured once) or the last
    /// (opaque layers, depth test less or equal).
    private var firstWins = false
    /// The camera's window depth of 1 / w: depthScale x (1 - near / w).
    private var depthScale = 0.0, near = 0.0

    /// Starts a layer in band `rows` of a `width`-pixel target; the depth is cleared (step by
    /// step of rows, when first drawn in) when `frame` is a new one (or the band another).
    /// `keep`: the frame has other fill-extrusion layers, which share the depth.
    mutating func begin(frame: Int, rows: Range<Int>, width: Int, firstWins: Bool, depthScale: Double, near: Double, keep: Bool = true) {
        if self.frame != frame || self.rows != rows || self.width != width || kept != keep {
            // Steps of rows whose depth, face numbers and pixels together fit in about 256 KiB.
            step = max(4, min(64, 262_144 / (12 * max(width, 1))))
            // (Three pixels past the end: a span's last four pixels are read and written whole.)
            let depthCount = width * (keep ? rows.count : min(step, rows.count)) + 3
            if depth.count != depthCount { depth = [UInt32](repeating: 0xFF_FFFF, count: depthCount) }
            kept = keep
            if owner.count != width * step + 3 { owner = [UInt32](repeating: 0, count: width * step + 3) }
            cleared = [Bool](repeating: false, count: (rows.count + step - 1) / step)
            self.frame = frame; self.rows = rows; self.width = width
        }
        self.firstWins = firstWins
        self.depthScale = depthScale; self.near = near
        faces.removeAll(keepingCapacity: true)
        patterns.removeAll(keepingCapacity: true)
        pending.removeAll(keepingCapacity: true)
        edges.removeAll(keepingCapacity: true)
        if reach.count == rows.count {
            reach.withUnsafeMutableBufferPointer { $0.update(repeating: SIMD2(Int.max, Int.min)) }
        } else {
            reach = [SIMD2<Int>](repeating: SIMD2(Int.max, Int.min), count: rows.count)
        }
    }

    /// Takes `shape`'s pixels (by their centres) where the face is nearest, to be coloured by
    /// `face` (with `pattern` on it). Faces are kept and rasterized by `shade`, in the order they
    /// came, band of rows by band: the depth and face numbers of a band stay in the core's cache.
    mutating func cover(_ shape: inout ExtrusionFace, convex: Bool, _ face: Face, pattern: ExtrusionPattern?) {
        let e0 = edges.count
        let covered = shape.appendEdges(to: &edges, convex: convex, rows: rows)
        guard !covered.isEmpty else { edges.removeSubrange(e0...); return }
        var face = face
        if let pattern { face.pattern = patterns.count; patterns.append(pattern) }
        faces.append(face)
        pending.append(Pending(edges: e0..<edges.count, rows: covered, convex: convex))
    }

    /// Rasterizes the faces `cover` took into the depth, then colours the pixels this layer won,
    /// at `opacity` (below 1, or with a pattern: blended over what is drawn, premultiplied, ONE,
    /// ONE_MINUS_SRC_ALPHA), `step` rows at a time: the faces in the order they came, then the
    /// rows' pixels.
    mutating func shade(into target: RenderTarget, opacity: Double) {
        guard !pending.isEmpty else { return }
        let blend = opacity < 1 || !patterns.isEmpty
        paints.removeAll(keepingCapacity: true)
        for f in faces {
            var paint = RunPaint()
            if f.pattern < 0, let packed = f.packed {
                if blend {
                    // (One colour over the face: its middle's, which packs as its ends do.)
                    let c = f.bottom == f.top ? f.bottom : (f.bottom + f.top) / 2
                    paint.kind = .blend
                    paint.src = SIMD4(c.x, c.y, c.z, 1) * opacity
                    paint.k = (1 - paint.src.w) / 255
                } else {
                    paint.kind = .fill
                    paint.packed = packed
                }
            }
            paints.append(paint)
        }
        let band = step, first = rows.lowerBound
        let bands = (rows.count + band - 1) / band
        // The faces of each band, in the order they came (a counting sort).
        func bandsOf(_ p: Pending) -> ClosedRange<Int> { (p.rows.lowerBound - first) / band...(p.rows.upperBound - 1 - first) / band }
        bandStarts.removeAll(keepingCapacity: true)
        bandStarts.append(contentsOf: repeatElement(0, count: bands + 1))
        for p in pending {
            for b in bandsOf(p) { bandStarts[b + 1] += 1 }
        }
        for b in 0..<bands { bandStarts[b + 1] += bandStarts[b] }
        bandFaces.removeAll(keepingCapacity: true)
        bandFaces.append(contentsOf: repeatElement(0, count: bandStarts[bands]))
        var fillAt = bandStarts
        for (k, p) in pending.enumerated() {
            for b in bandsOf(p) {
                bandFaces[fillAt[b]] = Int32(k); fillAt[b] += 1
            }
        }
        for b in 0..<bands where bandStarts[b] < bandStarts[b + 1] {
            let lo = first + b * band, hi = min(lo + band, rows.upperBound)
            // (Where the step's depth lies: in the frame's rows, or the one step kept.)
            let depthAt = kept ? (lo - first) * width : 0
            if !cleared[b] || !kept {
                cleared[b] = true
                depth.withUnsafeMutableBufferPointer { d in
                    guard let p = d.baseAddress else { return }
                    (p + depthAt).update(repeating: 0xFF_FFFF, count: (hi - lo) * width)
                }
            }
            for i in bandStarts[b]..<bandStarts[b + 1] { rasterize(Int(bandFaces[i]), rows: lo..<hi, depthAt: depthAt) }
            colour(lo..<hi, into: target, opacity: opacity, blend: blend)
            // (The numbers back to none where the faces reached, for the next rows.)
            owner.withUnsafeMutableBufferPointer { o in
                guard let p = o.baseAddress else { return }
                for y in lo..<hi where reach[y - first].x < reach[y - first].y {
                    let r = reach[y - first]
                    (p + (y - lo) * width + r.x).update(repeating: 0, count: r.y - r.x)
                }
            }
        }
    }

    /// Rasterizes pending face `k` in `band` (visibility only: depth and face number), the
    /// band's depth at `depthAt` in `depth`.
    private mutating func rasterize(_ k: Int, rows band: Range<Int>, depthAt band0: Int) {
        let p = pending[k]
        let id = UInt32(k + 1), firstWins = self.firstWins
        let width = self.width, first = rows.lowerBound
        let inv = faces[k].inverse.2, scale = depthScale, near = self.near
        // (The depth's step along a row, and its value where 1 / w = 0.)
        let dx = -scale * near * inv.x, limit = scale
        // (An opaque layer takes equal depths always, a translucent one on pixels not yet its own.)
        let always: UInt32 = firstWins ? 0 : 1
        let magic4 = SIMD4<Double>(repeating: 0x1p52), one4 = SIMD4<Int32>(repeating: 1)
        let always4 = SIMD4(repeating: Int32(always)), id4 = SIMD4(repeating: Int32(id)), lanes4 = SIMD4<Int32>(0, 1, 2, 3)
        let rows = max(band.lowerBound, p.rows.lowerBound)..<min(band.upperBound, p.rows.upperBound)
        guard !rows.isEmpty else { return }
        edges.withUnsafeBufferPointer { edges in
            depth.withUnsafeMutableBufferPointer { depth in
              owner.withUnsafeMutableBufferPointer { owner in
                reach.withUnsafeMutableBufferPointer { reach in
                  guard let dp = depth.baseAddress, let op = owner.baseAddress else { return }
                  ExtrusionFace.scan(UnsafeBufferPointer(rebasing: edges[p.edges]), rows: rows, width: width, convex: p.convex,
                                     active: &active, crossings: &crossings) { y, x0, x1 in
                    let r = y - first
                    reach[r] = SIMD2(min(reach[r].x, x0), max(reach[r].y, x1))
                    // (1 / w is affine along the row, and so is the window depth: d = d0 + dx x,
                    // rounded. The test selects rather than branches: which surface wins is
                    // unpredictable.)
                    let wAt0 = inv.y * (Double(y) + 0.5) + inv.z
                    var d = scale * (1 - near * (inv.x * (Double(x0) + 0.5) + wAt0))
                    // (Through pointers stepped along the row: few values live in the loop.)
                    let inBand = (y &- band.lowerBound) &* width &+ x0
                    var depthAt = dp + (band0 &+ inBand), ownerAt = op + inBand
                    var x = x0
                    // (Four pixels at a time where the whole span lies well inside the depth
                    // range, as a face's pixels do (1 / w is affine, between its corners' within
                    // near...far): no clamp or validity to test; the depths stepped one by one as
                    // below and rounded by the same bits, the same values. The last four's lanes
                    // past the span take nothing: they keep what they had.)
                    let dEnd = d + dx * Double(x1 - x0)
                    if min(d, dEnd) > 1 && max(d, dEnd) < 16_777_214 {
                        while x < x1 {
                            let d1 = d + dx, d2 = d1 + dx, d3 = d2 + dx
                            let q = SIMD4<Int32>(truncatingIfNeeded: unsafeBitCast(SIMD4(d, d1, d2, d3) + magic4, to: SIMD4<Int64>.self))
                            d = d3 + dx
                            let old = UnsafeRawPointer(depthAt).loadUnaligned(as: SIMD4<Int32>.self)
                            let was = UnsafeRawPointer(ownerAt).loadUnaligned(as: SIMD4<Int32>.self)
                            let bias = was .== .zero
                            let inside = unsafeBitCast(lanes4 .< SIMD4(repeating: Int32(truncatingIfNeeded: x1 &- x)), to: SIMD4<Int32>.self)
                            let take = (q &- (old &+ (one4 & unsafeBitCast(bias, to: SIMD4<Int32>.self) | always4))) &>> 31 & inside
                            UnsafeMutableRawPointer(depthAt).storeBytes(of: q & take | old & ~take, as: SIMD4<Int32>.self)
                            UnsafeMutableRawPointer(ownerAt).storeBytes(of: id4 & take | was & ~take, as: SIMD4<Int32>.self)
                            depthAt += 4; ownerAt += 4; x &+= 4
                        }
                        return
                    }
                    while x < x1 {
                        x &+= 1
                        // (Behind the eye, 1 / w <= 0, is a depth past the far end: never taken.)
                        let valid = d < limit
                        // (Rounded to the nearest by the bits of d + 2^52, which holds it in its
                        // low bits: no conversion to check.)
                        let q = UInt32(truncatingIfNeeded: (min(max(d, 0), 16_777_215) + 0x1p52).bitPattern)
                        let old = depthAt.pointee, was = ownerAt.pointee
                        // (Translucent: a pixel not yet this layer's takes a surface as near as
                        // the depth, as MapLibre's colour pass after its depth pass does.)
                        let bias = (was == 0 ? 1 : 0) | always
                        // (All ones where taken: q < old + bias, both below 2^25, by the sign of
                        // their difference.)
                        let take = UInt32(bitPattern: Int32(bitPattern: q &- (old &+ bias)) >> 31) & (valid ? ~0 : 0)
                        depthAt.pointee = q & take | old & ~take
                        ownerAt.pointee = id & take | was & ~take
                        depthAt += 1; ownerAt += 1; d += dx
                    }
                  }
                }
              }
            }
        }
    }

    /// Colours the pixels of `band` this layer's faces won.
    /// (`blend`: whether pixels are blended over what is drawn, as `shade` decided.)
    private func colour(_ band: Range<Int>, into target: RenderTarget, opacity: Double, blend: Bool) {
        let width = self.width, first = rows.lowerBound
        let buf = target.pixmap.pixels
        // (Faces read in place: a Face is too large to copy for every run.)
        faces.withUnsafeBufferPointer { faces in
          paints.withUnsafeBufferPointer { paints in
            owner.withUnsafeBufferPointer { owner in
              guard let op = owner.baseAddress, let fp = faces.baseAddress else { return }
              for y in band where reach[y - first].x < reach[y - first].y {
                  let r = y - first, row = (y - band.lowerBound) * width, end = reach[r].y
                  var x = reach[r].x
                  // (Run by run of pixels on one face.)
                  while x < end {
                      let o = owner[row + x]
                      var next = x + 1
                      // (Four at a time, then one by one.)
                      let four = SIMD4(repeating: o)
                      while next + 4 <= end && UnsafeRawPointer(op + row + next).loadUnaligned(as: SIMD4<UInt32>.self) == four { next += 4 }
                      while next < end && owner[row + next] == o { next += 1 }
                      if o > 0 {
                          let paint = paints[Int(o - 1)]
                          switch paint.kind {
                          case .fill: (buf + y * width + x).update(repeating: paint.packed, count: next - x)
                          case .blend: Self.blendRun(paint.src, paint.k, buf + y * width + x, next - x)
                          case .perPixel: shadeRun(fp + Int(o - 1), y: y, x, next, buf, width: width, opacity: opacity, blend: blend)
                          }
                      }
                      x = next
                  }
              }
            }
          }
        }
    }

    /// Blends premultiplied `src` (`k`: what a pixel under it keeps, over 255) over `count`
    /// pixels from `at`. What lies under a run is mostly a few colours: each blended once.
    @inline(__always) private static func blendRun(_ src: SIMD4<Double>, _ k: Double, _ at: UnsafeMutablePointer<UInt32>, _ count: Int) {
        var under = ~at.pointee, blended: UInt32 = 0
        var at = at
        let end = at + count
        while at < end {
            // (Four at a time over the colour just blended.)
            let four = SIMD4(repeating: under)
            while end - at >= 4 && UnsafeRawPointer(at).loadUnaligned(as: SIMD4<UInt32>.self) == four {
                UnsafeMutableRawPointer(at).storeBytes(of: SIMD4(repeating: blended), as: SIMD4<UInt32>.self)
                at += 4
            }
            guard at < end else { break }
            let dst = at.pointee
            if dst != under {
                under = dst
                blended = packPremultiplied(src + SIMD4(Double(dst >> 16 & 255), Double(dst >> 8 & 255), Double(dst & 255), Double(dst >> 24)) * k)
            }
            at.pointee = blended
            at += 1
        }
    }

    /// Colours pixels `x0..<x1` of row `y`, which show `face`.
    private func shadeRun(_ face: UnsafePointer<Face>, y: Int, _ x0: Int, _ x1: Int, _ buf: UnsafeMutablePointer<UInt32>, width: Int,
                          opacity: Double, blend: Bool) {
        let yc = Double(y) + 0.5, p0 = y * width
        let inverse = face.pointee.inverse, bottom = face.pointee.bottom, top = face.pointee.top
        @inline(__always) func v(_ x: Int) -> (v: Double, invW: Double) {
            let xc = Double(x) + 0.5
            let invW = inverse.2.x * xc + inverse.2.y * yc + inverse.2.z
            return ((inverse.1.x * xc + inverse.1.y * yc + inverse.1.z) / invW, invW)
        }
        @inline(__always) func color(_ v: Double) -> SIMD3<Double> { bottom + (top - bottom) * min(max(v, 0), 1) }
        @inline(__always) func pack(_ c: SIMD3<Double>) -> UInt32 { packPremultiplied(SIMD4(c.x, c.y, c.z, 1)) }
        if face.pointee.pattern >= 0 {
            let pattern = patterns[face.pointee.pattern]
            for x in x0..<x1 {
                let xc = Double(x) + 0.5, (v, invW) = v(x)
                let u = (inverse.0.x * xc + inverse.0.y * yc + inverse.0.z) / invW
                let c = color(v), texel = pattern.sample(u: u, v: v)
                buf[p0 + x] = over(SIMD4(texel.x * c.x, texel.y * c.y, texel.z * c.z, texel.w), buf[p0 + x], opacity)
            }
            return
        }
        // One colour over the run when its ends pack alike (v runs monotonically along a row).
        var run: SIMD3<Double>? = bottom == top ? bottom : nil
        if run == nil, face.pointee.packed != nil || pack(color(v(x0).v)) == pack(color(v(x1 - 1).v)) { run = color(v(x0).v) }
        if !blend {
            if let packed = face.pointee.packed ?? run.map(pack) {
                (buf + p0 + x0).update(repeating: packed, count: x1 - x0)
            } else {
                for x in x0..<x1 { buf[p0 + x] = pack(color(v(x).v)) }
            }
        } else if let c = run {
            let src = SIMD4(c.x, c.y, c.z, 1) * opacity
            Self.blendRun(src, (1 - src.w) / 255, buf + p0 + x0, x1 - x0)
        } else {
            for x in x0..<x1 { buf[p0 + x] = over(SIMD4(color(v(x).v), 1), buf[p0 + x], opacity) }
        }
    }

    /// Premultiplied `c` x `opacity` over `dst`: ONE, ONE_MINUS_SRC_ALPHA.
    @inline(__always) private func over(_ c: SIMD4<Double>, _ dst: UInt32, _ opacity: Double) -> UInt32 {
        let src = c * opacity, k = (1 - src.w) / 255
        let d = SIMD4(Double(dst >> 16 & 255), Double(dst >> 8 & 255), Double(dst & 255), Double(dst >> 24))
        return packPremultiplied(src + d * k)
    }
}
