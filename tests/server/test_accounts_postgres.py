"""The accounts on PostgreSQL: the same flows and attacks as ``test_accounts.py`` (those that do
not read the SQLite file itself), against a real PostgreSQL that the test starts
(``test_postgres.py``'s fixture; skipped, with the reason, where its binaries are absent)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import Server
from .test_accounts import (  # noqa: F401 - collected here again, on this module's server
    LIMITS,
    test_a_forged_cookie_names_nobody,
    test_a_guest_claims_a_finished_game_for_a_new_account,
    test_a_logged_in_seat_carries_the_account_and_a_guest_plays_as_before,
    test_a_look_alike_of_a_registered_name_is_refused,
    test_a_secure_cookie_behind_https,
    test_brute_force_hits_the_limit_per_account_from_many_addresses,
    test_brute_force_hits_the_limit_per_address,
    test_change_the_password_ends_every_other_session,
    test_csrf_without_the_token_or_from_another_site_is_refused,
    test_every_request_is_validated,
    test_logout_ends_the_session_for_good,
    test_passkey_ceremonies_refuse_what_they_did_not_ask_for,
    test_the_login_form_does_not_tell_whether_a_name_exists,
    test_the_name_logs_in_under_any_of_its_forms,
)
from .test_postgres import postgres_url  # noqa: F401 - the fixture

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def accounts_server(postgres_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:  # noqa: F811
    tmp: Path = tmp_path_factory.mktemp("accounts-pg")
    srv = Server(postgres_url, log=tmp / "server.log", extra=LIMITS).start()
    yield srv
    srv.stop()
