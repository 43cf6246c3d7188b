"""Login sessions in a cookie, and the CSRF check of every request that a cookie authorises.

The session is a random token (32 bytes) that only the browser holds, in a cookie that scripts
cannot read (``HttpOnly``), sent to this site only (``SameSite=Strict``) and only over HTTPS when
the page came over HTTPS (``Secure``: the request's scheme, which a trusted proxy sets with
``X-Forwarded-Proto``, :mod:`.forwarded`). The store keeps the token's SHA-256 and its expiry
(:mod:`.account_store`), so a cookie the server did not issue, or issued and ended, names nobody;
every login issues a new token and ends the one the browser came with (no session fixation).

CSRF: a state-changing request with a session must carry ``X-CSRF-Token``, a value derived from
the session token (:func:`csrf_token`) that the page is told by ``GET /api/account`` and that a
page of another site can neither read nor compute. Besides, a request whose ``Origin`` (or
``Sec-Fetch-Site``) says another site sent it is refused, logins and registrations included
(those have no session yet: a forged login would sign the victim into the attacker's account).

>>> token = new_token()
>>> len(token) >= 43 and token_hash(token) != token and csrf_token(token) != token_hash(token)
True
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from starlette.requests import Request
from starlette.responses import Response

from ..i18n import N_
from .protocol import ProtocolError

COOKIE = "sequence_session"
CSRF_HEADER = "x-csrf-token"
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{40,64}$")


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the store keeps of a session token."""
    return hashlib.sha256(token.encode()).hexdigest()


def csrf_token(token: str) -> str:
    """The session's CSRF token: derived from the session token by another hash than the one the
    store keeps, so neither reveals the other."""
    return hashlib.sha256(b"sequence-csrf\0" + token.encode()).hexdigest()


def cookie_token(request: Request) -> str | None:
    """The session token of the request's cookie, if it has the form of one."""
    value = request.cookies.get(COOKIE)
    return value if value is not None and _TOKEN.match(value) else None


def set_cookie(response: Response, request: Request, token: str, seconds: float) -> None:
    response.set_cookie(
        COOKIE,
        token,
        max_age=int(seconds),
        path="/",
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )


def clear_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(
        COOKIE, path="/", httponly=True, samesite="strict", secure=request.url.scheme == "https"
    )


def same_origin(request: Request) -> bool:
    """Whether a browser would say this request came from this site's own page: its ``Origin``,
    when sent, is this site, and its ``Sec-Fetch-Site``, when sent, is not another site. A client
    that sends neither (not a browser) passes: the CSRF token or the password still guards it."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    if origin is None:
        return True
    host = request.headers.get("host", "")
    return origin.lower() == f"{request.url.scheme}://{host}".lower()


def check_origin(request: Request) -> None:
    if not same_origin(request):
        raise ProtocolError("csrf", N_("refused: this request came from another site"))


def check_csrf(request: Request, token: str) -> None:
    """Refuse a request that the session ``token`` authorises unless it comes from this site and
    carries the session's CSRF token."""
    check_origin(request)
    sent = request.headers.get(CSRF_HEADER, "")
    if not hmac.compare_digest(sent.encode(errors="replace"), csrf_token(token).encode()):
        raise ProtocolError(
            "csrf", N_("refused: the page's security token is missing or wrong; reload the page")
        )
