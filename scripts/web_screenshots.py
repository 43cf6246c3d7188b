#!/usr/bin/env python3
"""Take the screenshots of ``docs/web.md``: the web table's features, in a real Chromium.

    .venv/bin/python scripts/web_screenshots.py [--out docs/img] [--chromium /usr/bin/chromium]

Starts ``sequence serve`` on a free loopback port with a throw-away SQLite file, sets games up over
the HTTP API and websockets as people would, drives the page with Playwright and writes
``web_*.png`` (each kept under 200 KB: a PNG over that is re-saved with a 256-colour palette).
Needs the ``server`` and ``test`` extras (Playwright) and Debian's Chromium; Pillow (with the
``plot`` extra's matplotlib) only when a picture has to be shrunk.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright
from websockets.sync.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
MAX_BYTES = 200 * 1024
DESKTOP: ViewportSize = {"width": 1280, "height": 860}
PHONE: ViewportSize = {"width": 390, "height": 844}
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


# ------------------------------------------------------------------------------------ the server


@contextmanager
def server(db: Path) -> Iterator[str]:
    """``sequence serve`` in a child process; yields its base URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "sequence_game", "serve", "--port", str(port), "--db", str(db)]
    cmd += ["--bot-delay", "0", "--bot-seconds", "0.05", "--log-level", "warning"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(url + "/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            raise RuntimeError("the server did not start")
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


class Seat:
    """One seat's websocket: it keeps the latest state it was sent."""

    def __init__(self, url: str, code: str, token: str | None) -> None:
        self.ws: ClientConnection = connect(
            url.replace("http", "ws") + f"/ws/{code}", max_size=2**22, legacy=True
        )
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.last: dict[str, Any] = {}
        self.recv()

    def recv(self, timeout: float = 20) -> dict[str, Any]:
        msg = json.loads(self.ws.recv(timeout=timeout))
        if msg.get("type") in ("welcome", "state"):
            self.last = msg
        return dict(msg)

    def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 30) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while not pred(self.last):
            self.recv(max(0.1, end - time.monotonic()))
        return self.last

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))


def my_turn(seat: int) -> Callable[[dict[str, Any]], bool]:
    def pred(m: dict[str, Any]) -> bool:
        v = m.get("view") or {}
        return bool(v.get("termination")) or (
            seat in v.get("seats_to_act", ()) and bool(v.get("legal_actions"))
        )

    return pred


def newer_than(version: int) -> Callable[[dict[str, Any]], bool]:
    return lambda m: int(m.get("version", 0)) > version


