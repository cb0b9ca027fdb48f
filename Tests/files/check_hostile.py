#!/usr/bin/env python3
"""Hostile file systems against the release binary (issue 50), every command that reads
or writes: symbolic links in every position, NUL and control characters, absolute paths
and `..` escapes, FIFOs and devices, read-only and hard-linked sources, a source saved
while `check --fix` works, names that collide.

Each case builds a tree in a fresh temporary folder: `project/` (marked with
`.animc-root`) beside `outside/`, which holds a victim file and a secret. Every run is
under the CI caps (2 GB of address space, 10 s) and must exit 0, 1 or 2; after every
case the victim is unchanged and the secret appears in no output, on no stream. A case
then checks what it is about (a code, a file left as it was).

    python3 Tests/files/check_hostile.py .build/release/animc

Independent of the Swift tests: it drives the binary as a user's shell would.
"""
import os
import resource
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time

ANIMC = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/release/animc")
SECRET = "SECRET-7f3a9c-not-for-animc"
VICTIM = "victim text, not an image\n"
BOX = ("composition Box { size: 20 x 20, backgroundColor: #ffffff }\n"
       "layer box { position: (10, 10), bounds: 10 x 10, backgroundColor: #ff0000 }\n"
       "test look { at: 0s, snapshot: true }\n")
FIXABLE = "composition Fix { size: 20 x 20 }\nlayer box { position: CGPointMake(10, 10), bounds: 10 x 10 }\n"
failures = []


def caps():
    resource.setrlimit(resource.RLIMIT_AS, (2_000_000 * 1024, 2_000_000 * 1024))


class Tree:
    def __init__(self):
        self.base = tempfile.mkdtemp(prefix="animc-hostile-")
        self.project = os.path.join(self.base, "project")
        self.outside = os.path.join(self.base, "outside")
        os.makedirs(self.project)
        os.makedirs(self.outside)
        open(os.path.join(self.project, ".animc-root"), "w").close()
        self.victim = os.path.join(self.outside, "victim.txt")
        self.write(self.victim, VICTIM)
        self.write(os.path.join(self.outside, "secret.anim"), f"let secret = 1 // {SECRET}\n")
        self.write(os.path.join(self.outside, "secret.png"), SECRET)
        self.write(self.p("box.anim"), BOX)

    def p(self, *parts):
        return os.path.join(self.project, *parts)

    @staticmethod
    def write(path, text):
        with open(path, "w") as f:
            f.write(text)

    def run(self, case, *args, expect=None, stdin=None):
        """Runs animc in the project folder; returns (code, stdout + stderr)."""
        try:
            done = subprocess.run([ANIMC, *args], cwd=self.project, capture_output=True, timeout=10,
                                  preexec_fn=caps, input=stdin)
        except subprocess.TimeoutExpired:
            failures.append(f"{case}: animc {' '.join(args)} ran past 10 s")
            return None, ""
        out = done.stdout.decode("utf-8", "replace") + done.stderr.decode("utf-8", "replace")
        if done.returncode not in (0, 1, 2):
            failures.append(f"{case}: animc {' '.join(args)} exited {done.returncode}\n{out[-2000:]}")
        if SECRET in out:
            failures.append(f"{case}: animc {' '.join(args)} printed the secret")
        if expect is not None and expect not in out:
            failures.append(f"{case}: animc {' '.join(args)} did not say {expect!r}:\n{out[-2000:]}")
        return done.returncode, out

    def finish(self, case):
        with open(self.victim) as f:
            if f.read() != VICTIM:
                failures.append(f"{case}: the victim outside the project was changed")
        for folder, _, files in os.walk(self.project):
            for name in files:
                path = os.path.join(folder, name)
                if os.path.islink(path) or not os.path.isfile(path):
                    continue
                with open(path, "rb") as f:
                    data = f.read()
                if SECRET.encode() in data or __import__("base64").b64encode(SECRET.encode())[:16] in data:
                    failures.append(f"{case}: {os.path.relpath(path, self.base)} holds the secret")
        shutil.rmtree(self.base, ignore_errors=True)


def case(function):
    tree = Tree()
    try:
        function(tree)
    finally:
        tree.finish(function.__name__)
    return function


