"""Writes for judging: the one place for its rules.

Import from here: `from judging.services import finish_register, objection_resolve`.
"""

from judging.services.counts import *  # noqa: F403
from judging.services.finishes import *  # noqa: F403
from judging.services.objections import *  # noqa: F403
from judging.services.requests import *  # noqa: F403
from judging.services.tablets import *  # noqa: F403
