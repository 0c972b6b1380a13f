"""The game server: FastAPI over SQLAlchemy, seats with secret tokens, per-seat views,
verifiable dice and a server-rendered web UI (``grognard serve`` / ``grognard play``)."""
