"""Privacy by default (clubrating.clubs.privacy): what each audience sees of a member, on the
member page, the member list, the tournament's players and the TRF download."""

import datetime

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from clubrating.clubs import privacy
from clubrating.clubs.models import Club, Member, Sex
from clubrating.clubs.privacy import Audience
from tests.factories import MemberFactory, TournamentFactory, TournamentPlayerFactory
from tests.language import speak

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 11, 25)


# --- the rule itself -------------------------------------------------------------------------

@pytest.mark.parametrize("birth_date, birth_year, minor", [
    (datetime.date(2008, 11, 25), None, False),   # 18 today
    (datetime.date(2008, 11, 26), None, True),    # 18 tomorrow
    (datetime.date(2008, 2, 29), None, False),
    (None, 2008, True),                           # may still be 17 until the end of 2026
    (None, 2007, False),
    (None, None, False),
])
def test_minor_by_birth_date_or_year(birth_date, birth_year, minor):
    assert privacy.is_minor(birth_date=birth_date, birth_year=birth_year, today=TODAY) is minor


def _member(**kwargs):
    defaults = {"profile_restricted": False, "guardian_consent_on": None, "birth_date": None,
                "birth_year": 1980, "user_id": None}
    return type("M", (), {**defaults, **kwargs})()


def test_fields_per_audience():
    adult = _member()
    public = {"name", "club", "title", "national_id", "fide_id", "ratings"}
    assert privacy.visible_fields(adult, audience=Audience.VISITOR, birth_years_public=False,
                                  today=TODAY) == public
    assert privacy.visible_fields(adult, audience=Audience.MEMBER, birth_years_public=True,
                                  today=TODAY) == public | {"birth_year"}
    everything = public | {"birth_year", "birth_date", "sex", "email", "phone"}
    assert privacy.visible_fields(adult, audience=Audience.SELF, birth_years_public=False,
                                  today=TODAY) == everything
    assert privacy.visible_fields(adult, audience=Audience.OFFICIAL, birth_years_public=False,
                                  today=TODAY) == everything


def test_restricted_profiles_show_the_name_only():
    for member in (_member(profile_restricted=True), _member(birth_year=2012)):
        for audience in (Audience.VISITOR, Audience.MEMBER):
            assert privacy.visible_fields(member, audience=audience, birth_years_public=True,
                                          today=TODAY) == {"name", "ratings"}
            assert not privacy.member_page_visible(member, audience=audience, today=TODAY)
        assert privacy.member_page_visible(member, audience=Audience.OFFICIAL, today=TODAY)
    consented = _member(birth_year=2012, guardian_consent_on=datetime.date(2026, 1, 10))
    assert privacy.member_page_visible(consented, audience=Audience.VISITOR, today=TODAY)


# --- pages -----------------------------------------------------------------------------------

@pytest.fixture
def people(home_club, official):
    adult = MemberFactory(first_name="Eva", last_name="Egger", sex=Sex.FEMALE, birth_year=None,
                          birth_date=datetime.date(1990, 9, 17), club=home_club, fide_id=1600238,
                          email="eva@example.at", phone="+43 660 1234567")
    minor = MemberFactory(first_name="Mia", last_name="Klein", sex=Sex.FEMALE, birth_year=2013,
                          club=home_club)
    eva_user = User.objects.create_user("eva", password="pw-eva")
    adult.user = eva_user
    adult.save()
    other = User.objects.create_user("otto", password="pw-otto")
    return {"adult": adult, "minor": minor, "eva": eva_user, "other": other, "official": official}


def member_page(client, member):
    return client.get(reverse("clubs:member_detail", args=[member.pk]))


PRIVATE_TEXT = ("17.09.1990", "eva@example.at", "+43 660 1234567", "weiblich")


def test_member_page_per_audience(client, people):
    adult = people["adult"]
    visitor = member_page(client, adult).content.decode()
    assert "Egger" in visitor and "1600238" in visitor
    for text in (*PRIVATE_TEXT, "1990"):
        assert text not in visitor, text
    client.force_login(people["other"])
    other = member_page(client, adult).content.decode()
    for text in (*PRIVATE_TEXT, "1990"):
        assert text not in other, text
    for user in (people["eva"], people["official"]):
        client.force_login(user)
        own = member_page(client, adult).content.decode()
        for text in PRIVATE_TEXT:
            assert text in own, (user, text)


def test_birth_year_shown_where_the_club_publishes_it(client, people, home_club):
    home_club.public_birth_years = True
    home_club.save()
    html = member_page(client, people["adult"]).content.decode()
    assert "Geburtsjahr" in html and ">1990<" in html and "17.09.1990" not in html


def test_minor_without_consent_has_no_page_for_visitors_and_members(client, people):
    minor = people["minor"]
    response = member_page(client, minor)
    assert response.status_code == 302  # visitors may have an account: to the login page
    client.force_login(people["other"])
    assert member_page(client, minor).status_code == 403
    client.force_login(people["official"])
    html = member_page(client, minor).content.decode()
    assert "keine Einwilligung der Erziehungsberechtigten" in html
    minor.guardian_consent_on = datetime.date(2026, 9, 1)
    minor.save()
    client.logout()
    assert member_page(client, minor).status_code == 200


