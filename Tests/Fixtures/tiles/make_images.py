"""JPEG and WebP raster tiles for the image codecs' tests, made with Pillow at test-writing time
(`pip install pillow`, 13.0.0 when written):

    python3 make_images.py

writes tile.jpg (256x256 RGB, four colour quadrants and a gradient band, quality 95, baseline),
progressive.jpg (the same, progressive), grey.jpg (8-bit greyscale), tile.webp (the same,
lossless), lossy.webp (quality 90) and alpha.webp (lossless RGBA, the left half clear and a
half-transparent band), and images.json: Pillow's own decode of each at a few pixels (RGBA), which
ours must match within 3 levels.
"""
import json

from PIL import Image

img = Image.new("RGB", (256, 256))
px = img.load()
for y in range(256):
    for x in range(256):
        if y >= 224:
            px[x, y] = (x, 255 - x, 128)
        else:
            px[x, y] = [(200, 40, 40), (40, 200, 40), (40, 40, 200), (230, 230, 60)][(x >= 128) + 2 * (y >= 112)]
img.save("tile.jpg", quality=95)
img.save("progressive.jpg", quality=95, progressive=True)
img.convert("L").save("grey.jpg", quality=95)
img.save("tile.webp", lossless=True)
img.save("lossy.webp", quality=90)
alpha = img.convert("RGBA")
apx = alpha.load()
for y in range(256):
    for x in range(256):
        r, g, b, _ = apx[x, y]
        apx[x, y] = (r, g, b, 0 if x < 128 else (128 if 100 <= y < 140 else 255))
alpha.save("alpha.webp", lossless=True, exact=True)
points = [(10, 10), (200, 20), (30, 150), (220, 200), (5, 240), (128, 240), (250, 250), (200, 120)]
out = {"source": "Pillow 13.0.0", "points": points, "images": {}}
for name in ("tile.jpg", "progressive.jpg", "grey.jpg", "tile.webp", "lossy.webp", "alpha.webp"):
    im = Image.open(name).convert("RGBA")
    out["images"][name] = {"size": list(im.size), "pixels": [list(im.getpixel(p)) for p in points]}
json.dump(out, open("images.json", "w"), indent=1)
