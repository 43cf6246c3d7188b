#!/usr/bin/env python3
"""What the web page weighs on a first load, per language, as a browser fetches it (issue 41).

    python scripts/first_load.py            # a table: files, bytes as served and uncompressed
    python scripts/first_load.py --json     # the same as JSON

It serves the app in this process (Starlette's test client, asking for ``gzip`` as browsers do),
fetches ``/``, the style sheet and script it names, every ES module the script imports statically
(followed recursively, as the browser does; modules imported with ``import()`` load when their
screen is first opened, so a first visit to the home page does not fetch them), and the language's catalogue (none for English, which is the
page's own text). "served" counts the bytes on the wire (compressed when the server compresses),
"raw" the files' own bytes. No database is kept: the store is SQLite in memory.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

LANGUAGES = ("en", "es", "da")
_REFS = re.compile(r'<(?:link[^>]*href|script[^>]*src)="(/static/[^"]+)"')
# static imports only (``from "./x.js"``, ``import "./x.js"``): a module behind ``import("./x.js")``
# loads when its screen is first used (the replay, the analysis, the rating pages), not on a first load
_IMPORTS = re.compile(r'(?:\bfrom|^import)\s+"(\./[^"]+\.js[^"]*)"', re.MULTILINE)


def first_load(client: Any, lang: str) -> dict[str, Any]:
    """The files of a first load in ``lang`` with their bytes (served, raw)."""
    files: dict[str, tuple[int, int]] = {}

    def get(url: str) -> str:
        res = client.get(url, headers={"Accept-Encoding": "gzip"})
        res.raise_for_status()
        files[url] = (res.num_bytes_downloaded, len(res.content))
        return str(res.text)

    page = get("/")
    todo = _REFS.findall(page)
    while todo:
        url = todo.pop()
        if url in files:
            continue
        text = get(url)
        if urlsplit(url).path.endswith(".js"):
            todo += [urljoin(url, found) for found in _IMPORTS.findall(text)]
            if urlsplit(url).path.endswith("/i18n.js") and lang != "en":
                version = urlsplit(url).query
                get(f"/static/i18n/{lang}.json" + (f"?{version}" if version else ""))
    served = sum(s for s, _ in files.values())
    raw = sum(r for _, r in files.values())
    return {"lang": lang, "files": len(files), "served": served, "raw": raw, "by_file": files}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    from starlette.testclient import TestClient

    from sequence_game.server.app import create_app
    from sequence_game.server.store import Store

    with TestClient(create_app(Store("sqlite://"))) as client:
        results = [first_load(client, lang) for lang in LANGUAGES]
    if args.json:
        print(json.dumps([{k: v for k, v in r.items() if k != "by_file"} for r in results], indent=1))
        return 0
    print(f"{'lang':5} {'files':>5} {'served KB':>10} {'raw KB':>8}")
    for r in results:
        print(f"{r['lang']:5} {r['files']:>5} {r['served'] / 1000:>10.1f} {r['raw'] / 1000:>8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
