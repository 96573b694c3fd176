"""The documentation site (``mkdocs.yml``, ``docs/``): it builds in strict mode (a broken link, a
missing anchor or an API reference to nothing fails the build), every code example on its pages
runs (``python`` blocks are executed, ``pycon`` blocks are doctests whose outputs must match, a
page's blocks in order in one fresh interpreter), every ``json`` block parses, and each shipped
ruleset has its page with every encoder's channel table as ``ChannelTable.markdown()`` makes it.
The README is the landing page: short, its examples run too, and it links every page of the site."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from cnmahjong.envs.core.ruleset import REGISTERED, get_ruleset

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
README = ROOT / "README.md"

FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```[ \t]*$", re.S | re.M)
SKIP = re.compile(r"<!-- docs-test: not run here \(([^;]+); run by (tests/\w+\.py)\) -->\s*$")
"""The one way a code block is left out: the comment right above it gives why and the test that runs it."""


def blocks(page: Path) -> list[tuple[str, str, int, re.Match | None]]:
    """``(language, source, line, skip marker)`` of each fenced block of a page."""
    text = page.read_text(encoding="utf-8")
    found = []
    for m in FENCE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        found.append((m.group(1), m.group(2), line, SKIP.search(before)))
    return found


def _mkdocs(config: Path, site: Path) -> subprocess.CompletedProcess:
    """``mkdocs build --strict`` as ``make docs`` runs it (``-P``: the checkout's ``cnmahjong/`` folder
    must not hide the installed package's mapping, see mkdocs.yml)."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    return subprocess.run([sys.executable, "-P", "-m", "mkdocs", "build", "--strict", "-f", str(config),
                           "-d", str(site)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def test_site_builds_strictly_with_every_page_and_the_api_reference(tmp_path: Path) -> None:
    site = tmp_path / "site"
    out = _mkdocs(ROOT / "mkdocs.yml", site)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-6000:]
    remote = re.compile(r"<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)=\"(?:https?:)?//", re.I)
    for page in PAGES:
        html = site / page.relative_to(DOCS).with_suffix(".html")
        assert html.is_file(), f"{page.relative_to(ROOT)} was not built"
        found = remote.search(html.read_text(encoding="utf-8"))
        assert not found, f"{html.name} loads from the network (the site must work offline): {found.group(0)}"
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["strict"] is True and all(v == "warn" for v in config["validation"].values())
    # the reference is rendered from the docstrings, not left as the ::: directive
    api = (site / "api" / "envs.html").read_text(encoding="utf-8")
    assert ":::" not in api and 'id="cnmahjong.envs.vector.VectorEnv"' in api
    # read from the source even where a compiled module lies beside it: its imports are not its members
    assert 'id="cnmahjong.envs.vector.Ledger"' not in api
    from cnmahjong.envs.vector import VectorEnv
    first_line = VectorEnv.__doc__.strip().splitlines()[0].split("``")[0].strip()
    assert first_line and first_line in api


BROKEN = {
    "link": "[gone](missing.md)",
    "anchor": "[gone](#no-such-heading)",
    "api reference": "::: cnmahjong.envs.no_such_module",
}


def _one_page_site(tmp_path: Path, body: str) -> Path:
    """The project's own configuration on a one-page site: the path of its mkdocs.yml."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text(f"# Home\n\n## A heading\n\n{body}\n", encoding="utf-8")
    config.update(docs_dir=str(docs), nav=["index.md"])
    config["plugins"][1]["mkdocstrings"]["handlers"]["python"]["paths"] = [str(docs)]
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    return tmp_path / "mkdocs.yml"


@pytest.mark.parametrize("kind", BROKEN)
def test_a_broken_page_fails_the_strict_build(tmp_path: Path, kind: str) -> None:
    out = _mkdocs(_one_page_site(tmp_path, BROKEN[kind]), tmp_path / "site")
    assert out.returncode != 0, f"a broken {kind} passed the strict build"


def test_the_same_page_with_sound_references_builds(tmp_path: Path) -> None:
    """So what fails above is the broken reference, not the one-page site."""
    body = "[here](#a-heading) and [home](index.md)\n\n::: cnmahjong.envs.core.tiles.parse"
    out = _mkdocs(_one_page_site(tmp_path, body), tmp_path / "site")
    assert out.returncode == 0, out.stderr[-4000:]


RUNNER = r"""
import doctest, json, sys
pairs = json.load(sys.stdin)
ns = {"__name__": "__docs__"}
runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
for kind, source, name, line in pairs:
    if kind == "python":
        exec(compile("\n" * (line) + source, name, "exec"), ns)
    else:
        test = doctest.DocTestParser().get_doctest(source, ns, f"{name}:{line + 1}", name, line)
        result = runner.run(test, clear_globs=False)
        if result.failed:
            sys.exit(f"{name}:{line + 1}: {result.failed} doctest example(s) failed")
