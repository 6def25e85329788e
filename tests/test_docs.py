"""The documentation matches the code: every command and option is documented in README.md or a docs/
page and in the man page, the links between those pages resolve, the committed completions and man
page equal a fresh generation, and the page renders cleanly."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from dev import gendocs
from tests import doc_pages
from tests.availability import unavailable

ROOT = Path(__file__).resolve().parent.parent
UNDOCUMENTED = {"--help", "-h"}  # click's own


def _need(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        unavailable(f"{tool} is not installed (apt-get install groff man-db)")
    return path


def commands() -> Iterator[tuple[str, Any, Any]]:
    """(``kafka-offsets PATH``, command, context) for the root and every command, groups included."""
    root = gendocs.root_command()
    ctx = gendocs._context(root, gendocs.PROG)
    yield gendocs.PROG, root, ctx
    for path, cmd, sctx in gendocs.walk(root, ctx):
        yield " ".join((gendocs.PROG, *path)), cmd, sctx


def documented_names() -> list[tuple[str, str]]:
    """(command, option name) pairs a reader must find: each option's long names (or its short one)."""
    out = []
    for name, cmd, _ctx in commands():
        for p in gendocs.options_of(cmd):
            for opt in gendocs.long_names(p):
                if opt not in UNDOCUMENTED:
                    out.append((name, opt))
    return out


def _mentions(text: str, word: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


def man_text() -> str:
    """The man page source with roff escapes and fonts undone (what a reader sees, unwrapped)."""
    src = (ROOT / gendocs.MAN).read_text(encoding="utf-8")
    src = re.sub(r"\\f[BIRP]", "", src)
    return src.replace("\\-", "-").replace("\\(aq", "'").replace("\\e", "\\").replace("\\&", "")


def test_the_tree_has_the_commands_we_ship() -> None:
    names = {n for n, _c, _x in commands()}
    assert {"kafka-offsets list", "kafka-offsets config", "kafka-offsets config show"} <= names
    assert ("kafka-offsets list", "--watch") in documented_names()


def test_generated_files_are_up_to_date() -> None:
    stale = gendocs.drift()
    assert not stale, f"out of date: {', '.join(map(str, stale))}; run `python -m dev.gendocs` (make docs)"


def test_gendocs_check_detects_drift(tmp_path: Path) -> None:
    files = gendocs.generate()
    gendocs.write(tmp_path, files)
    assert gendocs.drift(tmp_path, files) == []
    (tmp_path / gendocs.BASH).write_text("# edited by hand\n")
    assert gendocs.drift(tmp_path, files) == [gendocs.BASH]


def test_generation_is_deterministic_and_has_no_paths_or_dates() -> None:
    a, b = gendocs.generate(), gendocs.generate()
    assert a == b
    assert '.TH KAFKA\\-OFFSETS 1 "" ' in a[gendocs.MAN]  # no date
    for rel, text in a.items():
        home = os.path.expanduser("~")
        assert str(ROOT) not in text and (len(home) < 2 or home not in text), rel


def test_completion_scripts_call_back_into_the_program() -> None:
    for rel in (gendocs.BASH, gendocs.ZSH, gendocs.FISH):
        text = (ROOT / rel).read_text()
        assert "_KAFKA_OFFSETS_COMPLETE=complete_" in text, rel
        assert "kafka-offsets" in text
    zsh = (ROOT / gendocs.ZSH).read_text()
    assert zsh.startswith("#compdef kafka-offsets\n")
    assert "loadautofunc" in zsh  # completes on the first Tab when autoloaded from site-functions


def test_man_page_documents_every_command_and_option() -> None:
    text = man_text()
    missing = [n for n, _c, _x in commands() if n not in text]
    missing += [f"{cmd}: {opt}" for cmd, opt in documented_names() if not _mentions(text, opt)]
    assert not missing, f"not in the man page: {missing}"


def test_man_page_has_the_reference_sections() -> None:
    src = (ROOT / gendocs.MAN).read_text()
    sections = "NAME SYNOPSIS DESCRIPTION OPTIONS COMMANDS OFFSET_SPECS SELECTION OUTPUT CLUSTER_PROFILES"
    sections += " WATCH_MODE SHELL_COMPLETION ENVIRONMENT FILES EXIT_STATUS SEE_ALSO"
    for section in (s.replace("_", " ") for s in sections.split()):
        assert f".SH {section}\n" in src, section
    text = man_text()
    from kafka_offsets_cli.errors import ExitCode, MonitoringStatus

    exit_block = text[text.index("EXIT STATUS") :]
    for code in [*ExitCode, *MonitoringStatus]:
        assert f"\n.TP\n{int(code)}\n" in exit_block, code
    for var in ("KAFKA_BOOTSTRAP_SERVERS", "KAFKA_OFFSETS_CLUSTER", "KAFKA_OFFSETS_CONFIG", "NO_COLOR"):
        assert f".TP\n{var}\n" in text, var
    for spec in ("earliest, -2", "latest, -1", "max-timestamp, -3"):
        assert spec in text


def test_man_page_renders_without_groff_warnings() -> None:
    groff = _need("groff")
    p = subprocess.run(
        [groff, "-man", "-ww", "-Tutf8", "-z", str(ROOT / gendocs.MAN)], capture_output=True, text=True
    )
    assert (p.returncode, p.stderr) == (0, "")


def test_man_l_shows_the_page() -> None:
    man = _need("man")
    env = {**os.environ, "MANWIDTH": "100", "MANPAGER": "cat", "PAGER": "cat"}
    env.pop("MAN_KEEP_FORMATTING", None)
    p = subprocess.run([man, "-l", str(ROOT / gendocs.MAN)], capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0].startswith("KAFKA-OFFSETS(1)")
    assert "kafka-offsets - Kafka's AdminClient.listOffsets from the shell" in p.stdout
    assert max(len(line) for line in lines) <= 130  # examples may run past MANWIDTH, prose does not


def test_readme_and_docs_document_every_command_and_option() -> None:
    assert doc_pages.README.exists(), "README.md is missing"
    text = doc_pages.text()
    missing = [n for n, _c, _x in commands() if n not in text]
    missing += sorted({opt for _cmd, opt in documented_names() if not _mentions(text, opt)})
    assert not missing, f"not in README.md nor docs/*.md: {missing}"


def test_links_between_the_pages_resolve() -> None:
    """Every relative link of README.md and docs/*.md names a file that exists and, with ``#``, one
    of its headings (the README's sections moved to docs/: a link left behind would point nowhere)."""
    broken = []
    for page in doc_pages.pages():
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue  # https:, mailto:
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            if not linked.exists():
                broken.append(f"{page.name}: {target}: no such file")
            elif anchor and linked.suffix == ".md" and anchor not in doc_pages.anchors(linked):
                broken.append(f"{page.name}: {target}: no such heading")
    assert not broken, broken
    assert len(doc_pages.pages()) > 1, "docs/*.md is gone"
