# The two commands of the README:
#   make book   creates .venv, installs the pinned requirements, builds the book
#   make test   runs the test suite (lint, both editions built, which executes
#               every chapter, unit and site tests, the browser tests on a
#               sample of pages) but its slow suites: make test-pages,
#               make mutants, make bundle-test, make retrain-test (CI runs all)
# Other targets: make student, make homework, make grade, make chapter,
# make pdf, make bench, make site-test, make lab, make lock, make clean.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := book
# Python may compile each module it imports once, into __pycache__ (git
# ignores it). A shell with PYTHONDONTWRITEBYTECODE set (this machine's has)
# made every process compile numpy, sympy, matplotlib, Sphinx and nbformat
# from source again: about 2.5 CPU-seconds a chapter's kernel, in the build
# and again in the tests.
unexport PYTHONDONTWRITEBYTECODE

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
BUILD := $(BIN)/jupyter-book build . -W -n --keep-going
LINTED := posenc tests benchmarks _ext scripts conftest.py
# The chapters as plain notebooks, generated for nbval by `make chapter`
# (never committed).
NOTEBOOKS := _build/notebooks
# Tests on every core, in scopes (tests/conftest.py): the browser tests of
# one page together, every other test with its module; in collection order.
XDIST := -n $(or $(JOBS),auto) --dist loadscope --no-loadscope-reorder
# Where `make pdf` builds the one-page book: $(PDF_ROOT)/_build/singlehtml.
PDF_ROOT ?= .

.PHONY: book student homework test test-pages mutants chapter site-test bundle-test pdf lab bench lock clean

# The virtual environment, rebuilt whenever the pins change. uv (pinned in
# the lock) installs the pins: 4 to 9 s, where pip took 90 s.
$(INSTALLED): requirements.txt pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 is required, found " + sys.version.split()[0])'
	@echo "Installing the pinned requirements into $(VENV) (once, and again when the pins change):"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check "$$(grep -E '^uv==' requirements.txt)"
	$(BIN)/uv pip install --quiet --python $(BIN)/python -r requirements.txt
	touch $@

# Temml for Node, which renders the maths (TeX to MathML) when the book is built
# (_ext/prerender_maths.py): the packages pinned in _ext/maths/package-lock.json,
# installed by npm once (and again when the lock changes); npm's cache
# (~/.npm) serves them again without the network. Needs Node 18 or newer.
MATHS := _ext/maths
MATHS_INSTALLED := $(MATHS)/node_modules/.installed
$(MATHS_INSTALLED): $(MATHS)/package-lock.json
	@command -v node >/dev/null || { echo "Node.js 18 or newer renders the maths: install it (Debian: apt-get install nodejs npm)"; exit 1; }
	@node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)' \
	  || { echo "Node.js 18 or newer renders the maths; found $$(node --version)"; exit 1; }
	@echo "Installing Temml (TeX to MathML) for Node into $(MATHS)/node_modules (once):"
	npm ci --prefix $(MATHS) --prefer-offline --no-audit --no-fund --loglevel=error
	touch $@

# The build reports each chapter as it is executed ("executing chapters...
# [k/n]", _ext/parallel_execution.py), then Sphinx's reading and writing of
# the pages; the site's address comes last.
book: $(INSTALLED) $(MATHS_INSTALLED)
	@echo "Building the book: the chapters are executed first (about a minute"
	@echo "on 2 cores the first time; only the changed ones after that)."
	$(BUILD)
	@echo
	@echo "The book is built. Open it in a browser:"
	@echo "    file://$(CURDIR)/_build/html/index.html"

# The student edition: the book without solutions and without the
# instructor section, in _build/student/html (scripts/student_edition.py).
# It reuses the execution cache and frames of _build: run after make book.
student: $(INSTALLED) $(MATHS_INSTALLED)
	$(BIN)/python scripts/student_edition.py _build

# The homework: an assignment notebook per derivation chapter, generated
# from its exercises (scripts/homework.py), in _build/homework/.
homework: $(INSTALLED)
	$(BIN)/python scripts/homework.py _build/homework

