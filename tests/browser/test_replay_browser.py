"""The replay page in a real browser: Debian's Chromium, headless, driven through its
chromedriver (selenium), the page opened from disk with the network off. It draws the table, steps
with → to the end of a whole 23-deal pulka, shows the final result there, goes back with |◀ and
jumps by deal; a name with markup stays text; nothing is fetched from anywhere.

Where Chromium or chromedriver is missing the test is skipped — but not in CI (``CI`` set), where
.ci/run installs them and a missing browser is a failure."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from selenium import webdriver
from selenium.webdriver import Chrome as WebDriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from bot.i18n import Catalogues
from bot.render.replay_html import replay_html
from bot.render.transcript import line_words
from engine.games import record_book
from engine.record import read_records

ROOT: Final = Path(__file__).resolve().parents[2]
PULKA: Final = read_records(ROOT / "tests" / "golden" / "records" / "mushka-6p-target5.jsonl")[1]
NAMES: Final = ["</script><b>Анна", "Boris & Co", "Вера", "<!--Dmitri", "Егор", "Fedor"]
CHUNK: Final = 60  # → presses sent at once


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[WebDriver]:
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if chromium is None or driver is None:
        if os.environ.get("CI"):
            pytest.fail("CI runs the browser check: apt-get install chromium chromium-driver")
        pytest.skip("no chromium and chromedriver here (Debian: chromium chromium-driver)")
    options = Options()
    options.binary_location = chromium
    for arg in (
        "--headless=new",
        "--no-sandbox",  # CI runs as root
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--host-resolver-rules=MAP * ~NOTFOUND",  # no name resolves: nothing could be fetched
        f"--user-data-dir={tmp_path / 'profile'}",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    chrome = webdriver.Chrome(options=options, service=Service(executable_path=driver))
    try:
        chrome.set_page_load_timeout(30)
        chrome.execute_cdp_cmd("Network.enable", {})
        offline = {"offline": True, "latency": 0, "downloadThroughput": 0, "uploadThroughput": 0}
        chrome.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
        yield chrome
    finally:
        chrome.quit()


def log(browser: WebDriver, kind: str) -> list[dict[str, Any]]:
    """The browser's log of ``kind`` since it was last read (selenium leaves it untyped)."""
    entries: list[dict[str, Any]] = browser.get_log(kind)  # type: ignore[no-untyped-call]
    return entries


def requested(browser: WebDriver, page: str) -> list[str]:
    """Every URL the page ``page`` asked for, itself first (the browser's network log; the
    browser's own pages, its new-tab page, are not the page's)."""
    urls = []
    for entry in log(browser, "performance"):
        message = json.loads(entry["message"])["message"]
        params = message.get("params", {})
        if message.get("method") == "Network.requestWillBeSent" and (
            params.get("documentURL") == page
        ):
            urls.append(str(params["request"]["url"]))
    return urls


def text_of(browser: WebDriver, element_id: str) -> str:
    return str(browser.find_element(By.ID, element_id).text)


def test_the_replay_steps_through_a_whole_pulka_to_its_result(
    browser: WebDriver, tmp_path: Path
) -> None:
    tr = Catalogues.load(ROOT / "locales").tr("ru")
    page = replay_html(PULKA, NAMES, tr, chat_title="Пятница", game_no=2)
    assert "://" not in page  # no address of anything outside the file
    path = tmp_path / "mushka-pulka.html"
    path.write_text(page, encoding="utf-8")
    steps = sum(x["t"] in ("deal", "act") for x in PULKA)
    (end,) = [x for x in PULKA if x["t"] == "end"]
    final = line_words(record_book("mushka").parse(end), NAMES, tr)
    assert final is not None and final.startswith("Итог:")

    browser.get(path.as_uri())
    assert text_of(browser, "counter") == f"1 / {steps}"
    assert text_of(browser, "step").startswith("Сдача 1 — сдаёт")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board .card")) == 6 * 5 + 1  # + turn-up
    assert not browser.find_element(By.ID, "final").is_displayed()
    whos = [str(e.text) for e in browser.find_elements(By.CSS_SELECTOR, ".who")]
    assert whos == NAMES  # the names as text
    assert browser.find_elements(By.TAG_NAME, "b") == []  # none of them became markup

    body = browser.find_element(By.TAG_NAME, "body")
    seen = {text_of(browser, "step")}
    for _ in range(steps // CHUNK + 2):  # bounded: → until the end
        body.send_keys(Keys.ARROW_RIGHT * CHUNK)
        seen.add(text_of(browser, "step"))
        if text_of(browser, "counter") == f"{steps} / {steps}":
            break
    assert text_of(browser, "counter") == f"{steps} / {steps}"
    assert len(seen) >= steps // CHUNK  # it really moved on, step after step
    assert browser.find_element(By.ID, "final").is_displayed()
    assert text_of(browser, "final") == final
    browser.find_element(By.ID, "next").click()  # past the end: stays
    assert text_of(browser, "counter") == f"{steps} / {steps}"

    browser.find_element(By.ID, "first").click()  # |◀
    assert text_of(browser, "counter") == f"1 / {steps}"
    assert not browser.find_element(By.ID, "final").is_displayed()
    browser.find_element(By.ID, "next").click()  # ▶
    assert text_of(browser, "counter") == f"2 / {steps}"
    browser.find_element(By.ID, "prev").click()  # ◀
    assert text_of(browser, "counter") == f"1 / {steps}"
    deal = browser.find_element(By.XPATH, "//nav/button[text()='Сдача 5']")
    deal.click()
    assert text_of(browser, "step").startswith("Сдача 5 — сдаёт")
    browser.find_element(By.ID, "last").click()  # ▶|
    assert text_of(browser, "final") == final

    assert requested(browser, path.as_uri()) == [path.as_uri()]  # the file itself, no more
    errors = [e for e in log(browser, "browser") if e["level"] == "SEVERE"]
    assert errors == []