def play_out(seat: Seat, me: int) -> None:
    """Play ``me``'s turns (the last legal action: varied, chips first) until the game ends."""
    while True:
        m = seat.until(my_turn(me), timeout=60)
        if m["view"]["termination"]:
            return
        legal = list(m["view"]["legal_actions"])
        seat.send({"type": "act", "action": legal[len(legal) // 2], "version": m["version"]})
        seat.until(newer_than(int(m["version"])))


def create(url: str, **body: Any) -> dict[str, Any]:
    r = httpx.post(url + "/api/rooms", json=body, timeout=10)
    r.raise_for_status()
    return dict(r.json())


# ------------------------------------------------------------------------------------ the page


def open_seat(browser: Browser, url: str, code: str, token: str, **ctx: Any) -> Page:
    context = browser.new_context(**({"viewport": DESKTOP} | ctx))
    stored = json.dumps(json.dumps({"seat": 0, "token": token}))
    context.add_init_script(f"localStorage.setItem('seq-{code}', {stored})")
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{url}/r/{code}")
    return page


def click_move(page: Page) -> None:
    """Ann plays by clicks: a playable card, then its first highlighted space."""
    page.locator("#status.mine").wait_for()
    lines = page.locator("#log li").count()
    page.locator("#hand .card.playable").last.click()
    page.locator("#board .cell.target").first.click()
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {lines}")


def save(page: Page, path: Path, **kwargs: Any) -> None:
    """A screenshot, re-saved with a 256-colour palette when it is over :data:`MAX_BYTES`."""
    data = page.screenshot(**kwargs)
    if len(data) > MAX_BYTES:
        from PIL import Image

        image = Image.open(io.BytesIO(data)).convert("RGB").quantize(256)
        out = io.BytesIO()
        image.save(out, format="PNG", optimize=True)
        data = out.getvalue()
    path.write_bytes(data)
    print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {len(data) // 1024} KB")


# ------------------------------------------------------------------------------------ the shots


def table_shots(browser: Browser, url: str, out: Path) -> None:
    """A 3-player game with clocks and hints, a few rounds in: desktop, phone and Danish."""
    room = create(
        url, players=3, name="Ann", against="greedy", hints=True, clock_minutes=5, clock_increment=3
    )
    code, token = room["code"], room["token"]
    page = open_seat(browser, url, code, token)
    for _ in range(4):
        click_move(page)
    page.locator("#status.mine").wait_for()
    page.wait_for_timeout(1200)  # Ann's clock has visibly run
    page.locator("#two-step").check()
    plain = page.locator("#hand .card.playable:not([data-card^=j])")  # a jack would light every space
    (plain.first if plain.count() else page.locator("#hand .card.playable").first).click()
    page.locator("#board .cell.target").first.click()  # two-step: chosen, waiting for Confirm
    page.locator("#confirm-btn").wait_for()
    page.locator("#log button.coord").nth(-2).click()  # a log line's cell, framed on the board
    save(page, out / "web_table.png")

    phone = open_seat(browser, url, code, token, viewport=PHONE, device_scale_factor=1)
    phone.locator("#players .clock").first.wait_for()
    save(phone, out / "web_phone.png", full_page=False)
    phone.locator("#players").scroll_into_view_if_needed()
    save(phone, out / "web_phone_table.png", full_page=False)

    danish = open_seat(browser, url, code, token, locale="da-DK")
    danish.locator("#players .clock").first.wait_for()
    danish.locator("#hint-btn").click()
    danish.locator("#hint-note", has_text="Tip").wait_for()
    save(danish, out / "web_danish.png")
    for p in (page, phone, danish):
        p.context.close()


def end_and_replay_shots(browser: Browser, url: str, out: Path) -> None:
    """A game played to its end: the result with rematch and match score, then its replay."""
    room = create(url, players=2, name="Ann", against="random")
    code, token = room["code"], room["token"]
    ann = Seat(url, code, token)
    play_out(ann, 0)
    page = open_seat(browser, url, code, token)
    page.locator("#over").wait_for()
    page.locator("#match").wait_for()
    page.wait_for_timeout(1000)  # the banner's fade-in
    save(page, out / "web_over.png", clip={"x": 0, "y": 0, "width": DESKTOP["width"], "height": 520})
    page.click("#replay-btn")
    page.locator("#replay").wait_for()
    slider = page.locator("#replay-slider")
    middle = int(int(slider.get_attribute("max") or "0") * 0.6)
    slider.fill(str(middle))
    page.locator("#replay-moves li").nth(middle).scroll_into_view_if_needed()
    save(page, out / "web_replay.png")
    page.context.close()
    ann.ws.close()


def flag_shot(browser: Browser, url: str, out: Path) -> None:
    """A bullet game (3 s each) that Ann loses on time."""
    room = create(url, players=2, name="Ann", against="random", clock_minutes=0.05, clock_flag="loss")
    page = open_seat(browser, url, room["code"], room["token"])
    page.locator("#over-text", has_text="ran out of time").wait_for()
    page.wait_for_timeout(1000)
    save(page, out / "web_flag.png", clip={"x": 0, "y": 0, "width": DESKTOP["width"], "height": 520})
    page.context.close()


def lobby_shot(browser: Browser, url: str, out: Path) -> None:
    """The home page with public rooms open, one of them with clocks."""
    create(url, players=4, name="Bea", public=True, clock_minutes=10, clock_increment=5)
    create(url, players=3, name="Carl", public=True)
    create(url, players=6, teams=3, name="Dana", public=True, hints=True)
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(url + "/")
    page.locator("#open-rooms li[data-code]").nth(2).wait_for()
    page.fill("#create-form input[name=name]", "Ann")
    page.select_option("#create-form select[name=clock_minutes]", "5")
    page.fill("#create-form input[name=clock_increment]", "3")
    save(page, out / "web_home.png")
    context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    parser.add_argument("--chromium", default=os.environ.get("SEQUENCE_CHROMIUM", "/usr/bin/chromium"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, server(Path(tmp) / "shots.db") as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, headless=True, args=ARGS)
        try:
            lobby_shot(browser, url, args.out)
            table_shots(browser, url, args.out)
            end_and_replay_shots(browser, url, args.out)
            flag_shot(browser, url, args.out)
        finally:
            browser.close()


if __name__ == "__main__":
    main()
