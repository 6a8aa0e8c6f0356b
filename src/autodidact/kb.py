"""The knowledge-base folder: the seed layout's paths, ``init`` and ``open``.

Why a facade: every step reads and writes the same handful of paths (seed 001, docs/seeds.md, docs/contracts.md §1.1);
naming them once keeps the layout in one place and keeps every write inside the folder.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from pathlib import Path

from autodidact.config import DATABASE_URL_VAR, KB_SETTINGS_FILE, database_url, env, load_settings, user_config_path
from autodidact.errors import KBError, NotFoundError
from autodidact.obsidian import ensure_vault_settings
from autodidact.store import atomic
from autodidact.store.lock import WriterLock
from autodidact.store.paths import safe_join
from autodidact.store.pglock import AdvisoryLock

CLAUDE_MD_ZH = """# 知识库规则

本知识库由 autodidact 维护。以下规则对人和程序同样有效：

1. `raw/` 中的文件永不修改、永不删除；新来源只会新增文件。
2. 每个主题一篇文章：`wiki/<主题>.md`。
3. 每篇文章以 2–4 句摘要开头，然后分节展开。
4. 文章之间用 `[[主题]]` 互相链接。
5. 每条陈述都要注明来源原始文件，格式：`（来源：2026-12-01_example.md）`，多个来源用 `、` 分隔。
6. 来源之间相互矛盾时，标注：`> ⚠️ 待核实: <原因>`。
7. `wiki/INDEX.md` 列出每篇文章及一句话描述。
8. `outputs/user_questions.md` 的「## 待处理」下可随时追加问题，下一轮会纳入研究。
"""

CLAUDE_MD_EN = """# Knowledge base rules

This knowledge base is maintained by autodidact. These rules bind people and the program alike:

1. Files in `raw/` are never modified or deleted; new sources only add files.
2. One article per topic: `wiki/<topic>.md`.
3. Each article opens with a 2–4 sentence summary, then sections.
4. Articles link to each other with `[[topic]]`.
5. Every statement cites its raw file: `(source: 2026-12-01_example.md)`; several are separated by `, `.
6. Contradicting sources are marked: `> ⚠️ 待核实: <why>`.
7. `wiki/INDEX.md` lists every article with a one-line description.
8. Add questions under "## Pending" in `outputs/user_questions.md` at any time; the next round takes them.
"""

SETTINGS_TEMPLATE = """# autodidact settings for this knowledge base.
# Precedence: command-line flags > environment > this file > ~/.config/autodidact/config.toml
# (or $XDG_CONFIG_HOME/autodidact/config.toml).
# Secrets (API keys) are never read from files: set ANTHROPIC_API_KEY, OPENAI_API_KEY, ... instead.

{language_line}

[llm]
# model = "openai:gpt-4o-mini"      # provider:name; unset = the offline engine
# concurrency = 4
# timeout = 120.0
# max_retries = 4
# cache = true

[budget]
# max_cost = 1.0                     # USD; the run stops cleanly before passing it
# max_tokens = 2000000

[fetch]
# max_bytes = 20000000
# max_file_bytes = 50000000         # largest local file `add` and --corpus read
# deadline = 30.0
# respect_robots = true
# allow_private = []                 # "host:port" entries reachable despite the address guard

