"""Every admin changelist and add page answers for a superuser."""

import pytest
from django.contrib import admin
from django.urls import reverse

pytestmark = pytest.mark.django_db

MODELS = [m for m in admin.site._registry]  # noqa: SLF001 - the admin's own registry


@pytest.mark.parametrize("model", MODELS, ids=lambda m: f"{m._meta.app_label}.{m._meta.model_name}")
def test_changelist_and_add_pages(admin_client, model):
    opts = model._meta
    changelist = admin_client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"))
    assert changelist.status_code == 200
    model_admin = admin.site._registry[model]  # noqa: SLF001
    add = admin_client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_add"))
    expected = 200 if model_admin.has_add_permission(add.wsgi_request) else 403
    assert add.status_code == expected


def test_admin_requires_staff(client, django_user_model):
    response = client.get(reverse("admin:index"))
    assert response.status_code == 302 and "/admin/login/" in response.url
    # force_login: a login through authenticate() needs the request (the login lockout counts per address).
    client.force_login(django_user_model.objects.create_user("plain", password="pw-123456"))
    assert client.get(reverse("admin:index")).status_code == 302


def test_admin_lists_core_models():
    names = {f"{m._meta.app_label}.{m._meta.model_name}" for m in MODELS}
    assert {"clubs.club", "clubs.member", "tournaments.tournament", "tournaments.round",
            "tournaments.game", "tournaments.bye", "tournaments.team", "tournaments.teammatch"} <= names
