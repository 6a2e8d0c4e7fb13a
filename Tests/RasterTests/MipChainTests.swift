import Raster
import Testing

/// Mipmap levels as a GPU makes them for MapLibre's raster tiles, and the level its
/// `LINEAR_MIPMAP_NEAREST` reads for a footprint.
@Suite struct MipChainTests {
    @Test func levelsAverageTwoByTwoDownToOneTexel() {
        // A 4 x 2 image: its columns white, black, red, clear (premultiplied).
        let image = Pixmap(width: 4, height: 2)
        let columns: [UInt32] = [0xFFFF_FFFF, 0xFF00_0000, 0xFFFF_0000, 0]
        for y in 0..<2 { for x in 0..<4 { image.pixels[y * 4 + x] = columns[x] } }
        let chain = MipChain(image)
        #expect(chain.levels.map(\.width) == [2, 1] && chain.levels.map(\.height) == [1, 1])
        // Level 1: white and black average to mid grey; red and clear to half-opaque red.
        #expect(chain.levels[0].pixels[0] == 0xFF80_8080)
        #expect(chain.levels[0].pixels[1] == 0x8080_0000)
        // Level 2: the two averaged again (rounded halves up).
        #expect(chain.levels[1].pixels[0] == 0xC080_4040)
    }

    @Test func theNearestLevelToTheFootprint() {
        let chain = MipChain(Pixmap(width: 256, height: 256))
        #expect(chain.levels.count == 8)
        // λ = log2 ρ: level 0 up to λ = 1/2, then the level nearest λ; at most the last.
        #expect(chain.level(footprint: 1) == 0 && chain.level(footprint: 1.41) == 0)
        #expect(chain.level(footprint: 1.5) == 1 && chain.level(footprint: 2.8) == 1)
        #expect(chain.level(footprint: 3) == 2 && chain.level(footprint: 4) == 2)
        #expect(chain.level(footprint: 1e6) == 8)
    }
}
