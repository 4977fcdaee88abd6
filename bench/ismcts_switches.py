"""Run bench/bots_strength.py with ismcts module constants set (fork workers inherit them):
    python bench/ismcts_switches.py GREEDY_SHARE=0.5 -- --games 60 --workers 2 --seed 7 --rulesets arne_92 ...
"""
import runpy
import sys

import cardrules.interpreter.ismcts as m

i = sys.argv.index("--")
for item in sys.argv[1:i]:
    name, value = item.split("=")
    setattr(m, name, type(getattr(m, name))(value))
    print(f"ismcts.{name} = {getattr(m, name)!r}")
sys.argv = ["bench/bots_strength.py"] + sys.argv[i + 1:]
runpy.run_path("bench/bots_strength.py", run_name="__main__")
