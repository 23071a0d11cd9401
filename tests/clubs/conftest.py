"""The rated club of the ratings page tests serves the member page tests too, built once per
module."""

from tests.shared_rated_club import *  # noqa: F403 - fixtures
