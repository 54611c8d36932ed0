"""The hostile corpus: attacks and pathologies that must build into an inert site.

Each case is one abstract. `Case NN` starts it so tests can find its page; the
rest is the attack. `hostile_digest()` writes them as one digest file.
"""

from __future__ import annotations

ATTACKS: list[str] = [
    '<script>alert("xss")</script> plain words after the script tag',
    "<img src=x onerror=alert(1)> image with an error handler",
    "<svg onload=alert(1)><circle r=1></svg> inline svg with onload",
    '<iframe src="javascript:alert(1)"></iframe> framed javascript',
    "</div></article><h1>Injected heading</h1> closing tags to break out",
    "Tokens like <EOS>, <pad> and <|endoftext|> appear in language model papers",
    "&lt;script&gt;alert(1)&lt;/script&gt; entity encoded script decoded once",
    "&amp;lt;b&amp;gt; double encoded bold stays visible as entity text",
    "[click me](javascript:alert(1)) markdown link with javascript target",
    "[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) markdown data url",
    "[vb link](vbscript:msgbox(1)) markdown vbscript target",
    "![image](javascript:alert(1)) markdown image with javascript source",
    '<a href="javascript:alert(1)">anchor</a> raw anchor with javascript',
    "Jinja expression {{ 7*7 }} must not become forty nine",
    "Jinja block {% raw %}{{ config }}{% endraw %} and {% for x in y %}loop{% endfor %}",
    "Jinja comment {# hidden #} stays visible",
    "# Heading attempt at the start of the abstract",
    "--- title: pwned --- front matter attempt inside text",
    "> blockquote attempt at the start",
    "| table | attempt | with pipes |",
    "1. ordered list attempt at the start",
    "- bullet list attempt at the start",
    "[^1]: footnote definition attempt",
    "*[HTML]: abbreviation definition attempt",
    '{: .injected onclick="alert(1)" } attribute list attempt',
    '!!! danger "Admonition attempt" at the start',
    "??? details attempt at the start",
    "Math breakout $</span><script>alert(1)</script>$ inside dollars",
    r"Math with href $\href{javascript:alert(1)}{click}$ inside dollars",
    r"Malformed math $\frac{1}{$ and $x^{$ shows as source",
    "<style>body{display:none}</style> style element attempt",
    '<object data="x"></object><embed src="x"> plugin elements',
    "<form action=x><input name=q><button>go</button></form> form elements",
    '<meta http-equiv="refresh" content="0;url=http://example.invalid"> refresh attempt',
    '<base href="http://example.invalid/"> base element attempt',
    "Bidi override \u202etxt.exe\u202c and isolate \u2066hidden\u2069 characters",
    "Control characters \x00 NUL \x07 bell \x1b[31m escape and \x7f delete",
    "Zero width\u200b space\u200c non joiner\ufeff and soft\u00adhyphen",
    "Emoji 🙂 family 👩\u200d👩\u200d👧 CJK 中文摘要 Arabic العربية combining e\u0301 and a\u0308",
    "<!-- html comment --> and <![CDATA[ cdata section ]]> markers",
    "Bare javascript:alert(1) and data:text/html,hello are plain text",
    'URL with quotes https://example.com/"onmouseover="alert(1) stays one link',
    "URL with angle https://example.com/<script>alert(1)</script> stays inert",
    r"LaTeX url \url{javascript:alert(1)} and \href{javascript:alert(2)}{label} are text",
    "**bold <script>alert(1)</script>** emphasis around a script",
    "Autolinks <http://example.com> and <javascript:alert(1)> are text",
    "Numeric entities &#x3C;script&#x3E; and &#60;b&#62; decode once",
    "Line separator \u2028 paragraph separator \u2029 and next line \x85 characters",
    "../../etc/passwd path traversal as a title",
    "CON. Reserved device name as a title",
    "Backslash escapes \\* \\_ \\` \\[ and a trailing backslash \\",
    "Attribute breakout \" onmouseover=\"alert(1)\" ' onfocus='alert(2)' quotes",
    "Template in tag {{ paper.title }} and {{ ''.__class__ }} expressions",
]

LONG_WORD = "Supercalifragilistic" * 500  # 10,000 characters


def cases() -> list[str]:
    """Return every case as an abstract, numbered; pathological sizes included."""
    texts = [f"Case {i:02d} {text}" for i, text in enumerate(ATTACKS, start=1)]
    n = len(texts)
    texts.append(f"Case {n + 1:02d} a ten thousand character word {LONG_WORD} ends here")
    # About 1 MB of text in one abstract.
    texts.append(f"Case {n + 2:02d} a huge abstract " + "We study robust learning. " * 42000)
    return texts


def hostile_digest() -> str:
    """Return the hostile corpus as one digest file's text."""
    return "Hostile 2026 Papers\n\n" + "\n\n".join(c.replace("\n", " ") for c in cases()) + "\n"


#: Attacks in the fields a structured source gives (title, authors, keywords, area, id), which a paper page writes as escaped HTML: its authors line, tag chips and the
#: "Why these tags?" note (a keyword three records share becomes a topic of its own), the
#: related papers' titles, the citation block and the source list.
FIELD_ATTACKS: list[str] = [
    '<script>alert("field")</script>',
    '" onmouseover="alert(1)" x="',
    "</li></ul><h2>Injected</h2><ul><li>",
    "{{ 7*7 }} {% raw %}x{% endraw %}",
    "</code></pre><img src=x onerror=alert(1)>",
    "[link](javascript:alert(1)) *em* `code` {: .cls }",
]


def hostile_records() -> list[dict]:
    """Return JSON-lines records whose given fields each carry an attack (`Field NN` starts each abstract)."""
    records = []
    for i, attack in enumerate(FIELD_ATTACKS, start=1):
        records.append({
            "id": f"{attack} id{i}",
            "title": f"Field {i:02d} title {attack}",
            "abstract": f"Field {i:02d} We study robust parsing of conference records. {attack} The text ends here.",
            "authors": [f"Ada {attack}", "Alan Turing"],
            # The first keyword is shared by every record, so it becomes a topic (three papers or more).
            "keywords": [f"Shared {FIELD_ATTACKS[0]} keyword", f"own {attack}"],
            "primary_area": f"area {attack}",
            # Quotes and an ampersand, which a link keeps (a URL with spaces or brackets is not linked).
            "url": f"https://example.com/{i}?q=\"onmouseover='alert({i})'&x=1",
            # The text digest's collection: one collection, so tag pages show no trend chart.
            "venue": "Hostile 2026",
        })
    return records
