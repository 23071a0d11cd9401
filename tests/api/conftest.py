"""The API's tests read the small rated club of the rating pages' tests, built once per module:
the same data on the page and in the API."""

from tests.shared_rated_club import *  # noqa: F403 - fixtures
