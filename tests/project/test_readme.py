"""The README's commands work as written: the project's Python (`.venv/bin/python`, `make
shell`), never the system's bare `python`; what `create_staff` needs; and the setting a
plain-http mirror needs, by the name config/settings.py reads."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_command_runs_with_the_projects_python():
    bare = re.findall(r"(?<![\w/.-])python3? (?:manage\.py|-m )[^`\n]*", README)
    assert not bare, f"a bare `python` is the system's, without Django: {bare}"
    assert ".venv/bin/python manage.py create_staff" in README


def test_make_shell_is_the_projects_python_with_debug_on():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^shell: .*\n\t(.+)$", makefile, re.M)
    assert recipe and recipe.group(1) == "$(BIN)/python manage.py shell"
    exported = re.search(r"^(.*): export DEBUG = 1$", makefile, re.M)
    assert exported and "shell" in exported.group(1).split()
    assert "`make shell`" in README


def test_create_staff_says_it_needs_the_production_settings_or_debug():
    staff = README[README.index("Staff logins:") :][:600]
    assert "`DEBUG=1`" in staff and "`SECRET_KEY`" in staff and "`ALLOWED_HOSTS`" in staff


def test_the_mirror_over_plain_http_is_told_the_settings_real_name():
    settings = (ROOT / "config" / "settings.py").read_text(encoding="utf-8")
    assert 'SECURE = env_bool("SECURE_PROXY", not DEBUG)' in settings
    mirror = README[README.index("**A public mirror**") :].split("\n6. ")[0]
    assert "plain http" in mirror and "`SECURE_PROXY=0`" in mirror