def test_member_restricts_his_own_profile(client, people):
    adult = people["adult"]
    url = reverse("clubs:member_privacy", args=[adult.pk])
    client.force_login(people["other"])
    assert client.post(url, {"restrict": "1"}).status_code == 403
    adult.refresh_from_db()
    assert adult.profile_restricted is False
    client.force_login(people["eva"])
    response = client.post(url, {"restrict": "1"}, follow=True)
    assert "Ihr Profil ist jetzt eingeschränkt" in response.content.decode()
    adult.refresh_from_db()
    assert adult.profile_restricted is True
    client.logout()
    assert member_page(client, adult).status_code == 302
    speak(client, "en")
    client.force_login(people["eva"])
    response = client.post(url, {"restrict": "0"}, follow=True)
    assert "Your profile is now visible like every member" in response.content.decode()
    adult.refresh_from_db()
    assert adult.profile_restricted is False


def test_member_list_columns_and_rows(client, people, home_club):
    url = reverse("clubs:member_list")
    visitor = client.get(url).content.decode()
    assert "Geschlecht" not in visitor and ">Geboren<" not in visitor
    assert f'href="{people["adult"].get_absolute_url()}"' in visitor
    assert f'href="{people["minor"].get_absolute_url()}"' not in visitor  # restricted: no link
    assert "Klein, Mia" in visitor
    home_club.public_birth_years = True
    home_club.save()
    visitor = client.get(url).content.decode()
    assert "1990" in visitor and "2013" not in visitor  # the minor's year stays hidden
    client.force_login(people["official"])
    seen = client.get(url).content.decode()
    assert "Geschlecht" in seen and "2013" in seen
    assert f'href="{people["minor"].get_absolute_url()}"' in seen


def test_players_page_follows_the_rule(client, people, home_club):
    tournament = TournamentFactory(name="Herbst")
    for member in (people["adult"], people["minor"]):
        TournamentPlayerFactory(tournament=tournament, member=member)
    url = reverse("tournaments:players", args=[tournament.pk])
    html = client.get(url).content.decode()
    assert "Geburtsjahr" not in html and "1990" not in html
    assert f'href="{people["minor"].get_absolute_url()}"' not in html and "Klein, Mia" in html
    home_club.public_birth_years = True
    home_club.save()
    html = client.get(url).content.decode()
    assert "Geburtsjahr" in html and "1990" in html and "2013" not in html
    client.force_login(people["official"])
    html = client.get(url).content.decode()
    assert "2013" in html and f'href="{people["minor"].get_absolute_url()}"' in html


def test_club_setting_defaults_to_private_birth_years():
    assert Club(name="Neu").public_birth_years is False


def test_standings_and_pairings_link_no_restricted_profile(client, people, official):
    from clubrating.tournaments.services import player_register, round_pair

    tournament = TournamentFactory(name="Herbst")
    for member in (people["adult"], people["minor"], MemberFactory(last_name="Dritter"),
                   MemberFactory(last_name="Vierter")):
        player_register(tournament=tournament, member=member, rating=1500)
    round_pair(tournament=tournament, date=datetime.date(2026, 9, 1))
    minor_link = f'href="{people["minor"].get_absolute_url()}"'
    for name in ("tournaments:standings", "tournaments:pairings", "tournaments:detail"):
        html = client.get(reverse(name, args=[tournament.pk])).content.decode()
        assert "Klein, Mia" in html and minor_link not in html, name
        assert f'href="{people["adult"].get_absolute_url()}"' in html, name
    client.force_login(official)
    assert minor_link in client.get(reverse("tournaments:standings", args=[tournament.pk])).content.decode()


@pytest.mark.parametrize("today", [TODAY, datetime.date(2028, 2, 29), datetime.date(2027, 1, 1)])
def test_the_database_form_of_the_rule_agrees_with_the_python_form(today):
    """Lists of thousands of members ask the database (``restricted_q``); one rule all the same."""
    days = [datetime.date(today.year - 18, 1, 1) + datetime.timedelta(days=n) for n in range(0, 400, 7)]
    days += [datetime.date(today.year - 18, 2, 28), datetime.date(today.year - 18, 3, 1)]
    members = [MemberFactory(birth_year=None, birth_date=day) for day in days]
    members += [MemberFactory(birth_year=year) for year in range(today.year - 20, today.year - 15)]
    members += [MemberFactory(birth_year=None), MemberFactory(birth_year=2015, guardian_consent_on=TODAY),
                MemberFactory(birth_year=1970, profile_restricted=True)]
    in_sql = set(Member.objects.filter(privacy.restricted_q(today=today)).values_list("pk", flat=True))
    in_python = {m.pk for m in members if privacy.profile_restricted(m, today=today)}
    assert in_sql == in_python
    assert len(in_python) not in (0, len(members))


def test_the_member_list_finds_a_restricted_profile_by_name_only(client, people):
    from clubrating.clubs.models import Member

    url = reverse("clubs:member_list")
    Member.objects.filter(pk=people["minor"].pk).update(national_id="40999")
    club = people["minor"].club.name
    assert "Klein, Mia" not in client.get(url, {"q": club}).content.decode()
    assert "Klein, Mia" not in client.get(url, {"q": "40999"}).content.decode()
    assert "Klein, Mia" in client.get(url, {"q": "klein mia"}).content.decode()
    client.force_login(people["official"])
    assert "Klein, Mia" in client.get(url, {"q": club}).content.decode()
    assert "Klein, Mia" in client.get(url, {"q": "40999"}).content.decode()


def test_a_search_of_thousands_of_words_is_cut_not_a_server_error(client, people):
    response = client.get(reverse("clubs:member_list"), {"q": "ab " * 2000})
    assert response.status_code == 200


def test_a_control_character_in_the_member_search_is_a_blank(client, people):
    # PostgreSQL refuses a NUL byte in a query (a server error there).
    response = client.get(reverse("clubs:member_list"), {"q": "Egger\x00Eva"})
    html = response.content.decode()
    assert response.status_code == 200 and "\x00" not in html and "Egger, Eva" in html
