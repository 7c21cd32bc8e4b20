# vtt-bridge: `make run` and `make test` set everything up on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PY_STAMP := $(VENV)/.installed-stamp
JS_STAMP := js-shim/node_modules/.installed-stamp
JS_BUNDLE := bridge/static/dist/table.js
# The rules core compiled with mypyc, out of the source tree (docs/performance-compiled.md).
COMPILED := build/compiled/manifest.json
# Every source a set may compile or depend on: the build itself decides what it watches
# (an edit outside it finds the build up to date, which then only touches the manifest).
COMPILED_SOURCES := $(shell find rules bridge protocol -name '*.py' -not -path '*/static/*' 2>/dev/null)
DATA ?= data
HOST ?= 127.0.0.1
PORT ?= 8765
CHROMIUM ?= /usr/bin/chromium

.PHONY: compiled bench-smoke run test test-python test-js lint typecheck setup js bench clean check-browser demo roll20 \
	foundry-module

setup: $(PY_STAMP) $(COMPILED) $(JS_STAMP) $(JS_BUNDLE)

$(PY_STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[dev]'
	$(PY) -m bridge.compiled_build --install-pth
	touch $@

# Rebuilt when a compiled source or one it imports changes (only the changed modules' C
# is recompiled).
$(COMPILED): $(PY_STAMP) $(COMPILED_SOURCES)
	$(PY) -m bridge.compiled_build

compiled: $(COMPILED)

$(JS_STAMP): js-shim/package.json js-shim/package-lock.json
	cd js-shim && npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(JS_BUNDLE): $(JS_STAMP) $(shell find js-shim/src -type f 2>/dev/null)
	cd js-shim && npm run --silent build

js: $(JS_BUNDLE)

foundry-module: $(JS_STAMP)
	cd js-shim && npm run --silent build:foundry
	rm -f vtt-bridge-foundry.zip
	cd js-shim/dist/foundry && $(abspath $(PY)) -m zipfile -c ../../../vtt-bridge-foundry.zip vtt-bridge/
	@echo "Foundry module: vtt-bridge-foundry.zip (manifest js-shim/dist/foundry/vtt-bridge/module.json)"

roll20: $(JS_STAMP)
	cd js-shim && npm run --silent build:roll20
	@echo "userscript: js-shim/dist/roll20/vtt-bridge.user.js, Mod script: js-shim/dist/roll20/vtt-bridge-mod.js"

demo: setup
	$(PY) -m bridge demo --data $(DATA)

run: setup
	@$(PY) -m bridge demo --data $(DATA) > $(DATA).demo.json || (cat $(DATA).demo.json; exit 1)
	@$(PY) -c "import json,sys; d=json.load(open('$(DATA).demo.json')); \
	print('\nvtt-bridge table page: http://$(HOST):$(PORT)/\n'); \
	[print(f\"{k:14} world {v['world_id']}\n{'':14} GM token:     {v['gm_token']}\n{'':14} player token: {v['player_token']} (users: {', '.join(v['players'])})\n\") for k,v in d.items()]"
	@rm -f $(DATA).demo.json
	$(PY) -m bridge serve --host $(HOST) --port $(PORT) --data $(DATA)

lint: $(PY_STAMP)
	$(VENV)/bin/ruff check rules protocol bridge tests
	$(VENV)/bin/ruff format --check rules protocol bridge tests

typecheck: $(PY_STAMP)
	$(VENV)/bin/mypy

check-browser:
	@if [ ! -x "$(CHROMIUM)" ]; then \
	  echo "The browser suite needs Chromium at $(CHROMIUM)."; \
	  echo "Install it with:  sudo apt-get install chromium   (or set CHROMIUM=/path/to/chromium)"; \
	  exit 1; \
	fi

# The whole suite runs against the compiled build (what ships; VTT_COMPILED=require makes a
# missing or stale build an error), then the tests of every compiled module once more as
# pure Python: the rules, the protocol's parsing, digest and limits, the card JSON and
# rendering, and the engine through the in-process replay.
PURE_TESTS := tests/rules tests/protocol tests/bridge/test_serialize.py tests/bridge/test_render.py \
	tests/bridge/test_engine.py \
	tests/bridge/test_render_actor.py tests/bridge/test_replay.py
test-python: $(PY_STAMP) $(COMPILED)
	VTT_COMPILED=require $(PY) -m pytest
	VTT_PURE=1 $(PY) -m pytest $(PURE_TESTS) -p no:cacheprovider

test-js: setup check-browser
	cd js-shim && npm run --silent typecheck
	cd js-shim && VTT_PYTHON="$(abspath $(PY))" CHROMIUM="$(CHROMIUM)" npm test

bench-smoke: setup
	$(PY) -m bridge bench --quick > /dev/null

test: setup check-browser lint typecheck test-python test-js bench-smoke

bench: setup
	$(PY) -m bridge bench --json bench.json

clean:
	rm -rf $(VENV) js-shim/node_modules bridge/static/dist build/compiled

# The reliability campaign's long runs (docs/reliability.md): the same tests as in
# `make test`, scaled up (kill -9 x25, 300 tables, a soak, 1000-example fuzzes).
# Bounded: about 20 minutes here, and stopped after 30 whatever happens.
.PHONY: chaos
chaos: setup
	VTT_CHAOS=1 timeout 1800 $(PY) -m pytest tests/reliability -q -s --durations=25
