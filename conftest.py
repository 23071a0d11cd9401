import os

# Settings read these at import time; tests never need a real secret.
os.environ.setdefault("CLUBRATING_TESTING", "1")
