"""Where the shared real-world data lies: ``shared/`` beside the repository (as in CI), or the
folder named by CLUBRATING_SHARED."""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CLUBRATING_SHARED") or ROOT.parent / "shared")
if not SHARED.is_dir() and Path("/work/shared").is_dir():
    SHARED = Path("/work/shared")
TRF_DIR = SHARED / "data" / "trf"
PGN_DIR = SHARED / "data" / "pgn"
