"""Fixtures for the suite against the real Evolution API 1.7.1 (``make conformance``).

One server per test process (each xdist worker starts its own, on its own port and store),
seeded with evo-a … evo-g and with evo-a's store planted. Tests that change the world
(delete, create, settings) use ``scratch_instance`` so they never disturb the others.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator

import pytest

from tests.real_gateway.gateway import RealGateway, serving

_names = itertools.count(1)


@pytest.fixture(scope="session")
def real_gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealGateway]:
    with serving(tmp_path_factory.mktemp("real-gateway")) as server:
        server.plant()
        yield server


@pytest.fixture
def scratch_instance(real_gateway: RealGateway) -> Iterator[str]:
    """A freshly created instance of this test's own (deleted afterwards)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw")
    name = f"zz-{worker}-{os.getpid()}-{next(_names)}"
    real_gateway.create_instance(name, qrcode=False)
    yield name
    real_gateway.request("DELETE", f"/instance/delete/{name}")
