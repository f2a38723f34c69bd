# The README's promise: `make run` serves the demo, `make test` passes the tests.
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
ARGS ?=
# Two cores here: the suite runs in two processes (pytest-xdist); WORKERS=0 runs it in one.
WORKERS ?= auto

.PHONY: venv run test lint fmt migrations-check messages bench ci

# DEBUG is off unless set (config/settings.py); the demo and the developer's commands set it.
run migrations-check messages: export DEBUG = 1

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

ci:
	bash .ci/run
