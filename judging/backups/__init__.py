"""Backups while the day runs: consistent snapshots of the whole database.

SQLite: the online backup API, a consistent copy while the workers write. PostgreSQL:
`pg_dump --format=custom` (one transaction's snapshot). A snapshot is taken
- every BACKUP_MINUTES while a competition is on, and when its clock ends by itself: the
  check runs after a response has been sent (no scheduler to start), at most once every
  BACKUP_CHECK_SECONDS per process, and a file lock lets one of the workers take it;
- after every clock stop and finalise has been committed;
- by `manage.py backup`, and before `manage.py restore` replaces the database.
The newest BACKUP_KEEP periodic snapshots are kept; the others stay. Every attempt is a
`Backup` row, so the control room shows the last one, and a failure in red.

django-dbbackup was weighed: its SQLite restore writes the file over the live database
(unsafe while gunicorn workers hold it open in WAL mode), and the schedule, the lock and the
log here would still be needed.

One module for each part: `snapshots.py` (taking one, the folder, the lock, `status`),
`schedule.py` (when one is taken by itself), `restoring.py` (checking a file and bringing it
back), `scrub.py` (an erase of personal data reaches the files). Every name is imported from
here (`from judging import backups`); a test that replaces what a part calls patches that
part's module.
"""

from judging.backups.restoring import APP_TABLES, SQLITE_HEADER, check_snapshot, restore
from judging.backups.schedule import DAY_WINDOW, after_commit, after_request, due
from judging.backups.scrub import LEDGER, after_erase, erase_from_files, erased_ledger
from judging.backups.snapshots import PERIODIC, BackupError, backup_dir, enabled, snapshot, status

__all__ = [
    "APP_TABLES",
    "DAY_WINDOW",
    "LEDGER",
    "PERIODIC",
    "SQLITE_HEADER",
    "BackupError",
    "after_commit",
    "after_erase",
    "after_request",
    "backup_dir",
    "check_snapshot",
    "due",
    "enabled",
    "erase_from_files",
    "erased_ledger",
    "restore",
    "snapshot",
    "status",
]
