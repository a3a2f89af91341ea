"""The one error type users see: a one-line message naming the problem and the fix."""

from __future__ import annotations


class ScorerError(Exception):
    """A problem with what the user gave (a hand, a card file, a choice).

    The command-line face prints ``Error: <message>`` and exits with code 2. ``where`` is an
    optional location prefix such as ``hand.txt:3``.
    """

    def __init__(self, message: str, where: str | None = None, subject: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.where = where
        self.subject = subject  # id of the card the problem is about, when there is one

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message

    def at(self, where: str) -> ScorerError:
        """The same error located at ``where`` (kept if already more precise)."""
        return self if self.where else ScorerError(self.message, where, self.subject)


#: The most characters of the user's own input an error message quotes.
QUOTE_LIMIT = 60


def clip(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as an error quotes it: whole when short, else its start and an ellipsis, so
    that a pasted page or a binary line never floods the terminal; a line break or another
    control character is shown escaped (``\\n``), so that the error stays one line."""
    s = "".join(ch if ch.isprintable() or ch == " " else repr(ch)[1:-1] for ch in str(text))
    return s if len(s) <= limit else s[: limit - 1].rstrip() + "…"
