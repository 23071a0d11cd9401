from clubrating.core.errors import Refused


class TournamentRefused(Refused):
    """A tournament operation that does not fit the tournament's state; nothing was changed."""
