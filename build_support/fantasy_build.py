"""The build backend of fantasy-scorer: setuptools', with the compiled code inside the wheel.

A new machine must answer at full speed from its first command, so whatever Numba compiles
is compiled when the package is built, not at first use: :class:`BuildPy` (setuptools'
``build_py``, named in pyproject.toml) runs ``fantasy_scorer.realms.solve.warmup ship``
in a second process of the build environment, which compiles every piece (or loads it from
the user's cache, where an earlier build of the same sources left it: a rebuild takes
seconds) and copies the files into the wheel's ``fantasy_scorer/realms/solve/batch/compiled``
with the stamp of what they were compiled for. ``fantasy_scorer/realms/solve/batch/cache.py``
finds them there after installation.

A build that cannot compile (no Numba for this Python, say) still makes a working wheel:
the compiled code is then compiled on first use, as before. ``FANTASY_SCORER_NO_COMPILE=1``
skips the step (a quick wheel for a machine that compiles for itself).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from setuptools import build_meta as _setuptools
from setuptools.command.bdist_wheel import bdist_wheel as _bdist_wheel
from setuptools.command.build_py import build_py as _build_py

# The hooks of PEP 517 and PEP 660 are setuptools' own.
build_wheel = _setuptools.build_wheel
build_sdist = _setuptools.build_sdist
build_editable = _setuptools.build_editable
get_requires_for_build_wheel = _setuptools.get_requires_for_build_wheel
get_requires_for_build_sdist = _setuptools.get_requires_for_build_sdist
get_requires_for_build_editable = _setuptools.get_requires_for_build_editable
prepare_metadata_for_build_wheel = _setuptools.prepare_metadata_for_build_wheel
prepare_metadata_for_build_editable = _setuptools.prepare_metadata_for_build_editable

#: Where the compiled files go inside the package.
COMPILED = Path("fantasy_scorer", "realms", "solve", "batch", "compiled")


class BuildPy(_build_py):
    """setuptools' build_py, then the compiled code into the build's copy of the package."""

    def run(self) -> None:
        super().run()
        if os.environ.get("FANTASY_SCORER_NO_COMPILE"):
            return
        source = Path.cwd()
        dest = Path(self.build_lib) / COMPILED
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            p for p in (str(source), os.environ.get("PYTHONPATH")) if p))
        print(f"compiling fantasy-scorer's fast searches into {dest}", flush=True)
        done = subprocess.run([sys.executable, "-m", "fantasy_scorer.realms.solve.warmup",
                               "ship", str(dest)], env=env, cwd=source, check=False)
        if done.returncode != 0:
            print("warning: fantasy-scorer's compiled code is not in this build (it will "
                  "compile on first use)", file=sys.stderr, flush=True)


class BdistWheel(_bdist_wheel):
    """setuptools' bdist_wheel, tagged for this Python and platform when it carries the
    compiled code (a C extension and machine code): not a wheel for any platform."""

    def finalize_options(self) -> None:
        if not os.environ.get("FANTASY_SCORER_NO_COMPILE"):
            # as for a package with extension modules: platform tags, files at the root
            self.distribution.has_ext_modules = lambda: True
        super().finalize_options()
