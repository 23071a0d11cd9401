"""Where the real-world tournament files the tests read lie: ``tests/data`` inside the repository
(see ``tests/data/README.md`` for their sources)."""

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent / "data"
TRF_DIR = DATA_DIR / "trf"
PGN_DIR = DATA_DIR / "pgn"
FIDE_DIR = DATA_DIR / "fide"
