"""Issue 41, "Bots by name": bots are offered and named by their level (easy .. expert) in the
page's language, with one default for the lobby and "Play a bot now", distinct names for two bots
at one table, and the API and the websocket accept a level's name."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sequence_game.bots import level_bot

from .conftest import Server
from .test_web_table import seated_page

STATIC = Path(__file__).resolve().parents[2] / "src" / "sequence_game" / "server" / "static"


def catalogue(lang: str) -> dict[str, Any]:
    data = json.loads((STATIC / "i18n" / f"{lang}.json").read_text())
    return dict(data.get("messages", data))


def test_the_api_and_the_websocket_take_a_levels_name(server: Server) -> None:
    room = server.create_room(players=2, name="Ann", against="easy")
    assert room["room"]["status"] == "playing"
    assert room["room"]["seats"][1]["bot_level"] == level_bot("easy")
    assert room["room"]["levels"][level_bot("easy")] == "easy"
    lobby = server.create_room(players=3, name="Bo")
    host = server.client(lobby["code"], lobby["token"])
    host.send({"type": "bot", "seat": 1, "level": "medium"})
    host.send({"type": "bot", "seat": 2, "level": "expert"})
    seats = host.recv_until(
        lambda m: m["type"] == "state" and m["room"]["seats"][2]["kind"] == "bot", timeout=20
    )["room"]["seats"]
    assert [s["bot_level"] for s in seats[1:]] == [level_bot("medium"), level_bot("expert")]
    refused = host.error({"type": "bot", "seat": 1, "level": "grandmaster"})
    assert refused["code"] == "bad_bot" and "easy" in refused["message"]
    host.close()
    bad = server.post("/api/rooms", {"players": 2, "against": "grandmaster"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_bot"
    assert server.get("/api/bots").json()["levels"] == ["easy", "medium", "hard", "expert"]


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "es", "da"])
def test_levels_by_their_names_one_default_and_distinct_bots(server: Server, browser: Any, lang: str) -> None:
    words = catalogue(lang) if lang != "en" else {}
    word = {level: words.get(level) or level for level in ("easy", "medium", "hard", "expert")}
    room = server.create_room(players=3, name="Ann")
    code = room["code"]
    page = seated_page(server, browser, code, 0, room["token"])
    page.context.add_init_script(f"localStorage.setItem('seq-lang', '{lang}')")
    page.reload()
    page.locator("#lobby").wait_for()
    options = page.locator("#bot-level option")
    assert options.evaluate_all("(os) => os.map((o) => [o.value, o.textContent])") == [
        [level, word[level]] for level in ("easy", "medium", "hard", "expert")
    ]
    assert page.locator("#bot-level").input_value() == "hard"
    page.select_option("#bot-level", "easy")
    for seat in (1, 2):
        page.locator(f"#seats li[data-seat='{seat}'] button.add-bot").click()
        page.locator(f"#seats li[data-seat='{seat}'] .tag", has_text=words.get("bot", "bot")).wait_for()
    names = [page.locator(f"#seats li[data-seat='{seat}'] .who").inner_text() for seat in (1, 2)]
    assert names == [f"Bot 1 ({word['easy']})", f"Bot 2 ({word['easy']})"], names
    page.click("#start-btn")
    page.locator("#game").wait_for(timeout=30_000)
    table = page.locator("#players").inner_text()
    assert "random" not in table and f"Bot 2 ({word['easy']})" in table, table
    # the screen-reader labels of the table name the bots the same way
    label = page.locator("#players li[data-seat='2'] .history").get_attribute("aria-label")
    assert label is not None and f"Bot 2 ({word['easy']})" in label, label
    assert not page.errors
    # "Play a bot now" offers the same levels with the same default
    home = page.context.new_page()
    home.goto(server.http + "/")
    home.locator("#open-rooms li").first.wait_for()  # the page's script has set the form up
    assert home.locator("#bot-now-level").input_value() == "hard"
    assert home.locator("#bot-now-level option").evaluate_all("(os) => os.map((o) => o.value)") == [
        "easy",
        "medium",
        "hard",
        "expert",
    ]
    page.context.close()
