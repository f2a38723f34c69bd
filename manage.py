#!/usr/bin/env python
import os
import sys
from pathlib import Path


def _hall_laptop() -> bool:
    """DEBUG off, no SECRET_KEY, and `make hall`'s secret key on disk: a hall laptop, where
    `python manage.py …` means the hall's settings (as `python -m config.hall manage …`)."""
    debug = os.environ.get("DEBUG", "").strip().lower() in {"1", "true", "yes", "on"}
    var = Path(os.environ.get("VAR_DIR") or Path(__file__).resolve().parent / "var")
    return not debug and not os.environ.get("SECRET_KEY") and (var / "secret_key").is_file()


def main() -> None:
    if _hall_laptop():
        from config import hall

        hall.main(["manage", *sys.argv[1:]])
        return
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
