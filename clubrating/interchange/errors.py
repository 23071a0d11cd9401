"""The refusal the interchange services raise for input they refuse."""

from django.utils.translation import gettext as _

from clubrating.core.errors import Refused


class ImportRefused(Refused):
    """Bad input file or data: the message is translated and says where; nothing was saved."""


def ambiguous_member(where: str, name: str, count: int) -> ImportRefused:
    """A player whose name (and birth) several members share: never guessed."""
    return ImportRefused(
        _("%(where)s: %(name)s matches %(count)d members; give them FIDE IDs or national "
          "IDs so that they can be told apart.")
        % {"where": where, "name": name, "count": count}
    )
