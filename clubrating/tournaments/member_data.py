"""A member's part in the tournaments, for his copy of his data: registrations, entries (his
requests to play and their decisions), games (with every correction of their results), byes,
team line-ups and the e-mails the tournaments sent him."""

from __future__ import annotations

from django.db.models import Q

from clubrating.clubs.member_data import MemberDataPart, member_data_register
from clubrating.clubs.member_data import iso as _iso
from clubrating.clubs.models import Member

from .member_merge import member_tournaments_merge, member_tournaments_merge_refusals
from .models import (
    RESULT_SYMBOLS,
    Bye,
    Entry,
    Game,
    LineupEntry,
    Notification,
    ResultChange,
    TournamentPlayer,
)


def member_tournament_data(*, member: Member) -> dict:
    registrations = [
        {"tournament": r.tournament.name, "tournament_id": r.tournament_id, "start_rank": r.start_rank,
         "national_rating": r.rating, "fide_rating": r.fide_rating, "final_rank": r.final_rank,
         "withdrawn_from_round": r.withdrawn_from_round, "team": r.team.name if r.team_id else None}
        for r in TournamentPlayer.objects.filter(member=member).select_related("tournament", "team")
        .order_by("tournament__start_date", "pk")
    ]
    games = list(Game.objects.filter(Q(white=member) | Q(black=member))
                 .select_related("round__tournament", "white", "black")
                 .order_by("round__tournament__start_date", "round__number", "board"))
    changes: dict[int, list[dict]] = {}
    for change in ResultChange.objects.filter(game__in=games).order_by("changed_at", "pk"):
        changes.setdefault(change.game_id, []).append({
            "at": _iso(change.changed_at), "old_result": change.old_result, "new_result": change.new_result,
            "reason": change.reason,
        })
    game_rows = []
    for game in games:
        white = game.white_id == member.pk
        opponent = game.black if white else game.white
        game_rows.append({
            "id": game.pk, "tournament": game.round.tournament.name, "round": game.round.number,
            "board": game.board, "date": _iso(game.date or game.round.date),
            "colour": "white" if white else "black", "opponent": opponent.full_name,
            "result": game.result, "own_result": RESULT_SYMBOLS[game.result][0 if white else 1],
            "rated": game.rated, "result_changes": changes.get(game.pk, []),
        })
    byes = [{"tournament": b.round.tournament.name, "round": b.round.number, "kind": b.kind}
            for b in Bye.objects.filter(member=member).select_related("round__tournament")
            .order_by("round__tournament__start_date", "round__number")]
    lineups = [{"tournament": e.match.round.tournament.name, "round": e.match.round.number,
                "team": e.team.name, "board": e.board}
               for e in LineupEntry.objects.filter(member=member)
               .select_related("match__round__tournament", "team").order_by("match__round__number")]
    entries = [{"tournament": e.tournament.name, "tournament_id": e.tournament_id, "last_name": e.last_name,
                "first_name": e.first_name, "club": e.club_name, "birth_year": e.birth_year,
                "fide_id": e.fide_id, "email": e.email, "state": e.state, "registered_at": _iso(e.created_at),
                "decided_at": _iso(e.decided_at)}
               for e in Entry.objects.filter(member=member).select_related("tournament")
               .order_by("created_at", "pk")]
    notifications = [{"subject": n.subject, "email": n.email, "created_at": _iso(n.created_at),
                      "sent_at": _iso(n.sent_at)}
                     for n in Notification.objects.filter(member=member).order_by("created_at", "pk")]
    return {"registrations": registrations, "entries": entries, "games": game_rows, "byes": byes,
            "lineups": lineups, "notifications": notifications}


def register_parts() -> None:
    member_data_register(MemberDataPart(
        key="tournaments", export=lambda member: member_tournament_data(member=member),
        models=("tournaments.TournamentPlayer", "tournaments.Entry", "tournaments.Game", "tournaments.Bye",
                "tournaments.LineupEntry", "tournaments.Notification"),
        merge=member_tournaments_merge, merge_refusals=member_tournaments_merge_refusals))
