"""The licence: the AGPL-3.0 text in the repository, and the same bytes in the built wheel."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile

import pytest
from conftest import ROOT


def test_repository_ships_the_agpl_text():
    text = (ROOT / "LICENSE").read_text("utf-8")
    assert text.splitlines()[0].strip() == "GNU AFFERO GENERAL PUBLIC LICENSE"
    assert text.splitlines()[1].strip() == "Version 3, 19 November 2007"
    # Section 13 is what makes it the Affero licence (network use is distribution).
    assert "13. Remote Network Interaction; Use with the GNU General Public License." in text
    assert "END OF TERMS AND CONDITIONS" in text
    assert "{{" not in text  # no unfilled template placeholder
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert project["license"] == "AGPL-3.0-or-later"
    assert project["license-files"] == ["LICENSE"]


@pytest.mark.slow
def test_wheel_carries_the_licence(tmp_path):
    """Build the wheel the way pip does (hatchling from PyPI, isolated) and look inside."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(ROOT), "-w", str(tmp_path)],
        check=True,
        timeout=300,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("basehalf-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        licence = [n for n in names if n.endswith(".dist-info/licenses/LICENSE")]
        assert len(licence) == 1, names
        assert zf.read(licence[0]) == (ROOT / "LICENSE").read_bytes()
        metadata = zf.read(next(n for n in names if n.endswith(".dist-info/METADATA")))
    assert b"License-Expression: AGPL-3.0-or-later" in metadata
    assert b"License-File: LICENSE" in metadata
