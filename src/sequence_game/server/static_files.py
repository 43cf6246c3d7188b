"""The page's files as the browser gets them: compressed once, named by version, cached for good.

Why: the page is a no-build set of ES modules, a style sheet and a catalogue per language; sent
plain and uncached, a first load weighed 111-193 KB and every visit fetched it all again (issue 41).
At start-up every file under ``static/`` is read once and gzipped once (level 9). All of them share
one *version*, the first hex digits of a SHA-256 over every file but ``index.html``; the page names
its style sheet and script with ``?v=<version>``, and each module's imports are rewritten the same
way, so a browser keeps them for a year (``immutable``) and a new release, whose version differs,
is fetched anew. ``index.html`` itself is ``no-cache`` (revalidated with its ETag every time), as is
any file asked for without the current version. The catalogues are fetched by ``i18n.js`` with
its own version (``import.meta.url``'s query).

A leaf of the server: it knows nothing of rooms.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response

#: How long a versioned file may be kept: a year, never revalidated (its name changes with it).
FOREVER = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
_IMPORT = re.compile(r'((?:\bfrom|\bimport)\s*\(?\s*")(\./[\w.-]+\.js)(")')
#: Comments the browser need not download: whole ``//`` lines and ``/* ... */`` blocks that start a
#: line in a script (``tests/server/test_weight.py`` checks that the tokens stay the same), every
#: comment of the style sheet. The files on disk keep them.
_JS_LINE = re.compile(r"^[ \t]*//[^\n]*\n", re.MULTILINE)
_JS_BLOCK = re.compile(r"^[ \t]*/\*.*?\*/[ \t]*\n", re.MULTILINE | re.DOTALL)
_CSS_COMMENT = re.compile(r"/\*.*?\*/\n?", re.DOTALL)
_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
          ".json": "application/json", ".html": "text/html; charset=utf-8"}  # fmt: skip


def strip_script(text: str) -> str:
    """A module without its comment lines and comment blocks (see ``_JS_LINE``, ``_JS_BLOCK``)."""
    return _JS_BLOCK.sub("", _JS_LINE.sub("", text))


@dataclass(frozen=True)
class Asset:
    body: bytes
    gzipped: bytes | None
    """The gzip form, when smaller than the body."""
    media_type: str
    etag: str


def _asset(body: bytes, name: str) -> Asset:
    squeezed = gzip.compress(body, compresslevel=9, mtime=0)
    media = _TYPES.get(Path(name).suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"
    etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
    return Asset(body, squeezed if len(squeezed) < len(body) else None, media, etag)


class StaticAssets:
    """Every file under ``root``, versioned and compressed in memory; :meth:`serve` and :meth:`page`
    answer requests for them."""

    def __init__(self, root: Path) -> None:
        files = {
            p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
        }
        digest = hashlib.sha256()
        for name, body in files.items():
            if name != "index.html":
                digest.update(name.encode() + b"\0" + hashlib.sha256(body).digest())
        self.version = digest.hexdigest()[:12]
        suffix = "?v=" + self.version
        self.assets: dict[str, Asset] = {}
        for name, body in files.items():
            if name.endswith(".js"):
                text = _IMPORT.sub(lambda m: m[1] + m[2] + suffix + m[3], strip_script(body.decode("utf-8")))
                body = text.encode("utf-8")
            elif name.endswith(".css"):
                body = _CSS_COMMENT.sub("", body.decode("utf-8")).encode("utf-8")
            elif name == "index.html":
                text = body.decode("utf-8")
                for ref in ("/static/style.css", "/static/js/main.js"):
                    text = text.replace(f'"{ref}"', f'"{ref}{suffix}"')
                body = text.encode("utf-8")
            self.assets[name] = _asset(body, name)

    def _send(self, request: Request, asset: Asset, cache: str) -> Response:
        headers = {"Cache-Control": cache, "ETag": asset.etag, "Vary": "Accept-Encoding"}
        if request.headers.get("if-none-match") == asset.etag:
            return Response(status_code=304, headers=headers)
        body = asset.body
        if asset.gzipped is not None and "gzip" in request.headers.get("accept-encoding", ""):
            body, headers["Content-Encoding"] = asset.gzipped, "gzip"
        if request.method == "HEAD":
            headers["Content-Length"] = str(len(body))
            return Response(status_code=200, headers=headers, media_type=asset.media_type)
        return Response(body, headers=headers, media_type=asset.media_type)

    async def serve(self, request: Request) -> Response:
        """``GET /static/{path}``: the file, kept for a year when asked for by its current version."""
        asset = self.assets.get(request.path_params["path"])
        if asset is None or request.path_params["path"] == "index.html":
            return Response('{"type": "error", "code": "not_found", "message": "Not Found"}', 404,
                            media_type="application/json")  # fmt: skip
        versioned = request.query_params.get("v") == self.version
        return self._send(request, asset, FOREVER if versioned else REVALIDATE)

    def page(self, request: Request) -> Response:
        """The page itself (``/``, ``/r/CODE``): always revalidated, so a release shows at once."""
        return self._send(request, self.assets["index.html"], REVALIDATE)
