/* cairo_peer: draws nightmap's default map (no labels) with cairo's image surface and times it.
 *
 * The same layers from the same Resources/ data at the same camera as `nightmap bench
 * --scenario pan-notext`: background, land and lakes (non-zero fills), the radar image (frame 0,
 * decoded once with giflib), coastline, dashed state borders, country borders, the route (white,
 * 8 px, round caps and joins) and one 24x24 icon. Geometry comes from Resources/basemap/NAME.nmgeo
 * (format: tools/data/README.md), at the level nightmap picks for the zoom, with the chunks
 * outside the viewport skipped and line segments wholly outside it cut, as nightmap's
 * FrameRenderer does, so both draw the same vertices.
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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* ---------- .nmgeo ---------- */

typedef struct { float minZoom, maxZoom; int firstChunk, chunkCount; } Level;
typedef struct { float minX, minY, maxX, maxY; int firstPart, partCount; } Chunk;
typedef struct {
    const char *name;
    int kind;                 /* 1 polygons, 2 lines */
    int levelCount;
    Level *levels;
    Chunk *chunks;
    int *partOffsets;         /* first point (pair index) of each part */
    int *partLengths;
    float *points;            /* x, y pairs */
} Geometry;

typedef struct { const unsigned char *p; size_t n, at; const char *path; } Reader;

static uint32_t rd_u32(Reader *r) {
    if (r->n - r->at < 4) die("truncated geometry file", r->path);
    uint32_t v = (uint32_t)r->p[r->at] | (uint32_t)r->p[r->at + 1] << 8 | (uint32_t)r->p[r->at + 2] << 16 |
                 (uint32_t)r->p[r->at + 3] << 24;
    r->at += 4;
    return v;
}
static float rd_f32(Reader *r) { uint32_t u = rd_u32(r); float f; memcpy(&f, &u, 4); return f; }

static Geometry read_geometry(const char *dir, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/basemap/%s.nmgeo", dir, name);
    size_t n;
    unsigned char *buf = read_file(path, &n);
    Reader r = {buf, n, 0, path};
    if (n < 16 || memcmp(buf, "NMGEO1\0\0", 8) != 0) die("not a nightmap geometry file", path);
    r.at = 8;
    Geometry g = {0};
    g.name = name;
    g.kind = (int)rd_u32(&r);
    g.levelCount = (int)rd_u32(&r);
    if (g.levelCount < 1 || g.levelCount > 32) die("bad level count", path);
    /* Upper bounds for the arrays: the file size. */
    size_t maxWords = n / 4;
    g.levels = xmalloc(sizeof(Level) * (size_t)g.levelCount);
    g.chunks = xmalloc(sizeof(Chunk) * (maxWords / 6 + 1));
    g.partOffsets = xmalloc(sizeof(int) * maxWords);
    g.partLengths = xmalloc(sizeof(int) * maxWords);
    g.points = xmalloc(sizeof(float) * maxWords);
    int chunks = 0, parts = 0, points = 0;
    for (int l = 0; l < g.levelCount; l++) {
        Level *lv = &g.levels[l];
        lv->minZoom = rd_f32(&r);
        lv->maxZoom = rd_f32(&r);
        lv->chunkCount = (int)rd_u32(&r);
        lv->firstChunk = chunks;
        for (int c = 0; c < lv->chunkCount; c++) {
            Chunk *ch = &g.chunks[chunks++];
            ch->minX = rd_f32(&r); ch->minY = rd_f32(&r); ch->maxX = rd_f32(&r); ch->maxY = rd_f32(&r);
            ch->partCount = (int)rd_u32(&r);
            uint32_t pointCount = rd_u32(&r);
            if ((size_t)ch->partCount > (n - r.at) / 4 || (size_t)pointCount > (n - r.at) / 8) die("truncated geometry file", path);
            ch->firstPart = parts;
            uint32_t sum = 0;
            for (int p = 0; p < ch->partCount; p++) {
                uint32_t len = rd_u32(&r);
                g.partOffsets[parts] = points + (int)sum;
                g.partLengths[parts] = (int)len;
                parts++;
                sum += len;
            }
            if (sum != pointCount) die("part lengths do not add up", path);
            for (uint32_t i = 0; i < pointCount * 2; i++) g.points[points * 2 + (int)i] = rd_f32(&r);
            points += (int)pointCount;
        }
    }
    free(buf);
    return g;
}

