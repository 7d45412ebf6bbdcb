"""fetch-arxiv's reference: arXiv's Atom API answer served on loopback, stored, exported."""

from __future__ import annotations

import re
from html import escape

import pymupdf
import pytest
import yaml
from conftest import corpus
from test_fetch import _closed_port

from basehalf_cli.main import main
from basehalf_core.documents import citation, fetch
from basehalf_core.folder import multifile, operations
from basehalf_core.folder.workspace import Workspace
from basehalf_core.views import export

AUTHORS = [
    "Ashish Vaswani",
    "Noam Shazeer",
    "Niki Parmar",
    "Jakob Uszkoreit",
    "Llion Jones",
    "Aidan N. Gomez",
    "Lukasz Kaiser",
    "Illia Polosukhin",
]


def atom(arxiv_id: str, doi: str = "") -> bytes:
    """An answer in the shape arXiv's query API gives for one id."""
    authors = "".join(f"<author><name>{a}</name></author>" for a in AUTHORS)
    doi_tag = f"<arxiv:doi>{doi}</arxiv:doi>" if doi else ""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query?id_list={arxiv_id}" rel="self"
    type="application/atom+xml"/>
  <title type="html">ArXiv Query: id_list={arxiv_id}</title>
  <opensearch:totalResults
    xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">1</opensearch:totalResults>
  <entry>
    <id>http://arxiv.org/abs/{arxiv_id}</id>
    <updated>2023-08-02T00:41:18Z</updated>
    <published>2017-06-12T17:57:34Z</published>
    <title>Attention Is All
      You Need</title>
    <summary>The dominant sequence transduction models are based on complex recurrent or
      convolutional neural networks ...</summary>
    {authors}
    {doi_tag}
    <arxiv:comment xmlns:arxiv="http://arxiv.org/schemas/atom">15 pages, 5 figures</arxiv:comment>
    <link href="http://arxiv.org/abs/{arxiv_id}" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/{arxiv_id}" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="cs.CL"/>
    <category term="cs.CL" scheme="http://arxiv.org/schemas/atom"/>
  </entry>
