"""Matching the players of an imported file to existing members (one query for all players)."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext as _

from clubrating.clubs.models import Member, Title

from .errors import ImportRefused

# Old TRF files and some programs use one-letter titles (g = GM, m = IM, f = FM ...).
_TITLE_CODES = {
    "g": Title.GM, "m": Title.IM, "f": Title.FM, "c": Title.CM,
    "wg": Title.WGM, "wm": Title.WIM, "wf": Title.WFM, "wc": Title.WCM,
}


def split_name(name: str) -> tuple[str, str]:
    """(last name, first name) from "Last, First"; a name without a comma is all last name."""
    if "," in name:
        last, first = name.split(",", 1)
        return " ".join(last.split()), " ".join(first.split())
    return " ".join(name.split()), ""


def name_key(last: str, first: str) -> str:
    return re.sub(r"\s+", " ", f"{last}, {first}" if first else last).strip().casefold()


def title_code(text: str) -> str:
    """A Member title from TRF/PGN spellings; unknown titles (e.g. AGM) give ""."""
    text = (text or "").strip()
    if text.upper() in Title.values:
        return text.upper()
    return _TITLE_CODES.get(text.lower(), "")


@dataclass
class Candidate:
    """One player of a file, with what we know to find the member."""

    label: str  # how error messages name the player, e.g. "line 12"
    name: str
    fide_id: int | None = None
    national_id: str = ""
    birth_year: int | None = None


class MemberIndex:
    """Members that could match any of the candidates, loaded in one query.

    Order of evidence: FIDE ID, then national ID, then exact name (case-insensitive) and,
    when ``require_birth_year``, the same birth year. A name shared by several members is
    refused rather than guessed.
    """

    def __init__(self, candidates: list[Candidate], *, require_birth_year: bool):
        self.require_birth_year = require_birth_year
        fide_ids = {c.fide_id for c in candidates if c.fide_id}
        national_ids = {c.national_id for c in candidates if c.national_id}
        last_names = {split_name(c.name)[0].casefold() for c in candidates}
        members = Member.objects.annotate(lower_last=Lower("last_name")).filter(
            Q(fide_id__in=fide_ids) | Q(national_id__in=national_ids) | Q(lower_last__in=last_names)
        )
        self.by_fide: dict[int, Member] = {}
        self.by_national: dict[str, Member] = {}
        self.by_name: dict[str, list[Member]] = defaultdict(list)
        for member in members:
            if member.fide_id:
                self.by_fide[member.fide_id] = member
            if member.national_id:
                self.by_national[member.national_id] = member
            self.by_name[name_key(member.last_name, member.first_name)].append(member)

    def match(self, candidate: Candidate) -> Member | None:
        if candidate.fide_id and candidate.fide_id in self.by_fide:
            return self.by_fide[candidate.fide_id]
        if candidate.national_id and candidate.national_id in self.by_national:
            return self.by_national[candidate.national_id]
        if self.require_birth_year and not candidate.birth_year:
            return None
        found = [
            m for m in self.by_name.get(name_key(*split_name(candidate.name)), [])
            # A member known under another FIDE ID is another person of the same name.
            if not (candidate.fide_id and m.fide_id and m.fide_id != candidate.fide_id)
            and (not self.require_birth_year or m.year_of_birth == candidate.birth_year)
        ]
        if len(found) > 1:
            raise ImportRefused(
                _("%(where)s: %(name)s matches %(count)d members; give them FIDE IDs or national "
                  "IDs so that they can be told apart.")
                % {"where": candidate.label, "name": candidate.name, "count": len(found)}
            )
        return found[0] if found else None
