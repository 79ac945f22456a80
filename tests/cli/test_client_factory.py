"""One client factory: the app, the command line and the connect probe build the same client,
with every setting of the profile."""

from __future__ import annotations

import subprocess
import sys

import pytest

from gateway_tui.core.files.config import config_path
from gateway_tui.main import main
from tests.support import PROCESS_LIMIT


@pytest.fixture
def tiny_limit(demo_server, monkeypatch):
    """A config whose largest answer is about 1 kB: the demo's fetchInstances is larger."""
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("max_response_mb = 0.001\n")
    path.chmod(0o600)
    monkeypatch.setenv("GATEWAY_URL", demo_server.url)
    monkeypatch.setenv("GATEWAY_API_KEY", demo_server.api_key)
    return demo_server


def test_the_command_line_honours_max_response_mb(tiny_limit, capsys):
    assert main(["instances", "--json"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "The gateway's answer is too large" in captured.err
    assert "Traceback" not in captured.err


def test_the_command_line_reads_what_the_limit_allows(demo_server, capsys, monkeypatch):
    monkeypatch.setenv("GATEWAY_URL", demo_server.url)
    monkeypatch.setenv("GATEWAY_API_KEY", demo_server.api_key)
    assert main(["instances", "--json"]) == 0


async def test_the_connect_probe_honours_max_response_mb(tiny_limit):
    from gateway_tui.core.api.errors import InvalidResponse
    from gateway_tui.core.files.config import load_config
    from gateway_tui.core.services.connect import probe_gateway

    with pytest.raises(InvalidResponse, match="too large"):
        await probe_gateway(tiny_limit.url, tiny_limit.api_key, config=load_config())


def test_every_client_is_built_by_the_factory():
    """Only client_factory.py calls GatewayClient(…) in the product."""
    import gateway_tui

    root = gateway_tui.__path__[0]
    found = subprocess.run(
        ["grep", "-rln", "--include=*.py", "GatewayClient(", root],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split()
    builders = sorted(path.removeprefix(root + "/") for path in found)
    assert builders == [
        "core/api/client.py",
        "core/client_factory.py",
    ]  # the class itself, and the factory


def test_the_factory_imports_no_textual(tmp_path):
    code = (
        "import sys\n"
        "from gateway_tui.core.client_factory import client_for\n"
        "client_for(None, url='http://127.0.0.1:1', api_key='k' * 12)\n"
        "print('textual' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=PROCESS_LIMIT,
        check=True,
    )
    assert result.stdout.strip() == "False"
