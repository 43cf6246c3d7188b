"""Passkeys (WebAuthn), a second way to log in: the ``webauthn`` package checks every ceremony.

========================================  ==========================================================
``POST /api/account/passkeys/options``    logged in: the options to create a passkey (a challenge)
``POST /api/account/passkeys``            logged in: ``{credential}``, the new passkey, checked, kept
``POST /api/account/passkey-login/options``  the options to log in (a challenge; any passkey of the site)
``POST /api/account/passkey-login``       ``{credential}``: the assertion, checked; a new session
========================================  ==========================================================

Each challenge is random (32 bytes), kept in the store (``passkey_challenges``, by its SHA-256, for
every worker) with its purpose (an account to add to, or a login) for two minutes, and used once:
it is deleted when the answer comes, whatever the answer. The relying party is the page's host
(``localhost``, ``example.org``; a passkey cannot be made for a bare IP address) and the origin the
page's own (scheme and ``Host``: behind a proxy, forward ``Host`` and ``X-Forwarded-Proto``).
Passkeys are discoverable (resident), so logging in asks for no name; the user handle the
authenticator returns must be the account's. The stored public key is all the server keeps; the
signature counter is checked and updated when the authenticator keeps one.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

import sqlalchemy as sa
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url, parse_client_data_json
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from ..i18n import N_
from .account_routes import AccountRoutes
from .account_store import Account, passkey_challenges, passkeys
from .accounts import LOGINS
from .protocol import ProtocolError
from .sessions import check_origin, cookie_token
from .shared_limits import client_key
from .store import Store

CHALLENGE_SECONDS = 120.0
MAX_PASSKEYS = 20
"""Passkeys one account may hold."""
BAD_PASSKEY = ProtocolError("bad_passkey", N_("that passkey could not be checked; try again"))


class CredentialBody(BaseModel):
    """A ``PublicKeyCredential`` as the page's ``toJSON()`` gives it (its parts are checked by
    the ``webauthn`` package; the body's size by the server's body limit)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    credential: dict[str, Any]


class PasskeyStore:
    """The statements on ``passkeys`` and ``passkey_challenges`` (blocking: run them off the loop)."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def save_challenge(self, challenge: bytes, account_id: int | None) -> None:
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(passkey_challenges.delete().where(passkey_challenges.c.expires_at < now))
            conn.execute(
                passkey_challenges.insert().values(
                    id_hash=hashlib.sha256(challenge).hexdigest(),
                    challenge=bytes_to_base64url(challenge),
                    account_id=account_id,
                    expires_at=now + CHALLENGE_SECONDS,
                )
            )

    def take_challenge(self, challenge: bytes) -> tuple[bool, int | None]:
        """Use a challenge up: whether it was there, unexpired, and the account it was made for."""
        with self.engine.begin() as conn:
            row = conn.execute(
                passkey_challenges.delete()
                .where(passkey_challenges.c.id_hash == hashlib.sha256(challenge).hexdigest())
                .returning(passkey_challenges.c.account_id, passkey_challenges.c.expires_at)
            ).first()
        if row is None or row.expires_at < time.time():
            return False, None
        return True, row.account_id

    def credential_ids(self, account_id: int) -> list[str]:
        with self.engine.connect() as conn:
            query = sa.select(passkeys.c.credential_id).where(passkeys.c.account_id == account_id)
            return [str(r) for r in conn.execute(query).scalars()]

    def add(self, account_id: int, credential_id: str, public_key: bytes, sign_count: int) -> bool:
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    passkeys.insert().values(
                        credential_id=credential_id,
                        account_id=account_id,
                        public_key=public_key,
                        sign_count=sign_count,
                        created_at=time.time(),
                    )
                )
        except sa.exc.IntegrityError:
            return False
        return True

    def find(self, credential_id: str) -> tuple[int, bytes, int] | None:
        """(account id, public key, signature count) of a stored passkey."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(passkeys).where(passkeys.c.credential_id == credential_id)).first()
        return None if row is None else (int(row.account_id), bytes(row.public_key), int(row.sign_count))

    def set_count(self, credential_id: str, sign_count: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                passkeys.update()
                .where(passkeys.c.credential_id == credential_id)
                .values(sign_count=sign_count)
            )


def relying_party(request: Request) -> tuple[str, str]:
    """(RP ID, origin) of the page the request came from: its host, and scheme plus ``Host``."""
    host = request.headers.get("host", "")
    return request.url.hostname or "", f"{request.url.scheme}://{host}"


def _challenge_of(credential: dict[str, Any]) -> bytes:
    """The challenge the page signed, read from its client data (checked again by ``webauthn``)."""
    try:
        response = credential["response"]
        return bytes(parse_client_data_json(base64url_to_bytes(response["clientDataJSON"])).challenge)
    except (KeyError, TypeError, ValueError, WebAuthnException):
        raise BAD_PASSKEY from None