# Grade submitted homework: make grade SUBMISSIONS=folder [OUT=grades.csv]
# (one notebook per student, or a folder per student; scripts/grade.py).
# Writes OUT, its -summary.csv and a feedback file per student.
.PHONY: grade
grade: $(INSTALLED)
	@test -n "$(SUBMISSIONS)" || { echo "make grade SUBMISSIONS=folder"; exit 2; }
	$(BIN)/python scripts/grade.py "$(SUBMISSIONS)" --out "$(or $(OUT),_build/grades/grades.csv)" \
		--feedback "$(dir $(or $(OUT),_build/grades/grades.csv))feedback"

# The build executes every chapter from a clean kernel (a failing cell fails
# it). Their second run, in a fresh venv made from the site's notebooks.zip
# as a student runs them, is make bundle-test (CI runs it after make test).
#
# The student edition is built beside the book: it starts once the book's
# build has read every page (every chapter executed and cached, every frame
# rendered), and the two write their pages side by side, Sphinx using one
# core each (scripts/student_edition.py --after). Its log follows the book's.
# Both logs are kept, _build/book.log and _build/student.log: the tests read
# them (tests/test_build_output.py: no kernel warns, every chapter reported).
READ_MARKER := _build/.read-by-book
test: $(INSTALLED) $(MATHS_INSTALLED)
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)
	mkdir -p _build && rm -f $(READ_MARKER)
	(POSENC_READ_MARKER=$(READ_MARKER) $(BUILD) 2>&1 | tee _build/book.log) & book=$$!; student=0; \
	$(BIN)/python scripts/student_edition.py _build --after $(READ_MARKER) \
	  --build-pid $$book > _build/student.log 2>&1 || student=$$?; \
	book_status=0; wait $$book || book_status=$$?; \
	echo; echo "The student edition's build:"; cat _build/student.log; \
	exit $$(( book_status ? book_status : student ))
	$(BIN)/pytest $(XDIST) --durations=20 -m "not mutants and not fresh_venv and not every_page" tests

# The browser tests on every page, deck and handout outside make test's
# sample (tests/tiers.py), on the site make test built (POSENC_SITE and
# POSENC_STUDENT_SITE, else _build/html and _build/student/html). CI runs
# it after make test.
test-pages: $(INSTALLED)
	$(BIN)/pytest $(XDIST) --durations=10 -m every_page tests

# Mutation tests: plant known bugs in copies of posenc and require the tests
# to catch each one (slow; every core).
mutants: $(INSTALLED)
	$(BIN)/pytest -n $(or $(JOBS),auto) -m mutants tests

# Run one chapter top to bottom from a clean kernel, fast:
#   make chapter NAME=rope
chapter: $(INSTALLED)
	$(BIN)/python scripts/chapter_notebooks.py $(NOTEBOOKS)
	$(BIN)/pytest --nbval-lax $(NOTEBOOKS)/$(NAME).ipynb

# Only the tests of the built site, in a browser and its HTML read
# (POSENC_SITE, else _build/html).
site-test: $(INSTALLED)
	$(BIN)/pytest tests/test_site.py tests/test_site_html.py

# The checks of the site's notebooks.zip (POSENC_SITE, else _build/html),
# and every notebook of it run in a fresh venv made from the zip, as a
# student runs them (its notebooks one per core; about a minute).
bundle-test: $(INSTALLED)
	$(BIN)/pytest tests/test_bundle.py

# The whole book as one PDF: a one-page HTML build, printed by Chromium once
# MathJax has typeset it.
pdf: $(INSTALLED) $(MATHS_INSTALLED)
	$(BIN)/jupyter-book build . --builder singlehtml --path-output $(PDF_ROOT) -n --keep-going
	$(BIN)/python scripts/print_pdf.py $(PDF_ROOT)/_build/singlehtml $(PDF_ROOT)/_build/book.pdf

# The decks of the chapters that mark slides (_ext/slides.py), standalone in
# _build/slides/ (open index.html there); the site has them too, under
# slides/. Built with the site; the copy needs nothing else.
.PHONY: slides handouts vendor-reveal
slides: book
	$(BIN)/python scripts/teaching.py slides _build/html _build/slides

# A two-page PDF summary of each chapter that marks slides, printed by
# Chromium from the site's handouts/ pages into _build/handouts/; fails if one
# runs past two pages.
handouts: book
	$(BIN)/python scripts/teaching.py handouts _build/html _build/handouts

