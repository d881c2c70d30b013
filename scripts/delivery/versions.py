"""Deploy one version of the lecture into the gh-pages branch with mike (local; --push to publish).

    python -m scripts.delivery.versions VERSION [ALIAS ...] [--title T] [--default ALIAS] [--push]
    python -m scripts.delivery.versions 0.1 latest --default latest   # local gh-pages commit
    python -m scripts.delivery.versions --list                        # what gh-pages holds

Runs `mike deploy --update-aliases VERSION ALIAS...` (a strict MkDocs build of the working tree,
committed under VERSION/ in the gh-pages branch, `versions.json` updated) and, with --default,
`mike set-default` (the site root redirects there). Nothing leaves the machine unless --push.
`mike serve` (http://localhost:8000/) then shows Material's version selector listing every version.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from scripts.site import ROOT
from scripts.toolenv import tool_env


def mike(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """Run mike from this interpreter's environment (its `mkdocs` must be on PATH too)."""
    bin_dir = str(Path(sys.executable).parent)
    env = tool_env(PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
    exe = Path(bin_dir) / "mike"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "mike"]
    return subprocess.run([*cmd, *args], cwd=cwd, env=env, check=True, text=True,
                          capture_output=True)


def deploy(version: str, aliases: list[str], *, title: str | None = None,
           default: str | None = None, branch: str = "gh-pages", push: bool = False,
           remote: str = "origin", cwd: Path = ROOT) -> None:
    git = ["--branch", branch, "--remote", remote] + (["--push"] if push else [])
    mike("deploy", "--update-aliases", *git, *(["--title", title] if title else []),
         version, *aliases, cwd=cwd)
    if default:
        mike("set-default", *git, default, cwd=cwd)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("version", nargs="?", help="e.g. 0.1, or a tag name")
    ap.add_argument("aliases", nargs="*", help="e.g. latest")
    ap.add_argument("--title", help="label in the version selector (default: the version)")
    ap.add_argument("--default", help="version or alias the site root redirects to")
    ap.add_argument("--branch", default="gh-pages")
    ap.add_argument("--remote", default="origin")
    ap.add_argument("--push", action="store_true", help="push the branch (needs the network)")
    ap.add_argument("--list", action="store_true", help="list deployed versions and exit")
    args = ap.parse_args(argv)
    try:
        if args.list:
            print(mike("list", "--branch", args.branch).stdout, end="")
            return 0
        if not args.version:
            ap.error("VERSION is required (or --list)")
        deploy(args.version, args.aliases, title=args.title, default=args.default,
               branch=args.branch, push=args.push, remote=args.remote)
    except subprocess.CalledProcessError as err:
        sys.stderr.write(f"{' '.join(err.cmd)} failed:\n{err.stdout}{err.stderr}")
        return 1
    print(mike("list", "--branch", args.branch).stdout, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