</feed>
""".replace("<arxiv:doi>", '<arxiv:doi xmlns:arxiv="http://arxiv.org/schemas/atom">').encode()


def api_route(arxiv_id: str) -> str:
    return f"/api/query?id_list={arxiv_id.replace('/', '%2F')}&max_results=1"


@pytest.fixture
def servers(arxiv):
    """Starts a loopback arXiv: its PDF base URL and its API URL."""

    def start(routes):
        s = arxiv(routes)
        return s, s.url, s.url.replace("/pdf/", "/api/query")

    return start


def test_fetch_stores_the_reference_in_the_mirror_store(servers, session_copy):
    pdf = corpus("attention-1706.03762.pdf").read_bytes()
    server, base, api = servers(
        {
            "/pdf/1706.03762v5": (200, "application/pdf", pdf),
            api_route("1706.03762v5"): (200, "application/atom+xml", atom("1706.03762v5")),
        }
    )
    result = fetch.fetch_arxiv("1706.03762v5", session_copy, base_url=base, api_url=api)
    assert server.requests == ["/pdf/1706.03762v5", api_route("1706.03762v5")]
    assert result.citation_problem == ""
    stored = session_copy / ".bh/mirror/attention-is-all-you-need.pdf/citation.yaml"
    data = yaml.safe_load(stored.read_text("utf-8"))
    assert data == {
        "title": "Attention Is All You Need",
        "authors": AUTHORS,
        "year": 2017,
        "arxiv": "1706.03762v5",
        "doi": "",  # neither this PDF nor arXiv gives one
        "primary_class": "cs.CL",
        "url": "https://arxiv.org/abs/1706.03762v5",
    }
    assert result.citation == data
    # The mirror store is basehalf's: the PDF is still just a node with no issue.
    assert Workspace.open(session_copy).issues() == []

    # A second fetch knows the reference already: nothing more is asked.
    again = fetch.fetch_arxiv("1706.03762v5", session_copy, base_url=base, api_url=api)
    assert again.already_there and again.citation == data
    assert len(server.requests) == 2


def test_the_pdfs_own_doi_is_kept(servers, tmp_path):
    # The paper as a journal would reprint it: the same PDF with a DOI stamped on page 1.
    with pymupdf.open(corpus("attention-1706.03762.pdf")) as doc:
        doc[0].insert_text((72, 30), "https://doi.org/10.5555/3295222.3295349")
        stamped = doc.tobytes()
    _, base, api = servers(
        {
            "/pdf/1706.03762": (200, "application/pdf", stamped),
            api_route("1706.03762"): (200, "application/atom+xml", atom("1706.03762")),
        }
    )
    result = fetch.fetch_arxiv("1706.03762", tmp_path, name="paper.pdf", base_url=base, api_url=api)
    assert result.citation["doi"] == "10.5555/3295222.3295349"
    ref = citation.load(Workspace.open(tmp_path), "paper.pdf")
    assert ref is not None and ref.doi == "10.5555/3295222.3295349"


def test_arxivs_doi_is_used_when_the_pdf_has_none(servers, tmp_path):
    pdf = corpus("attention-1706.03762.pdf").read_bytes()
    _, base, api = servers(
        {
            "/pdf/1706.03762": (200, "application/pdf", pdf),
            api_route("1706.03762"): (200, "text/xml", atom("1706.03762", doi="10.48550/x.1")),
        }
    )
    result = fetch.fetch_arxiv("1706.03762", tmp_path, name="p.pdf", base_url=base, api_url=api)
    assert result.citation["doi"] == "10.48550/x.1"


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        ((503, "text/plain", b"busy"), "HTTP 503"),
        ((200, "text/xml", b"<html>captcha"), "not XML"),
        ((200, "text/xml", b'<feed xmlns="http://www.w3.org/2005/Atom"/>'), "no entry"),
        (
            (
                200,
                "text/xml",
                b'<feed xmlns="http://www.w3.org/2005/Atom"><entry>'
                b"<id>http://arxiv.org/api/errors#incorrect_id_format</id><title>Error</title>"
                b"<summary>incorrect id format</summary></entry></feed>",
            ),
            "incorrect id format",
        ),
    ],
)
def test_no_reference_is_reported_and_the_pdf_is_kept(servers, tmp_path, answer, problem):
    pdf = corpus("attention-1706.03762.pdf").read_bytes()
    _, base, api = servers(
        {"/pdf/1706.03762": (200, "application/pdf", pdf), api_route("1706.03762"): answer}
    )
    result = fetch.fetch_arxiv("1706.03762", tmp_path, name="p.pdf", base_url=base, api_url=api)
    assert (tmp_path / "p.pdf").read_bytes() == pdf
    assert result.citation is None and problem in result.citation_problem
    assert not (tmp_path / ".bh/mirror/p.pdf/citation.yaml").exists()
    assert f"no reference stored: {result.citation_problem}" in fetch.describe(result, tmp_path)


def test_an_unreachable_api_is_reported_quickly(servers, tmp_path):
    pdf = corpus("attention-1706.03762.pdf").read_bytes()
    _, base, _ = servers({"/pdf/1706.03762": (200, "application/pdf", pdf)})
    dead = f"http://127.0.0.1:{_closed_port()}/api/query"
    result = fetch.fetch_arxiv("1706.03762", tmp_path, name="p.pdf", base_url=base, api_url=dead)
    assert result.citation is None and result.citation_problem.startswith("cannot reach")


def test_a_mirror_url_without_an_api_url_asks_no_api(servers, tmp_path):
    pdf = corpus("attention-1706.03762.pdf").read_bytes()
    server, base, _ = servers({"/pdf/1706.03762": (200, "application/pdf", pdf)})
    result = fetch.fetch_arxiv("1706.03762", tmp_path, name="p.pdf", base_url=base)
    assert server.requests == ["/pdf/1706.03762"]
    assert "BASEHALF_ARXIV_API_URL" in result.citation_problem


def test_cli_prints_the_reference_and_export_lists_it(servers, session_copy, capsys, monkeypatch):
    pdf = corpus("attention-1706.03762.pdf").read_bytes()
    _, base, api = servers(
        {
            "/pdf/1706.03762v5": (200, "application/pdf", pdf),
            api_route("1706.03762v5"): (200, "application/atom+xml", atom("1706.03762v5")),
        }
    )
    monkeypatch.setenv("BASEHALF_ARXIV_URL", base)
    monkeypatch.setenv("BASEHALF_ARXIV_API_URL", api)
    assert main(["fetch-arxiv", "1706.03762v5", str(session_copy)]) == 0
    line = (
        "Vaswani, A., Shazeer, N., Parmar, N., Uszkoreit, J., Jones, L., Gomez, A. N., "
        "Kaiser, L., & Polosukhin, I. (2017). Attention Is All You Need. arXiv:1706.03762v5."
    )
    assert capsys.readouterr().out.splitlines()[1] == f"reference: {line}"

    html = export.render_html(session_copy)
    section = re.search(r'<section class="bh-references">.*?</section>', html, re.S).group(0)
    assert escape(line) in section  # "&" is "&amp;" in HTML
    ref = citation.load(Workspace.open(session_copy), "attention-is-all-you-need.pdf")
    bib = citation.bibtex(ref)
    assert bib.startswith("@misc{vaswani2017attention,\n  title = {{Attention Is All You Need}},")
    assert "  author = {Vaswani, Ashish and Shazeer, Noam and" in bib
    assert "Gomez, Aidan N. and Kaiser, Lukasz and Polosukhin, Illia}" in bib
    assert "  eprint = {1706.03762},\n  archivePrefix = {arXiv},\n  primaryClass = {cs.CL}," in bib
    assert f'<pre class="bh-bibtex">{bib}</pre>' in section  # nothing in it needs escaping


def test_the_reference_moves_with_the_pdf(servers, tmp_path):
    pdf = corpus("attention-1706.03762.pdf").read_bytes()
    _, base, api = servers(
        {
            "/pdf/1706.03762": (200, "application/pdf", pdf),
            api_route("1706.03762"): (200, "text/xml", atom("1706.03762")),
        }
    )
    fetch.fetch_arxiv("1706.03762", tmp_path, name="p.pdf", base_url=base, api_url=api)
    ws = Workspace.open(tmp_path)
    multifile.move(ws, "p.pdf", "papers/attention.pdf")
    ref = citation.load(Workspace.open(tmp_path), "papers/attention.pdf")
    assert ref is not None and ref.title == "Attention Is All You Need"


def test_bibtex_escapes_and_formats_edge_cases():
    c = citation.Citation(title="50% of R&D {costs}", authors=["Plato"], year=None, arxiv="")
    assert citation.bibtex(c) == (
        "@misc{platocosts,\n  title = {{50\\% of R\\&D \\{costs\\}}},\n  author = {Plato}\n}"
    )
    assert citation.formatted(c) == "Plato (n.d.). 50% of R&D {costs}."
    assert citation.formatted(citation.Citation(title="T")) == "Anonymous (n.d.). T."


@pytest.mark.parametrize("name", ["", "upstream.yaml", "../x", "a/b", ".hidden"])
def test_mirror_files_take_plain_names_only(tmp_path, name):
    (tmp_path / "p.pdf").write_bytes(b"%PDF-1.4\n")
    with pytest.raises(operations.OperationRefused, match="not a usable name"):
        operations.write_mirror_file(Workspace.open(tmp_path), "p.pdf", name, b"x")