/* GeometrySet.level(forZoom:): the level whose range holds the zoom, else the nearest. */
static const Level *level_for_zoom(const Geometry *g, double zoom) {
    for (int i = 0; i < g->levelCount; i++)
        if (zoom >= g->levels[i].minZoom && zoom < g->levels[i].maxZoom) return &g->levels[i];
    if (zoom < g->levels[0].minZoom) return &g->levels[0];
    return &g->levels[g->levelCount - 1];
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

/* Placement.forEachVisibleChunk: each chunk meeting the viewport grown by margin px, once per
 * world copy it shows in; calls body with the x shift (in world px) of that copy. */
typedef void (*ChunkBody)(cairo_t *, const Geometry *, const Chunk *, double shift, const View *, double margin, Count *);

static void for_each_visible_chunk(cairo_t *cr, const Geometry *g, const View *v, double margin, ChunkBody body, Count *count) {
    const Level *lv = level_for_zoom(g, v->zoom);
    double m = margin / v->world;
    double minX = -v->ox / v->world - m, maxX = (v->width - v->ox) / v->world + m;
    double minY = -v->oy / v->world - m, maxY = (v->height - v->oy) / v->world + m;
    int firstCopy = (int)floor(minX), lastCopy = (int)floor(maxX);
    if (lastCopy < firstCopy) lastCopy = firstCopy;
    for (int copy = firstCopy; copy <= lastCopy; copy++) {
        for (int ci = lv->firstChunk; ci < lv->firstChunk + lv->chunkCount; ci++) {
            const Chunk *c = &g->chunks[ci];
            if (c->maxX + copy < minX || c->minX + copy > maxX || c->maxY < minY || c->minY > maxY) continue;
            body(cr, g, c, copy * v->world, v, margin, count);
        }
    }
}

static void fill_chunk(cairo_t *cr, const Geometry *g, const Chunk *c, double shift, const View *v, double margin, Count *count) {
    (void)margin;
    double ox = v->ox + shift, oy = v->oy, s = v->world;
    for (int part = c->firstPart; part < c->firstPart + c->partCount; part++) {
        int start = g->partOffsets[part], n = g->partLengths[part];
        if (n < 3) continue;
        const float *pt = g->points + start * 2;
        cairo_move_to(cr, pt[0] * s + ox, pt[1] * s + oy);
        for (int k = 1; k < n; k++) cairo_line_to(cr, pt[k * 2] * s + ox, pt[k * 2 + 1] * s + oy);
        cairo_close_path(cr);
        count->chunkVertices += n;
        count->drawnVertices += n;
    }
}

/* A polyline in screen space, cut where a segment lies wholly outside the viewport grown by
 * margin (FrameRenderer.collectRuns): only runs of 2 or more points are drawn. */
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

static void line_chunk(cairo_t *cr, const Geometry *g, const Chunk *c, double shift, const View *v, double margin, Count *count) {
    Box box = {-margin, -margin, v->width + margin, v->height + margin};
    for (int part = c->firstPart; part < c->firstPart + c->partCount; part++) {
        int start = g->partOffsets[part], n = g->partLengths[part];
        if (n < 2) continue;
        polyline_runs(cr, g->points + start * 2, NULL, n, v->world, v->ox + shift, v->oy, &box, count);
    }
}

typedef struct {
    Geometry land, lakes, coastline, states, countries;
    Polylines route;
    double routeBox[4];       /* the route's bbox, normalised (one chunk, as nightmap's route sources) */
    cairo_surface_t *radar;
    int radarWidth, radarHeight;
} Data;

static const double radarW = -80.425, radarS = 37.936, radarE = -71.516, radarN = 46.437;
enum { MITER_LIMIT = 2 };     /* MapLibre's default line-miter-limit, as nightmap's LinePaint */

/* The cull margin of a line layer (FrameRenderer.drawLine): width x max(1, miter limit) + 2. */
static double line_margin(double width) { return width * MITER_LIMIT + 2; }

static void stroke_layer(cairo_t *cr, const Geometry *g, const View *v, unsigned rgb, double width, Count *count) {
    cairo_new_path(cr);
    for_each_visible_chunk(cr, g, v, line_margin(width), line_chunk, count);
    set_hex(cr, rgb);
    cairo_set_line_width(cr, width);
    cairo_stroke(cr);
}

static cairo_antialias_t frameAntialias = CAIRO_ANTIALIAS_DEFAULT;

/* One frame; counts[i] gets the vertices of layer i (land, lakes, coastline, states, countries, route). */
static void draw_frame(cairo_surface_t *surface, const Data *d, const View *v, Count counts[6]) {
    memset(counts, 0, sizeof(Count) * 6);
    cairo_t *cr = cairo_create(surface);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
    cairo_set_miter_limit(cr, MITER_LIMIT);
    cairo_set_antialias(cr, frameAntialias);
    lap(-1);

    /* background */
    set_hex(cr, 0x0b1016);
    cairo_paint(cr);
    lap(0);

    /* land and lakes: one non-zero fill per layer */
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
    cairo_new_path(cr);
    for_each_visible_chunk(cr, &d->land, v, 1, fill_chunk, &counts[0]);
    set_hex(cr, 0x1a1f27);
    cairo_fill(cr);
    lap(1);
    cairo_new_path(cr);
    for_each_visible_chunk(cr, &d->lakes, v, 1, fill_chunk, &counts[1]);
    set_hex(cr, 0x0d131a);
    cairo_fill(cr);
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
    stroke_layer(cr, &d->coastline, v, 0x2f3946, 0.9, &counts[2]);
    lap(4);
    if (v->zoom >= 3) {
        double dashes[2] = {3 * fmax(0.9, 1), 2 * fmax(0.9, 1)};
        cairo_set_dash(cr, dashes, 2, 0);
        stroke_layer(cr, &d->states, v, 0x3c4553, 0.9, &counts[3]);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    lap(5);
    stroke_layer(cr, &d->countries, v, 0x6b7686, 1.4, &counts[4]);
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
    d.land = read_geometry(resources, "land");
    d.lakes = read_geometry(resources, "lakes");
    d.coastline = read_geometry(resources, "coastline");
    d.states = read_geometry(resources, "states");
    d.countries = read_geometry(resources, "countries");
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
    printf("cairo_peer %s: %dx%d, centre %.3f,%.3f, zoom %g, basemap level %g-%g, cairo %s\n", name ? name : "scene", width, height,
           lat, lon, zoom, level_for_zoom(&d.land, zoom)->minZoom, level_for_zoom(&d.land, zoom)->maxZoom, cairo_version_string());
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
        View v;
        int k = i < 0 ? 0 : i;                       /* warm-up frames show frame 0, as nightmap bench's do */
        double t = (double)k / frames * 2 * M_PI;
        if (camPath == 1) {
            v = make_view(lat + 1.5 * sin(2 * t), lon + 3 * sin(t), zoom, width, height, 0, 0);
        } else if (camPath == 2) {
            v = make_view(10 * sin(t), (double)k / frames * 90, zoom, width, height, 0, 0);
        } else {
            v = make_view(lat, lon, zoom, width, height, (i + warmup + 1) * dxPerFrame, 0);
        }
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
