"""``fr-score serve``: the scoring page for the table (``fantasy_scorer.web``).

The web framework is an optional extra, so it is imported only when the command runs; without
it the command says how to install it instead of failing with a traceback.
"""

from __future__ import annotations

import click

from ..errors import ScorerError
from ..realms.catalog import EDITIONS, EXPANSIONS
from .options import CONTEXT, Seconds, cards_option, fail_cleanly

INSTALL_HINT = 'pip install ".[web]" (in a clone of the project)'


@click.command("serve", context_settings=CONTEXT)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 lets phones on the same network in.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on.")
@click.option("--expansion", type=click.Choice(sorted(EXPANSIONS)), default=None,
              help="Open the page on an expansion's cards (the page can switch).")
@click.option("--edition", type=click.Choice(sorted(EDITIONS)), default=None,
              help="deluxe: the Deluxe-edition Phoenix replaces the promo Phoenix.")
@click.option("--workers", type=click.IntRange(1, 16), default=None,
              help="Processes searching discard advice at once (default: one per core but "
                   "one, at least one); the score of a hand has a process of its own.")
@click.option("--time-limit", "time_limit", type=Seconds(0.5, 120), default=5.0,
              show_default=True,
              help="Seconds the discard advice searches before it answers with the "
                   "discards it reached (marked incomplete).")
@cards_option
@fail_cleanly
def serve_cmd(host: str, port: int, expansion: str | None, edition: str | None,
              workers: int | None, time_limit: float, card_files: tuple[str, ...]) -> None:
    """Start the scoring page: open http://HOST:PORT/ in a browser.

    Tap the cards of a hand to see its total and breakdown; wild cards, Book of Changes,
    Island and Angel are chosen optimally unless pinned; one card more than a hand gets
    discard advice; the address is a share link. The JSON API is described at /openapi.json.

    \b
    Examples:
      fr-score serve
      fr-score serve --expansion cursed-hoards --edition deluxe
      fr-score serve --host 0.0.0.0 --port 8080      # phones on the same network
      fr-score serve --cards my-cards.yaml            # with homebrew cards
    """
    try:
        from ..web.app import create_app
        from ..web.games import NO_EXPANSION, STANDARD, GameKey, GameSpec
        from ..web.server import bind, serve
        from ..web.workers import default_workers
    except ImportError as e:
        raise ScorerError(f"the web page needs {e.name or 'its extra packages'}; "
                          f"install them with: {INSTALL_HINT}") from None
    from ..realms.solve.batch import aot

    aot.prefer(False)  # a long-running server: Numba's code, which releases the GIL
    spec = GameSpec(tuple(card_files), GameKey(expansion or NO_EXPANSION, edition or STANDARD))
    sock = bind(host, port)  # a busy port or a bad address: one line, before anything else
    app = create_app(spec, workers=workers or default_workers(), advice_time_limit=time_limit)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"Fantasy Realms scorer on http://{shown}:{sock.getsockname()[1]}/ "
               "(Ctrl+C stops it)")
    serve(app, host=host, port=port, sock=sock)
