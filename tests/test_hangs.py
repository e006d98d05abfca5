"""tests/hangs.py: a test that hangs fails alone, its report naming the await that never
returned (run in a pytest of its own: ``pytester``)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytest_plugins = ["pytester"]

HANGING = """
import asyncio
import pytest


async def never_set() -> None:
    await asyncio.Event().wait()


@pytest.mark.timeout(3)
async def test_it_hangs() -> None:
    await never_set()


def test_the_next_one_runs() -> None:
    assert True
"""


def test_a_hanging_test_fails_alone_and_its_report_names_the_await(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the subprocess imports tests.hangs
    pytester.makeconftest("from tests.hangs import pytest_runtest_protocol  # noqa: F401\n")
    pytester.makepyfile(test_hanging=HANGING)
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-o", "asyncio_mode=auto", f"--rootdir={pytester.path}"
    )
    result.assert_outcomes(failed=1, passed=1)
    out = result.stdout.str()
    assert "Timeout (>3.0s) from pytest-timeout" in out
    assert "test_it_hangs still runs after 2 s: threads, then tasks" in out
    assert "in never_set" in out  # the innermost await of the task, not only the loop
