"""Fixtures for the browser tests: one real `courtside serve` for the session and three Chromium windows (the
scorer's, a spectator's, the venue display's), reused across tests to keep runs short on a small machine."""

import os
from pathlib import Path

import pytest

from harness import CourtsideServer, console_errors, make_driver

ADMIN_TOKEN = "browser-test-admin-token-5f0c2a9e"


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("courtside")
    s = CourtsideServer(root / "data", ADMIN_TOKEN)
    s.start()
    yield s
    s.stop()


class Browsers:
    """Lazily started drivers by role."""

    def __init__(self):
        self.drivers = {}

    def __getitem__(self, role):
        if role not in self.drivers:
            self.drivers[role] = make_driver()
        return self.drivers[role]

    def console_errors(self, allowed=()):
        return {role: errors for role, d in self.drivers.items() if (errors := console_errors(d, allowed))}

    def quit(self):
        for d in self.drivers.values():
            try:
                d.quit()
            except Exception:
                pass


@pytest.fixture(scope="session")
def browsers():
    b = Browsers()
    yield b
    b.quit()


@pytest.fixture(scope="session")
def screenshot_dir():
    path = Path(os.environ.get("COURTSIDE_SCREENSHOTS") or Path(__file__).resolve().parents[2] / ".build" / "browser-screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path
