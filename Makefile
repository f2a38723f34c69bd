# The README's promise: `make run` serves the demo, `make test` passes the tests.
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
ARGS ?=
# Two cores here: the suite runs in two processes (pytest-xdist); WORKERS=0 runs it in one.
# worksteal: a worker that runs out takes half of the other's queue (with plain `load` the
# browser tests dealt last ran on one worker while the other idled for minutes).
WORKERS ?= auto
DIST := --dist worksteal

.PHONY: venv run shell hall backup restore test durations e2e-repeat lint fmt migrations-check messages bench ci mutation

# DEBUG is off unless set (config/settings.py); the demo and the developer's commands set it.
run shell migrations-check messages: export DEBUG = 1

$(BIN)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $@

venv: $(BIN)/.installed

# `make hall` needs only what the app runs on (no test tools): a quicker first start.
$(BIN)/.installed-app: pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	if [ $(BIN)/.installed -nt pyproject.toml ]; then :; else \
		$(BIN)/pip install --quiet --disable-pip-version-check -e .; fi
	touch $@

run: venv
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo
	@echo "Serving http://127.0.0.1:$(PORT)/"
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# Django's shell with the project's Python and the development settings (DEBUG=1).
shell: venv
	$(BIN)/python manage.py shell

# The day on one laptop, as in production, for the hall's network (config/hall.py):
# gunicorn on 0.0.0.0:$(PORT), DEBUG off, SQLite in var/ (or DATABASE_URL), a backup every
# 5 minutes into var/backups/; prints the addresses and QR codes for tablets and phones.
hall: $(BIN)/.installed-app
	$(BIN)/python -m config.hall

# A snapshot now; `make restore FILE=var/backups/<file>` brings one back (stop `make hall` first).
backup: $(BIN)/.installed-app
	$(BIN)/python -m config.hall manage backup

restore: $(BIN)/.installed-app
	@test -n "$(FILE)" || (echo "usage: make restore FILE=var/backups/<snapshot>"; exit 2)
	$(BIN)/python -m config.hall manage restore "$(FILE)"

# SQLite by default; PostgreSQL when DATABASE_URL points at one.
test: venv
	$(BIN)/pytest -n $(WORKERS) $(DIST) $(ARGS)

# tests/durations.json from a run: the slow tests start first (tests/slow_first.py).
durations: venv
	mkdir -p var
	$(BIN)/pytest -n $(WORKERS) $(DIST) -q --junitxml=var/junit.xml $(ARGS)
	$(BIN)/python tools/durations.py var/junit.xml

# The browser tests RUNS times beside LOAD CPU-bound busy loops; every failure reported
# (tools/e2e_repeat.sh). `make e2e-repeat RUNS=10 LOAD=2`, DATABASE_URL for PostgreSQL.
e2e-repeat: venv
	bash tools/e2e_repeat.sh

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports  # the floors (pyproject.toml [tool.importlinter])

fmt: venv
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

migrations-check: venv
	$(BIN)/python manage.py makemigrations --check --dry-run

# The Danish texts live only in locale/da/LC_MESSAGES/django.po, the tablet's in djangojs.po
# (its msgids in static/js/judge/texts.mjs): edit them (by hand, Poedit or Weblate), then
# `make messages` extracts new strings into them and compiles the committed .mo files
# (needs gettext). tests/project/test_translations.py fails on an empty or fuzzy entry and on
# a .mo that does not match the .po.
messages: venv
	flock locale/.lock sh -c "$(BIN)/python manage.py makemessages -l da --ignore '.venv/*' --ignore 'var/*' --ignore 'tests/*' --no-obsolete && $(BIN)/python manage.py makemessages -d djangojs -e mjs -l da --ignore '.venv/*' --ignore 'var/*' --ignore 'tests/*' --no-obsolete && $(BIN)/python manage.py compilemessages -l da --ignore .venv --ignore var --ignore mutants --ignore tests"

bench: venv
	$(BIN)/python bench/run.py

# Mutation testing of the rules (puzzle_rules/) and judging/services/finishes.py (mutmut; see
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
