"""``fr-score serve``: the scoring page for the table (``fantasy_scorer.web``).

The web framework is an optional extra, so it is imported only when the command runs; without
it the command says how to install it instead of failing with a traceback.
"""

from __future__ import annotations

import click

from ..errors import ScorerError
from .options import CONTEXT, cards_option, catalog_from, fail_cleanly

INSTALL_HINT = 'pip install ".[web]" (in a clone of the project)'


@click.command("serve", context_settings=CONTEXT)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 lets phones on the same network in.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on.")
@cards_option
@fail_cleanly
def serve_cmd(host: str, port: int, card_files: tuple[str, ...]) -> None:
    """Start the scoring page: open http://HOST:PORT/ in a browser.

    Tap the cards of a hand to see its total and breakdown; wild cards, Book of Changes and
    Island are chosen optimally unless pinned; 8 cards get discard advice; the address is a
    share link. The JSON API is described at /openapi.json.

    \b
      fr-score serve                              http://127.0.0.1:8000/
      fr-score serve --host 0.0.0.0 --port 8000   phones on the same network too
      fr-score serve --cards my-cards.yaml        with homebrew cards
    """
    try:
        import uvicorn

        from ..web.app import create_app
    except ImportError as e:
        raise ScorerError(f"the web page needs {e.name or 'its extra packages'}; "
                          f"install them with: {INSTALL_HINT}") from None
    app = create_app(catalog_from(card_files))
    click.echo(f"Fantasy Realms scorer on http://{host}:{port}/ (Ctrl+C stops it)")
    uvicorn.run(app, host=host, port=port, log_level="warning")
