#!/usr/bin/env bash
# Sets up everything ClubRating needs on a Debian machine that has only python3:
# system packages (skipping what is present), the virtual environment and the Python packages.
#   scripts/setup.sh          runtime only
#   scripts/setup.sh --dev    plus what the tests need (Chromium, poppler-utils, test packages)
set -euo pipefail
cd "$(dirname "$0")/.."

dev=0
[ "${1:-}" = "--dev" ] && dev=1

log() { printf '\033[1m==> %s\033[0m\n' "$*"; }

apt_install() {
  # Installs the named Debian packages that are not installed yet.
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "Need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  log "Installing Debian packages: ${missing[*]}"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

PYTHON=${PYTHON:-python3}
"$PYTHON" -c 'import sys; assert sys.version_info >= (3, 10), "Python 3.10+ needed"'

# WeasyPrint (PDFs) needs Pango and a font; venv needs ensurepip on Debian's python3.
system_pkgs=(libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core)
if ! "$PYTHON" -c 'import ensurepip, venv' 2>/dev/null; then
  system_pkgs+=("python3-venv")
fi
if [ $dev -eq 1 ]; then
  system_pkgs+=(chromium chromium-headless-shell poppler-utils)
fi
if command -v dpkg-query >/dev/null; then
  apt_install "${system_pkgs[@]}"
fi

if [ ! -x .venv/bin/python ]; then
  log "Creating the virtual environment in .venv"
  "$PYTHON" -m venv .venv
fi

if [ ! -f .env ]; then
  # A local installation gets its own secret key, so manage.py commands work without debug mode.
  log "Writing .env with a new secret key (see .env.example for every setting)"
  key=$("$PYTHON" -c 'import secrets; print(secrets.token_urlsafe(50))')
  printf '# Local settings written by scripts/setup.sh; see .env.example.\nDJANGO_SECRET_KEY=%s\nDJANGO_ALLOWED_HOSTS=127.0.0.1,localhost\n' "$key" > .env
  chmod 600 .env
fi

reqs=requirements.txt
[ $dev -eq 1 ] && reqs=requirements-dev.txt
# uv downloads, installs and compiles the pinned wheels in parallel: on a fresh clone this step took
# most of the set-up time with pip, one wheel after another. uv is itself a pinned wheel from PyPI,
# installed into .venv by pip; pip remains the fallback. --compile-bytecode as pip does: otherwise
# every Python process would compile the packages it imports again whenever bytecode is not
# written (PYTHONDONTWRITEBYTECODE). Not for the test packages: scripts/test.sh writes bytecode as
# the tests import modules, which is faster than compiling every installed package ahead.
compile=--compile-bytecode
[ $dev -eq 1 ] && compile=""
UV_VERSION=0.13.9
stamp=".venv/.installed-$(basename "$reqs" .txt)"
digest=$( (cat requirements.txt "$reqs"; echo "uv==$UV_VERSION") | sha256sum | cut -c1-16)
if [ "$(cat "$stamp" 2>/dev/null)" != "$digest" ]; then
  log "Installing Python packages from $reqs"
  # The pip a new virtual environment comes with (23 or later since Python 3.10.12) installs every
  # pinned wheel; upgrading it first cost a download and an install on every fresh clone.
  if ! .venv/bin/python -c 'import sys, pip; sys.exit(int(pip.__version__.split(".")[0]) < 23)'; then
    .venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
  fi
  if .venv/bin/python -m pip install -q --disable-pip-version-check "uv==$UV_VERSION" \
      && .venv/bin/python -m uv pip install -q $compile --python .venv/bin/python -r "$reqs"; then
    :
  else
    log "uv could not install the packages; installing them with pip"
    .venv/bin/python -m pip install -q --disable-pip-version-check -r "$reqs"
  fi
  echo "$digest" > "$stamp"
fi
