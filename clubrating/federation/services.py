"""FIDE's monthly rating list: read, compared with the members, and applied.

``fide_list_import`` reads the list as a stream (``clubrating.interchange.formats.fide_list``)
and keeps only the players that matter: members (matched by FIDE ID), followed players and the
players of ``settings.FIDE_FEDERATIONS``. Without ``apply`` it only reports what applying would
change (the preview); with ``apply`` it writes everything in one transaction at the end: the
month's rows, the directory and the members' FIDE data. Applying the same list again changes
nothing. National ratings are never touched: taking a FIDE rating over as a national rating
stays an explicit act of the rating officer in the ratings app.
"""

from __future__ import annotations

import datetime
import tempfile
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubrating.clubs.models import Club, Member
from clubrating.clubs.services import member_create
from clubrating.core.errors import Refused
from clubrating.interchange.errors import ImportRefused
from clubrating.interchange.formats.fide_list import FidePlayerRow, read_fide_list
from clubrating.interchange.formats.limits import LENGTHS, FieldError
from clubrating.interchange.formats.names import split_name
from clubrating.interchange.refusals import fide_list_refused
from clubrating.interchange.titles import title_code

from .models import FideFollow, FideList, FidePlayer, FideRating, FideUploadPart, FideValues

Progress = Callable[[int, str], None]
# How many names of each kind the report lists; its counts are always exact.
SHOWN = 200
_EVERY = 50_000  # lines between two progress reports


def month_parse(text: str) -> datetime.date:
    """``2026-11`` -> 1 November 2026; Refused for anything else."""
    try:
        year, month = (int(part) for part in text.strip().split("-"))
        return datetime.date(year, month, 1)
    except ValueError:
        raise Refused(_("“%(value)s” is not a month like 2026-11.") % {"value": text[:20]}) from None


@dataclass
class Change:
    member_id: int
    member: str
    before: object
    after: object

    def plain(self) -> list:
        """[member id, name, before, after, the difference of two ratings or None]."""
        numbers = all(type(value) is int for value in (self.before, self.after))
        return [self.member_id, self.member, self.before, self.after,
                self.after - self.before if numbers else None]


@dataclass
class FideListReport:
    month: datetime.date
    file_name: str
    applied: bool = False
    players: int = 0  # lines of the list
    kept: int = 0  # players kept in the directory
    matched: int = 0  # members found in the list
    standard: list[Change] = field(default_factory=list)
    rapid: list[Change] = field(default_factory=list)
    blitz: list[Change] = field(default_factory=list)
    titles: list[Change] = field(default_factory=list)
    names: list[Change] = field(default_factory=list)
    federations: list[Change] = field(default_factory=list)
    missing: list[Change] = field(default_factory=list)  # members whose FIDE ID the list lacks
    inactive: list[Change] = field(default_factory=list)  # members the list flags inactive
    updated: int = 0  # members whose FIDE data change
    later: datetime.date | None = None  # a later month kept: the members keep its data

    def summary(self) -> str:
        players, matched, updated, missing = self.players, self.matched, self.updated, len(self.missing)
        parts = [
            ngettext("FIDE list %(month)s: %(count)d player read,",
                     "FIDE list %(month)s: %(count)d players read,", players)
            % {"month": f"{self.month:%Y-%m}", "count": players},
            ngettext("%(count)d member found,", "%(count)d members found,", matched) % {"count": matched},
            (ngettext("%(count)d member updated;", "%(count)d members updated;", updated)
             if self.applied else
             ngettext("%(count)d member will be updated;", "%(count)d members will be updated;", updated))
            % {"count": updated},
            ngettext("%(count)d member's FIDE ID is not in the list.",
                     "%(count)d members' FIDE IDs are not in the list.", missing) % {"count": missing},
        ]
        if self.later is not None:
            parts.append(_("The list of %(month)s is kept already: the members' FIDE data stay as it gives "
                           "them.") % {"month": f"{self.later:%Y-%m}"})
        return " ".join(parts)

    def counts(self) -> dict[str, int]:
        return {"players": self.players, "kept": self.kept, "matched": self.matched,
                "updated": self.updated, **{name: len(getattr(self, name)) for name in _LISTS}}

    def plain(self) -> dict:
        return {"summary": self.summary(), "month": f"{self.month:%Y-%m}", "file_name": self.file_name,
                "done": self.applied, "counts": self.counts(),
                **{name: [change.plain() for change in getattr(self, name)[:SHOWN]] for name in _LISTS}}


_LISTS = ("standard", "rapid", "blitz", "titles", "names", "federations", "missing", "inactive")


