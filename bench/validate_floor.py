"""The floor of the "response bytes → …" rows: pydantic's validation of the same response bytes,
alone, once, in a fresh process (``python -m bench.validate_floor KIND FILE``; prints ms).

The least any client could do with these bytes: a fresh process, as the app validates once in
its own; a minimal one (only the models imported); and the garbage collector off, so the figure
is the validation's own work. (Collections while 100,000 new objects are made, and the first
growth of the process's memory, can double it; the app pays those, so they are in its figure.)
"""

import gc
import sys
import time
from pathlib import Path


def main() -> None:
    kind, path = sys.argv[1], Path(sys.argv[2])
    from gateway_tui.core.api.models import INSTANCE_LIST, ParticipantList

    def v2_rows():  # built before the clock starts, like the module-level INSTANCE_LIST
        from pydantic import TypeAdapter

        from gateway_tui.core.api.dialects.v2 import InstanceRow

        return TypeAdapter(list[InstanceRow]).validate_json

    validate = {
        "instances": INSTANCE_LIST.validate_json,
        "instances-v2": v2_rows() if kind == "instances-v2" else None,
        "participants": ParticipantList.model_validate_json,
    }[kind]
    body = path.read_bytes()
    gc.disable()
    started = time.perf_counter()
    validate(body)
    print((time.perf_counter() - started) * 1000)


if __name__ == "__main__":
    main()