@case
def imports_leaving_the_project(t):
    os.symlink(os.path.join(t.outside, "secret.anim"), t.p("link.anim"))
    os.symlink(t.outside, t.p("shared"))
    for spelling in [os.path.join(t.outside, "secret.anim"), "../outside/secret.anim", "link.anim", "shared/secret.anim",
                     "/proc/self/environ.anim", "/dev/zero.anim"]:
        t.write(t.p("main.anim"), f'import "{spelling}" as s\ncomposition C {{ size: 10 x 10 }}\nlayer a {{ opacity: s.secret }}\n'
                                  'test t { at: 0s, a.opacity: 1 }\n')
        for command in (["check"], ["check", "--fix"], ["build", "--target", "lottie", "-o", "out.json"], ["eval", "--at", "0"],
                        ["preview", "-o", "page.html"], ["render", "--at", "0", "-o", "f.png"], ["test"]):
            t.run("imports_leaving_the_project", *command, "main.anim", expect="E0329")


@case
def control_characters_in_imports(t):
    for spelling in ["/etc/passwd\\u{0}.anim", "a\\u{1b}[2J.anim", "x\\ty.anim"]:
        t.write(t.p("main.anim"), f'import "{spelling}" as s\ncomposition C {{ size: 10 x 10 }}\n')
        t.run("control_characters_in_imports", "check", "main.anim", expect="E0324")


@case
def images_linked_from_outside(t):
    os.symlink(os.path.join(t.outside, "secret.png"), t.p("photo.png"))
    t.write(t.p("img.anim"), 'composition C { size: 10 x 10 }\nimage p { bounds: (0, 0, 10, 10), position: (5, 5), contents: image("photo") }\n')
    t.run("images_linked_from_outside", "render", "img.anim", "--at", "0", "-o", "f.png", expect="W1001")
    t.run("images_linked_from_outside", "preview", "img.anim", "-o", "page.html", expect="W1001")
    t.run("images_linked_from_outside", "build", "img.anim", "--target", "lottie", "-o", "img.json", expect="W1001")


@case
def outputs_through_links(t):
    writers = [["build", "box.anim", "-o", "OUT"], ["build", "box.anim", "--target", "baked", "-o", "OUT"],
               ["build", "box.anim", "--target", "lottie", "-o", "OUT"], ["preview", "box.anim", "-o", "OUT"],
               ["render", "box.anim", "--at", "0", "-o", "OUT"], ["render", "box.anim", "--gif", "OUT", "--window", "0..0.1"],
               ["render", "box.anim", "--apng", "OUT", "--window", "0..0.1"], ["render", "box.anim", "--filmstrip", "2", "-o", "OUT"]]
    for target in [t.victim, os.path.join(t.outside, "nothing-yet")]:
        for command in writers:
            out = t.p("out-link")
            if os.path.lexists(out):
                os.remove(out)
            os.symlink(target, out)
            code, _ = t.run("outputs_through_links", *[out if a == "OUT" else a for a in command], expect="E1007")
            if os.path.exists(os.path.join(t.outside, "nothing-yet")):
                failures.append(f"outputs_through_links: {' '.join(command)} created a file outside through a link")
    # A link to a device is written through (-o /dev/null works).
    t.run("outputs_through_links", "build", "box.anim", "-o", "/dev/null")


@case
def outputs_onto_inputs(t):
    t.write(t.p("lib.anim"), "let half = 0.5\n")
    t.write(t.p("main.anim"), 'import "lib.anim"\ncomposition C { size: 10 x 10 }\nlayer a { opacity: lib.half }\n')
    for command in (["build", "main.anim", "-o", "lib.anim"], ["build", "main.anim", "-o", "./main.anim"],
                    ["render", "main.anim", "--at", "0", "-o", "lib.anim"], ["render", "main.anim", "--gif", "main.anim"],
                    ["preview", "main.anim", "-o", "lib.anim"]):
        t.run("outputs_onto_inputs", *command, expect="E1006")
    with open(t.p("lib.anim")) as f:
        if f.read() != "let half = 0.5\n":
            failures.append("outputs_onto_inputs: an import was overwritten")


@case
def sources_that_must_not_be_rewritten(t):
    t.write(t.p("ro.anim"), FIXABLE)
    os.chmod(t.p("ro.anim"), 0o444)
    t.run("sources_that_must_not_be_rewritten", "check", "--fix", "ro.anim", expect="E1003")
    t.write(t.p("fmt-ro.anim"), "composition C {size: 10 x 10}\n")
    os.chmod(t.p("fmt-ro.anim"), 0o444)
    t.run("sources_that_must_not_be_rewritten", "fmt", "fmt-ro.anim", expect="E1003")
    t.write(t.p("linked.anim"), FIXABLE)
    os.link(t.p("linked.anim"), t.p("other-name.anim"))
    t.run("sources_that_must_not_be_rewritten", "check", "--fix", "linked.anim", expect="E1004")
    for name in ("ro.anim", "linked.anim", "other-name.anim"):
        with open(t.p(name)) as f:
            if f.read() != FIXABLE:
                failures.append(f"sources_that_must_not_be_rewritten: {name} was rewritten")
    # A link to a source inside: the file it names is fixed, the link stays, the mode stays.
    t.write(t.p("real.anim"), FIXABLE)
    os.chmod(t.p("real.anim"), 0o640)
    os.symlink("real.anim", t.p("alias.anim"))
    t.run("sources_that_must_not_be_rewritten", "check", "--fix", "alias.anim")
    if not os.path.islink(t.p("alias.anim")) or "CGPointMake" in open(t.p("real.anim")).read():
        failures.append("sources_that_must_not_be_rewritten: a link to a source was not followed")
    if stat.S_IMODE(os.stat(t.p("real.anim")).st_mode) != 0o640:
        failures.append("sources_that_must_not_be_rewritten: the mode was not kept")