def _values(row: FidePlayerRow) -> dict:
    """The row's values as the models store them, in the order of ``FideValues.VALUES``."""
    return {name: getattr(row, name) for name in FideValues.VALUES}


def member_title(values: FideValues | FidePlayerRow) -> str:
    """The member's one title (``Member.fide_title``): the open title, else the women's title."""
    return title_code(values.title) or title_code(values.women_title)


def _same_name(member: Member, listed: str) -> bool:
    last, first = split_name(listed)
    return (member.last_name.casefold(), member.first_name.casefold()) == (last.casefold(), first.casefold())


def _read(*, stream, size: int, wanted: Callable[[FidePlayerRow], bool], progress: Progress | None):
    """The wanted players by FIDE ID, and how many lines the list has."""
    kept: dict[int, FidePlayerRow] = {}
    players = 0
    raw = stream
    try:
        for row in read_fide_list(stream):
            players += 1
            if wanted(row):
                first = kept.get(row.fide_id)
                if first is not None:
                    raise FieldError("fide_twice", value=row.fide_id, first=first.line, line=row.line)
                kept[row.fide_id] = row
            if progress is not None and players % _EVERY == 0:
                done = raw.tell() * 90 // size if size else 0
                progress(min(done, 90), _("%(count)d players read") % {"count": players})
    except FieldError as error:
        raise fide_list_refused(error) from None
    return kept, players


def fide_list_import(
    *, path: str | Path, month: datetime.date, file_name: str = "", apply: bool = False, user=None,
    progress: Progress | None = None,
) -> FideListReport:
    """Read FIDE's list ``path`` (zip, text or XML) for ``month``; report what it changes, and
    with ``apply`` change it. A refused list (``ImportRefused`` naming the line) changes nothing."""
    month = month.replace(day=1)
    federations = set(settings.FIDE_FEDERATIONS)
    members = {m.fide_id: m for m in Member.objects.filter(fide_id__isnull=False).only(
        "id", "first_name", "last_name", "fide_id", "fide_rating", "fide_title", "federation")}
    followed = set(FideFollow.objects.values_list("fide_id", flat=True))
    tracked = members.keys() | followed
    path = Path(path)
    try:
        size = path.stat().st_size
        with open(path, "rb") as stream:
            kept, players = _read(stream=stream, size=size, progress=progress,
                                  wanted=lambda row: row.federation in federations or row.fide_id in tracked)
    except OSError:
        raise _gone() from None
    if players == 0:
        raise ImportRefused(_("The FIDE rating list cannot be read: %(error)s") % {
            "error": _("it has no players.")})
    report = FideListReport(month=month, file_name=file_name, players=players, kept=len(kept))
    # An older month (kept for the history) leaves the members as the latest list has them.
    report.later = FideList.objects.filter(month__gt=month).order_by("-month").values_list(
        "month", flat=True).first()
    # Rapid and blitz are compared with the latest list kept (this month's, when it is imported
    # again): the member has no rapid or blitz field of his own.
    reference = FideList.objects.filter(month__lte=month).order_by("-month").first()
    previous = {} if reference is None else {r.fide_id: r for r in FideRating.objects.filter(
        list=reference, fide_id__in=list(members)).only("fide_id", "rapid", "blitz")}
    changed: list[Member] = []
    for fide_id, member in sorted(members.items(), key=lambda item: (item[1].last_name, item[1].first_name)):
        row = kept.get(fide_id)
        name = member.full_name
        if row is None:
            report.missing.append(Change(member.pk, name, fide_id, None))
            continue
        report.matched += 1
        before = previous.get(fide_id)
        if before is not None and before.rapid != row.rapid:
            report.rapid.append(Change(member.pk, name, before.rapid, row.rapid))
        if before is not None and before.blitz != row.blitz:
            report.blitz.append(Change(member.pk, name, before.blitz, row.blitz))
        if not _same_name(member, row.name):
            report.names.append(Change(member.pk, name, name, row.name))
        if row.inactive:
            report.inactive.append(Change(member.pk, name, None, row.flag))
        if report.later is not None:
            continue
        title = member_title(row)
        if member.fide_rating != row.standard:
            report.standard.append(Change(member.pk, name, member.fide_rating, row.standard))
        if member.fide_title != title:
            report.titles.append(Change(member.pk, name, member.fide_title, title))
        if member.federation != row.federation:
            report.federations.append(Change(member.pk, name, member.federation, row.federation))
        listed = (row.standard, title, row.federation)
        if (member.fide_rating, member.fide_title, member.federation) != listed:
            member.fide_rating, member.fide_title, member.federation = listed
            changed.append(member)
    report.updated = len(changed)
    if apply:
        if progress is not None:
            progress(92, _("Saving"))
        _save(month=month, file_name=file_name, user=user, players=players, kept=kept.values(),
              tracked=tracked, changed=changed, latest=report.later is None)
        report.applied = True
    return report