def _options(options: Any) -> JSONResponse:
    return JSONResponse(json.loads(options_to_json(options)), headers={"Cache-Control": "no-store"})


class Passkeys:
    """The passkey endpoints, beside :class:`.account_routes.AccountRoutes`."""

    def __init__(self, routes: AccountRoutes, store: Store) -> None:
        self.routes = routes
        self.accounts = routes.accounts
        self.db = PasskeyStore(store)

    async def _limit(self, request: Request) -> None:
        """A passkey ceremony costs a login attempt of the client's address (``logins_*``)."""
        limits = self.accounts.limits
        key = client_key(request.client.host if request.client else "")
        await self.accounts.limit(LOGINS, key, limits.logins_per_minute, limits.logins_burst)

    async def _take(self, credential: dict[str, Any]) -> tuple[bytes, int | None]:
        challenge = _challenge_of(credential)
        found, account_id = await self.accounts.run(self.db.take_challenge, challenge)
        if not found:
            raise BAD_PASSKEY
        return challenge, account_id

    def install(self, app: FastAPI) -> None:
        accounts, db = self.accounts, self.db

        @app.post("/api/account/passkeys/options")
        async def register_options(request: Request) -> JSONResponse:
            account, _token = await self.routes.required(request)
            await self._limit(request)  # each options request stores a challenge: bounded
            known = await accounts.run(db.credential_ids, account.id)
            if len(known) >= MAX_PASSKEYS:
                raise ProtocolError("bad_passkey", N_("an account holds at most 20 passkeys"))
            rp_id, _origin = relying_party(request)
            options = generate_registration_options(
                rp_id=rp_id,
                rp_name="Sequence",
                user_id=account.user_handle.encode(),
                user_name=account.name,
                user_display_name=account.name,
                exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in known],
                authenticator_selection=AuthenticatorSelectionCriteria(
                    resident_key=ResidentKeyRequirement.REQUIRED,
                    user_verification=UserVerificationRequirement.PREFERRED,
                ),
            )
            await accounts.run(db.save_challenge, options.challenge, account.id)
            return _options(options)

        @app.post("/api/account/passkeys", status_code=201)
        async def register(body: CredentialBody, request: Request) -> dict[str, Any]:
            account, _token = await self.routes.required(request)
            challenge, for_account = await self._take(body.credential)
            if for_account != account.id:
                raise BAD_PASSKEY
            rp_id, origin = relying_party(request)
            try:
                verified = verify_registration_response(
                    credential=body.credential,
                    expected_challenge=challenge,
                    expected_rp_id=rp_id,
                    expected_origin=origin,
                )
            except (WebAuthnException, KeyError, TypeError, ValueError):
                raise BAD_PASSKEY from None
            credential_id = bytes_to_base64url(verified.credential_id)
            if len(credential_id) > 400 or not await accounts.run(
                db.add, account.id, credential_id, verified.credential_public_key, verified.sign_count
            ):
                raise BAD_PASSKEY
            return {"ok": True}

        @app.post("/api/account/passkey-login/options")
        async def login_options(request: Request) -> JSONResponse:
            check_origin(request)
            await self._limit(request)
            rp_id, _origin = relying_party(request)
            options = generate_authentication_options(
                rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED
            )
            await accounts.run(db.save_challenge, options.challenge, None)
            return _options(options)

        @app.post("/api/account/passkey-login")
        async def login(body: CredentialBody, request: Request) -> JSONResponse:
            check_origin(request)
            challenge, for_account = await self._take(body.credential)
            if for_account is not None:  # a registration's challenge is no login's
                raise BAD_PASSKEY
            credential_id = body.credential.get("id")
            found = await accounts.run(db.find, credential_id) if isinstance(credential_id, str) else None
            if found is None:
                raise BAD_PASSKEY
            account_id, public_key, count = found
            account = await accounts.run(accounts.db.by_id, account_id)
            if account is None or not _handle_matches(body.credential, account):
                raise BAD_PASSKEY
            rp_id, origin = relying_party(request)
            try:
                verified = verify_authentication_response(
                    credential=body.credential,
                    expected_challenge=challenge,
                    expected_rp_id=rp_id,
                    expected_origin=origin,
                    credential_public_key=public_key,
                    credential_current_sign_count=count,
                )
            except (WebAuthnException, KeyError, TypeError, ValueError):
                raise BAD_PASSKEY from None
            await accounts.run(db.set_count, credential_id, verified.new_sign_count)
            token = await accounts.start_session(account, replaces=cookie_token(request))
            return self.routes.logged_in(request, account, token)


def _handle_matches(credential: dict[str, Any], account: Account) -> bool:
    """The user handle the authenticator returned, when it returned one, is the account's."""
    response = credential.get("response")
    handle = response.get("userHandle") if isinstance(response, dict) else None
    if handle is None:
        return True
    try:
        return isinstance(handle, str) and base64url_to_bytes(handle) == account.user_handle.encode()
    except ValueError:
        return False
