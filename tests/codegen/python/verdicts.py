"""Reads cases (a JSON list of {"module", "value"}) and prints, as a JSON
list, whether each module's TOOL_ARGS["t"] (pydantic) accepts each value:
what tests/codegen.rs compares with agentc's validator."""

import importlib
import json
import sys

import pydantic

sys.path.insert(0, ".")
cases = json.load(open(sys.argv[1], encoding="utf-8"))
verdicts = []
for case in cases:
    model = importlib.import_module(case["module"]).TOOL_ARGS["t"]
    try:
        model.model_validate(case["value"])
        verdicts.append(True)
    except pydantic.ValidationError:
        verdicts.append(False)
print(json.dumps(verdicts))
