"""Broken local files: a directory in a file's place, no permission, 100,000-deep nesting, lone
surrogates, truncation, a config with thousands of nested tables. Each read says which file and
why, keeps the unreadable file beside a fresh one, and no write crashes the app."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gateway_tui.core.draft import Draft
from gateway_tui.core.files import recent_groups, storage
from gateway_tui.core.files.config import Profile, read_config_file
from gateway_tui.core.files.config_writer import save_profile
from gateway_tui.core.files.drafts import ComposeStore
from gateway_tui.tui.screens.composer import ComposerScreen
from tests.support import notices, wait_for

GROUP = "120363012345678901@g.us"
DEEP_JSON = "[" * 100_000 + "]" * 100_000


@pytest.fixture
def reported() -> list[str]:
    messages: list[str] = []
    off = storage.on_problem(messages.append)
    yield messages
    off()


def kept_beside(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f"{path.name}.unreadable-*"))


def test_a_directory_in_place_of_recent_groups_is_moved_aside_and_a_fresh_file_written(reported):
    path = recent_groups.recent_path()
    (path / "inside").mkdir(parents=True)
    assert recent_groups.load_recent("sales-eu") == []
    assert recent_groups.remember("sales-eu", GROUP, "Subject") == [
        recent_groups.RecentGroup(GROUP, "Subject")
    ]
    assert path.is_file()
    (aside,) = kept_beside(path)
    assert (aside / "inside").is_dir()  # the user's directory, untouched
    assert str(path) in reported[0] and "directory" in reported[0]


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (DEEP_JSON, "nested more than"),
        ('{"version": 1, "instances": {"sales-eu": [{"jid": "1203', "truncated"),
        (b"\xff\xfe\x00", "not UTF-8"),
    ],
    ids=["100000-deep", "truncated", "not-utf8"],
)
def test_unreadable_recent_groups_are_kept_and_said(reported, content, why):
    path = recent_groups.recent_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = content if isinstance(content, bytes) else content.encode()
    path.write_bytes(raw)
    assert recent_groups.load_recent("sales-eu") == []
    (aside,) = kept_beside(path)
    assert aside.read_bytes() == raw
    assert len(reported) == 1 and str(path) in reported[0] and why in reported[0]
    assert aside.name in reported[0]


def test_lone_surrogates_in_recent_groups_are_read_and_written_back(reported):
    path = recent_groups.recent_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    entry = '{"jid": "' + GROUP + '", "subject": "a\\ud800b"}'
    path.write_text('{"version": 1, "instances": {"sales-eu": [' + entry + "]}}")
    assert recent_groups.load_recent("sales-eu")[0].subject == "a\ud800b"
    # The write used to end in UnicodeEncodeError: the subject has no UTF-8 form.
    recent_groups.remember("sales-eu", "120363000000000002@g.us", "new")
    again = recent_groups.load_recent("sales-eu")
    assert [g.subject for g in again] == ["new", "a\ud800b"]
    assert reported == []


def test_lone_surrogates_in_drafts_and_history_survive_a_save(tmp_path):
    store = ComposeStore("http://127.0.0.1:1", "sales-eu", root=tmp_path)
    store.save_draft(Draft(title="t\udc00itle"))  # used to raise UnicodeEncodeError
    loaded = store.load_draft()
    assert loaded is not None and loaded.title == "t\udc00itle"
    store.record_edit("3EB0\ud800", "text \ud800")
    assert store.stored_chats().texts == {"3EB0\ud800": "text \ud800"}


def test_a_file_without_read_permission_is_said_and_left_alone(reported, monkeypatch, tmp_path):
    target = tmp_path / "history.json"
    target.write_text("{}")

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(storage, "open", refuse, raising=False)
    assert storage.read_json(target, {"default": True}) == {"default": True}
    assert target.exists() and kept_beside(target) == []
    assert "permission denied" in reported[0] and str(target) in reported[0]


def test_a_truncated_draft_is_kept_beside_the_fresh_one(reported, tmp_path):
    store = ComposeStore("http://127.0.0.1:1", "sales-eu", root=tmp_path)
    store.dir.mkdir(parents=True)
    truncated = b'{"version": 1, "recipient": "4915112340001", "title": "Half a me'
    store.draft_path.write_bytes(truncated)
    assert store.load_draft() is None
    store.save_draft(Draft(title="new"))  # the first keystroke of a fresh draft
    (aside,) = kept_beside(store.draft_path)
    assert aside.read_bytes() == truncated  # never overwritten
    assert json.loads(store.draft_path.read_text())["title"] == "new"
    assert "truncated" in reported[0] and "draft.json" in reported[0]


def test_config_nested_100000_deep_is_a_problem_not_a_crash(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    config_file, problems = read_config_file(path)
    assert config_file.profiles == {}
    assert "nests tables or arrays" in problems[0] and str(path) in problems[0]


def test_config_with_thousands_of_nested_tables_is_refused_unparsed(tmp_path):
    path = tmp_path / "config.toml"
    # 1,500 tables, each one level deeper: the TOML parser is quadratic in them.
    header = "profiles.p"
    lines = []
    for _ in range(1_500):
        header += ".t"
        if len(header) > 600:
            header = "profiles.p"
        lines.append(f"[{header}]")
    path.write_text("\n".join(lines) + "\n")
    _, problems = read_config_file(path)
    assert "deep" in problems[0]
    with pytest.raises(ValueError, match="deep"):  # and saving leaves it as it is
        save_profile("x", Profile(url="http://127.0.0.1:1"), path=path)
    assert path.read_text().count("[") == 1_500


def test_config_that_is_a_directory(tmp_path):
    path = tmp_path / "config.toml"
    path.mkdir()
    _, problems = read_config_file(path)
    assert "is a directory" in problems[0]


async def test_a_directory_as_draft_does_not_stop_the_composer(app_for, demo_server):
    store = ComposeStore(demo_server.url, "sales-eu")
    store.draft_path.mkdir(parents=True)
    app = app_for()
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        app.open_instance("sales-eu")
        await pilot.pause()
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, ComposerScreen))
        await wait_for(pilot, lambda: any("draft.json" in n for n in notices(app)))
        await pilot.press(*"4915112340001")
        await pilot.pause()
        assert "directory" in " ".join(notices(app))
    assert store.draft_path.is_file()
    assert json.loads(store.draft_path.read_text())["recipient"] == "4915112340001"
    assert len(kept_beside(store.draft_path)) == 1
