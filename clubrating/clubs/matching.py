"""Finding the member a player of an imported file is: one matcher for every importer.

Order of evidence, strongest first:

1. the national ID (ÖSB number), unique among members;
2. the FIDE ID, unique among members;
3. the name (last and first, case and spacing ignored) together with the birth date: the same
   day when both know it, otherwise the same year. A member known under another national or
   FIDE ID than the file gives is another person of the same name. Files without any birth
   data (PGN) may match by the name alone when the importer allows it.

A name shared by several members is never guessed: the match says how many there are and the
importer decides (report the row, or refuse the file). Members are loaded in one query for all
players of a file.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from django.db.models import Q
from django.db.models.functions import Lower

from clubrating.clubs.models import Member
from clubrating.interchange.formats.names import split_name  # the files' "Last, First"

__all__ = ["FIDE_ID", "NAME", "NATIONAL_ID", "Identity", "Match", "MemberMatcher", "name_key", "split_name"]

NATIONAL_ID = "national_id"
FIDE_ID = "fide_id"
NAME = "name"


def name_key(last: str, first: str) -> str:
    return re.sub(r"\s+", " ", f"{last}, {first}" if first.strip() else last).strip().casefold()


@dataclass(frozen=True)
class Identity:
    """What a file says about one player."""

    last_name: str
    first_name: str = ""
    national_id: str = ""
    fide_id: int | None = None
    birth_date: date | None = None
    birth_year: int | None = None

    @classmethod
    def named(cls, name: str, **known) -> Identity:
        """An identity from a "Last, First" name."""
        last, first = split_name(name)
        return cls(last_name=last, first_name=first, **known)

    @property
    def year(self) -> int | None:
        return self.birth_date.year if self.birth_date else self.birth_year


@dataclass(frozen=True)
class Match:
    member: Member | None
    evidence: str = ""  # NATIONAL_ID, FIDE_ID or NAME: what found the member
    ambiguous: int = 0  # members that share the name (and birth), when more than one


class MemberMatcher:
    """The members that could be any of ``identities``, loaded in one query."""

    def __init__(self, identities: Iterable[Identity], *, name_alone: bool = False):
        identities = list(identities)
        self.name_alone = name_alone
        national_ids = {i.national_id for i in identities if i.national_id}
        fide_ids = {i.fide_id for i in identities if i.fide_id}
        last_names = {i.last_name for i in identities if i.last_name}
        # Exact spellings as well as lower case: SQLite lowers ASCII letters only.
        members = Member.objects.annotate(lower_last=Lower("last_name")).filter(
            Q(national_id__in=national_ids) | Q(fide_id__in=fide_ids) | Q(last_name__in=last_names)
            | Q(lower_last__in={name.lower() for name in last_names})
        )
        self.by_national: dict[str, Member] = {}
        self.by_fide: dict[int, Member] = {}
        self.by_name: dict[str, list[Member]] = defaultdict(list)
        for member in members:
            self.remember(member)

    def remember(self, member: Member) -> None:
        """Make a member saved during the import findable by the later players of the file."""
        if member.national_id:
            self.by_national[member.national_id] = member
        if member.fide_id:
            self.by_fide[member.fide_id] = member
        key = name_key(member.last_name, member.first_name)
        if all(m.pk != member.pk for m in self.by_name[key]):
            self.by_name[key].append(member)

    def match(self, identity: Identity) -> Match:
        if identity.national_id and identity.national_id in self.by_national:
            return Match(self.by_national[identity.national_id], NATIONAL_ID)
        if identity.fide_id and identity.fide_id in self.by_fide:
            return Match(self.by_fide[identity.fide_id], FIDE_ID)
        if identity.year is None and not self.name_alone:
            return Match(None)
        found = [
            m for m in self.by_name.get(name_key(identity.last_name, identity.first_name), [])
            if not _other_ids(identity, m) and _same_birth(identity, m)
        ]
        if len(found) > 1:
            return Match(None, NAME, ambiguous=len(found))
        return Match(found[0], NAME) if found else Match(None)


def _other_ids(identity: Identity, member: Member) -> bool:
    """The member is known under another ID than the file gives: another person."""
    return bool(
        (identity.fide_id and member.fide_id and member.fide_id != identity.fide_id)
        or (identity.national_id and member.national_id and member.national_id != identity.national_id)
    )


def _same_birth(identity: Identity, member: Member) -> bool:
    if identity.year is None:
        return True  # only asked when the importer allows the name alone
    if identity.birth_date and member.birth_date:
        return identity.birth_date == member.birth_date
    return identity.year == member.year_of_birth
