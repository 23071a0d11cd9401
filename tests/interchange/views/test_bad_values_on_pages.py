"""A value out of range in an uploaded file is a form error naming its line, in German by
default, with HTTP 200 and nothing written: on every import page."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import MemberFactory
from tests.fuzzfiles import row_counts
from tests.interchange.views.conftest import DE, EN
from tests.language import speak
from tests.ratings.factories import make_pool

TRF = ("012 Test\n042 2025/03/01\nXXR 99999999999999999999\n"
       "001    1 w    Huber, Anna                       2100 AUT                         0.0    1\n")
CASES = {
    "members": ("interchange:members_import", {},
                "last_name;first_name;birth_date;fide_id\nHuber;Anna;;9223372036854775808\n",
                {EN: "Line 2: column “fide_id” 9223372036854775808 is not between 1 and 99999999999.",
                 DE: "Zeile 2: Spalte „fide_id“ 9223372036854775808 liegt nicht zwischen 1 und "
                     "99999999999."}),
    "pgn": ("interchange:pgn_import", {},
            '[Event "E"]\n[Date "2025.01.01"]\n[White "A, B"]\n[Black "C, D"]\n[Result "1-0"]\n'
            '[Round "1"]\n[WhiteElo "99999999999999999999"]\n',
            {EN: "Game 1 (line 1, A, B – C, D): WhiteElo 99999999999999999999 is not between 0 and 3000.",
             DE: "Partie 1 (Zeile 1, A, B – C, D): WhiteElo 99999999999999999999 liegt nicht zwischen 0 "
                 "und 3000."}),
    "trf": ("interchange:trf_import", {"pool": True}, TRF,
            {EN: "Line 3: XXR 99999999999999999999 is not between 1 and 999.",
             DE: "Zeile 3: XXR 99999999999999999999 liegt nicht zwischen 1 und 999."}),
    "ratings": ("ratings:import", {"pool": True, "kind": "csv"}, "id;rating\nAT1;1e308\n",
                {EN: "Line 2: column “rating” “1e308” is not a rating: 0 (unrated) or 100 to 3000.",
                 DE: "Zeile 2: Spalte „rating“ „1e308“ ist keine Wertungszahl: 0 (ohne Wertung) oder "
                     "100 bis 3000."}),
}


@pytest.mark.parametrize("lang", [EN, DE])
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_bad_value_is_a_form_error_with_its_line(client, official, officer, home_club, case, lang):
    name, options, text, messages = CASES[case]
    official.groups.add(*officer.groups.all())
    client.force_login(official)
    args = [make_pool(name="Standard").pk] if options.get("pool") else []
    data = {"file": SimpleUploadedFile("upload.txt", text.encode())}
    if "kind" in options:
        data["kind"] = options["kind"]
    before = row_counts()
    response = speak(client, lang).post(reverse(name, args=args), data)
    assert response.status_code == 200
    assert response.context["form"].errors["file"] == [messages[lang]]
    assert row_counts() == before


def test_an_upload_name_loses_its_control_characters(client, officer):
    client.force_login(officer)
    pool = make_pool(name="Standard")
    MemberFactory(national_id="AT1")
    upload = SimpleUploadedFile("list\x01\x1b.csv", b"id;rating\nAT1;1500\n")
    response = client.post(reverse("ratings:import", args=[pool.pk]), {"file": upload, "kind": "csv"})
    assert response.status_code == 200
    assert client.session[f"ratings_import:{pool.pk}"]["name"] == "list.csv"
