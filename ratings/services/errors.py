from clubrating.core.errors import Refused


class RatingsError(Refused, ValueError):
    """A refused rating operation; the message is translated and safe to show to users.

    A ``Refused`` like every service's refusal (a ``ValueError`` as well, as it always was)."""
