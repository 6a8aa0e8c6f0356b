"""Words for every layer: tokens, stems, stopwords, CJK bigrams, sentences, sections of long
documents, topic type, subject and facets of a topic — each defined once (docs/text.md).

Why one package: the questioner, the evidence agent, the wiki, the report and the debate must agree
on what a "key term" or a "sentence" is; when each kept its own list they disagreed, and an answer
found by one step was judged missing by the next.
"""
