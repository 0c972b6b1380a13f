"""Telling a seat that it must act: an optional webhook (a JSON POST) and e-mail per seat.

A seat is told when it becomes one of the players who must act (it was not, before the last
command or undo), never when it need not act, never for a bot's seat. The message holds public
facts only: the game's title, its turn and phase, and the seat's link (the link's token is the
seat's own). SMTP settings come from the environment: ``GROGNARD_SMTP_HOST`` (no host: no
e-mail), ``GROGNARD_SMTP_PORT`` (25), ``GROGNARD_SMTP_FROM``; ``GROGNARD_BASE_URL`` prefixes
the link. Sending runs in a thread and never fails a command.
"""

from __future__ import annotations

import json
import os
import re
import smtplib
import threading
import urllib.request
from email.message import EmailMessage
from typing import Any

from sqlalchemy import delete, insert, select

from grognard.core.errors import InputError
from grognard.server.extras_db import notify, ready
from grognard.server.store import Store

EMAIL = re.compile(r"^[^@\s]+@[^@\s]+$")
#: what was sent, for tests and the server's own log: (channel, address, text)
SENT: list[tuple[str, str, str]] = []


def settings(store: Store, gid: str, player: str) -> dict[str, str]:
    with ready(store.engine).connect() as conn:
        r = conn.execute(select(notify).where(notify.c.game_id == gid)
                         .where(notify.c.player == player)).mappings().first()
    return {"webhook": r["webhook"] if r else "", "email": r["email"] if r else ""}


def configure(store: Store, gid: str, player: str, webhook: str, email: str) -> dict[str, str]:
    webhook, email = webhook.strip(), email.strip()
    if webhook and not webhook.startswith(("http://", "https://")):
        raise InputError("webhook", "an http:// or https:// address")
    if email and not EMAIL.match(email):
        raise InputError("email", "an e-mail address")
    with ready(store.engine).begin() as conn:
        conn.execute(delete(notify).where(notify.c.game_id == gid)
                     .where(notify.c.player == player))
        if webhook or email:
            conn.execute(insert(notify).values(game_id=gid, player=player, webhook=webhook,
                                               email=email))
    return {"webhook": webhook, "email": email}


def message(title: str, status: dict[str, Any], link: str) -> str:
    when = status.get("date") or f"turn {status.get('turn')}"
    return f"Your turn in {title} ({when}, {status.get('phase')} phase): {link}"


def _webhook(url: str, payload: dict[str, Any]) -> None:
    req = urllib.request.Request(url, data=json.dumps(payload).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=5) as r:
        r.read()


def _email(to: str, text: str) -> None:
    host = os.environ.get("GROGNARD_SMTP_HOST")
    if not host:
        return
    msg = EmailMessage()
    msg["From"] = os.environ.get("GROGNARD_SMTP_FROM", "grognard@localhost")
    msg["To"] = to
    msg["Subject"] = "grognard: your turn"
    msg.set_content(text)
    with smtplib.SMTP(host, int(os.environ.get("GROGNARD_SMTP_PORT", "25")), timeout=5) as s:
        s.send_message(msg)


def send(store: Store, gid: str, player: str, token: str, title: str,
         status: dict[str, Any], wait: bool = False) -> None:
    """Tell ``player`` it must act, by its webhook and e-mail if it set them."""
    conf = settings(store, gid, player)
    if not conf["webhook"] and not conf["email"]:
        return
    link = os.environ.get("GROGNARD_BASE_URL", "").rstrip("/") + f"/play/{token}"
    text = message(title, status, link)

    def go() -> None:
        if conf["webhook"]:
            try:
                _webhook(conf["webhook"], {"game": gid, "player": player, "text": text,
                                           "link": link})
                SENT.append(("webhook", conf["webhook"], text))
            except OSError:
                SENT.append(("webhook-failed", conf["webhook"], text))
        if conf["email"]:
            try:
                _email(conf["email"], text)
                SENT.append(("email", conf["email"], text))
            except (OSError, smtplib.SMTPException):
                SENT.append(("email-failed", conf["email"], text))

    t = threading.Thread(target=go, daemon=True)
    t.start()
    if wait:
        t.join(10)
