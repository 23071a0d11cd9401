class RatingsError(ValueError):
    """A refused rating operation; the message is translated and safe to show to users."""
