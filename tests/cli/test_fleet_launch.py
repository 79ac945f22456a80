"""``gateway-tui --fleet`` and ``--demo --fleet``: the app opens on the fleet; the demo's
gateways become this run's profiles (with /metrics credentials), nothing saved."""

from __future__ import annotations

from dataclasses import dataclass

from gateway_tui.core.files.config import load_config
from gateway_tui.main import demo_fleet_config, main


@dataclass
class Gateway:
    name: str
    url: str
    api_key: str
    metrics_auth: tuple[str, str] | None = None
    server: object | None = True


@dataclass
class Fleet:
    gateways: list[Gateway]


def test_the_demo_gateways_become_profiles_the_first_running_in_use() -> None:
    fleet = Fleet(
        [
            Gateway("demo-stopped", "http://127.0.0.1:9", "", server=None),
            Gateway("demo-1.7.1", "http://127.0.0.1:1001", "k-1-123456"),
            Gateway("demo-2.3.6", "http://127.0.0.1:1002", "k-2-123456", ("prom", "pw-123456")),
        ]
    )
    config = demo_fleet_config(load_config(), fleet)
    assert config.profile == "demo-1.7.1" and config.url == "http://127.0.0.1:1001"
    assert sorted(config.profiles) == ["demo-1.7.1", "demo-2.3.6", "demo-stopped"]
    metrics = config.profiles["demo-2.3.6"]
    assert metrics.metrics_user == "prom"
    assert metrics.resolve_metrics_password().get_secret_value() == "pw-123456"
    assert config.profiles["demo-stopped"].api_key is None
    assert not config.path.exists()  # nothing written


def test_fleet_opens_the_app_on_the_fleet(monkeypatch) -> None:
    seen = {}

    def run_app(config, *, starting_url=None, fleet=False):
        seen["fleet"] = fleet
        return 0

    import gateway_tui.tui.app as app_module

    monkeypatch.setattr(app_module, "run_app", run_app)
    assert main(["--fleet"]) == 0
    assert seen == {"fleet": True}
