#!/usr/bin/env python3
"""Compiles and runs every Swift code block of the README and the DocC articles, as written.

Usage: check-doc-code.py REPO WORKDIR

Each ```swift block is one of:
- a package manifest (it starts with `// swift-tools-version`): built with the next program block
  of the same file as its executable's main.swift, then run (see "Run:" below);
- dependency lines (every code line starts with `.package(`): each resolves in a package of its own;
- a program (it imports a module): built as an executable of one package that depends on ReceiptKit,
  then run; a line `// Run: ARGS` in the block gives its arguments (paths relative to the
  repository), and the program must exit 0;
- an excerpt (anything else): each of its code lines must appear, in order, in one program block.

ReceiptKit's URL in the blocks is the placeholder `<ReceiptKit's git URL>`; it is replaced with the
file:// URL of a fresh clone of REPO's HEAD, standing in for the public repository, so `branch:
"main"` resolves as it would for a user. Standard library only.
"""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

PLACEHOLDER = "<ReceiptKit's git URL>"


def blocks(path):
    """(line number, text) of every ```swift block of `path`."""
    found, lines, start, inside = [], [], 0, False
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not inside and line.strip() == "```swift":
            inside, lines, start = True, [], number + 1
        elif inside and line.strip() == "```":
            inside = False
            found.append((start, "\n".join(lines) + "\n"))
        elif inside:
            lines.append(line)
    return found


def code_lines(text):
    """The block's lines without whole-line comments and blank lines, stripped."""
    return [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("//")]


def kind(text):
    if text.lstrip().startswith("// swift-tools-version"):
        return "manifest"
    lines = code_lines(text)
    if lines and all(line.startswith(".package(") for line in lines):
        return "dependency"
    if any(re.match(r"import \w+", line) for line in lines):
        return "program"
    return "excerpt"


def run(command, cwd, what):
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(f"check-doc-code: {what} failed ({' '.join(command)}):\n{result.stdout[-4000:]}{result.stderr[-4000:]}\n")
        sys.exit(1)
    return result.stdout


def run_arguments(text):
    for line in text.splitlines():
        match = re.search(r"//\s*Run:\s*(.*)$", line)
        if match:
            return shlex.split(match.group(1))
    return []


def main():
    repo, work = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    clone = work / "ReceiptKit"
    run(["git", "clone", "--quiet", str(repo), str(clone)], work, "cloning the repository")
    url = f"file://{clone}"
    documents = [repo / "README.md"] + sorted((repo / "Sources/ReceiptKit/ReceiptKit.docc").glob("*.md"))

    programs, excerpts, dependencies, manifests = [], [], [], []
    for document in documents:
        found = blocks(document)
        for index, (line, text) in enumerate(found):
            where = f"{document.relative_to(repo)}:{line}"
            text = text.replace(PLACEHOLDER, url)
            category = kind(text)
            if category == "manifest":
                following = [t for _, t in found[index + 1:] if kind(t) == "program"]
                if not following:
                    sys.exit(f"check-doc-code: {where}: a manifest with no program block after it")
                manifests.append((where, text, following[0]))
            elif category == "dependency":
                dependencies.append((where, text))
            elif category == "program":
                programs.append((where, text))
            else:
                excerpts.append((where, text))

    # Dependency lines: each resolves.
    for number, (where, text) in enumerate(dependencies):
        for line_number, line in enumerate(code_lines(text)):
            package = work / f"dependency-{number}-{line_number}"
            (package / "Sources/Check").mkdir(parents=True)
            (package / "Sources/Check/main.swift").write_text("import ReceiptKit\n")
            (package / "Package.swift").write_text(
                "// swift-tools-version: 6.1\nimport PackageDescription\n\nlet package = Package(\n"
                f"    name: \"Check\",\n    dependencies: [\n        {line.rstrip(',')}\n    ],\n"
                "    targets: [.executableTarget(name: \"Check\", dependencies: [.product(name: \"ReceiptKit\", package: \"ReceiptKit\")])]\n)\n")
            run(["swift", "package", "resolve"], package, f"{where}: resolving `{line}`")
            print(f"check-doc-code: {where}: dependency line resolves: {line.replace(url, PLACEHOLDER)}")

    # Excerpts: their lines appear in order in one program (so they compile where they stand there).
    for where, text in excerpts:
        wanted = code_lines(text)
        def contains(program):
            have = code_lines(program)
            position = 0
            for line in have:
                if position < len(wanted) and line == wanted[position]:
                    position += 1
            return position == len(wanted)
        if not any(contains(program) for _, program in programs):
            sys.exit(f"check-doc-code: {where}: an excerpt whose lines are not, in order, in any program block")
        print(f"check-doc-code: {where}: excerpt of a program block")

    # Programs: one package, an executable each; built, then run.
    package = work / "DocExamples"
    targets = []
    for number, (where, text) in enumerate(programs):
        name = f"Example{number}"
        (package / "Sources" / name).mkdir(parents=True)
        (package / "Sources" / name / "main.swift").write_text(text)
        targets.append(
            f"        .executableTarget(name: \"{name}\", dependencies: [.product(name: \"ReceiptKit\", package: \"ReceiptKit\"), "
            ".product(name: \"ReceiptConformance\", package: \"ReceiptKit\")]),")
    (package / "Package.swift").write_text(
        "// swift-tools-version: 6.1\nimport PackageDescription\n\nlet package = Package(\n    name: \"DocExamples\",\n"
        "    platforms: [.macOS(.v13)],\n"
        f"    dependencies: [.package(url: \"{url}\", branch: \"main\")],\n    targets: [\n" + "\n".join(targets) + "\n    ]\n)\n")
    run(["swift", "build"], package, "building the program blocks")
    binaries = Path(run(["swift", "build", "--show-bin-path"], package, "finding the binaries").strip())
    for number, (where, text) in enumerate(programs):
        arguments = run_arguments(text)
        output = run([str(binaries / f"Example{number}")] + arguments, clone, f"{where}: running the program")
        first = output.strip().splitlines()[0] if output.strip() else ""
        print(f"check-doc-code: {where}: program compiles and runs (exit 0): {first}")

    # Manifests: the package as written, with the program after it as its main.swift.
    for number, (where, manifest, program) in enumerate(manifests):
        directory = work / f"manifest-{number}"
        names = re.findall(r'\.executableTarget\(name: "([^"]+)"', manifest)
        if len(names) != 1:
            sys.exit(f"check-doc-code: {where}: a manifest must name one executable target")
        (directory / "Sources" / names[0]).mkdir(parents=True)
        (directory / "Package.swift").write_text(manifest)
        (directory / "Sources" / names[0] / "main.swift").write_text(program)
        run(["swift", "build"], directory, f"{where}: building the package")
        binary = Path(run(["swift", "build", "--show-bin-path"], directory, "finding the binary").strip()) / names[0]
        output = run([str(binary)] + run_arguments(program), clone, f"{where}: running the package's program")
        first = output.strip().splitlines()[0] if output.strip() else ""
        print(f"check-doc-code: {where}: package builds and its program runs (exit 0): {first}")
        print(f"MANIFEST_BINARY {where} {binary}")

    print(f"check-doc-code: {len(programs)} programs, {len(manifests)} manifests, {len(dependencies)} dependency blocks, "
          f"{len(excerpts)} excerpts: every Swift block compiles and runs as written")


if __name__ == "__main__":
    main()