# reveal.js for the decks, from the npm registry (committed in _ext/vendor).
REVEAL_VERSION := 5.2.1
vendor-reveal:
	rm -rf /tmp/posenc-reveal && mkdir -p /tmp/posenc-reveal
	cd /tmp/posenc-reveal && npm pack --silent reveal.js@$(REVEAL_VERSION) && tar xzf reveal.js-$(REVEAL_VERSION).tgz
	rm -rf _ext/vendor/revealjs/dist _ext/vendor/revealjs/plugin
	mkdir -p _ext/vendor/revealjs/dist/theme/fonts/source-sans-pro _ext/vendor/revealjs/plugin/notes
	cd /tmp/posenc-reveal/package && cp dist/reveal.js dist/reveal.css dist/reset.css $(CURDIR)/_ext/vendor/revealjs/dist/ \
	  && cp dist/theme/white.css $(CURDIR)/_ext/vendor/revealjs/dist/theme/ \
	  && cp dist/theme/fonts/source-sans-pro/*.woff dist/theme/fonts/source-sans-pro/*.css dist/theme/fonts/source-sans-pro/LICENSE $(CURDIR)/_ext/vendor/revealjs/dist/theme/fonts/source-sans-pro/ \
	  && cp plugin/notes/notes.js $(CURDIR)/_ext/vendor/revealjs/plugin/notes/ && cp LICENSE $(CURDIR)/_ext/vendor/revealjs/

# JupyterLab opens the chapters (book/*.md) as notebooks (jupytext); saving
# writes the .md back, with no outputs and no cell ids. As root (a container)
# JupyterLab refuses to start without --allow-root, which it then gets.
LAB_SETTINGS := $(VENV)/share/jupyter/lab/settings
lab: $(INSTALLED)
	mkdir -p $(LAB_SETTINGS)
	cp scripts/jupyterlab-overrides.json $(LAB_SETTINGS)/overrides.json
	$(BIN)/jupyter lab book/ $$([ "$$(id -u)" = 0 ] && echo --allow-root)

# Measurements, not tests: build times, slider latency, page weight, MathJax.
# BENCH_FLAGS=--skip-tests leaves out the (slow) timing of the test suite.
bench: $(INSTALLED)
	$(BIN)/python benchmarks/run.py $(BENCH_FLAGS)

# The small trained Transformers (posenc/models/*.npz, read with numpy by
# posenc.trained): training/train.py in its own environment, .venv-train,
# with PyTorch on the CPU (training/requirements.txt; pip, not uv: pip takes
# the CPU build of torch 2.13.0 that this machine keeps on disk). The book
# never trains and never needs torch. The venv ignores itself in git (its
# own .gitignore, as Python 3.13's venv writes). About 10 minutes on 2 cores.
TRAIN_VENV := .venv-train
TRAIN_INSTALLED := $(TRAIN_VENV)/.installed
.PHONY: models retrain-test
$(TRAIN_INSTALLED): training/requirements.txt
	$(PYTHON) -m venv $(TRAIN_VENV)
	echo '*' > $(TRAIN_VENV)/.gitignore
	$(TRAIN_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r training/requirements.txt
	touch $@

models: $(TRAIN_INSTALLED)
	$(TRAIN_VENV)/bin/python training/train.py --out posenc/models
	@echo "The models are in $(CURDIR)/posenc/models (manifest.json lists them)."

# The slow test: retrain one variant to an early step and compare its
# statistics with those the shipped model recorded at that step (about a
# minute). CI runs it after make test.
retrain-test: $(INSTALLED) $(TRAIN_INSTALLED)
	POSENC_RETRAIN=1 $(BIN)/pytest tests/test_trained.py -k retraining

# Re-pin every package from requirements.in in a throw-away environment.
lock:
	rm -rf /tmp/posenc-lock && $(PYTHON) -m venv /tmp/posenc-lock
	/tmp/posenc-lock/bin/pip install --quiet --upgrade "pip>=24"
	/tmp/posenc-lock/bin/pip install --quiet -r requirements.in
	{ echo "# Generated by 'make lock' from requirements.in; every version pinned."; \
	  echo "# Python 3.11. Install with: pip install -r requirements.txt"; \
	  /tmp/posenc-lock/bin/pip freeze --exclude-editable; echo; \
	  echo "# The book's companion module, from this repository (editable)."; \
	  echo "-e ."; } > requirements.txt

clean:
	rm -rf _build
