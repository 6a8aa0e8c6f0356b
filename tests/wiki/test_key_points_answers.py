"""Key-points questions in the wiki: admitted by topic, judged by their own answer block
(wiki/compile/answers.py QuestionTerms.admits, wiki/audit/check_task.py; docs/audit.md)."""

from __future__ import annotations

from autodidact.wiki.audit.check_task import PassageIn, QuestionInputs, offline_answer
from autodidact.wiki.compile.answers import QuestionTerms

TOPIC = "How does Debian package management work: dpkg vs apt, version pinning, and system upgrades?"
QUESTION = "What are the key points of “Archive level Release files”?"
OWN = (
    "- For normal archives the default Pin-Priority value is 500. (source: r.md)\n"
    "- An archive marked NotAutomatic is never used as the automatic source of upgrades. (source: r.md)\n"
)
ELSEWHERE = "- See the archive level Release files section for how Release files are read. (source: s.md)\n"


def test_a_section_point_enters_without_repeating_the_heading_but_not_off_topic() -> None:
    terms = QuestionTerms.of(QUESTION, "version pinning", TOPIC)
    assert terms.admits("The default Pin-Priority of a package is 500 unless preferences say otherwise.")
    assert not terms.admits("The keyboard layout is chosen in the installer.")
    # The same quote under an ordinary question about the section's words is not an answer.
    plain = QuestionTerms.of("What are archive level Release files?", "version pinning", TOPIC)
    assert not plain.admits("The default Pin-Priority of a package is 500 unless preferences say otherwise.")


def test_resolved_by_its_own_answer_block_only() -> None:
    own = PassageIn(title="Version pinning", file="wiki/version-pinning.md", heading=QUESTION, text=OWN)
    other = PassageIn(title="Backports", file="wiki/backports.md", heading="Backports", text=ELSEWHERE)
    verdict = offline_answer(QuestionInputs(qid="q", question=QUESTION, lang="en", passages=[other, own]))
    assert verdict.status == "resolved"
    assert "500" in verdict.answer and verdict.files == ["wiki/version-pinning.md"]
    # Mentions of the heading's words elsewhere do not answer what the section says.
    alone = offline_answer(QuestionInputs(qid="q", question=QUESTION, lang="en", passages=[other]))
    assert alone.status == "open"


def test_a_short_section_is_answered_by_its_one_point_in_chinese_too() -> None:
    question = "《调整候选版本》的要点是什么？"
    own = PassageIn(
        title="版本固定", file="wiki/pin.md", heading=question, text="- 默认的 Pin-Priority 值是 500。（来源：r.md）\n"
    )
    other = PassageIn(
        title="升级", file="wiki/up.md", heading="系统升级", text="- 调整候选版本可以降级软件包。（来源：s.md）\n"
    )
    verdict = offline_answer(QuestionInputs(qid="q", question=question, lang="zh", passages=[other, own]))
    assert verdict.status == "resolved" and "500" in verdict.answer and verdict.files == ["wiki/pin.md"]
    assert offline_answer(QuestionInputs(qid="q", question=question, lang="zh", passages=[other])).status == "open"


def test_a_term_the_articles_title_holds_is_not_a_gap() -> None:
    # "missing: Python" re-asked "What is the definition of Python generators?" round after round
    question = "What is the definition of Python generators?"
    text = (
        "- A generator is a function which returns a generator iterator. (source: g.md)\n"
        "- A generator function is defined like a normal function but contains yield expressions. (source: g.md)\n"
    )
    own = PassageIn(title="Python generators", file="wiki/python-generators.md", heading="Generators", text=text)
    verdict = offline_answer(QuestionInputs(qid="q", question=question, lang="en", passages=[own]))
    assert verdict.status == "resolved", verdict
    elsewhere = PassageIn(title="Iterators", file="wiki/iterators.md", heading="Generators", text=text)
    verdict = offline_answer(QuestionInputs(qid="q", question=question, lang="en", passages=[elsewhere]))
    assert verdict.status == "partial" and "Python" in verdict.gap


