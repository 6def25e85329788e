# kafka-offsets developer entry points. Everything installs into .venv from PyPI and
# Maven Central; nothing is expected on the machine but python3 (3.10+), Java 17+ and Maven.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: demo test lint unit bench docs down clean

$(STAMP): pyproject.toml
	bash dev/system-deps.sh
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[spark,connect,dev]'
	touch $(STAMP)

## demo: start a local Kafka (KRaft, tiered storage) with sample data and run `kafka-offsets` on it
demo: $(STAMP)
	$(BIN)/python -m dev.demo

## test: lint, type-check and run the whole test suite against a real broker, in $(LANES) pytest-xdist lanes (tests/lanes.py)
LANES ?= 2
test: $(STAMP) lint
	$(BIN)/python -m pytest -n $(LANES) --dist loadscope --no-loadscope-reorder

lint: $(STAMP)
	$(BIN)/ruff check kafka_offsets_cli tests dev bench
	$(BIN)/ruff format --check kafka_offsets_cli tests dev bench
	$(BIN)/mypy
	$(BIN)/python -m dev.layout

## unit: tests/unit, the tests that need no Java, broker, Spark or spark/connect extras
unit: $(STAMP)
	$(BIN)/python -m pytest -n $(LANES) tests/unit

## bench: the benchmarks against Kafka's own tools (3-node local cluster)
bench: $(STAMP)
	$(BIN)/python -m bench

## docs: regenerate completions and the man page from the Typer app
docs: $(STAMP)
	$(BIN)/python -m dev.gendocs

down: $(STAMP)
	$(BIN)/python -m dev.kafka down

clean:
	rm -rf $(VENV) dev/target dev/.state build dist *.egg-info