[search]
# providers = []                     # searxng, tavily, brave, duckduckgo (local search always runs)
# searxng_url = "http://127.0.0.1:8888"
"""

USER_QUESTIONS_TEMPLATE = "# 用户问题\n\n## 待处理\n\n## 已处理\n"
# An English knowledge base reads in English; the inbox reads "Pending"/"Done" as 待处理/已处理.
USER_QUESTIONS_TEMPLATE_EN = "# User questions\n\n## Pending\n\n## Done\n"

INDEX_TEMPLATE_ZH = "# 知识库索引\n\n（尚无文章）\n"
INDEX_TEMPLATE_EN = "# Index\n\n(no articles yet)\n"
UNSETTLED_LANGUAGE = '# language = "en"   # unset: the first research topic\'s language (zh or en) is written here'
_LANGUAGE_LINE = re.compile(r'^language\s*=\s*"(zh|en)"', re.M)
_UNSETTLED_LINE = re.compile(r"^# language = .*unset.*$", re.M)


def language_unsettled(root: Path) -> bool:
    """Whether the knowledge base at ``root`` leaves its language to its first research topic."""
    settings = root / KB_SETTINGS_FILE
    if not settings.is_file():
        return False
    text = settings.read_text("utf-8")
    return _LANGUAGE_LINE.search(text) is None and _UNSETTLED_LINE.search(text) is not None


def detect_language(text: str) -> str:
    """``zh`` when the text has CJK ideographs, else ``en``."""
    return "zh" if re.search(r"[\u4e00-\u9fff]", text or "") else "en"


@dataclass(frozen=True)
class KnowledgeBase:
    """Paths of one knowledge base (seed 001, docs/seeds.md layout)."""

    root: Path

    @property
    def raw(self) -> Path:
        return self.root / "raw"

    @property
    def source_cache(self) -> Path:
        return self.root / "source_cache"

    @property
    def wiki(self) -> Path:
        return self.root / "wiki"

    @property
    def outputs(self) -> Path:
        return self.root / "outputs"

    @property
    def rounds(self) -> Path:
        return self.outputs / "rounds"

    @property
    def reports(self) -> Path:
        return self.root / "reports"

    @property
    def debates(self) -> Path:
        return self.root / "debates"

    @property
    def internal(self) -> Path:
        return self.root / ".autodidact"

    @property
    def state_file(self) -> Path:
        return self.outputs / "research_state.json"

    @property
    def user_questions(self) -> Path:
        return self.outputs / "user_questions.md"

    @property
    def summary_file(self) -> Path:
        return self.outputs / "research_summary.md"

    @property
    def index_db(self) -> Path:
        return self.internal / "index.sqlite"

    @property
    def usage_ledger(self) -> Path:
        return self.internal / "usage_ledger.jsonl"

    def path(self, *parts: str) -> Path:
        """A path inside the knowledge base; raises if ``parts`` would escape it."""
        return safe_join(self.root, *parts)

    def lock(self, warn: object = None) -> WriterLock:
        """The single-writer lock; ``with kb.lock(): ...``. Taking it finishes an interrupted batch of
        new files (store/batch.py) and removes dead writers' temp files."""

        def sweep() -> None:
            from autodidact.store import batch  # here: ctypes is not for `status` or `--help`

            if batch.recover(self.root, batch.journal_path(self.internal)) and callable(warn):
                warn("finished installing the documents of an interrupted `add` (store/batch.py)")
            for path in atomic.sweep_stale_temps(self.root):
                if callable(warn):
                    warn(f"removed {path.relative_to(self.root)}, left by an interrupted write")

        team = team_backend(self.root)
        remote = AdvisoryLock(team.url, team.name, "knowledge base") if team is not None else None
        return WriterLock(self.internal / "lock", warn=warn, on_acquire=sweep, remote=remote)  # type: ignore[arg-type]

    def language(self, default: str = "en") -> str:
        """The language recorded in ``autodidact.toml`` (``zh``/``en``)."""
        settings = self.root / KB_SETTINGS_FILE
        if settings.is_file():
            match = _LANGUAGE_LINE.search(settings.read_text("utf-8"))
            if match:
                return match.group(1)
        return default

    def settle_language(self, topic: str) -> str:
        """The knowledge base's language; when ``init`` was given neither a topic nor ``--lang``, the
        language of ``topic`` (the first research's), written into ``autodidact.toml``.

        Why: `autodidact init kb` then `autodidact research "如何用 find …"` ran as an English
        knowledge base — English questions and summary with Chinese fragments. The files ``init``
        wrote from its English templates and nobody changed (CLAUDE.md, INDEX.md, the question
        inbox) are written again in the topic's language; a changed one is kept."""
        settings = self.root / KB_SETTINGS_FILE
        text = settings.read_text("utf-8") if settings.is_file() else ""
        match = _LANGUAGE_LINE.search(text)
        if match:
            return match.group(1)
        language = detect_language(topic)
        line = f'language = "{language}"'
        text = _UNSETTLED_LINE.sub(line, text, count=1) if _UNSETTLED_LINE.search(text) else f"{line}\n{text}"
        if language == "zh":
            for path, old, new in (
                (self.root / "CLAUDE.md", CLAUDE_MD_EN, CLAUDE_MD_ZH),
                (self.wiki / "INDEX.md", INDEX_TEMPLATE_EN, INDEX_TEMPLATE_ZH),
                (self.user_questions, USER_QUESTIONS_TEMPLATE_EN, USER_QUESTIONS_TEMPLATE),
            ):
                if path.is_file() and path.read_text("utf-8") == old:
                    atomic.write_text(path, new)
        atomic.write_text(settings, text)  # last: an interrupted settling is done again
        return language


STORE_ID_FILE = "store-id"


@dataclass(frozen=True)
class TeamBackend:
    """The PostgreSQL server a folder's derived data lives in, and the folder's name there.

    ``url`` may carry a password: pass it to store/pg.py, show it only through ``mask_url``."""

    url: str
    name: str


