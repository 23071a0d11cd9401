"""The WSGI application the production server (gunicorn) serves."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubrating.settings")

application = get_wsgi_application()

# The objects loaded at start (Django, the apps, the URL patterns, compiled regular expressions)
# live as long as the process: moved out of the garbage collector's generations, they are not
# scanned again by every collection a large page's allocations trigger (about 5 ms on a
# 300-player crosstable).
gc.freeze()