def _in_batches(ids: list[int], size: int = 5000) -> Iterable[list[int]]:
    """Lists of ids small enough for one ``IN (…)`` (SQLite limits a statement's parameters)."""
    for start in range(0, len(ids), size):
        yield ids[start:start + size]


class _Batches:
    """Model objects written a thousand at a time as they come (never all in memory at once)."""

    def __init__(self, write: Callable[[list], object], size: int = 1000):
        self.write, self.size, self.rows = write, size, []

    def add(self, row) -> None:
        self.rows.append(row)
        if len(self.rows) >= self.size:
            self.flush()

    def flush(self) -> None:
        if self.rows:
            self.write(self.rows)
            self.rows = []


@transaction.atomic
def _save(*, month, file_name, user, players, kept: Iterable[FidePlayerRow], tracked, changed: list[Member],
          latest: bool):
    fide_list, _created = FideList.objects.update_or_create(
        month=month, defaults={"file_name": file_name[:200], "players": players,
                               "imported_by": user if getattr(user, "is_authenticated", False) else None})
    # Stored rows as tuples of their values (not model objects: the directory has tens of
    # thousands); only what differs is written, so that a second import of the same list changes
    # nothing.
    names = FideValues.VALUES
    stored = {row[0]: (row[1], row[2:]) for row in
              FideRating.objects.filter(list=fide_list).values_list("fide_id", "id", *names).iterator()}
    replaced, changed_ids = [], set()
    for row in kept:
        old = stored.pop(row.fide_id, None)
        if row.fide_id in tracked and (old is None or old[1] != tuple(_values(row).values())):
            changed_ids.add(row.fide_id)
            if old is not None:
                replaced.append(old[0])
    # Rows of this month that the list (a corrected one, imported again) no longer has.
    replaced += [pk for pk, _kept in stored.values()]
    for ids in _in_batches(replaced):
        FideRating.objects.filter(pk__in=ids).delete()
    new = _Batches(lambda rows: FideRating.objects.bulk_create(rows))
    for row in kept:
        if row.fide_id in changed_ids:
            new.add(FideRating(list=fide_list, fide_id=row.fide_id, **_values(row)))
    new.flush()
    if latest:
        # The directory holds the latest month's players.
        directory = {row[0]: (row[1], row[2], row[3:]) for row in
                     FidePlayer.objects.values_list("fide_id", "id", "month", *names).iterator()}
        added = _Batches(lambda rows: FidePlayer.objects.bulk_create(rows))
        altered = _Batches(lambda rows: FidePlayer.objects.bulk_update(rows, ["month", *names]))
        for row in kept:
            values = _values(row)
            old = directory.pop(row.fide_id, None)
            if old is None:
                added.add(FidePlayer(fide_id=row.fide_id, month=month, **values))
            elif old[1] != month or old[2] != tuple(values.values()):
                altered.add(FidePlayer(id=old[0], fide_id=row.fide_id, month=month, **values))
        for ids in _in_batches([pk for pk, _month, _values in directory.values()]):
            FidePlayer.objects.filter(pk__in=ids).delete()
        added.flush()
        altered.flush()
    if changed:
        now = timezone.now()
        for member in changed:
            member.changed_at = now  # the cached pages that show members carry it
        Member.objects.bulk_update(changed, ["fide_rating", "fide_title", "federation", "changed_at"],
                                   batch_size=1000)


# ---- uploads waiting between preview and import

UPLOAD_PART_BYTES = 8 * 1024 * 1024


def _gone() -> ImportRefused:
    return ImportRefused(_("The FIDE rating list cannot be read: %(error)s") % {
        "error": _("the uploaded file is gone; upload it again.")})


@transaction.atomic
def fide_upload_store(*, chunks: Iterable[bytes]) -> str:
    """Keep an uploaded list until it is imported; returns its token. It is kept in the database
    (``FideUploadPart``), where every worker finds it, whichever machine received it."""
    FideUploadPart.objects.filter(created_at__lt=timezone.now() - datetime.timedelta(days=2)).delete()
    token = uuid.uuid4().hex
    number, buffer = 0, bytearray()
    for chunk in chunks:
        buffer += chunk
        while len(buffer) >= UPLOAD_PART_BYTES:
            FideUploadPart.objects.create(token=token, number=number, data=bytes(buffer[:UPLOAD_PART_BYTES]))
            del buffer[:UPLOAD_PART_BYTES]
            number += 1
    if buffer or number == 0:
        FideUploadPart.objects.create(token=token, number=number, data=bytes(buffer))
    return token


