"""Moderation on PostgreSQL: the same reports, bans, renames and ``sequence admin`` acts as
``test_moderation.py`` (those on a server), against a real PostgreSQL that the test starts
(``test_postgres.py``'s fixture; skipped, with the reason, where its binaries are absent)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import Server
from .test_moderation import (  # noqa: F401 - collected here again, on this module's server
    LIMITS,
    test_a_ban_keeps_an_account_from_rated_play_and_the_chat,
    test_a_game_whose_player_is_banned_while_playing_is_not_rated,
    test_a_player_reports_another_of_the_room_and_the_operator_reads_it,
    test_every_bad_report_is_refused,
    test_rename_keeps_the_session_and_the_look_alike_rule_holds,
    test_the_report_endpoints_find_no_private_room_by_guessing,
)
from .test_postgres import postgres_url  # noqa: F401 - the fixture

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def mod_server(postgres_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:  # noqa: F811
    tmp: Path = tmp_path_factory.mktemp("moderation-pg")
    srv = Server(postgres_url, log=tmp / "server.log", extra=LIMITS).start()
    yield srv
    srv.stop()
