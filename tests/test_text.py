"""The text normaliser: abstract text in, safe Markdown (and plain text) out.

Inputs are snippets from the seed digests and the classic attacks.
"""

from __future__ import annotations

import markdown
import pytest

from generator.text import escape_line, to_markdown, to_plain

CASES = [
    # LaTeX text commands
    (r"We introduce \GRACE{} (Generative Representation)", "We introduce GRACE (Generative Representation)"),
    (r"\textbf{a broad class of RL methods}", "**a broad class of RL methods**"),
    (r"the \emph{first} to achieve", "the *first* to achieve"),
    (r"\textit{italic} text", "*italic* text"),
    # Old-style font switches in a group, as in a held-out ICLR 2025 abstract ("{\em algorithm-dependent} proofs")
    (r"We provide {\em algorithm-dependent} proofs", "We provide *algorithm-dependent* proofs"),
    (r"{\bf bold} and {\it italic} and {\sc Small Caps}", "**bold** and *italic* and Small Caps"),
    (r"{\tt code} {\emphasis}", "code emphasis"),  # \emphasis is no \em
    (r"\texttt{code_x}", r"code\_x"),
    (r"50\texttimes{} speed-up", "50× speed-up"),
    ("``learning cliff''", "“learning cliff”"),
    ("rationales---structured", "rationales—structured"),
    ("query--positive pairs", "query–positive pairs"),
    (r"improves by 11.5\% over", "improves by 11.5% over"),
    (r"A \& B", "A &amp; B"),
    ("Table~1 shows", "Table 1 shows"),
    (r"results \cite{smith2020} show", "results show"),
    (r"online finite-horizon {adversarial} linear CMDPs", "online finite-horizon adversarial linear CMDPs"),
    (r"\url{https://x.org/a_b}", r"[https://x.org/a\_b](<https://x.org/a_b>)"),
    (r"\href{https://x.org}{the site}", "[the site](<https://x.org>)"),
    # Accents written as LaTeX in a CSV or JSON abstract (a real MiniConf papers.csv: "sliced Cram\'{e}r")
    (r"the sliced Cram\'{e}r distance", "the sliced Cramér distance"),
    (r"Erd\H{o}s -- R\'{e}nyi graphs", "Erdős – Rényi graphs"),
    (r'a na\"ive baseline, Schr\"odinger bridges and Hyv\"arinen', "a naïve baseline, Schrödinger bridges and Hyvärinen"),
    (r"the It\^{o} integral of Pe\~{n}a and Abell{\'a}n", "the Itô integral of Peña and Abellán"),
    # ... but an escaped quote is no accent: kept as written
    (r"the \'Decompose\' step and don\'t", r"the \\'Decompose\\' step and don\\'t"),
    (r'answer: \"How does it scale?\"', r'answer: \\"How does it scale?\\"'),
    # Math is kept for KaTeX
    (r"a policy $\pi_\theta$ that", r"a policy $\pi_\theta$ that"),
    (r"by $\widetilde{\mathcal{O}}(\sqrt{T} + C^P)$", r"by $\widetilde{\mathcal{O}}(\sqrt{T} + C^P)$"),
    ("$$E = mc^2$$", r"$\displaystyle E = mc^2$"),
    ("cost $5 and $10", r"cost \$5 and \$10"),
    # Markdown the author wrote
    ("such as *calibration* and *human-alignment*", "such as *calibration* and *human-alignment*"),
    ("we introduce **ENACT**, a benchmark", "we introduce **ENACT**, a benchmark"),
    ("**ENACT** comprises", "**ENACT** comprises"),
    ("**L**ength-b**A**sed", "**L**ength-b**A**sed"),
    ("[https://a.b/c](https://a.b/c)", "[https://a.b/c](<https://a.b/c>)"),
    ("our [anonymous repository](https://github.com/x/y).", "our [anonymous repository](<https://github.com/x/y>)."),
    ("write to [me](mailto:a@b.c)", "write to [me](<mailto:a@b.c>)"),
    ("[x](javascript:alert(1))", r"\[x\](javascript:alert(1))"),
    ("see https://example.org/x.", "see [https://example.org/x](<https://example.org/x>)."),
    ("(code at https://example.org/x)", "(code at [https://example.org/x](<https://example.org/x>))"),
    # HTML is text; entities are decoded once
    ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
    ("<img src=x onerror=alert(1)>", r"&lt;img src\=x onerror\=alert(1)&gt;"),
    ("the <EOS> token", "the &lt;EOS&gt; token"),
    ("</div>", "&lt;/div&gt;"),
    ("&lt;EOS&gt; and &amp;amp;", "&lt;EOS&gt; and &amp;amp;"),
    # No Markdown structure from text; no template syntax
    ("# Title", r"\# Title"),
    ("--- x", "— x"),
    ("> quoted", "&gt; quoted"),
    ("| a | b |", r"\| a \| b \|"),
    ("1. item", r"1\. item"),
    ("12) item", r"12\) item"),
    ("    indented code", "indented code"),
    ("[^1]: note", r"\[\^1\]: note"),
    ("*[abbr]: x", r"\*\[abbr\]: x"),
    ("{: .c onclick=x }", r"\{: .c onclick\=x \}"),
    ("!!! note", r"\!\!\! note"),
    ("{{ 7*7 }}", r"\{\{ 7\*7 \}\}"),
    ("{% raw %}", r"\{% raw %\}"),
    # Invisible and dangerous characters
    ("a\u202eb\u2066c\u2069", "abc"),
    ("NUL\x00 and \x1b[31m", r"NUL and \[31m"),
]

MD = markdown.Markdown(
    extensions=["attr_list", "admonition", "tables", "footnotes", "abbr", "pymdownx.details", "pymdownx.escapeall",
                "pymdownx.arithmatex"],
    extension_configs={
        "pymdownx.escapeall": {"hardbreak": False, "nbsp": False},
        "pymdownx.arithmatex": {"generic": True, "inline_syntax": ["dollar"], "block_syntax": ["dollar"]},
    },
)


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:30] for c in CASES])
def test_markdown_for_each_rule(text: str, expected: str) -> None:
    assert to_markdown(text) == expected


@pytest.mark.parametrize(("text", "_"), CASES, ids=[c[0][:30] for c in CASES])
def test_rendered_html_is_one_paragraph_without_raw_markup(text: str, _: str) -> None:
    html = MD.reset().convert(to_markdown(text))
    assert html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1
    for tag in ("<script", "<img", "<div", "<h1", "<blockquote", "<table", "<ol", "<ul", "<hr", "<pre"):
        assert tag not in html


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        (r"We introduce \GRACE{}, a policy $\pi_\theta$ with \textbf{bold} and *em*", "We introduce GRACE, a policy π_θ with bold and em"),
        ("see [repo](https://github.com/x/y).", "see repo (https://github.com/x/y)."),
        ("&lt;EOS&gt; &amp; more", "<EOS> & more"),
        (r"the sliced Cram\'{e}r distance on Erd\H{o}s--R\'enyi graphs", "the sliced Cramér distance on Erdős–Rényi graphs"),
    ],
)
def test_plain_text(text: str, plain: str) -> None:
    assert to_plain(text) == plain


def test_escape_line_for_titles() -> None:
    assert escape_line("1. A *title* with <b> and | pipes") == r"1\. A \*title\* with &lt;b&gt; and \| pipes"
