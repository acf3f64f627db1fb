# Two commands matter: `make run` and `make test`. Both work on a fresh clone
# with nothing but python3: they create .venv and install what they need.
# `make run` installs mazekit with its runtime dependencies only (click, numpy, pillow);
# `make test` adds the test tools, `make lint` the linters (pyproject.toml's extras).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test
DEV_STAMP := $(VENV)/.installed-dev
# The C kernels compile at install (setup.py); a changed source re-installs, which rebuilds them.
KERNEL_SOURCES := setup.py $(wildcard src/c/*.c src/c/*.h)

.PHONY: run test test-thorough lint sanitize bench docs clean

$(VENV)/.created:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	touch $@

$(RUN_STAMP): pyproject.toml $(KERNEL_SOURCES) | $(VENV)/.created
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(TEST_STAMP): pyproject.toml $(KERNEL_SOURCES) | $(VENV)/.created
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

$(DEV_STAMP): pyproject.toml $(KERNEL_SOURCES) | $(VENV)/.created
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

# The main job, on the subject's config: generate, check, solve, draw.
run: $(RUN_STAMP)
	$(BIN)/mazekit generate samples/config.txt -v
	$(BIN)/mazekit validate --config samples/config.txt maze.txt
	$(BIN)/mazekit solve maze.txt | $(BIN)/mazekit validate --config samples/config.txt
	$(BIN)/mazekit render maze.txt -o maze.png
	$(BIN)/mazekit pacmanize maze.txt | $(BIN)/mazekit render --theme pacman -o board.png
	@echo "maze.png and board.png written; the maze as text:"
	$(BIN)/mazekit render maze.txt --charset unicode

# Hypothesis runs its "quick" profile here (tests/conftest.py); test-thorough tries ~25 times
# more examples per property (minutes, not seconds). pytest-xdist runs the tests in one worker
# per core (-n auto; specs/README.md, "Tests"); .ci/run runs `make test` too. The run writes
# Python's bytecode caches (git ignores them) even where the environment says not to: pytest's
# assertion rewriting and hundreds of mazekit processes would otherwise compile the same
# sources again each time.
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n auto
test: $(TEST_STAMP)
	$(PYTEST)

test-thorough: $(TEST_STAMP)
	$(PYTEST) --hypothesis-profile thorough

lint: $(DEV_STAMP) node_modules/.installed
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy --strict src
	$(BIN)/lint-imports
	$(CC) -fsyntax-only -std=c11 -Wall -Wextra -Wno-missing-field-initializers -Wno-unused-parameter -Werror \
		-I"$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_path("include"))')" src/c/*.c
	npx --no-install eslint .

# The kernels' tests again on kernels built with AddressSanitizer and UBSan: the C indexes
# its arrays unchecked, so a read or write out of bounds, or undefined behaviour, stops the
# run with a report (specs/performance.md, "Tests"); --capture=sys leaves that report on the
# terminal. A copy of the package in build/ holds them, so .venv's own kernels stay as they
# are. Needs gcc or clang with the sanitizers.
SANITIZE := build/sanitize
SANITIZE_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -O1 -g
sanitize: $(TEST_STAMP)
	rm -rf $(SANITIZE) && mkdir -p $(SANITIZE)
	cp -r src/mazekit $(SANITIZE)/ && rm -f $(SANITIZE)/mazekit/*.so
	include="$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_path("include"))')"; \
	suffix="$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')"; \
	for kernel in $(patsubst src/c/%.c,%,$(wildcard src/c/*.c)); do \
		$(CC) -shared -fPIC -std=c11 $(SANITIZE_FLAGS) -I"$$include" src/c/$$kernel.c \
			-o $(SANITIZE)/mazekit/_c$$kernel$$suffix || exit 1; \
	done
	PYTHONPATH=$(SANITIZE) $(BIN)/python -c 'import mazekit, sys; sys.exit(not mazekit.__file__.startswith("$(CURDIR)/$(SANITIZE)/"))'
	PYTHONPATH=$(SANITIZE) ASAN_OPTIONS=detect_leaks=0 \
		LD_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libubsan.so)" \
		$(BIN)/python -m pytest -q -p no:cacheprovider --capture=sys $(wildcard tests/test_*kernels*.py) \
		tests/test_graph.py tests/test_stats_graph.py tests/test_edit.py tests/test_cops.py

# The page's JavaScript is linted by eslint, a dev-only tool from npm (package-lock.json);
# make test never needs npm (specs/html.md, "Lint").
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Byte-compile first: with PYTHONDONTWRITEBYTECODE set, every run would recompile mazekit
# and the start-up figures would measure the compiler, not mazekit. `make bench BENCH=scale`
# runs only some sections (bench/run.py).
bench: $(RUN_STAMP)
	$(BIN)/python -m compileall -q src
	$(BIN)/python bench/run.py $(BENCH)

# The README's pictures, drawn by mazekit itself from a sample.
DOCS_MAZE := samples/valid-20x15-perfect.txt
# The page's board enters on the west side: a chaser starting on the entry would catch at once.
PAGE_MAZE := --imperfect --width 30 --height 20 --entry 0,9 --exit 29,10 --seed 14
# the page's screenshot needs Playwright, a test tool
docs: $(DEV_STAMP)
	mkdir -p docs
	$(BIN)/mazekit render $(DOCS_MAZE) -o docs/maze.png
	$(BIN)/mazekit render $(DOCS_MAZE) -o docs/maze.svg
	$(BIN)/mazekit render $(DOCS_MAZE) -o docs/maze-dark-dead-ends.png --theme dark --dead-ends
	$(BIN)/mazekit pacmanize $(DOCS_MAZE) | $(BIN)/mazekit render --theme pacman --cell 24 --wall 4 -o docs/board-pacman.png
	$(BIN)/mazekit render $(DOCS_MAZE) --heat betweenness -o docs/heat-betweenness.png
	$(BIN)/mazekit chase samples/valid-20x15-perfect.txt --runner patrol --cell 12 -o docs/chase.gif
	$(BIN)/mazekit generate $(PAGE_MAZE) -o - | $(BIN)/mazekit render --format html -o docs/board.html
	$(BIN)/python tests/browser.py docs/board.html docs/board-page.png

clean:
	rm -rf $(VENV) node_modules build dist src/*.egg-info src/mazekit/*.so .pytest_cache .mypy_cache .ruff_cache .hypothesis
