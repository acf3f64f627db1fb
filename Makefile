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

.PHONY: run test test-thorough lint bench docs clean

$(VENV)/.created:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	touch $@

$(RUN_STAMP): pyproject.toml | $(VENV)/.created
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(TEST_STAMP): pyproject.toml | $(VENV)/.created
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

$(DEV_STAMP): pyproject.toml | $(VENV)/.created
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
# more examples per property (minutes, not seconds).
test: $(TEST_STAMP)
	$(BIN)/python -m pytest -q

test-thorough: $(TEST_STAMP)
	$(BIN)/python -m pytest -q --hypothesis-profile thorough

lint: $(DEV_STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy --strict src
	$(BIN)/lint-imports

# Byte-compile first: with PYTHONDONTWRITEBYTECODE set, every run would recompile mazekit
# and the start-up figures would measure the compiler, not mazekit.
bench: $(RUN_STAMP)
	$(BIN)/python -m compileall -q src
	$(BIN)/python bench/run.py

# The README's pictures, drawn by mazekit itself from a sample.
DOCS_MAZE := samples/valid-20x15-perfect.txt
docs: $(RUN_STAMP)
	mkdir -p docs
	$(BIN)/mazekit render $(DOCS_MAZE) -o docs/maze.png
	$(BIN)/mazekit render $(DOCS_MAZE) -o docs/maze.svg
	$(BIN)/mazekit render $(DOCS_MAZE) -o docs/maze-dark-dead-ends.png --theme dark --dead-ends
	$(BIN)/mazekit pacmanize $(DOCS_MAZE) | $(BIN)/mazekit render --theme pacman --cell 24 --wall 4 -o docs/board-pacman.png

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