def _checked(token: str) -> str:
    """A token is 32 hex digits (it came back from a form or a job's parameters)."""
    if len(token) != 32 or not all(c in "0123456789abcdef" for c in token):
        raise Refused(_("Nothing to import: upload the file again."))
    return token


@contextmanager
def fide_upload_file(token: str) -> Iterator[Path]:
    """The stored upload of ``token`` as a file of this process's own (a temporary copy, read as
    a stream and deleted afterwards)."""
    parts = FideUploadPart.objects.filter(token=_checked(token)).order_by("number")
    if not parts.exists():
        raise _gone()
    with tempfile.TemporaryDirectory(prefix="clubrating-fide-") as folder:
        path = Path(folder) / "list"
        with open(path, "wb") as target:
            for data in parts.values_list("data", flat=True).iterator(chunk_size=1):
                target.write(data)
        yield path


def fide_upload_delete(token: str) -> None:
    FideUploadPart.objects.filter(token=_checked(token)).delete()


def fide_download(*, url: str, timeout: int = 60) -> Path:
    """A list from the web in a temporary file of this process (the caller deletes it): for
    sites that may download."""
    import urllib.error
    import urllib.request

    if not url.lower().startswith(("http://", "https://")):
        raise Refused(_("Only http and https addresses can be downloaded."))
    target = tempfile.NamedTemporaryFile(prefix="clubrating-fide-", delete=False)  # noqa: SIM115 - returned
    try:
        with target, urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 - scheme checked
            for chunk in iter(lambda: response.read(1 << 20), b""):
                target.write(chunk)
    except urllib.error.HTTPError as error:
        Path(target.name).unlink(missing_ok=True)
        why = _("the server answers %(status)d") % {"status": error.code}
        raise Refused(_("Cannot download %(url)s: %(error)s") % {"url": url, "error": why}) from None
    except OSError:
        Path(target.name).unlink(missing_ok=True)
        why = _("the server cannot be reached")
        raise Refused(_("Cannot download %(url)s: %(error)s") % {"url": url, "error": why}) from None
    return Path(target.name)


# ---- followed players and new members from the directory


@transaction.atomic
def fide_follow(*, fide_id: int, user=None) -> FideFollow:
    """Keep this player's rows month by month (an officer looked him up), from the latest list
    on: his row of that list is kept at once."""
    follow, _created = FideFollow.objects.get_or_create(
        fide_id=fide_id, defaults={"followed_by": user if getattr(user, "is_authenticated", False) else None})
    player = FidePlayer.objects.filter(fide_id=fide_id).first()
    fide_list = player and FideList.objects.filter(month=player.month).first()
    if fide_list is not None and not fide_list.ratings.filter(fide_id=fide_id).exists():
        FideRating.objects.create(list=fide_list, fide_id=fide_id,
                                  **{name: getattr(player, name) for name in FideValues.VALUES})
    return follow


@transaction.atomic
def member_add_from_fide(*, fide_id: int, club: Club | None, user=None) -> Member:
    """A new member (``club``) or guest (no club) with the directory's data of ``fide_id``."""
    player = FidePlayer.objects.filter(fide_id=fide_id).first()
    if player is None:
        raise Refused(_("FIDE ID %(id)s is not in the imported list.") % {"id": fide_id})
    if Member.objects.filter(fide_id=fide_id).exists():
        raise Refused(_("A member with FIDE ID %(id)s exists already.") % {"id": fide_id})
    last, first = split_name(player.name)
    limit = LENGTHS["member_name"]
    try:
        member = member_create(
            last_name=last[:limit], first_name=first[:limit], sex=player.sex, birth_year=player.birth_year,
            federation=player.federation, fide_id=player.fide_id, fide_rating=player.standard,
            fide_title=member_title(player), club=club)
    except IntegrityError:
        raise Refused(_("A member with FIDE ID %(id)s exists already.") % {"id": fide_id}) from None
    fide_follow(fide_id=fide_id, user=user)
    return member


@transaction.atomic
def member_fide_rows_erase(*, fide_id: int | None) -> int:
    """An erased member's FIDE rows kept by the site (his months and a follow of his ID) go with
    his other personal data: the site kept them only because he was a member (or looked up), and
    FIDE keeps its own list. The directory's row stays: it is FIDE's current public list of the
    chosen federations and is replaced by every import. Returns how many rows were deleted."""
    if fide_id is None:
        return 0
    ratings, _by_model = FideRating.objects.filter(fide_id=fide_id).delete()
    follows, _by_model = FideFollow.objects.filter(fide_id=fide_id).delete()
    return ratings + follows
