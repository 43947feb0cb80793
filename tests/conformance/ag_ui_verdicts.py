"""Python half of tests/ag_ui_sdks.rs: each payload through ag-ui-protocol's
pydantic ``RunAgentInput.model_validate``.

    python ag_ui_verdicts.py MANIFEST.json

MANIFEST.json is [{"name", "payload"}, ...]; one JSON line per payload goes
to stdout: {"name", "accept": true|false, "reason"?}.
"""

import json
import sys

import pydantic
from ag_ui.core import RunAgentInput


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        manifest = json.load(f)
    for item in manifest:
        line = {"name": item["name"], "accept": True}
        try:
            RunAgentInput.model_validate(item["payload"])
        except pydantic.ValidationError as e:
            line["accept"] = False
            line["reason"] = "; ".join(
                f"{'.'.join(map(str, err['loc'])) or '/'}: {err['msg']}" for err in e.errors()[:4]
            )
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
