import unicodedata

import pytest

from basehalf_core.folder.paths import check_entry, is_hidden, kind_for, mirror_store, slugify


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("", "empty"),
        ("/etc/passwd", "absolute"),
        ("../x", "'..'"),
        ("a/../b", "'..'"),
        ("./a.md", "'.'"),
        ("a//b", "empty"),
        ("a\\b", "backslash"),
        ("a\tb", "control"),
        ("a\x00b", "control"),
        (".bh/x", ".bh"),
        (".bh", ".bh"),
        ("self.md", "itself"),
        ("self.md/", "itself"),
    ],
)
def test_invalid_entries_say_why(raw, reason):
    path, why = check_entry(raw, "self.md")
    assert path is None
    assert reason in why


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("2024", "2024"),
        ("01", "01"),
        ("yes", "yes"),
        ("papers/", "papers"),
        ("a b/c.pdf", "a b/c.pdf"),
        (".bhx/y", ".bhx/y"),
        ("cafe\u0301.md", "café.md"),
    ],
)
def test_valid_entries_are_source_text(raw, expected):
    path, why = check_entry(raw, "self.md")
    assert (path, why) == (expected, "")
    assert unicodedata.is_normalized("NFC", path)


def test_only_one_trailing_slash_is_dropped():
    assert check_entry("a//", "x")[0] is None


@pytest.mark.parametrize(
    ("title", "slug"),
    [
        ("The Transformer claim", "the-transformer-claim"),
        ("Why not only recurrence?", "why-not-only-recurrence"),
        ("缩放点积注意力", "缩放点积注意力"),
        ("Q/K/V: what <each> means", "q-k-v-what-each-means"),
        ("   ", "untitled"),
        ("???", "untitled"),
    ],
)
def test_slugify_keeps_the_title_script(title, slug):
    assert slugify(title) == slug


def test_kinds():
    assert kind_for("a.PDF") == "pdf"
    assert kind_for("b.epub") == "epub"
    assert kind_for("n.Markdown") == "note"
    assert kind_for("n.md", declared="practice") == "practice"
    assert kind_for("c.grading.md") == "grading"
    assert kind_for("img.png") == "other"
    assert kind_for("papers", is_dir=True) == "folder"


def test_hidden_and_mirror_paths():
    assert is_hidden(".git/config") and is_hidden("a/.hidden.md") and not is_hidden("a/b.md")
    assert mirror_store("papers/x.pdf") == ".bh/mirror/papers/x.pdf/upstream.yaml"
