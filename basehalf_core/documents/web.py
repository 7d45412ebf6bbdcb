"""One bounded HTTP GET for the documents floor: arXiv's API and the PDFs it points to.

Both callers need the same three outcomes told apart, so a learner knows what to do: no
server answered (offline: download by hand), the server answered with an error, or the answer
was too big to be what was asked for (refused before it fills memory).
"""

from __future__ import annotations

import urllib.error
import urllib.request

from basehalf_core.errors import BasehalfError

AGENT = "basehalf fetch-arxiv"


class Unreachable(BasehalfError):
    """No server answered (offline, DNS, refused, timed out)."""


class BadAnswer(BasehalfError):
    """The server answered with an HTTP error, broke off, or sent more than the limit."""


def get(url: str, limit: int, timeout: float) -> bytes:
    """The body of ``url``, at most ``limit`` bytes.

    Raises:
        Unreachable: no server answered; the message names the host.
        BadAnswer: an HTTP error status, a broken-off download, or an answer over ``limit``.
    """
    host = urllib.request.urlparse(url).netloc or url
    req = urllib.request.Request(url, headers={"User-Agent": AGENT})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            data = resp.read(limit + 1)
    except urllib.error.HTTPError as exc:
        raise BadAnswer(url, f"the server answered HTTP {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
        raise Unreachable(f"cannot reach {host} ({getattr(exc, 'reason', exc)})") from None
    except OSError as exc:
        raise BadAnswer(url, f"download broke off ({exc})") from None
    if len(data) > limit:
        raise BadAnswer(url, f"answer larger than {_size(limit)}; refused")
    return data


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MiB" if limit >= 1024 * 1024 else f"{limit // 1024} KiB"
