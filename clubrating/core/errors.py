"""The one family of refusals every service raises.

A service that refuses an operation (bad input, a closed period, a file it cannot read) raises a
subclass of ``Refused``. Its message is translated and safe to show; nothing was changed. Views
and commands catch ``Refused`` (or a subclass) and show the message; any other exception is a bug
and is left to surface as one.
"""

from __future__ import annotations


class Refused(Exception):
    """An operation the service would not carry out; ``message`` is translated for the user.

    ``line`` and ``field`` locate the problem in an uploaded file, where there is one.
    """

    def __init__(self, message: str, *, code: str = "", line: int | None = None, field: str = ""):
        super().__init__(message)
        self.message = message
        self.code = code
        self.line = line
        self.field = field

    def __str__(self) -> str:
        return str(self.message)
