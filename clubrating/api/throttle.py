"""The API's rate limit: requests per client address, counted in the site's shared cache."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from ninja.throttling import SimpleRateThrottle

from clubrating.accounts.client_ip import client_ip


class ClientAddressThrottle(SimpleRateThrottle):
    """``settings.API_RATE_LIMIT`` requests per address and period. The address is the one the
    login lockout counts (``client_ip``: a header only where the site names a trusted proxy), so
    a client cannot dodge the limit by sending its own X-Forwarded-For."""

    scope = "api"
    cache_format = "api-throttle:%(ident)s"

    def __init__(self) -> None:
        super().__init__(rate=settings.API_RATE_LIMIT)

    def allow_request(self, request: HttpRequest) -> bool:
        # Read per request: the limit is a setting a test (or an operator's restart) may change.
        self.rate = settings.API_RATE_LIMIT
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request)

    def get_ident(self, request: HttpRequest) -> str | None:
        return client_ip(request)

    def get_cache_key(self, request: HttpRequest) -> str | None:
        return self.cache_format % {"ident": self.get_ident(request)}

    def wait(self) -> float | None:
        """Seconds until the oldest request of the window drops out of it: then one more is allowed."""
        if not self.history:
            return float(self.duration)
        return max(self.duration - (self.now - self.history[-1]), 1.0)
