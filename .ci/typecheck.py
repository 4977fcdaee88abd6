"""Run mypy on the checkout's folders under the names they are installed as (`cardrules.*`).

The top-level folders (`interpreter/`, `cli/`, `grammar/`) become `cardrules.interpreter` and so
on only when installed (pyproject.toml's `package-dir`). mypy cannot follow that mapping: in an
editable install it is an import hook that static tools do not run (python/mypy#13392), and
`mypy interpreter cli` names the folders top-level packages, so `cli`'s `from ..interpreter`
has no parent. So this script lets mypy find the files as usual and only prefixes their module
names with `cardrules.`; messages point at the checkout's files, the settings are
pyproject.toml's `[tool.mypy]`, and it works the same with an editable, a non-editable or no
install. Extra arguments go to mypy (`python .ci/typecheck.py --no-incremental`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from mypy.build import build
from mypy.errors import CompileError
from mypy.main import process_options
from mypy.modulefinder import BuildSource

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("interpreter", "cli", "grammar")


def main(argv: list[str]) -> int:
    os.chdir(ROOT)  # pyproject.toml's settings, and paths in messages relative to the checkout
    sources, options = process_options([*argv, *FOLDERS])
    renamed = [BuildSource(src.path, f"cardrules.{src.module}", None, base_dir=src.base_dir) for src in sources]
    try:
        result = build(renamed, options, stdout=sys.stdout, stderr=sys.stderr)
    except CompileError as error:  # a syntax error or a bad setting: mypy's own message
        print("\n".join(error.messages), file=sys.stderr)
        return 2
    for line in result.errors:
        print(line)
    errors = sum(1 for line in result.errors if ": error:" in line)
    files = len({line.split(":", 1)[0] for line in result.errors if ": error:" in line})
    if errors:
        print(f"Found {errors} error{'s' * (errors != 1)} in {files} file{'s' * (files != 1)} "
              f"(checked {len(renamed)} source files)")
        return 1
    print(f"Success: no issues found in {len(renamed)} source files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
