from clubrating.core.errors import Refused


class LeagueRefused(Refused):
    """A league operation that does not fit the season's state, its rules or the user's role;
    nothing was changed."""
