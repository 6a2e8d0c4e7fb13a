/* cairo_peer: draws nightmap's default map (no labels) with cairo's image surface and times it.
 *
 * The same layers from the same Resources/ data at the same camera as `nightmap bench
 * --scenario pan-notext`: background, land and lakes (non-zero fills), the radar image (frame 0,
 * decoded once with giflib), coastline, dashed state borders, country borders, the route (white,
 * 8 px, round caps and joins) and one 24x24 icon. Geometry comes from the vector tiles of
 * Resources/basemap/basemap.pmtiles (PMTiles v3, gzip; Mapbox Vector Tiles 2.1, layers land,
 * lakes, coastline, countries, states): the tiles of zoom floor(Z) covering the view, each
 * drawn clipped to its own square (the tiles overlap by a 64-unit buffer), with the parts
 * outside the visible area skipped and line segments wholly outside it cut, as nightmap's
 * FrameRenderer does. Tiles are decoded once, before timing, and kept in memory: the peer
 * measures drawing, not decoding.
 *
 * One thread, CAIRO_FORMAT_ARGB32, default antialiasing. Prints the vertices drawn and the
 * median and p95 frame time (CLOCK_MONOTONIC) over --frames frames after --warmup frames.
 * See Benchmarks/README.md.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include <cairo.h>
#include <gif_lib.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

/* ---------- small helpers ---------- */

static void die(const char *what, const char *detail) {
    fprintf(stderr, "cairo_peer: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) die("out of memory", NULL);
    return p;
}

static unsigned char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open", path);
    if (fseek(f, 0, SEEK_END) != 0) die("cannot seek", path);
    long n = ftell(f);
    if (n < 0) die("cannot size", path);
    rewind(f);
    unsigned char *buf = xmalloc((size_t)n + 1);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) die("cannot read", path);
    fclose(f);
    buf[n] = 0;
    *size = (size_t)n;
    return buf;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Normalised Web Mercator, y down, both 0..1 (tools/data/README.md). */
static double merc_x(double lon) { return (lon + 180.0) / 360.0; }
static double merc_y(double lat) {
    if (lat > 85.051129) lat = 85.051129;
    if (lat < -85.051129) lat = -85.051129;
    return 0.5 - log(tan(M_PI / 4 + lat * M_PI / 360.0)) / (2 * M_PI);
}

/* ---------- the basemap: PMTiles v3 of Mapbox Vector Tiles ---------- */

/* Errors in the archive or a tile name the file. */
static void die_in(const char *path, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "cairo_peer: %s: ", path);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(1);
}

/* The basemap's layers, in the order the counts and the drawing use. */
enum { L_LAND, L_LAKES, L_COASTLINE, L_STATES, L_COUNTRIES, BASEMAP_LAYERS };
static const char *const basemapLayerNames[BASEMAP_LAYERS] = {"land", "lakes", "coastline", "states", "countries"};
static const int basemapPolygons[BASEMAP_LAYERS] = {1, 1, 0, 0, 0};   /* else lines */

/* One layer of one decoded tile. Points are in tile units, 0..1 across the tile (the 64-unit
 * buffer lies a little outside), y down; each part (a ring or a line) has its bounding box. */
typedef struct {
    int partCount, pointCount, partCap, pointCap;
    int *partOffsets, *partLengths;   /* first point (pair index) and point count of each part */
    float *boxes;                     /* minX, minY, maxX, maxY per part */
    float *points;                    /* x, y pairs */
} TileLayer;

typedef struct { TileLayer layers[BASEMAP_LAYERS]; } Tile;

typedef struct { uint64_t id, offset; uint32_t length, run; } DirEntry;
typedef struct { DirEntry *entries; int count; } Directory;

typedef struct {
    char path[4096];
    unsigned char *file;
    size_t size;
    uint64_t leafOffset, leafLength, dataOffset, dataLength;
    int internalCompression, tileCompression, minZoom, maxZoom;
    Directory root;
    uint64_t *leafKeys;               /* leaf directories read so far: their offsets ... */
    Directory *leaves;                /* ... and entries */
    int leafCount, leafCap;
    /* decoded tiles: open addressing on tile id + 1 (0 = empty slot) */
    uint64_t *keys;
    Tile **tiles;
    size_t tileCount, tileCap;
    long absent;                      /* tiles the archive does not hold (drawn as empty) */
} Basemap;

static uint64_t le64(const unsigned char *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/* A protobuf / PMTiles varint; 0 when it runs past end or is longer than 10 bytes. */
static int varint(const unsigned char **p, const unsigned char *end, uint64_t *out) {
    uint64_t v = 0;
    for (int shift = 0; shift < 70 && *p < end; shift += 7) {
        unsigned char b = *(*p)++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) { *out = v; return 1; }
    }
    return 0;
}

/* gzip (zlib's inflate with 16 + MAX_WBITS); what names the piece in messages. */
static unsigned char *gunzip(const Basemap *b, const unsigned char *in, size_t n, size_t *outSize, const char *what) {
    enum { LIMIT = 256 << 20 };       /* no tile or directory of this map comes near */
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) die_in(b->path, "%s: inflateInit2 failed", what);
    size_t cap = n * 4 + 1024, used = 0;
    unsigned char *out = xmalloc(cap);
    zs.next_in = (unsigned char *)in;
    zs.avail_in = (uInt)n;
    for (;;) {
        if (used == cap) {
            if (cap >= LIMIT) die_in(b->path, "%s inflates to more than %d MB", what, LIMIT >> 20);
            cap *= 2;
            out = realloc(out, cap);
            if (!out) die("out of memory", NULL);
        }
        zs.next_out = out + used;
        zs.avail_out = (uInt)(cap - used);
        int r = inflate(&zs, Z_NO_FLUSH);
        used = cap - zs.avail_out;
        if (r == Z_STREAM_END) break;
        if (r == Z_BUF_ERROR && zs.avail_in == 0) die_in(b->path, "%s: truncated gzip data", what);
        if (r != Z_OK && r != Z_BUF_ERROR)
            die_in(b->path, "%s: bad gzip data (%s)", what, zs.msg ? zs.msg : "inflate failed");
    }
    inflateEnd(&zs);
    *outSize = used;
    return out;
}

/* Bytes [offset, offset + length) of the file, decompressed as compression says (PMTiles: 1 none,
 * 2 gzip; 0 unknown: gzip when it starts like gzip). Returns a new buffer. */
