from clubrating.core.errors import Refused


class RatingsError(Refused):
    """A refused rating operation; the message is translated and safe to show to users."""