def team_backend(root: Path, settings_root: Path | None = None) -> TeamBackend | None:
    """The team backend of a knowledge base or report folder, or None for the SQLite default.

    Why the name: one server holds many knowledge bases, and every checkout of one (on another
    machine, at another path) must meet the same rows and locks. ``[store] name`` in the folder's
    ``autodidact.toml`` names it; else ``.autodidact/store-id`` (made once) does (docs/team.md).
    ``settings_root``: the folder whose settings apply (a report folder's knowledge base)."""
    root = Path(root)
    config_root = Path(settings_root) if settings_root is not None else root
    if not env(DATABASE_URL_VAR) and not _mentions_postgres(config_root):
        return None  # the default: no settings read, nothing changes
    settings = load_settings(config_root)
    url = database_url(settings)
    if url is None:
        return None
    own_name = settings.store.name if config_root == root else None  # a report folder has its own id
    return TeamBackend(url=url, name=own_name or store_id(root))


def _mentions_postgres(root: Path) -> bool:
    for path in (root / KB_SETTINGS_FILE, user_config_path()):
        try:
            if "postgres" in path.read_text(encoding="utf-8"):
                return True
        except (OSError, UnicodeDecodeError):
            continue
    return False


def store_id(root: Path) -> str:
    """The folder's own id in a shared database (``.autodidact/store-id``, made on first use)."""
    path = Path(root) / ".autodidact" / STORE_ID_FILE
    try:
        found = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        found = ""
    if found:
        return found
    atomic.create_exclusive(path, (uuid.uuid4().hex + "\n").encode("utf-8"))
    return path.read_text(encoding="utf-8").strip()


def resolve_root(kb: Path | str | None) -> Path:
    """``--kb`` if given, else ``AUTODIDACT_KB``, else the current folder."""
    if kb is not None:
        return Path(kb)
    from_env = env("AUTODIDACT_KB")
    return Path(from_env) if from_env else Path.cwd()


def is_kb(root: Path) -> bool:
    """A folder is a knowledge base when it has the seed's marker files."""
    return (root / "CLAUDE.md").is_file() and (root / "raw").is_dir()


def open_kb(kb: Path | str | None = None) -> KnowledgeBase:
    """Open an existing knowledge base or raise a clear error saying how to create one."""
    root = resolve_root(kb)
    if not root.exists():
        raise NotFoundError(f"knowledge base folder {root} does not exist", hint=f"run: autodidact init {root}")
    if not is_kb(root):
        raise KBError(
            f"{root} is not a knowledge base (no CLAUDE.md and raw/)",
            hint=f"run: autodidact init {root}",
            exit_code=2,
        )
    return KnowledgeBase(root.resolve())


def init_kb(root: Path | str, topic: str | None = None, lang: str | None = None) -> tuple[KnowledgeBase, list[str]]:
    """Create the layout; keep every existing file. Returns the KB and the paths created or completed.

    The layout includes the Obsidian settings that keep ``source_cache/`` and ``.autodidact/`` out of
    the vault's search and graph (``obsidian.py``): merged into a person's own settings, never replacing them."""
    root = Path(root)
    if root.exists() and not root.is_dir():
        raise KBError(f"{root} exists and is not a folder", hint="choose another path", exit_code=2)
    language = lang or (detect_language(topic) if topic else "en")
    # Neither a topic nor --lang: the first research topic decides (KnowledgeBase.settle_language);
    # `init my-kb` and then a Chinese topic used to run as an English knowledge base.
    language_line = f'language = "{language}"' if lang or topic else UNSETTLED_LANGUAGE
    if language not in {"zh", "en"}:
        raise KBError(f"unknown language {language!r}", hint="use zh or en", exit_code=2)
    root.mkdir(parents=True, exist_ok=True)
    kb = KnowledgeBase(root.resolve())
    created: list[str] = []
    for folder in (kb.raw, kb.source_cache, kb.wiki, kb.outputs, kb.rounds, kb.internal):
        if not folder.exists():
            folder.mkdir(parents=True)
            created.append(str(folder.relative_to(kb.root)) + "/")
    files = {
        kb.root / "CLAUDE.md": CLAUDE_MD_ZH if language == "zh" else CLAUDE_MD_EN,
        kb.root / KB_SETTINGS_FILE: SETTINGS_TEMPLATE.format(language_line=language_line),
        kb.wiki / "INDEX.md": INDEX_TEMPLATE_ZH if language == "zh" else INDEX_TEMPLATE_EN,
        kb.user_questions: USER_QUESTIONS_TEMPLATE if language == "zh" else USER_QUESTIONS_TEMPLATE_EN,
        kb.internal / ".gitignore": "*\n",
    }
    for path, text in files.items():
        if atomic.create_exclusive(path, text.encode("utf-8")):
            created.append(str(path.relative_to(kb.root)))
    vault = ensure_vault_settings(kb.root)
    if vault:
        created.append(vault)
    return kb, created