static unsigned char *archive_bytes(const Basemap *b, uint64_t offset, uint64_t length, int compression,
                                    size_t *outSize, const char *what) {
    if (offset > b->size || length > b->size - offset)
        die_in(b->path, "%s (bytes %llu..%llu) lies past the end of the file (%zu bytes)", what,
               (unsigned long long)offset, (unsigned long long)(offset + length), b->size);
    const unsigned char *p = b->file + offset;
    if (compression == 0) compression = length >= 2 && p[0] == 0x1f && p[1] == 0x8b ? 2 : 1;
    if (compression == 2) return gunzip(b, p, (size_t)length, outSize, what);
    if (compression != 1) die_in(b->path, "%s: compression %d is not supported (only none and gzip)", what, compression);
    unsigned char *out = xmalloc((size_t)length);
    memcpy(out, p, (size_t)length);
    *outSize = (size_t)length;
    return out;
}

static Directory parse_directory(const Basemap *b, const unsigned char *p, size_t n, const char *what) {
    const unsigned char *end = p + n;
    uint64_t count;
    if (!varint(&p, end, &count)) die_in(b->path, "%s: truncated directory", what);
    if (count > n / 4) die_in(b->path, "%s: directory claims %llu entries in %zu bytes", what, (unsigned long long)count, n);
    Directory d = {xmalloc(sizeof(DirEntry) * (size_t)count), (int)count};
    uint64_t v, id = 0;
    for (int i = 0; i < d.count; i++) {
        if (!varint(&p, end, &v)) die_in(b->path, "%s: truncated directory", what);
        id += v;
        d.entries[i].id = id;
    }
    for (int i = 0; i < d.count; i++) {
        if (!varint(&p, end, &v) || v > UINT32_MAX) die_in(b->path, "%s: bad run length", what);
        d.entries[i].run = (uint32_t)v;
    }
    for (int i = 0; i < d.count; i++) {
        if (!varint(&p, end, &v) || v > UINT32_MAX) die_in(b->path, "%s: bad length", what);
        d.entries[i].length = (uint32_t)v;
    }
    for (int i = 0; i < d.count; i++) {
        if (!varint(&p, end, &v)) die_in(b->path, "%s: truncated directory", what);
        if (v == 0 && i > 0) d.entries[i].offset = d.entries[i - 1].offset + d.entries[i - 1].length;
        else if (v == 0) die_in(b->path, "%s: the first entry has offset 0 (no previous entry)", what);
        else d.entries[i].offset = v - 1;
    }
    for (int i = 1; i < d.count; i++)
        if (d.entries[i].id <= d.entries[i - 1].id) die_in(b->path, "%s: tile ids do not increase", what);
    return d;
}

static Basemap *open_basemap(const char *resources) {
    Basemap *b = xmalloc(sizeof *b);
    memset(b, 0, sizeof *b);
    snprintf(b->path, sizeof b->path, "%s/basemap/basemap.pmtiles", resources);
    b->file = read_file(b->path, &b->size);
    const unsigned char *h = b->file;
    if (b->size < 127 || memcmp(h, "PMTiles", 7) != 0) die_in(b->path, "not a PMTiles archive");
    if (h[7] != 3) die_in(b->path, "PMTiles version %d; only version 3 is read", h[7]);
    uint64_t rootOffset = le64(h + 8), rootLength = le64(h + 16);
    b->leafOffset = le64(h + 40); b->leafLength = le64(h + 48);
    b->dataOffset = le64(h + 56); b->dataLength = le64(h + 64);
    b->internalCompression = h[97];
    b->tileCompression = h[98];
    b->minZoom = h[100];
    b->maxZoom = h[101];
    if (h[99] != 1) die_in(b->path, "tile type %d; expected 1 (Mapbox Vector Tiles)", h[99]);
    if (b->minZoom > b->maxZoom || b->maxZoom > 30) die_in(b->path, "bad zoom range %d..%d", b->minZoom, b->maxZoom);
    if (b->dataOffset > b->size || b->dataLength > b->size - b->dataOffset) die_in(b->path, "the tile data lies past the end of the file");
    if (b->leafOffset > b->size || b->leafLength > b->size - b->leafOffset) die_in(b->path, "the leaf directories lie past the end of the file");
    size_t n;
    unsigned char *dir = archive_bytes(b, rootOffset, rootLength, b->internalCompression, &n, "the root directory");
    b->root = parse_directory(b, dir, n, "the root directory");
    free(dir);
    b->tileCap = 1024;
    b->keys = calloc(b->tileCap, sizeof(uint64_t));
    b->tiles = calloc(b->tileCap, sizeof(Tile *));
    if (!b->keys || !b->tiles) die("out of memory", NULL);
    return b;
}

/* One step of the Hilbert curve's rotation of a quadrant of side n. */
static void hilbert_rotate(uint64_t n, uint64_t *x, uint64_t *y, uint64_t rx, uint64_t ry) {
    if (ry != 0) return;
    if (rx == 1) { uint64_t t = n - 1 - *y; *y = n - 1 - *x; *x = t; }
    else { uint64_t t = *y; *y = *x; *x = t; }
}

/* PMTiles' tile id: the tiles of every lower zoom (sum of 4^t, t < z), then the tile's place
 * along the Hilbert curve at its zoom. */
static uint64_t pmtiles_id(int z, uint32_t tx, uint32_t ty) {
    uint64_t acc = (((uint64_t)1 << (2 * z)) - 1) / 3, x = tx, y = ty;
    for (int a = z - 1; a >= 0; a--) {
        uint64_t s = (uint64_t)1 << a;
        uint64_t rx = (x & s) != 0, ry = (y & s) != 0;
        acc += ((3 * rx) ^ ry) << (2 * a);
        x &= s - 1;
        y &= s - 1;
        hilbert_rotate(s, &x, &y, rx, ry);
    }
    return acc;
}

