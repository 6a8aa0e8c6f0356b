"""Shared by the API and MCP tests: small documents written by the test, in English and Chinese."""

from __future__ import annotations

from pathlib import Path

import pytest

GENERATORS_MD = (
    "# Python generators\n\n"
    "A generator function returns a generator iterator when it is called. "
    "The yield expression suspends the generator and hands a value to the caller.\n\n"
    "## Exhaustion\n\n"
    "An exhausted generator cannot be restarted: calling next on it raises StopIteration.\n"
)

APT_ZH_MD = (
    "# APT 软件包管理\n\n"
    "APT 会自动解析软件包的依赖关系，并从软件源下载需要的软件包。"
    "使用 apt install 命令安装软件包，使用 apt remove 命令删除软件包。\n\n"
    "## 版本固定\n\n"
    "在 preferences 文件中设置 Pin-Priority 可以固定软件包的版本。默认软件源的优先级是 500。\n"
)


@pytest.fixture
def english_docs(tmp_path: Path) -> Path:
    """A folder holding one English markdown document about generators."""
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "generators.md").write_text(GENERATORS_MD, encoding="utf-8")
    return folder


@pytest.fixture
def generators_text() -> str:
    """The English document's text."""
    return GENERATORS_MD


@pytest.fixture
def apt_zh_text() -> str:
    """A Chinese document about APT: dependencies and version pinning."""
    return APT_ZH_MD
