"""PDFs under production settings: the print stylesheet is found under its hashed name."""

import json
from pathlib import Path

import pytest
from django.templatetags.static import static

from clubrating.core import pdf

pytestmark = pytest.mark.django_db

SOURCE = Path(__file__).resolve().parents[2] / "static" / "css" / "print.css"


@pytest.fixture
def manifest_storage(settings, tmp_path):
    settings.DEBUG = False
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    # What collectstatic leaves for the print stylesheet: the hashed copy and the manifest.
    hashed = "css/print.0123456789ab.css"
    (tmp_path / "css").mkdir()
    (tmp_path / hashed).write_bytes(SOURCE.read_bytes())
    manifest = {"version": "1.1", "paths": {"css/print.css": hashed}, "hash": "x"}
    (tmp_path / "staticfiles.json").write_text(json.dumps(manifest))


def test_hashed_stylesheet_is_read(manifest_storage):
    url = static("css/print.css")
    assert url == "/static/css/print.0123456789ab.css"
    body, mime_type = pdf._static_file(f"http://clubrating.invalid{url}")
    assert body == SOURCE.read_bytes() and mime_type == "text/css"


def test_pdf_is_styled_under_manifest_storage(manifest_storage, monkeypatch):
    fetched = []
    read = pdf._static_file

    def spy(url):
        body, mime_type = read(url)
        fetched.append((url, body))
        return body, mime_type

    monkeypatch.setattr(pdf, "_static_file", spy)
    context = pdf.print_context(club_name="SK Test", title="Liste", lines=[])
    document = pdf.render_pdf(None, "print/base_print.html", context)
    assert document.startswith(b"%PDF-")
    assert [body for url, body in fetched if "/css/print." in url] == [SOURCE.read_bytes()]
