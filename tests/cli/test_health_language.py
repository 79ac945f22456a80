"""``gateway-tui health`` in the reader's language (issue 35): the lines for people are said in
Portuguese; ``--json`` is the same bytes in English and Portuguese (verdict codes, reasons,
evidence: scripts read them), once the times of the two readings are set aside."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.cli.test_health import write_profiles

# The moments of each reading (ISO times, and clock times inside reasons) differ run to run.
_TIMES = re.compile(r"\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:\d\d)?|\b\d\d:\d\d(?::\d\d)?\b")


def _health(home, lang: str, *args: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    return subprocess.run(
        [sys.executable, "-m", "gateway_tui", "--lang", lang, "health", *args],
        env={**base, "GATEWAY_TUI_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_health_json_is_the_same_in_english_and_portuguese(isolated_home) -> None:
    from gateway_tui.demo.fleet import start_fleet

    # 4 gateways: 1.7.1 and 2.3.7 with a zombie each, 2.3.6 behind /metrics' basic auth, the
    # licence-gated 2.4; no flapping in the time of the test.
    with start_fleet(4, instances=1, flap_seconds=3600) as fleet:
        profiles = {}
        for gateway in fleet.gateways:
            values = {"url": gateway.url, "api_key": gateway.api_key or "no-key-1234"}
            if gateway.metrics_auth:
                values["metrics_user"], values["metrics_password"] = gateway.metrics_auth
            profiles[gateway.name.replace(".", "_")] = values
        write_profiles(isolated_home, profiles)
        english = _health(isolated_home, "en", "--json")
        portuguese = _health(isolated_home, "pt_BR", "--json")
        said = _health(isolated_home, "pt_BR")
    assert english.returncode == portuguese.returncode == 2, english.stderr
    assert '"verdict": "zombie"' in english.stdout and "listed open (" in english.stdout
    # each gateway's lines are written as soon as it answers: in any order
    assert sorted(_TIMES.sub("T", portuguese.stdout).splitlines()) == sorted(
        _TIMES.sub("T", english.stdout).splitlines()
    )
    # the lines for people are Portuguese: the reasons, the licence-gated gateway's row too
    assert "listada como open (fetchInstances disse open às " in said.stdout
    assert "o gateway não está ativado" in said.stdout
