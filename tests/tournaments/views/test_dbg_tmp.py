import pytest
from tests.tournaments.views.test_public import played  # noqa
from tests.tournaments.views.helpers import page, text
@pytest.mark.django_db
def test_dbg(client, played):
    html = text(page(client, "crosstable", played.pk))
    i = html.index("<tbody>")
    print(html[i:i+1500])
