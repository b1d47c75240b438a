"""Your-turn e-mail (issue 23) through an SMTP server the operator configures (`TABLETOP_SMTP_HOST`; off without).

`TurnMail.sweep` looks at the games in play that have a seat of an account with an address and turn mail on; for
every such seat that owes a decision it first stores a `turn_mails` row keyed by (game, seat, the event count the
decision has stood since) and sends only if that insert succeeded: at most one mail per game, seat and turn, even
with several server processes (a failed send is logged, not retried: at most once). The process that owns the AI
moves sweeps every `mail_interval` seconds on a thread of its own. Each mail carries a one-click opt-out link
(`/api/mail/optout/{token}`, also as `List-Unsubscribe` with `List-Unsubscribe-Post`, RFC 8058).
"""

from __future__ import annotations

import logging
import smtplib
import threading
from email.message import EmailMessage
from email.policy import SMTP

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.exc import IntegrityError

from tabletop.server.models import AccountRow, GameRow, SeatRow, TurnMailRow
from tabletop.server.pubsub import Broker
from tabletop.server.service import GameService, ServiceError
from tabletop.server.settings import Settings
from tabletop.server.storage import Storage, now

log = logging.getLogger("tabletop.server")
SMTP_POLICY = SMTP.clone(max_line_length=998)


class TurnMail:
    """Sends "your turn" mails; `sweep` once, or `start` a thread that sweeps every `mail_interval` seconds."""

    def __init__(self, service: GameService, storage: Storage, broker: Broker, settings: Settings) -> None:
        self.service, self.storage, self.broker, self.settings = service, storage, broker, settings
        self.sent = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def enabled(self) -> bool:
        """Whether an SMTP server is configured."""
        return bool(self.settings.smtp_host)

    def start(self) -> None:
        """Sweep on a thread of its own (only with an SMTP server)."""
        if not self.enabled:
            return
        self._thread = threading.Thread(target=self._run, name="tabletop-mail", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop sweeping."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _run(self) -> None:
        while not self._stop.wait(self.settings.mail_interval):
            if self.broker.owns_ai():
                try:
                    self.sweep()
                except Exception:
                    log.exception("the your-turn mail sweep failed")

    def sweep(self) -> int:
        """Send the mails owed now: how many were sent."""
        if not self.enabled:
            return 0
        with self.storage._session() as s:
            rows = s.execute(
                select(SeatRow.game_id, SeatRow.seat, AccountRow.username, AccountRow.email, AccountRow.mail_token,
                       GameRow.game)
                .join(AccountRow, AccountRow.id == SeatRow.account_id)
                .join(GameRow, GameRow.id == SeatRow.game_id)
                .where(GameRow.status == "playing", AccountRow.email.is_not(None), AccountRow.turn_mail.is_(True))
            ).all()
        count = 0
        for game_id, seat, username, email, token, game in rows:
            try:
                _, _, status, owing = self.service.owing(game_id)
            except ServiceError:
                continue
            if status != "playing" or seat not in owing:
                continue
            since = owing[seat][0]
            if not self._claim(game_id, seat, since):
                continue
            if self._send(str(email), str(username), game_id, str(game), str(token or "")):
                count += 1
        self.sent += count
        return count

    def _claim(self, game_id: str, seat: int, since: int) -> bool:
        row = {"game_id": game_id, "seat": seat, "since": since, "time": now()}
        try:
            self.storage._write(lambda conn: conn.execute(insert(TurnMailRow.__table__), row))  # type: ignore[arg-type]
        except IntegrityError:
            return False
        return True

    def _send(self, to: str, username: str, game_id: str, game: str, token: str) -> bool:
        base = self.settings.public_url.rstrip("/")
        optout = f"{base}/api/mail/optout/{token}"
        return send_mail(self.settings, to, f"Your turn in {game} ({game_id[:8]})",
                         f"Hello {username},\n\nit is your turn in your {game} game {game_id}: {base}/\n\n"
                         f"No more of these mails (one click): {optout}\n",
                         {"List-Unsubscribe": f"<{optout}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"})


def send_mail(settings: Settings, to: str, subject: str, body: str, headers: dict[str, str] | None = None) -> bool:
    """Send one plain-text mail through the configured SMTP server: whether it was accepted (failures are logged
    without the mail's text, which may hold a one-time link)."""
    if not settings.smtp_host:
        return False
    msg = EmailMessage(policy=SMTP_POLICY)  # long links stay plain (no RFC 2047 words in List-Unsubscribe)
    msg["From"] = settings.smtp_from
    msg["To"] = to
    msg["Subject"] = subject
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(body)
    try:
        with smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=30) as smtp:
            if settings.smtp_starttls:
                smtp.starttls()
            if settings.smtp_user:
                smtp.login(settings.smtp_user, settings.smtp_password)
            smtp.send_message(msg)
    except (OSError, smtplib.SMTPException) as e:
        log.warning("a mail (%s) could not be sent: %s", subject, e)
        return False
    return True


def opt_out(storage: Storage, token: str) -> bool:
    """Turn the account of this opt-out token's mails off: whether a token matched."""
    if not token:
        return False

    def op(conn: Connection) -> int:
        result = conn.execute(update(AccountRow).where(AccountRow.mail_token == token).values(turn_mail=False))
        return int(getattr(result, "rowcount", 0))

    return bool(storage._write(op))
