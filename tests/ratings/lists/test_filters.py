from django import forms

from ratings.lists.filters import ListFilterForm, ManyOptionsSelect

CLUBS = ["SK <Alpha> & Co", 'Schachklub "Dorf"', "Ärztebund 1903", "ßchach"]


def test_many_options_select_writes_what_django_select_writes():
    choices = [("", "alle"), *((name, name) for name in CLUBS)]
    for value in ("", CLUBS[0], CLUBS[1], "none of them"):
        attrs = {"class": "form-select", "id": "id_club", "data-x": True, "hidden": False}
        ours = ManyOptionsSelect(choices=choices).render("club", value, attrs=dict(attrs))
        django = forms.Select(choices=choices).render("club", value, attrs=dict(attrs))
        assert ours == django


def test_many_options_select_leaves_option_groups_to_django():
    choices = [("Wien", [("a", "A"), ("b", "B")]), ("c", "C")]
    assert ManyOptionsSelect(choices=choices).render("club", "b") == forms.Select(
        choices=choices).render("club", "b")


def test_filter_form_club_field_as_django_renders_it():
    form = ListFilterForm({"club": CLUBS[2]}, clubs=CLUBS)
    plain = ListFilterForm({"club": CLUBS[2]}, clubs=CLUBS)
    plain.fields["club"].widget = forms.Select(choices=plain.fields["club"].choices,
                                               attrs=plain.fields["club"].widget.attrs)
    assert str(form["club"]) == str(plain["club"])
    assert 'selected>Ärztebund 1903</option>' in str(form["club"])
