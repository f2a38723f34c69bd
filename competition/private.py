"""The hall's files are its owner's alone (docs/contracts.md "Personal data and the hall's files"):
0600 files in 0700 folders, whatever the umask. settings.py sets the process's umask to
077, so a file any library creates (SQLite's database, -wal and -shm, gunicorn's access log)
is born private; these helpers say so where the app creates a file itself, and `tighten`
fixes the files an older version (or another umask) left readable."""

import os
import stat
from pathlib import Path

FILE_MODE = 0o600
DIR_MODE = 0o700


def private_dir(path: Path) -> Path:
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True, mode=DIR_MODE)
    os.chmod(path, DIR_MODE)
    return path


def private_file(path: Path) -> Path:
    """Make `path` (created by someone else, e.g. sqlite3) the owner's alone."""
    os.chmod(path, FILE_MODE)
    return path


def private_open(path: Path, mode: str = "a"):
    """open() of a file that is created 0600 (never readable by others, not even briefly)."""
    flags = {"a": os.O_WRONLY | os.O_CREAT | os.O_APPEND, "w": os.O_WRONLY | os.O_CREAT}[mode]
    return os.fdopen(os.open(path, flags, FILE_MODE), mode)


def tighten(root: Path) -> list[Path]:
    """Every folder under `root` 0700 and every file 0600; the paths that were open to
    group or others (symbolic links are left alone)."""
    root = Path(root)
    changed = []
    if not root.exists():
        return changed
    for path in [root, *root.rglob("*")]:
        if path.is_symlink():
            continue
        info = path.stat()
        want = DIR_MODE if stat.S_ISDIR(info.st_mode) else FILE_MODE
        if stat.S_IMODE(info.st_mode) & 0o077 or (stat.S_IMODE(info.st_mode) != want):
            os.chmod(path, want)
            if stat.S_IMODE(info.st_mode) & 0o077:
                changed.append(path)
    return changed
