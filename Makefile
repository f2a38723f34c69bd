# The README's promise: `make run` serves the demo, `make test` passes the tests.
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
ARGS ?=
# Two cores here: the suite runs in two processes (pytest-xdist); WORKERS=0 runs it in one.
WORKERS ?= auto

.PHONY: venv run test lint fmt migrations-check messages bench ci mutation

$(BIN)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $@

venv: $(BIN)/.installed

run: venv
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo
	@echo "Serving http://127.0.0.1:$(PORT)/"
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# SQLite by default; PostgreSQL when DATABASE_URL points at one.
test: venv
	$(BIN)/pytest -n $(WORKERS) $(ARGS)

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

fmt: venv
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

migrations-check: venv
	$(BIN)/python manage.py makemigrations --check --dry-run

# Extract new strings into the Danish catalogue, fill in the Danish texts from
# locale/da/*.tsv (English<TAB>Danish) and compile the .mo (needs gettext).
messages: venv
	flock locale/.lock sh -c "$(BIN)/python manage.py makemessages -l da --ignore '.venv/*' --ignore 'var/*' --ignore 'tests/*' --no-obsolete && $(BIN)/python tools/po_fill.py locale/da/*.tsv"

bench: venv
	$(BIN)/python bench/run.py

# Mutation testing of scoring/rules.py and judging/services/finishes.py (mutmut; settings in
# pyproject.toml [tool.mutmut]). Slow (see README), so not part of `make test` or `make ci`.
# Prints the score; fails when a mutant survives that MUTATION.md does not explain.
MUTATION_CHILDREN ?= 2
mutation: venv
	rm -rf mutants
	MUTATION_TESTING=1 $(BIN)/mutmut run --max-children $(MUTATION_CHILDREN)
	$(BIN)/mutmut export-cicd-stats
	$(BIN)/python tools/mutation_score.py

ci:
	bash .ci/run
