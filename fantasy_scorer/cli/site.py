"""``fr-score site OUT``: the scoring page as a static site that runs without a server.

The page, its script and words are those of ``fr-score serve``; the engine is this package
itself, run in the browser by Pyodide (see :mod:`fantasy_scorer.web.site` and docs/site.md).
The site holds every game (the page switches between them), so it takes no game options.
Building it needs the web extra (Jinja renders the page once, at build time).
"""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import ScorerError
from .options import CONTEXT, fail_cleanly

INSTALL_HINT = 'pip install ".[web]" (in a clone of the project)'


@click.command("site", context_settings=CONTEXT)
@click.argument("out", type=click.Path(file_okay=True, dir_okay=True, path_type=Path))
@click.option("--pyodide", "pyodide", type=click.Path(path_type=Path), default=None,
              help="A folder holding the pinned Pyodide tarball (npm pack pyodide@VERSION): "
                   "build without network. Default: the cache, else the npm registry.")
@click.option("--force", is_flag=True, help="Replace the content of OUT if it is not empty.")
@fail_cleanly
def site_cmd(out: Path, pyodide: Path | None, force: bool) -> None:
    """Write the scoring page as a static site into OUT, for any static host.

    The site works offline after the first visit and runs the same Python engine as the
    server, in the browser. Serve OUT as it is, for example:

    \b
    Examples:
      fr-score site public/
      fr-score site public/ --pyodide ~/.cache/fantasy-scorer/pyodide --force
      python -m http.server -d public 8000      # then open http://localhost:8000/
    """
    try:
        import jinja2  # noqa: F401  (the page is rendered once, at build time)
    except ImportError:
        raise ScorerError(f"building the site needs jinja2; install it with: {INSTALL_HINT}"
                          ) from None
    from ..web import site

    built = site.build(out, pyodide, force)
    size = sum(len(b) for b in built.files.values())
    click.echo(f"site {built.version}: {len(built.files)} files, {size / 1e6:.1f} MB in {out}")