@case
def a_source_saved_during_fix(t):
    # Many fixes make --fix take a while; an edit saved meanwhile must survive.
    body = "composition C { size: 10 x 10 }\n" + "".join(
        f"layer l{i} {{ position: CGPointMake({i}, {i}), bounds: CGSizeMake(2, 2), opacity: @(0.5) }}\n" for i in range(3000))
    marker = "// saved from the editor\n"
    for delay in (0.05, 0.2, 0.5):
        t.write(t.p("busy.anim"), body)
        process = subprocess.Popen([ANIMC, "check", "--fix", "busy.anim"], cwd=t.project, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, preexec_fn=caps)
        time.sleep(delay)
        t.write(t.p("busy.anim"), body + marker)
        try:
            process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            failures.append("a_source_saved_during_fix: --fix ran past 30 s")
        with open(t.p("busy.anim")) as f:
            if marker not in f.read():
                failures.append(f"a_source_saved_during_fix: the edit saved after {delay} s was overwritten")


@case
def fifos_and_devices(t):
    os.mkfifo(t.p("pipe.anim"))
    for command in (["check", "pipe.anim"], ["fmt", "pipe.anim"], ["build", "pipe.anim"], ["parse", "pipe.anim"],
                    ["render", "pipe.anim", "--at", "0", "-o", "f.png"], ["check", "/dev/zero"], ["eval", "/dev/urandom", "--at", "0"]):
        t.run("fifos_and_devices", *command)
    t.write(t.p("main.anim"), 'import "pipe.anim" as p\ncomposition C { size: 10 x 10 }\n')
    t.run("fifos_and_devices", "check", "main.anim", expect="E0324")
    # check DIR walks past the FIFO without opening it.
    t.run("fifos_and_devices", "check", ".")


@case
def names_that_collide(t):
    body = "composition Box { size: 20 x 20 }\nlayer box { position: (10, 10), bounds: 10 x 10, backgroundColor: #ff0000 }\n"
    t.write(t.p("a.anim"), body + 'test one { at: 0s, snapshot: "b-c" }\n')
    t.write(t.p("a-b.anim"), body + "test c { at: 0s, snapshot: true }\n")
    t.run("names_that_collide", "test", ".", "--update", expect="is also test")
    os.makedirs(t.p("x"))
    os.makedirs(t.p("y"))
    t.write(t.p("x", "same.anim"), body)
    t.write(t.p("y", "same.anim"), body)
    t.run("names_that_collide", "build", "x/same.anim", "y/same.anim", "-o", "out/", expect="both be written")


@case
def planted_snapshot_links(t):
    t.run("planted_snapshot_links", "test", "box.anim", "--update")
    t.write(t.p("box.anim"), BOX.replace("#ff0000", "#0000ff"))
    for suffix in (".actual.png", ".diff.png"):
        path = t.p("__snapshots__", "box-look" + suffix)
        if os.path.lexists(path):
            os.remove(path)
        os.symlink(t.victim, path)
    t.run("planted_snapshot_links", "test", "box.anim", expect="symbolic link")


@case
def control_characters_in_names(t):
    for name in ("new\nline.anim", "esc\x1b[2J.anim", "tab\there.anim"):
        t.write(t.p(name), BOX)
        code, out = t.run("control_characters_in_names", "test", name, "--format", "github")
        if "\n::" in out.replace("\n::error", "").replace("\n::notice", "").replace("\n::warning", ""):
            failures.append(f"control_characters_in_names: {name!r} started another workflow command")
        t.run("control_characters_in_names", "check", name)
    with open(os.fsencode(t.project) + b"/bad\xff.anim", "w") as f:
        f.write(BOX)
    t.run("control_characters_in_names", "check", ".", expect="not UTF-8")


if failures:
    print("\n".join(failures))
    print(f"{len(failures)} hostile file-system failure(s)")
    sys.exit(1)
print("hostile file systems: 11 cases, every command that reads or writes; nothing outside the project read or written")