/* The entry of d at or before id (the last with entry id <= id); NULL if none. */
static const DirEntry *dir_find(const Directory *d, uint64_t id) {
    int lo = 0, hi = d->count - 1, best = -1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (d->entries[mid].id <= id) { best = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return best < 0 ? NULL : &d->entries[best];
}

static const Directory *leaf_directory(Basemap *b, uint64_t offset, uint32_t length) {
    for (int i = 0; i < b->leafCount; i++)
        if (b->leafKeys[i] == offset) return &b->leaves[i];
    if (offset > b->leafLength || length > b->leafLength - offset) die_in(b->path, "a leaf directory lies outside the leaf section");
    if (b->leafCount == b->leafCap) {
        b->leafCap = b->leafCap ? b->leafCap * 2 : 16;
        b->leafKeys = realloc(b->leafKeys, sizeof(uint64_t) * (size_t)b->leafCap);
        b->leaves = realloc(b->leaves, sizeof(Directory) * (size_t)b->leafCap);
        if (!b->leafKeys || !b->leaves) die("out of memory", NULL);
    }
    size_t n;
    unsigned char *dir = archive_bytes(b, b->leafOffset + offset, length, b->internalCompression, &n, "a leaf directory");
    b->leafKeys[b->leafCount] = offset;
    b->leaves[b->leafCount] = parse_directory(b, dir, n, "a leaf directory");
    free(dir);
    return &b->leaves[b->leafCount++];
}

/* Where the tile's bytes are (relative to the tile data section); 0 when the archive has no such tile. */
static int find_tile(Basemap *b, uint64_t id, uint64_t *offset, uint32_t *length) {
    const Directory *d = &b->root;
    for (int depth = 0; depth < 4; depth++) {           /* the spec's limit: root and 3 leaf levels */
        const DirEntry *e = dir_find(d, id);
        if (!e) return 0;
        if (e->run == 0) { d = leaf_directory(b, e->offset, e->length); continue; }
        if (id - e->id >= e->run) return 0;
        *offset = e->offset;
        *length = e->length;
        return 1;
    }
    die_in(b->path, "leaf directories nest deeper than 3 levels");
    return 0;
}

/* ----- Mapbox Vector Tile 2.1 ----- */

typedef struct { const Basemap *b; int z, x, y; } TileContext;   /* for messages */

static void bad_tile(const TileContext *c, const char *what) {
    die_in(c->b->path, "tile %d/%d/%d: %s", c->z, c->x, c->y, what);
}

/* Skips a field of wire type wt. */
static void pb_skip(const unsigned char **p, const unsigned char *end, int wt, const TileContext *c) {
    uint64_t v;
    switch (wt) {
    case 0: if (!varint(p, end, &v)) bad_tile(c, "truncated varint"); break;
    case 1: if (end - *p < 8) bad_tile(c, "truncated fixed64"); *p += 8; break;
    case 2:
        if (!varint(p, end, &v) || v > (uint64_t)(end - *p)) bad_tile(c, "truncated field");
        *p += v;
        break;
    case 5: if (end - *p < 4) bad_tile(c, "truncated fixed32"); *p += 4; break;
    default: bad_tile(c, "unsupported protobuf wire type");
    }
}

/* A length-delimited field's bytes. */
static void pb_bytes(const unsigned char **p, const unsigned char *end, const unsigned char **start, size_t *n, const TileContext *c) {
    uint64_t v;
    if (!varint(p, end, &v) || v > (uint64_t)(end - *p)) bad_tile(c, "truncated field");
    *start = *p;
    *n = (size_t)v;
    *p += v;
}

static void layer_grow(TileLayer *l, int parts, int points) {
    if (l->partCount + parts > l->partCap) {
        while (l->partCount + parts > l->partCap) l->partCap = l->partCap ? l->partCap * 2 : 16;
        l->partOffsets = realloc(l->partOffsets, sizeof(int) * (size_t)l->partCap);
        l->partLengths = realloc(l->partLengths, sizeof(int) * (size_t)l->partCap);
        l->boxes = realloc(l->boxes, sizeof(float) * 4 * (size_t)l->partCap);
        if (!l->partOffsets || !l->partLengths || !l->boxes) die("out of memory", NULL);
    }
    if (l->pointCount + points > l->pointCap) {
        while (l->pointCount + points > l->pointCap) l->pointCap = l->pointCap ? l->pointCap * 2 : 256;
        l->points = realloc(l->points, sizeof(float) * 2 * (size_t)l->pointCap);
        if (!l->points) die("out of memory", NULL);
    }
}

/* Ends the part being built (from point `start`): kept with its box if it has enough points. */
static void end_part(TileLayer *l, int start, int polygon) {
    int n = l->pointCount - start;
    if (n < (polygon ? 3 : 2)) { l->pointCount = start; return; }
    layer_grow(l, 1, 0);
    float *box = l->boxes + 4 * l->partCount;
    box[0] = box[2] = l->points[start * 2];
    box[1] = box[3] = l->points[start * 2 + 1];
    for (int k = start + 1; k < l->pointCount; k++) {
        float x = l->points[k * 2], y = l->points[k * 2 + 1];
        if (x < box[0]) box[0] = x;
        if (x > box[2]) box[2] = x;
        if (y < box[1]) box[1] = y;
        if (y > box[3]) box[3] = y;
    }
    l->partOffsets[l->partCount] = start;
    l->partLengths[l->partCount] = n;
    l->partCount++;
}

/* Feature.geometry: packed commands (MoveTo 1, LineTo 2, ClosePath 7; id | count << 3) with
 * zigzag parameters relative to a cursor that runs through the whole feature. */
static void decode_geometry(const unsigned char *p, size_t n, double extent, int polygon, TileLayer *l, const TileContext *c) {
    const unsigned char *end = p + n;
    int64_t cx = 0, cy = 0;
    int start = -1;                                      /* first point of the open part */
    while (p < end) {
        uint64_t cmd;
        if (!varint(&p, end, &cmd) || cmd > UINT32_MAX) bad_tile(c, "bad geometry command");
        unsigned id = (unsigned)(cmd & 7), count = (unsigned)(cmd >> 3);
        if (id == 7) {                                   /* ClosePath: the fill closes the ring */
            if (count != 1) bad_tile(c, "ClosePath with a count other than 1");
            if (start < 0) bad_tile(c, "ClosePath without a MoveTo");
            end_part(l, start, polygon);
            start = -1;
            continue;
        }
        if (id != 1 && id != 2) bad_tile(c, "unknown geometry command");
        if (id == 2 && start < 0) bad_tile(c, "LineTo without a MoveTo");
        if (count > (size_t)(end - p) / 2) bad_tile(c, "geometry command has more parameters than the feature holds");
        for (unsigned k = 0; k < count; k++) {
            uint64_t ux, uy;
            if (!varint(&p, end, &ux) || !varint(&p, end, &uy) || ux > UINT32_MAX || uy > UINT32_MAX)
                bad_tile(c, "truncated geometry parameters");
            cx += (int32_t)((uint32_t)ux >> 1) ^ -(int32_t)(ux & 1);
            cy += (int32_t)((uint32_t)uy >> 1) ^ -(int32_t)(uy & 1);
            if (id == 1) {                               /* MoveTo: a new part */
                if (start >= 0) end_part(l, start, polygon);
                start = l->pointCount;
            }
            layer_grow(l, 0, 1);
            l->points[l->pointCount * 2] = (float)(cx / extent);
            l->points[l->pointCount * 2 + 1] = (float)(cy / extent);
            l->pointCount++;
        }
    }
    if (start >= 0) end_part(l, start, polygon);
}

/* Tile.layers (3) -> Layer: name 1, features 2, extent 5, version 15 -> Feature: type 3, geometry 4.
 * Only the basemap's five layers are kept; polygon layers take polygon features, line layers lines. */
static void decode_tile(const unsigned char *p, size_t n, Tile *t, const TileContext *c) {
    const unsigned char *end = p + n;
    while (p < end) {
        uint64_t key;
        if (!varint(&p, end, &key)) bad_tile(c, "truncated field key");
        if (key >> 3 != 3 || (key & 7) != 2) { pb_skip(&p, end, (int)(key & 7), c); continue; }
        const unsigned char *lp;
        size_t ln;
        pb_bytes(&p, end, &lp, &ln, c);
        /* first pass: the name, extent and version (they may follow the features) */
        const unsigned char *q = lp, *lend = lp + ln, *name = NULL;
        size_t nameLength = 0;
        uint64_t extent = 4096, version = 1;
        while (q < lend) {
            if (!varint(&q, lend, &key)) bad_tile(c, "truncated layer");
            int f = (int)(key >> 3), wt = (int)(key & 7);
            if (f == 1 && wt == 2) pb_bytes(&q, lend, &name, &nameLength, c);
            else if (f == 5 && wt == 0) { if (!varint(&q, lend, &extent)) bad_tile(c, "truncated layer extent"); }
            else if (f == 15 && wt == 0) { if (!varint(&q, lend, &version)) bad_tile(c, "truncated layer version"); }
            else pb_skip(&q, lend, wt, c);
        }
        if (!name) bad_tile(c, "a layer without a name");
        if (version < 1 || version > 2) bad_tile(c, "a layer of a vector tile version other than 1 or 2");
        if (extent == 0 || extent > (1u << 24)) bad_tile(c, "bad layer extent");
        int which = -1;
        for (int i = 0; i < BASEMAP_LAYERS; i++)
            if (strlen(basemapLayerNames[i]) == nameLength && !memcmp(basemapLayerNames[i], name, nameLength)) which = i;
        if (which < 0) continue;
        int polygon = basemapPolygons[which];
        /* second pass: the features */
        for (q = lp; q < lend;) {
            if (!varint(&q, lend, &key)) bad_tile(c, "truncated layer");
            if (key >> 3 != 2 || (key & 7) != 2) { pb_skip(&q, lend, (int)(key & 7), c); continue; }
            const unsigned char *fp, *geometry = NULL;
            size_t fn, geometryLength = 0;
            pb_bytes(&q, lend, &fp, &fn, c);
            uint64_t type = 0;
            for (const unsigned char *r = fp, *fend = fp + fn; r < fend;) {
                if (!varint(&r, fend, &key)) bad_tile(c, "truncated feature");
                int f = (int)(key >> 3), wt = (int)(key & 7);
                if (f == 3 && wt == 0) { if (!varint(&r, fend, &type)) bad_tile(c, "truncated feature type"); }
                else if (f == 4 && wt == 2) pb_bytes(&r, fend, &geometry, &geometryLength, c);
                else pb_skip(&r, fend, wt, c);            /* id 1, tags 2 and anything else */
            }
            if (geometry && type == (polygon ? 3u : 2u))
                decode_geometry(geometry, geometryLength, (double)extent, polygon, &t->layers[which], c);
        }
    }
}

/* The tile z/x/y, decoded on first use and kept (x and y within the zoom's tiles). */
static const Tile *get_tile(Basemap *b, int z, int x, int y) {
    uint64_t id = pmtiles_id(z, (uint32_t)x, (uint32_t)y), key = id + 1;
    size_t mask = b->tileCap - 1, slot = (size_t)(id * 0x9E3779B97F4A7C15ull >> 20) & mask;
    while (b->keys[slot]) {
        if (b->keys[slot] == key) return b->tiles[slot];
        slot = (slot + 1) & mask;
    }
    Tile *t = xmalloc(sizeof *t);
    memset(t, 0, sizeof *t);
    uint64_t offset;
    uint32_t length;
    if (find_tile(b, id, &offset, &length)) {
        if (offset > b->dataLength || length > b->dataLength - offset)
            die_in(b->path, "tile %d/%d/%d lies outside the tile data section", z, x, y);
        char what[64];
        snprintf(what, sizeof what, "tile %d/%d/%d", z, x, y);
        size_t n;
        unsigned char *bytes = archive_bytes(b, b->dataOffset + offset, length, b->tileCompression, &n, what);
        TileContext c = {b, z, x, y};
        decode_tile(bytes, n, t, &c);
        free(bytes);
    } else {
        b->absent++;
    }
    b->keys[slot] = key;
    b->tiles[slot] = t;
    if (++b->tileCount * 2 > b->tileCap) {               /* grow: rehash into twice the slots */
        size_t oldCap = b->tileCap;
        uint64_t *oldKeys = b->keys;
        Tile **oldTiles = b->tiles;
        b->tileCap *= 2;
        b->keys = calloc(b->tileCap, sizeof(uint64_t));
        b->tiles = calloc(b->tileCap, sizeof(Tile *));
        if (!b->keys || !b->tiles) die("out of memory", NULL);
        for (size_t i = 0; i < oldCap; i++) {
            if (!oldKeys[i]) continue;
            size_t s = (size_t)((oldKeys[i] - 1) * 0x9E3779B97F4A7C15ull >> 20) & (b->tileCap - 1);
            while (b->keys[s]) s = (s + 1) & (b->tileCap - 1);
            b->keys[s] = oldKeys[i];
            b->tiles[s] = oldTiles[i];
        }
        free(oldKeys);
        free(oldTiles);
    }
    return t;
}

/* ---------- the route: a tiny GeoJSON coordinate scanner ---------- */

typedef struct { int count; int *offsets, *lengths; double *xy; int points; } Polylines;

/* Every "coordinates" array: each innermost array of arrays of numbers is one polyline. */
static Polylines read_route(const char *path) {
    size_t n;
    char *s = (char *)read_file(path, &n);
    Polylines out = {0};
    out.offsets = xmalloc(sizeof(int) * (n / 8 + 1));
    out.lengths = xmalloc(sizeof(int) * (n / 8 + 1));
    out.xy = xmalloc(sizeof(double) * (n / 2 + 2));
    const char *p = s;
    while ((p = strstr(p, "\"coordinates\"")) != NULL) {
        p += strlen("\"coordinates\"");
        while (*p && *p != '[') p++;
        int depth = 0, lineStart = -1;
        double pair[2]; int inPair = 0;
        do {
            char c = *p;
            if (c == '[') {
                depth++; inPair = 0; p++;
            } else if (c == ']') {
                if (inPair == 2) {                     /* a [lon, lat] closes */
                    if (lineStart < 0) lineStart = out.points;
                    out.xy[out.points * 2] = merc_x(pair[0]);
                    out.xy[out.points * 2 + 1] = merc_y(pair[1]);
                    out.points++;
                } else if (lineStart >= 0) {           /* an array of positions closes: one polyline */
                    out.offsets[out.count] = lineStart;
                    out.lengths[out.count] = out.points - lineStart;
                    out.count++;
                    lineStart = -1;
                }
                inPair = 0; depth--; p++;
            } else if (c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9')) {
                char *end;
                double v = strtod(p, &end);
                if (inPair < 2) pair[inPair] = v;
                inPair++;
                p = end;
            } else if (c == 0) {
                die("unterminated coordinates array", path);
            } else {
                p++;
            }
        } while (depth > 0);
    }
    free(s);
    if (out.count == 0) die("no LineString coordinates found", path);
    return out;
}

/* ---------- the radar image ---------- */

static cairo_surface_t *load_gif(const char *path) {
    int err = 0;
    GifFileType *gif = DGifOpenFileName(path, &err);
    if (!gif) die("cannot open GIF", path);
    if (DGifSlurp(gif) != GIF_OK || gif->ImageCount < 1) die("cannot decode GIF", path);
    SavedImage *im = &gif->SavedImages[0];
    ColorMapObject *map = im->ImageDesc.ColorMap ? im->ImageDesc.ColorMap : gif->SColorMap;
    if (!map) die("GIF without a colour table", path);
    GraphicsControlBlock gcb = {0};
    gcb.TransparentColor = NO_TRANSPARENT_COLOR;
    DGifSavedExtensionToGCB(gif, 0, &gcb);
    int w = gif->SWidth, h = gif->SHeight;
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    unsigned char *data = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    memset(data, 0, (size_t)stride * (size_t)h);          /* outside the frame: transparent */
    const GifImageDesc *d = &im->ImageDesc;
    for (int y = 0; y < d->Height; y++) {
        int ty = d->Top + y;
        if (ty < 0 || ty >= h) continue;
        uint32_t *row = (uint32_t *)(data + (size_t)ty * (size_t)stride);
        for (int x = 0; x < d->Width; x++) {
            int tx = d->Left + x;
            if (tx < 0 || tx >= w) continue;
            int idx = im->RasterBits[y * d->Width + x];
            if (idx == gcb.TransparentColor || idx >= map->ColorCount) continue;
            GifColorType c = map->Colors[idx];
            row[tx] = 0xff000000u | (uint32_t)c.Red << 16 | (uint32_t)c.Green << 8 | c.Blue;  /* opaque: premultiplied as is */
        }
    }
    cairo_surface_mark_dirty(s);
    DGifCloseFile(gif, &err);
    return s;
}

/* ---------- drawing ---------- */

typedef struct {
    double zoom, world;       /* world size in px: 512 * 2^zoom */
    double cx, cy;            /* centre in world px */
    int width, height;
    double ox, oy;            /* screen = normalised * world + (ox, oy) */
} View;

static View make_view(double lat, double lon, double zoom, int width, int height, double dx, double dy) {
    View v;
    v.zoom = zoom;
    v.world = 512.0 * pow(2.0, zoom);
    v.cx = merc_x(lon) * v.world + dx;
    v.cy = merc_y(lat) * v.world + dy;
    v.width = width; v.height = height;
    v.ox = width / 2.0 - v.cx;
    v.oy = height / 2.0 - v.cy;
    return v;
}

typedef struct { long chunkVertices, drawnVertices; } Count;

/* --layers: time spent per layer (ms, summed over the timed frames); NULL: not measured. */
static double *layerTimes = NULL;
static double layerMark;
static void lap(int layer) {
    if (!layerTimes) return;
    double t = now_ms();
    if (layer >= 0) layerTimes[layer] += t - layerMark;
    layerMark = t;
}

static void set_hex(cairo_t *cr, unsigned rgb) {
    cairo_set_source_rgb(cr, ((rgb >> 16) & 255) / 255.0, ((rgb >> 8) & 255) / 255.0, (rgb & 255) / 255.0);
}

/* A polyline in screen space, cut where a segment lies wholly outside the box (the visible
 * area grown by the layer's margin, as FrameRenderer.collectRuns): only runs of 2 or more
 * points are drawn. */
typedef struct { double minX, minY, maxX, maxY; } Box;
static inline int outcode(double x, double y, const Box *b) {
    return (x < b->minX ? 1 : 0) | (x > b->maxX ? 2 : 0) | (y < b->minY ? 4 : 0) | (y > b->maxY ? 8 : 0);
}

static void polyline_runs(cairo_t *cr, const float *ptf, const double *ptd, int n, double s, double ox, double oy,
                          const Box *box, Count *count) {
#define PX(k) ((ptf ? ptf[(k) * 2] : ptd[(k) * 2]) * s + ox)
#define PY(k) ((ptf ? ptf[(k) * 2 + 1] : ptd[(k) * 2 + 1]) * s + oy)
    double px = PX(0), py = PY(0);
    int pcode = outcode(px, py, box);
    int runLength = 0;
    count->chunkVertices += n;
    for (int k = 1; k < n; k++) {
        double x = PX(k), y = PY(k);
        int code = outcode(x, y, box);
        if (pcode & code) {
            if (runLength >= 2) count->drawnVertices += runLength;
            runLength = 0;
        } else {
            if (runLength == 0) { cairo_move_to(cr, px, py); runLength = 1; }
            cairo_line_to(cr, x, y);
            runLength++;
        }
        px = x; py = y; pcode = code;
    }
    if (runLength >= 2) count->drawnVertices += runLength;
#undef PX
#undef PY
}

/* One tile of the view: where it lands on screen (left, top, size in px; one copy of the world
 * per shift) and its clip square, the tile's edges rounded to whole pixels, so neighbours
 * share each edge exactly (no seam, no pixel drawn twice) and cairo clips to a pixel region. */
typedef struct {
    const Tile *tile;
    double left, top, size;
    double x0, y0, x1, y1;
} PlacedTile;

enum { MAX_COVER = 4096 };

/* The tile zoom for camera zoom Z: world = 512 * 2^Z px and the tiles are 512 px, so floor(Z),
 * within the archive's zooms (deeper views scale the deepest tiles up). */
static int tile_zoom(const Basemap *b, double zoom) {
    double z = floor(zoom);
    if (!(z >= b->minZoom)) return b->minZoom;
    if (z > b->maxZoom) return b->maxZoom;
    return (int)z;
}

/* The tiles meeting the viewport, once per world copy they show in (columns wrap). */
static int cover_view(Basemap *b, const View *v, PlacedTile *out) {
    int z = tile_zoom(b, v->zoom);
    long n = 1L << z;
    double size = v->world / (double)n;
    long c0 = (long)floor(-v->ox / size), c1 = (long)ceil((v->width - v->ox) / size) - 1;
    long r0 = (long)floor(-v->oy / size), r1 = (long)ceil((v->height - v->oy) / size) - 1;
    if (r0 < 0) r0 = 0;
    if (r1 > n - 1) r1 = n - 1;
    if (c1 < c0 || r1 < r0) return 0;
    if ((c1 - c0 + 1) * (r1 - r0 + 1) > MAX_COVER) die("the view needs more than 4096 tiles", NULL);
    int count = 0;
    for (long r = r0; r <= r1; r++) {
        for (long c = c0; c <= c1; c++) {
            PlacedTile *p = &out[count];
            p->left = c * size + v->ox;
            p->top = r * size + v->oy;
            p->size = size;
            p->x0 = round(p->left); p->x1 = round((c + 1) * size + v->ox);
            p->y0 = round(p->top); p->y1 = round((r + 1) * size + v->oy);
            if (p->x1 <= p->x0 || p->y1 <= p->y0) continue;            /* under a pixel */
            p->tile = get_tile(b, z, (int)(((c % n) + n) % n), (int)r);
            count++;
        }
    }
    return count;
}

/* One basemap layer over the view's tiles: per tile, clipped to its square, the parts whose box
 * meets the visible part of the tile grown by margin; fills as is, lines cut by polyline_runs.
 * The caller sets the colour, width and dashes. */
static void draw_tiles(cairo_t *cr, const PlacedTile *tiles, int tileCount, int layer, const View *v, double margin,
                       int fill, Count *count) {
    for (int i = 0; i < tileCount; i++) {
        const PlacedTile *p = &tiles[i];
        const TileLayer *l = &p->tile->layers[layer];
        if (!l->partCount) continue;
        Box vis = {fmax(p->x0, 0) - margin, fmax(p->y0, 0) - margin, fmin(p->x1, v->width) + margin,
                   fmin(p->y1, v->height) + margin};
        double s = p->size, ox = p->left, oy = p->top;
        cairo_save(cr);
        cairo_rectangle(cr, p->x0, p->y0, p->x1 - p->x0, p->y1 - p->y0);
        cairo_clip(cr);
        for (int part = 0; part < l->partCount; part++) {
            const float *box = l->boxes + part * 4;
            if (box[2] * s + ox < vis.minX || box[0] * s + ox > vis.maxX || box[3] * s + oy < vis.minY ||
                box[1] * s + oy > vis.maxY)
                continue;
            int n = l->partLengths[part];
            const float *pt = l->points + l->partOffsets[part] * 2;
            if (fill) {
                cairo_move_to(cr, pt[0] * s + ox, pt[1] * s + oy);
                for (int k = 1; k < n; k++) cairo_line_to(cr, pt[k * 2] * s + ox, pt[k * 2 + 1] * s + oy);
                cairo_close_path(cr);
                count->chunkVertices += n;
                count->drawnVertices += n;
            } else {
                polyline_runs(cr, pt, NULL, n, s, ox, oy, &vis, count);
            }
        }
        if (fill) cairo_fill(cr); else cairo_stroke(cr);
        cairo_restore(cr);
    }
}

typedef struct {
    Basemap *basemap;
    PlacedTile *cover;        /* MAX_COVER entries, refilled each frame */
    Polylines route;
    double routeBox[4];       /* the route's bbox, normalised (one chunk, as nightmap's route sources) */
    cairo_surface_t *radar;
    int radarWidth, radarHeight;
} Data;

static const double radarW = -80.425, radarS = 37.936, radarE = -71.516, radarN = 46.437;
enum { MITER_LIMIT = 2 };     /* MapLibre's default line-miter-limit, as nightmap's LinePaint */

/* The cull margin of a line layer (FrameRenderer.drawLine): width x max(1, miter limit) + 2. */
static double line_margin(double width) { return width * MITER_LIMIT + 2; }

static void stroke_layer(cairo_t *cr, const Data *d, int tileCount, int layer, const View *v, unsigned rgb, double width, Count *count) {
    set_hex(cr, rgb);
    cairo_set_line_width(cr, width);
    draw_tiles(cr, d->cover, tileCount, layer, v, line_margin(width), 0, count);
}

static cairo_antialias_t frameAntialias = CAIRO_ANTIALIAS_DEFAULT;

/* One frame; counts[i] gets the vertices of layer i (land, lakes, coastline, states, countries, route). */
static void draw_frame(cairo_surface_t *surface, Data *d, const View *v, Count counts[6]) {
    memset(counts, 0, sizeof(Count) * 6);
    cairo_t *cr = cairo_create(surface);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
    cairo_set_miter_limit(cr, MITER_LIMIT);
    cairo_set_antialias(cr, frameAntialias);
    /* the tiles of the view: already decoded (main decodes every camera's tiles before timing) */
    int tileCount = cover_view(d->basemap, v, d->cover);
    lap(-1);

    /* background */
    set_hex(cr, 0x0b1016);
    cairo_paint(cr);
    lap(0);

    /* land and lakes: one non-zero fill per layer and tile */
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
    set_hex(cr, 0x1a1f27);
    draw_tiles(cr, d->cover, tileCount, L_LAND, v, 1, 1, &counts[0]);
    lap(1);
    set_hex(cr, 0x0d131a);
    draw_tiles(cr, d->cover, tileCount, L_LAKES, v, 1, 1, &counts[1]);
    lap(2);

    /* the radar: scaled and translated into its box (linear in Web Mercator), bilinear */
    {
        double x0 = merc_x(radarW) * v->world + v->ox, x1 = merc_x(radarE) * v->world + v->ox;
        double y0 = merc_y(radarN) * v->world + v->oy, y1 = merc_y(radarS) * v->world + v->oy;
        if (x1 > 0 && x0 < v->width && y1 > 0 && y0 < v->height) {
            cairo_save(cr);
            cairo_translate(cr, x0, y0);
            cairo_scale(cr, (x1 - x0) / d->radarWidth, (y1 - y0) / d->radarHeight);
            cairo_set_source_surface(cr, d->radar, 0, 0);
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR);
            cairo_rectangle(cr, 0, 0, d->radarWidth, d->radarHeight);
            cairo_fill(cr);
            cairo_restore(cr);
        }
    }
    lap(3);

    /* coastline, state borders (minzoom 3; dashes 3 and 2 line widths, at least 1 px each
       width: nightmap's StrokeStyle), country borders */
    stroke_layer(cr, d, tileCount, L_COASTLINE, v, 0x2f3946, 0.9, &counts[2]);
    lap(4);
    if (v->zoom >= 3) {
        double dashes[2] = {3 * fmax(0.9, 1), 2 * fmax(0.9, 1)};
        cairo_set_dash(cr, dashes, 2, 0);
        stroke_layer(cr, d, tileCount, L_STATES, v, 0x3c4553, 0.9, &counts[3]);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    lap(5);
    stroke_layer(cr, d, tileCount, L_COUNTRIES, v, 0x6b7686, 1.4, &counts[4]);
    lap(6);

    /* the route: white, 8 px, round caps and joins, one polyline per feature */
    {
        double margin = line_margin(8), m = margin / v->world;
        double minX = -v->ox / v->world - m, maxX = (v->width - v->ox) / v->world + m;
        double minY = -v->oy / v->world - m, maxY = (v->height - v->oy) / v->world + m;
        Box box = {-margin, -margin, v->width + margin, v->height + margin};
        cairo_new_path(cr);
        int firstCopy = (int)floor(minX), lastCopy = (int)floor(maxX);
        for (int copy = firstCopy; copy <= (lastCopy > firstCopy ? lastCopy : firstCopy); copy++) {
            if (d->routeBox[2] + copy < minX || d->routeBox[0] + copy > maxX || d->routeBox[3] < minY || d->routeBox[1] > maxY) continue;
            for (int i = 0; i < d->route.count; i++)
                if (d->route.lengths[i] >= 2)
                    polyline_runs(cr, NULL, d->route.xy + d->route.offsets[i] * 2, d->route.lengths[i], v->world,
                                  v->ox + copy * v->world, v->oy, &box, &counts[5]);
        }
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_set_line_width(cr, 8);
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
        cairo_stroke(cr);
    }
    lap(7);

    /* one icon: a 24x24 filled circle at the route's first point */
    {
        double x = d->route.xy[0] * v->world + v->ox, y = d->route.xy[1] * v->world + v->oy;
        cairo_new_path(cr);
        cairo_arc(cr, x, y, 12, 0, 2 * M_PI);
        cairo_set_source_rgb(cr, 0xee / 255.0, 0xf2 / 255.0, 0xf7 / 255.0);
        cairo_fill(cr);
    }
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    lap(8);
}

/* ---------- main ---------- */

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void usage(void) {
    fprintf(stderr,
            "usage: cairo_peer [--resources DIR] [--size WxH] [--center LAT,LON] [--zoom Z] [--frames N]\n"
            "                  [--warmup N] [--path shift|loop|world] [--dx PX] [--antialias MODE] [--png FILE]\n"
            "                  [--name NAME] [--layers]\n"
            "  --path shift   the centre moves --dx px (default 3) to the east each frame (the default)\n"
            "  --path loop    the camera path of `nightmap bench --scenario pan`: frame i of N at\n"
            "                 lon + 3 sin t, lat + 1.5 sin 2t degrees, t = 2 pi i / N\n"
            "  --path world   the camera path of `nightmap bench --scenario world` (give --zoom 2): frame i\n"
            "                 of N centred at lon 90 i / N, lat 10 sin t (--center is ignored)\n"
            "  --antialias    default (the benchmark), fast, good, best or none\n"
            "  --png FILE     also write the frame at the start camera to FILE\n"
            "  --layers       also print the mean time per layer (adds two clock reads per layer)\n");
    exit(2);
}

/* The camera of frame i (negative: the warm-up frames, which show frame 0, as nightmap bench's do). */
static View camera(int camPath, int i, int warmup, int frames, double lat, double lon, double zoom, int width, int height,
                   double dxPerFrame) {
    int k = i < 0 ? 0 : i;
    double t = (double)k / frames * 2 * M_PI;
    if (camPath == 1) return make_view(lat + 1.5 * sin(2 * t), lon + 3 * sin(t), zoom, width, height, 0, 0);
    if (camPath == 2) return make_view(10 * sin(t), (double)k / frames * 90, zoom, width, height, 0, 0);
    return make_view(lat, lon, zoom, width, height, (i + warmup + 1) * dxPerFrame, 0);
}

int main(int argc, char **argv) {
    const char *resources = "Resources", *png = NULL, *name = NULL;
    int perLayer = 0;
    int width = 1280, height = 720, frames = 50, warmup = 5, camPath = 0;   /* 0 shift, 1 loop, 2 world */
    cairo_antialias_t antialias = CAIRO_ANTIALIAS_DEFAULT;
    double lat = 41.874, lon = -75.789, zoom = 5, dxPerFrame = 3;
    for (int i = 1; i < argc; i++) {
        char a[64];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        const char *eq = strchr(argv[i], '=');
        if (eq && eq - argv[i] < (long)sizeof a) {          /* --name=value */
            memcpy(a, argv[i], (size_t)(eq - argv[i]));
            a[eq - argv[i]] = 0;
            v = eq + 1;
            i--;                                          /* (the value is not a separate argument) */
        } else {
            snprintf(a, sizeof a, "%s", argv[i]);
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) usage();
        if (!strcmp(a, "--layers")) { perLayer = 1; if (eq) usage(); continue; }
        if (!v) usage();
        if (!strcmp(a, "--resources")) resources = v;
        else if (!strcmp(a, "--size")) { if (sscanf(v, "%dx%d", &width, &height) != 2 || width < 1 || height < 1) usage(); }
        else if (!strcmp(a, "--center")) { if (sscanf(v, "%lf,%lf", &lat, &lon) != 2) usage(); }
        else if (!strcmp(a, "--zoom")) zoom = atof(v);
        else if (!strcmp(a, "--frames")) frames = atoi(v);
        else if (!strcmp(a, "--warmup")) warmup = atoi(v);
        else if (!strcmp(a, "--dx")) dxPerFrame = atof(v);
        else if (!strcmp(a, "--path")) {
            if (!strcmp(v, "shift")) camPath = 0; else if (!strcmp(v, "loop")) camPath = 1; else if (!strcmp(v, "world")) camPath = 2; else usage();
        } else if (!strcmp(a, "--antialias")) {
            if (!strcmp(v, "default")) antialias = CAIRO_ANTIALIAS_DEFAULT;
            else if (!strcmp(v, "fast")) antialias = CAIRO_ANTIALIAS_FAST;
            else if (!strcmp(v, "good")) antialias = CAIRO_ANTIALIAS_GOOD;
            else if (!strcmp(v, "best")) antialias = CAIRO_ANTIALIAS_BEST;
            else if (!strcmp(v, "none")) antialias = CAIRO_ANTIALIAS_NONE;
            else usage();
        }
        else if (!strcmp(a, "--png")) png = v;
        else if (!strcmp(a, "--name")) name = v;
        else usage();
        i++;
    }
    if (frames < 1 || warmup < 0) usage();

    Data d;
    d.basemap = open_basemap(resources);
    d.cover = xmalloc(sizeof(PlacedTile) * MAX_COVER);
    char path[4096];
    snprintf(path, sizeof path, "%s/routes/default.geojson", resources);
    d.route = read_route(path);
    d.routeBox[0] = d.routeBox[1] = INFINITY; d.routeBox[2] = d.routeBox[3] = -INFINITY;
    for (int i = 0; i < d.route.points; i++) {
        d.routeBox[0] = fmin(d.routeBox[0], d.route.xy[i * 2]); d.routeBox[2] = fmax(d.routeBox[2], d.route.xy[i * 2]);
        d.routeBox[1] = fmin(d.routeBox[1], d.route.xy[i * 2 + 1]); d.routeBox[3] = fmax(d.routeBox[3], d.route.xy[i * 2 + 1]);
    }
    snprintf(path, sizeof path, "%s/radar/radar0.gif", resources);
    d.radar = load_gif(path);
    d.radarWidth = cairo_image_surface_get_width(d.radar);
    d.radarHeight = cairo_image_surface_get_height(d.radar);

    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) die("cannot create the surface", NULL);

    frameAntialias = antialias;
    if (camPath == 2) lat = lon = 0;                    /* the world path's frame 0 */
    /* The vertices drawn at the start camera. */
    Count counts[6];
    View home = make_view(lat, lon, zoom, width, height, 0, 0);
    /* The peer times drawing, not decoding: every tile any camera of the run shows is read from
       the archive, inflated and decoded here, once, and kept in memory (as nightmap's tile
       cache holds decoded tiles); the frames below only look them up. */
    cover_view(d.basemap, &home, d.cover);
    for (int i = -warmup; i < frames; i++) {
        View v = camera(camPath, i, warmup, frames, lat, lon, zoom, width, height, dxPerFrame);
        cover_view(d.basemap, &v, d.cover);
    }
    draw_frame(surface, &d, &home, counts);
    static const char *layerNames[6] = {"land", "lakes", "coastline", "states", "countries", "route"};
    long chunkTotal = 0, drawnTotal = 0;
    char detail[512] = "";
    for (int i = 0; i < 6; i++) {
        chunkTotal += counts[i].chunkVertices;
        drawnTotal += counts[i].drawnVertices;
        size_t used = strlen(detail);
        snprintf(detail + used, sizeof detail - used, "%s%s %ld", i ? ", " : "", layerNames[i], counts[i].drawnVertices);
    }
    printf("cairo_peer %s: %dx%d, centre %.3f,%.3f, zoom %g, basemap tiles of zoom %d (%zu decoded before timing, %ld absent), cairo %s\n",
           name ? name : "scene", width, height, lat, lon, zoom, tile_zoom(d.basemap, zoom), d.basemap->tileCount,
           d.basemap->absent, cairo_version_string());
    printf("vertices at the start camera: %ld in visible chunks, %ld drawn after cutting off-screen segments (%s)\n",
           chunkTotal, drawnTotal, detail);
    if (png) {
        cairo_status_t st = cairo_surface_write_to_png(surface, png);
        if (st != CAIRO_STATUS_SUCCESS) die("cannot write PNG", cairo_status_to_string(st));
    }

    double *times = xmalloc(sizeof(double) * (size_t)frames);
    long drawnSum = 0;
    double layerSums[9] = {0};
    for (int i = -warmup; i < frames; i++) {
        View v = camera(camPath, i, warmup, frames, lat, lon, zoom, width, height, dxPerFrame);
        layerTimes = perLayer && i >= 0 ? layerSums : NULL;
        double s = now_ms();
        draw_frame(surface, &d, &v, counts);
        double e = now_ms();
        if (i >= 0) {
            times[i] = e - s;
            for (int l = 0; l < 6; l++) drawnSum += counts[l].drawnVertices;
        }
    }
    qsort(times, (size_t)frames, sizeof(double), cmp_double);
    double median = times[frames / 2];
    int p95i = (int)(frames * 0.95);
    if (p95i > frames - 1) p95i = frames - 1;
    printf("%d frames after %d warm-up (%s): mean %ld vertices drawn per frame\n", frames, warmup,
           camPath == 1 ? "the camera path of nightmap's pan" : camPath == 2 ? "the camera path of nightmap's world" : "centre moving east each frame",
           drawnSum / frames);
    printf("median %.2f ms  p95 %.2f ms  max %.2f ms\n", median, times[p95i], times[frames - 1]);
    if (perLayer) {
        static const char *names[9] = {"background", "land", "lakes", "radar", "coastline", "states", "countries", "route", "icon"};
        printf("mean ms per layer:");
        for (int l = 0; l < 9; l++) printf(" %s %.2f", names[l], layerSums[l] / frames);
        printf("\n");
    }
    free(times);
    cairo_surface_destroy(surface);
    cairo_surface_destroy(d.radar);
    return 0;
}