print("DOCS-EXAMPLES-OK", len(pairs))
"""

RUNNABLE = ("python", "pycon")
EXAMPLE_PAGES = [p for p in [README, *PAGES] if any(lang in RUNNABLE and not skip for lang, _, _, skip in blocks(p))]


@pytest.mark.parametrize("page", EXAMPLE_PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_pages_examples_run(page: Path, tmp_path: Path) -> None:
    """A page's ``python`` and ``pycon`` blocks, in order, in one interpreter (one torch thread), from
    the repository root as the pages say; a ``pycon`` output that differs fails."""
    todo = [(lang, src, str(page.relative_to(ROOT)), line) for lang, src, line, skip in blocks(page)
            if lang in RUNNABLE and not skip]
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", CNMAHJONG_DOCS_TMP=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", RUNNER], input=json.dumps(todo), cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and f"DOCS-EXAMPLES-OK {len(todo)}" in out.stdout, \
        out.stdout[-4000:] + out.stderr[-4000:]


def test_every_code_block_is_run_or_names_the_test_that_runs_it() -> None:
    """No example escapes: a ``python`` block left out names its reason and a test that reads the page."""
    left_out = []
    for page in [README, *PAGES]:
        for lang, _, line, skip in blocks(page):
            if skip:
                assert lang in RUNNABLE, f"{page}:{line}: a skip marker on a {lang!r} block"
                runner = ROOT / skip.group(2)
                assert runner.is_file(), f"{page}:{line}: {skip.group(2)} does not exist"
                assert str(page.relative_to(ROOT)) in runner.read_text(encoding="utf-8"), \
                    f"{page}:{line}: {skip.group(2)} does not read {page.relative_to(ROOT)}"
                left_out.append(f"{page.relative_to(DOCS)}:{line}")
            else:
                assert lang in (*RUNNABLE, "json", "bash", "text", "yaml", ""), f"{page}:{line}: language {lang!r}"
    assert len(left_out) <= 2, f"more than the RLlib snippet left out: {left_out}"


def test_json_blocks_parse() -> None:
    found = 0
    for page in [README, *PAGES]:
        for lang, src, line, _ in blocks(page):
            if lang == "json":
                found += 1
                try:
                    json.loads(src)
                except ValueError as e:
                    pytest.fail(f"{page.relative_to(ROOT)}:{line}: {e}")
    assert found >= 4  # the bot protocol's messages


def test_a_doctest_with_a_wrong_output_fails(tmp_path: Path) -> None:
    """The runner compares outputs (it is not a smoke run)."""
    todo = [("python", "x = 2\n", "page.md", 1), ("pycon", ">>> x + 1\n4\n", "page.md", 4)]
    out = subprocess.run([sys.executable, "-c", RUNNER], input=json.dumps(todo), cwd=tmp_path,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and "page.md:5: 1 doctest example(s) failed" in out.stderr


@pytest.mark.parametrize("name", sorted(REGISTERED))
def test_each_ruleset_page_holds_its_encoders_channel_tables(name: str) -> None:
    """One page per shipped ruleset (``docs/rulesets/<name>.md``), holding every encoder's channel
    table exactly as ``ChannelTable.markdown()`` generates it (no hand-kept copy can drift)."""
    page = DOCS / "rulesets" / f"{name}.md"
    assert page.is_file(), f"the {name} ruleset has no page {page.relative_to(ROOT)}"
    text = page.read_text(encoding="utf-8")
    ruleset = get_ruleset(name)
    assert f"`{ruleset.env_name}`" in text
    for enc in ruleset.encodings:
        table = enc.channels.markdown()
        assert f"\n{table}\n" in text, (f"{page.relative_to(ROOT)}: the {enc.name} table differs from "
                                        f"its CHANNELS.markdown() (paste it under its heading):\n{table}")
        assert f"encoder `{enc.name}`" in text


def test_the_readme_is_a_landing_page_that_links_the_site() -> None:
    """At most 200 lines, ``make demo`` and ``make test`` in its first 40, every relative link to a file
    that exists, and a link to every page of the site (the API reference through its overview)."""
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines: the detail belongs on a page under docs/"
    head = "\n".join(lines[:40])
    assert "make demo" in head and "make test" in head
    targets = [t.split("#")[0] for t in re.findall(r"\]\(([^)\s]+)\)", "\n".join(lines)) if "://" not in t]
    missing = [t for t in targets if not (ROOT / t).is_file()]
    assert targets and not missing, f"README.md links to files that do not exist: {missing}"
    pages = {str(p.relative_to(ROOT)) for p in PAGES if p.parent.name != "api" or p.name == "index.md"}
    unlinked = sorted(pages - set(targets))
    assert not unlinked, f"README.md does not link these pages of the site: {unlinked}"
