"""Run bench/bots_strength.py with module constants of interpreter/ismcts.py set otherwise (the
pool's forked workers inherit them), to measure a setting before it becomes the default:

    python bench/ismcts_switches.py HORIZON=3 EXPLORATION=1.0 -- --games 200 --workers 2 --rulesets arne_92 --no-four
    python bench/ismcts_switches.py HORIZON=3 -- bench/bots_ceiling.py --order --games 200 --workers 2 ...
(a script named first after `--` runs instead of bots_strength, with the arguments after it)
"""
import ast
import runpy
import sys

import cardrules.interpreter.ismcts as ismcts

split = sys.argv.index("--") if "--" in sys.argv else len(sys.argv)
for item in sys.argv[1:split]:
    name, _, text = item.partition("=")
    if not name.isupper() or not hasattr(ismcts, name):
        sys.exit(f"ismcts has no constant {name!r}")
    setattr(ismcts, name, ast.literal_eval(text))  # a literal: 3, 1.0, True, "all"
    print(f"ismcts.{name} = {getattr(ismcts, name)!r}")
rest = sys.argv[split + 1:]
script = rest.pop(0) if rest and rest[0].endswith(".py") else "bench/bots_strength.py"
sys.argv = [script, *rest]
runpy.run_path(script, run_name="__main__")
