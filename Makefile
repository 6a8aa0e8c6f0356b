# Every target creates or reuses .venv and installs what it needs, so each works on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test check bench eval format clean

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
	$(BIN)/lint-imports
	$(BIN)/python -m pip check

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

eval: $(STAMP)
	$(BIN)/python eval/run.py --verbose

format: $(STAMP)
	$(BIN)/ruff check --fix src tests bench scripts eval
	$(BIN)/ruff format src tests bench scripts eval

clean:
	rm -rf $(VENV) demo-kb .pytest_cache
