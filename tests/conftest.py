"""Test configuration: hypothesis without per-example deadlines.

Timing belongs in ``make bench``, not in unit tests; a deadline would only make
the suite flaky on a busy machine (cold caches make first examples slower).
"""

from hypothesis import settings

settings.register_profile("project", deadline=None, print_blob=True)
settings.load_profile("project")