def test_an_action_phrase_in_two_articles_is_not_a_missing_concept() -> None:
    from autodidact.wiki.audit.article_findings import term_findings
    from autodidact.wiki.common.articles import Article, parse_article

    def art(stem: str, title: str) -> Article:
        body = (
            f"# {title}\n\n## Notes\n\n- See **Implementing Descriptors** for the protocol. (source: a.md)\n"
            "- The **Method Resolution Order** decides lookup. (source: a.md)\n"
        )
        return parse_article(body, stem)

    articles = [art("a", "Descriptors"), art("b", "Classes")]
    found = "\n".join(f.text for f in term_findings(articles, zh=False))
    assert "Method Resolution Order" in found and "Implementing Descriptors" not in found


def test_a_data_table_row_reads_after_prose_that_answers() -> None:
    from autodidact.wiki.common.articles import Section
    from autodidact.wiki.compile.answers import Quote
    from autodidact.wiki.compile.answers_blocks import is_data_row, merge_quotes

    row = "`shorewall-lite` | V:0, I:0 | 71 | Shoreline Firewall, a netfilter firewall configurator |"
    prose = "Netfilter provides the infrastructure for a stateful firewall and network address translation."
    assert is_data_row(row) and not is_data_row(prose)
    assert not is_data_row("`dpkg --configure -a` | configure all partially installed packages |")
    section = Section("What is the firewall on Debian?")
    terms = QuestionTerms.of("What is the firewall on Debian?", "firewall", "How is networking configured on Debian?")
    merge_quotes(section, [Quote(row, ["a.md"]), Quote(prose, ["b.md"])], terms, lambda _n: "中", "en")
    text = "\n".join(section.blocks)
    assert text.index("Netfilter provides") < text.index("shorewall-lite")  # kept, but after the prose


def test_the_research_subject_that_placed_a_facet_is_not_its_gap() -> None:
    # "missing: coordinating" stood in the summary under a question about Lock and Event
    question = "What are the limitations of Lock and Event in coordinating asyncio coroutines?"
    text = (
        "- A Lock is not thread-safe, and an Event cannot be reset while tasks wait on it. (source: l.md)\n"
        "- An event manages a flag; the limitation is that a Lock is not reentrant. (source: l.md)\n"
    )
    own = PassageIn(title="Lock and Event", file="wiki/lock-and-event.md", heading="Limits", text=text)
    subject = "coordinating asyncio coroutines"
    verdict = offline_answer(QuestionInputs(qid="q", question=question, lang="en", passages=[own], subject=subject))
    assert "coordinating" not in verdict.gap and "asyncio" not in verdict.gap
    # a question about the subject itself still needs the subject's words
    whole = "What are the limitations of coordinating asyncio coroutines?"
    verdict = offline_answer(QuestionInputs(qid="q", question=whole, lang="en", passages=[own], subject=subject))
    assert verdict.status != "resolved"


def test_a_capitalised_sentence_opening_or_a_list_of_abbreviations_is_not_a_missing_concept() -> None:
    """ "Thus Wget" was reported in wget's wiki as a term with no article and asked "What is Thus
    Wget?" every round; "HTTP and FTP" too (a fresh-eyes trial)."""
    from autodidact.wiki.audit.article_findings import term_findings
    from autodidact.wiki.common.articles import Article, parse_article

    def art(stem: str, title: str) -> Article:
        body = (
            f"# {title}\n\n## Notes\n\n- Thus Wget retries a download. (source: a.md)\n"
            "- HTTP and FTP downloads resume with the same option. (source: a.md)\n"
            "- The Network Time Protocol keeps clocks in step. (source: a.md)\n"
        )
        return parse_article(body, stem)

    found = "\n".join(f.text for f in term_findings([art("a", "Retries"), art("b", "Downloads")], zh=False))
    assert "Thus" not in found and "HTTP and FTP" not in found
    assert "Network Time Protocol" in found  # a real term still is one
