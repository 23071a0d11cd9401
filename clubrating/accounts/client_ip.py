"""The visitor's address as the login lockout counts it."""

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str | None:
    """REMOTE_ADDR, or the last address in the header a trusted proxy sets (CLIENT_IP_HEADER).

    The last entry is the one the proxy itself appended; earlier entries come from the client and
    could be forged to dodge the lockout or to lock out somebody else.
    """
    header = settings.CLIENT_IP_HEADER
    if header:
        forwarded = [part.strip() for part in request.META.get(header, "").split(",") if part.strip()]
        if forwarded:
            return forwarded[-1]
    return request.META.get("REMOTE_ADDR")
