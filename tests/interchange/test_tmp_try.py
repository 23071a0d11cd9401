import pytest
from pathlib import Path
from clubrating.interchange.trf_import import tournament_import_trf
from clubrating.tournaments.models import *

@pytest.mark.django_db
@pytest.mark.parametrize("f", ["gros-2010-r4","karl-mala-2005","san-viator-2018"])
def test_x(f):
    r = tournament_import_trf(text=Path(f"/work/shared/data/trf/{f}.trf"))
    print(r.summary(), dict(r.byes), r.refused, Round.objects.count(), [(x.number, x.date) for x in Round.objects.all()][:3])
