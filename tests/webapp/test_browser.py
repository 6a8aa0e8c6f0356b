"""The whole job in a real browser: headless Chromium driven by selenium against ``autodidact serve``'s app.

Starts a research on a small corpus, sees its progress, opens an article, follows a citation to its
highlighted quote, and answers one debate turn. Screenshots go to the test's tmp dir (``shots/``).
Skips, saying why, only where Chromium, chromedriver or selenium is not installed (``.ci/run``
installs Debian's ``chromium`` and ``chromium-driver``).
"""

from __future__ import annotations

import importlib.util
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from autodidact.webapp.app import create_app

from .conftest import GENERATORS_MD

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
WAIT_SECONDS = 180

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None or importlib.util.find_spec("selenium") is None,
    reason="needs Chromium, chromedriver and selenium (apt-get install chromium chromium-driver; pip install selenium)",
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The app over a fresh folder (a corpus in ``docs/``, no research yet) on 127.0.0.1 and a free port."""
    import uvicorn

    kb = tmp_path / "kb"
    (kb / "docs").mkdir(parents=True)
    (kb / "docs" / "generators.md").write_text(GENERATORS_MD, encoding="utf-8")
    port = _free_port()
    config = uvicorn.Config(create_app(kb), host="127.0.0.1", port=port, log_level="warning")
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not uv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", kb
    uv.should_exit = True
    thread.join(60)


@pytest.fixture
def browser() -> Iterator[Any]:
    """Headless Chromium through Debian's chromedriver (no download: both paths are given)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1200,1000",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))
    driver.set_page_load_timeout(WAIT_SECONDS)
    try:
        yield driver
    finally:
        driver.quit()


def test_research_wiki_citation_and_debate_in_a_real_browser(
    server: tuple[str, Path], browser: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import Select, WebDriverWait

    base, kb = server
    shots = tmp_path / "shots"
    shots.mkdir()
    wait = WebDriverWait(browser, WAIT_SECONDS)

    # Start a research on the corpus folder and watch it run to its end.
    browser.get(f"{base}/research")
    browser.find_element(By.ID, "topic").send_keys("How do Python generators work?")
    browser.find_element(By.ID, "corpus").send_keys("docs")
    browser.find_element(By.ID, "max_rounds").send_keys("2")
    browser.find_element(By.ID, "start").click()
    wait.until(ec.text_to_be_present_in_element((By.ID, "progress"), "round 1"))
    wait.until(ec.text_to_be_present_in_element((By.ID, "state"), "finished"))
    assert "round 2" in browser.find_element(By.ID, "progress").text
    browser.save_screenshot(str(shots / "1-research.png"))

    browser.get(f"{base}/")
    assert browser.find_element(By.ID, "topic").text == "How do Python generators work?"
    assert len(browser.find_elements(By.CSS_SELECTOR, "svg.chart")) == 3
    browser.save_screenshot(str(shots / "2-overview.png"))

    # Open an article from the wiki, then follow a citation to its quote in the source.
    browser.get(f"{base}/wiki")
    browser.find_element(By.CSS_SELECTOR, "#articles a").click()
    wait.until(ec.presence_of_element_located((By.ID, "article")))
    browser.save_screenshot(str(shots / "3-article.png"))
    citation = browser.find_element(By.CSS_SELECTOR, "#article a[href^='/source/']")
    statement = browser.execute_script(
        "var t = arguments[0].parentNode.textContent; return t.slice(0, t.indexOf(arguments[0].textContent));",
        citation,
    )
    citation.click()
    mark = wait.until(ec.presence_of_element_located((By.ID, "quote")))
    assert mark.text.strip() and mark.text.strip() in " ".join(statement.split())
    assert browser.find_element(By.ID, "found").text == "The quoted passage is marked below."
    browser.save_screenshot(str(shots / "4-quote.png"))

    # Start a debate and answer its first turn.
    browser.get(f"{base}/debate")
    browser.find_element(By.ID, "prompt").send_keys("Generators make code harder to read")
    Select(browser.find_element(By.ID, "depth")).select_by_value("quick")
    browser.find_element(By.ID, "debate-start").click()
    question = wait.until(ec.presence_of_element_located((By.ID, "open-question"))).text
    assert question.strip()
    browser.find_element(By.ID, "answer").send_keys("I mean pipelines of three or more chained generators")
    browser.find_element(By.ID, "reply").click()
    wait.until(ec.text_to_be_present_in_element((By.ID, "transcript"), "three or more chained generators"))
    browser.save_screenshot(str(shots / "5-debate.png"))

    assert sorted(p.name for p in shots.iterdir()) == [
        "1-research.png", "2-overview.png", "3-article.png", "4-quote.png", "5-debate.png",
    ]  # fmt: skip
    assert list((kb / "debates").glob("*/events.jsonl")), "the debate is in the CLI's event store"
