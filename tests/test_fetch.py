"""fetch-arxiv against a real loopback HTTP server, and with nothing listening."""

from __future__ import annotations

import hashlib
import socket
import time

import pytest
from conftest import corpus

from basehalf_cli.main import main
from basehalf_core.documents import fetch
from basehalf_core.folder.workspace import Workspace


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again on exit: nothing listens there


def test_fetch_puts_the_paper_where_the_notes_expect_it(arxiv, session_copy):
    pdf = corpus("attention-1706.03762.pdf").read_bytes()
    server = arxiv({"/pdf/1706.03762v5": (200, "application/pdf", pdf)})
    before = Workspace.open(session_copy)
    assert {i.entry for i in before.issues()} == {"attention-is-all-you-need.pdf"}

    result = fetch.fetch_arxiv("1706.03762v5", session_copy, base_url=server.url)

    assert result.path == "attention-is-all-you-need.pdf"  # named by the notes' entries
    assert (session_copy / result.path).read_bytes() == pdf
    assert result.sha256 == hashlib.sha256(pdf).hexdigest()
    assert (result.anchors_matching, result.anchors_differing) == (5, 0)
    assert server.requests == ["/pdf/1706.03762v5"]
    after = Workspace.open(session_copy)
    assert after.issues() == []
    assert after.downstream("attention-is-all-you-need.pdf") == [
        f"0{i}-{n}.md"
        for i, n in enumerate(
            [
                "transformer-claim",
                "why-not-only-recurrence",
                "scaled-dot-product",
                "three-attention-uses",
                "positional-encoding",
            ],
            start=1,
        )
    ]


def test_a_second_fetch_does_not_go_online(arxiv, session_copy):
    pdf = corpus("attention-1706.03762.pdf").read_bytes()
    server = arxiv({"/pdf/1706.03762": (200, "application/pdf", pdf)})
    fetch.fetch_arxiv("1706.03762", session_copy, base_url=server.url)
    again = fetch.fetch_arxiv(
        "1706.03762", session_copy, base_url=f"http://127.0.0.1:{_closed_port()}/pdf/"
    )
    assert again.already_there and again.anchors_matching == 5
    assert len(server.requests) == 1


def test_another_edition_is_saved_and_said_to_differ(arxiv, session_copy):
    other = corpus("sf_multicolumn.pdf").read_bytes()
    server = arxiv({"/pdf/1706.03762v7": (200, "application/pdf", other)})
    result = fetch.fetch_arxiv("1706.03762v7", session_copy, base_url=server.url)
    assert (result.anchors_matching, result.anchors_differing) == (0, 5)
    assert "5 from another edition" in fetch.describe(result, session_copy)


def test_default_name_is_the_id_when_the_notes_name_no_pdf(arxiv, tmp_path):
    pdf = corpus("grobid_dehypenisation1.pdf").read_bytes()
    server = arxiv({"/pdf/hep-th/9901001v1": (200, "application/pdf", pdf)})
    result = fetch.fetch_arxiv("hep-th/9901001v1", tmp_path, base_url=server.url)
    assert result.path == "hep-th_9901001v1.pdf"
    assert (tmp_path / result.path).read_bytes() == pdf


def test_base_url_from_the_environment(arxiv, tmp_path, monkeypatch):
    pdf = corpus("grobid_dehypenisation1.pdf").read_bytes()
    server = arxiv({"/pdf/2301.00001": (200, "application/pdf", pdf)})
    monkeypatch.setenv("BASEHALF_ARXIV_URL", server.url)
    assert fetch.fetch_arxiv("2301.00001", tmp_path, name="paper.pdf").path == "paper.pdf"


@pytest.mark.parametrize(
    ("status", "ctype", "body", "error", "message"),
    [
        (200, "text/html", b"<html>captcha</html>", fetch.NotAPdf, "not a PDF"),
        (200, "application/pdf", b"%PDF-1.4\n%%EOF\n", fetch.NotAPdf, "does not open"),
        (404, "text/plain", b"missing", fetch.DownloadFailed, "HTTP 404"),
        (503, "text/plain", b"busy", fetch.DownloadFailed, "HTTP 503"),
    ],
)
def test_bad_answers_write_nothing(arxiv, session_copy, status, ctype, body, error, message):
    server = arxiv({"/pdf/1706.03762": (status, ctype, body)})
    listing = sorted(p.name for p in session_copy.iterdir())
    with pytest.raises(error, match=message):
        fetch.fetch_arxiv("1706.03762", session_copy, base_url=server.url)
    assert sorted(p.name for p in session_copy.iterdir()) == listing


def test_refused_connection_says_no_internet_quickly(session_copy):
    url = f"http://127.0.0.1:{_closed_port()}/pdf/"
    start = time.monotonic()
    with pytest.raises(fetch.NoInternet) as exc:
        fetch.fetch_arxiv("1706.03762", session_copy, base_url=url, timeout=3)
    assert time.monotonic() - start < 5
    message = str(exc.value)
    assert "cannot reach 127.0.0.1" in message and "no internet connection?" in message
    assert "\n" not in message
    assert not (session_copy / "attention-is-all-you-need.pdf").exists()


@pytest.mark.parametrize(
    "bad_id", ["", "1706", "../etc/passwd", "1706.03762/../x", "http://evil/1", "1706.03762 v5"]
)
def test_bad_ids_are_refused_before_any_request(bad_id, tmp_path):
    with pytest.raises(fetch.BadArxivId, match="not an arXiv id"):
        fetch.fetch_arxiv(bad_id, tmp_path, base_url="http://127.0.0.1:9/")


@pytest.mark.parametrize(
    ("name", "message"),
    [("../outside.pdf", "not a file name inside the folder"), ("paper.txt", "must end in .pdf")],
)
def test_bad_names_are_refused(name, message, tmp_path):
    with pytest.raises(fetch.FetchError, match=message):
        fetch.fetch_arxiv("1706.03762", tmp_path, name=name, base_url="http://127.0.0.1:9/")
    assert list(tmp_path.iterdir()) == []


def test_cli_offline_prints_one_line_and_fails(session_copy, capsys, monkeypatch):
    monkeypatch.setenv("BASEHALF_ARXIV_URL", f"http://127.0.0.1:{_closed_port()}/pdf/")
    code = main(["fetch-arxiv", "1706.03762v5", str(session_copy), "--timeout", "3"])
    err = capsys.readouterr().err
    assert code == 1
    assert err.count("\n") == 1 and err.startswith("basehalf fetch-arxiv: cannot reach")


def test_cli_fetch_prints_where_it_saved(arxiv, session_copy, capsys, monkeypatch):
    pdf = corpus("attention-1706.03762.pdf").read_bytes()
    server = arxiv({"/pdf/1706.03762v5": (200, "application/pdf", pdf)})
    monkeypatch.setenv("BASEHALF_ARXIV_URL", server.url)
    assert main(["fetch-arxiv", "1706.03762v5", str(session_copy)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"saved: {session_copy / 'attention-is-all-you-need.pdf'}")
    assert "5 note(s) grown from exactly this file" in out
