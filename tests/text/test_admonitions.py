"""Notes, warnings and tips a document marks itself (text/admonitions.py; docs/evidence.md)."""

from __future__ import annotations

from pydoc_data.topics import topics

from autodidact.text.admonitions import admonition_spans, in_admonition


def _notes(text: str) -> list[str]:
    return [" ".join(text[s:e].split()) for s, e in admonition_spans(text)]


def test_a_docbook_note_rendered_as_a_table_is_found_with_its_rows() -> None:
    text = (
        "你能够通过如下的命令用 iconv 来转换文本文件的编码。\n\n"
        "|  | 注意 |\n|---|---|\n"
        "|  | 请注意，你需要使用 CP932 作为编码名来代替 shift-JIS。否则，这些将被转化为错误的字符。 |\n\n"
        "| 编码值 | 用法 |\n|---|---|\n| CP932 | code page 932 |\n"
    )
    note = "| | 请注意，你需要使用 CP932 作为编码名来代替 shift-JIS。否则，这些将被转化为错误的字符。 |"
    assert _notes(text) == ["| | 注意 | |---|---| " + note]
    at = text.index("否则")
    assert in_admonition(admonition_spans(text), at, at + 10)
    # the ordinary table after it is not a note
    assert not in_admonition(admonition_spans(text), text.index("code page"), text.index("code page") + 9)


def test_pythons_reference_marks_its_warnings_on_a_line_of_their_own() -> None:
    text = topics["customization"]
    notes = _notes(text)
    assert any(n.startswith("Warning: Due to the precarious circumstances under which") for n in notes)
    warning = next(n for n in notes if n.startswith("Warning: Due to"))
    # the note ends where the indented block ends: the next entry is not part of it
    assert "object.__repr__(self)" not in warning


def test_a_label_that_opens_a_paragraph_runs_to_the_paragraphs_end() -> None:
    text = (
        "    loads(bytes, /)\n        Convert the bytes-like object to a value.\n\n"
        "        Note: If an object containing an unsupported type was marshalled with\n"
        "        dump(), load() will substitute None for the unmarshallable type.\n\n"
        "        Other text follows here.\n"
    )
    assert _notes(text) == [
        "Note: If an object containing an unsupported type was marshalled with dump(), "
        "load() will substitute None for the unmarshallable type."
    ]


def test_markdown_callouts_are_notes() -> None:
    text = "Intro.\n\n> [!WARNING]\n> Never run this as root.\n\nAfter.\n\n> **Tip:** use --dry-run first.\n"
    assert _notes(text) == ["> [!WARNING] > Never run this as root.", "> **Tip:** use --dry-run first."]


def test_words_that_only_look_like_labels_are_not_notes() -> None:
    text = (
        "Notes on the design of the parser follow.\n\n"
        "Note that the order matters here.\n\n"
        "| 名称 | 注意事项 |\n|---|---|\n| a | b |\n\n"
        "Important\n"
        "a line that is not indented under the label\n"
    )
    assert admonition_spans(text) == []
