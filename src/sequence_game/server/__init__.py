"""``sequence serve``: rooms over websockets, one authoritative engine per game, stored in a database.

Import :func:`sequence_game.server.app.create_app` to build the ASGI application; this package is
only imported by the ``serve`` command, so FastAPI never loads with the engine.
"""
