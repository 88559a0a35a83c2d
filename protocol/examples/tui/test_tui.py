#!/usr/bin/env python3
"""Drives demo.py in tmux through each seed scenario and checks the screen after every step.

Run through ./run-tests. Needs tmux (and chromium for the PNG screenshot): a missing tool is a
failure, never a skip. Prints every check and `N passed, M failed`; exit 1 on any failure.
Environment: DIFFABLE_BIN (daemon), DIFFABLE_TUI_BIG_ROWS (default 1000000; 0 leaves the
big-list timing out, which counts as a failure), DIFFABLE_TUI_KEEP (keep tmux sessions).
The big list is shown through a viewport: every check there compares the screen with the people the
generated names put at those flat rows, for keystrokes (search) and scrolling (viewport).
"""
from __future__ import annotations

import html
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, List, Optional

HERE = Path(__file__).resolve().parent
DEMO = HERE / "demo.py"
WIDTH, HEIGHT = 100, 40
SEED = ["Lily Rose", "Ava Grace", "Ruby Mae", "Stella Luna", "Jack Ryan", "Emma Kate", "Olivia Jade",
        "Ethan James", "Amelia Rose", "Lucas John", "Madison Claire", "Noah William", "Isla Faith",
        "Mason Alexander", "Grace Elizabeth", "Liam Thomas", "Chloe Grace", "Jackson Lee", "Scarlett Belle"]
STATUS = re.compile(r"−\d+ \+\d+ ↕\d+ ⟳\d+.* in [\d.]+ ms")

passed = failed = 0


def check(name: str, ok: bool, detail: str = "") -> bool:
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name}" + (f"\n     {detail}" if detail else ""))
    return ok


def tmux(*args: str, check_rc: bool = True) -> str:
    done = subprocess.run(["tmux", *args], capture_output=True, text=True)
    # A new session started while the previous app's session is being killed can reach the
    # tmux server as it exits (its last session gone): start it again on a fresh server.
    for _ in range(5):
        if done.returncode == 0 or "server exited unexpectedly" not in done.stderr:
            break
        time.sleep(0.2)
        done = subprocess.run(["tmux", *args], capture_output=True, text=True)
    if check_rc and done.returncode != 0:
        raise RuntimeError(f"tmux {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


class App:
    """demo.py in a detached tmux session of WIDTH x HEIGHT."""
    count = 0

    def __init__(self, *argv: str) -> None:
        App.count += 1
        self.name = f"diffable-tui-{os.getpid()}-{App.count}"
        self.shown_at = 0.0  # when a wait first saw its screen (before the capture settled)
        command = (f"cd {sh(str(HERE))} && LANG=C.UTF-8 python3 {sh(str(DEMO))} {' '.join(map(sh, argv))}; "
                   f"echo __EXIT=$?; sleep 600")
        tmux("new-session", "-d", "-s", self.name, "-x", str(WIDTH), "-y", str(HEIGHT), command)

    def screen(self, escapes: bool = False) -> List[str]:
        args = ["capture-pane", "-p", "-t", self.name] + (["-e"] if escapes else [])
        return tmux(*args).split("\n")[:HEIGHT]

    def text(self) -> str:
        return "\n".join(self.screen())

    def keys(self, *keys: str) -> None:
        for key in keys:
            tmux("send-keys", "-t", self.name, key)

    def literal(self, text: str) -> None:
        tmux("send-keys", "-t", self.name, "-l", text)

    # A hang detector, not a speed check: a busy 2-core machine (a build beside the tests) can
    # take seconds to redraw a pane.
    def wait(self, predicate: Callable[[List[str]], bool], timeout: float = 60.0) -> bool:
        deadline = time.monotonic() + timeout
        while True:
            if predicate(self.screen()):
                self.shown_at = time.monotonic()
                if predicate(self.settled(deadline)):
                    return True
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)

    def settled(self, deadline: float) -> List[str]:
        """The screen once two captures 50 ms apart agree: a capture taken while curses is still
        writing a redraw (a loaded machine) shows the top of the new screen over the old one."""
        lines = self.screen()
        while time.monotonic() < deadline:
            time.sleep(0.05)
            again = self.screen()
            if again == lines:
                break
            lines = again
        return lines

    def close(self) -> None:
        if not os.environ.get("DIFFABLE_TUI_KEEP"):
            tmux("kill-session", "-t", self.name, check_rc=False)


def sh(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def has(text: str) -> Callable[[List[str]], bool]:
    return lambda lines: any(text in line for line in lines)


def section(lines: List[str], start: str, stop: Callable[[str], bool]) -> List[str]:
    """Item lines after the header line starting with `start` until `stop` (names only)."""
    out, inside = [], False
    for line in lines:
        if line.startswith(" " + start) or line.startswith(start):
            inside = True
            continue
        if inside:
            if stop(line):
                break
            out.append(line)
    return out


def names(lines: List[str]) -> List[str]:
    return [re.sub(r"^[ ›]\s*[+−]\s", "", line).strip() for line in lines if re.match(r"^[ ›]\s*[+−]\s", line)]


def list_names(lines: List[str]) -> List[str]:
    return names(section(lines, "People", lambda l: l.startswith(" −") or l.strip() == "" or STATUS.search(l) is not None))


def added_names(lines: List[str]) -> List[str]:
    return names(section(lines, "Added", lambda l: "Search:" in l))


def status_line(lines: List[str]) -> str:
    return lines[HEIGHT - 2] if len(lines) >= HEIGHT - 1 else ""


def exit_code(app: App, timeout: float = 60.0) -> Optional[int]:
    if not app.wait(has("__EXIT="), timeout):
        return None
    match = re.search(r"__EXIT=(\d+)", app.text())
    return int(match.group(1)) if match else None


# -- scenarios ---------------------------------------------------------------------------------------------------

def test_no_daemon() -> None:
    env = {**os.environ, "DIFFABLE_BIN": "/nonexistent/diffable"}
    done = subprocess.run([sys.executable, str(DEMO), "people"], capture_output=True, text=True, env=env,
                          stdin=subprocess.DEVNULL, timeout=30)
    check("no daemon: exit status 1", done.returncode == 1, f"rc={done.returncode}")
    check("no daemon: says how to build it", "swift build -c release" in done.stderr, done.stderr)
    check("no daemon: no traceback", "Traceback" not in done.stderr + done.stdout, done.stderr)


def test_people() -> Optional[List[str]]:
    app = App("people")
    shot: Optional[List[str]] = None
    try:
        ok = app.wait(lambda l: len(list_names(l)) == 19)
        lines = app.screen()
        check("people: all 19 seed people listed in order", ok and list_names(lines) == SEED, "\n".join(lines))
        check("people: nobody added, empty search bar", added_names(lines) == [] and any("Search: ▏" in l for l in lines))
        top_before = lines[:lines.index(next(l for l in lines if "Search:" in l)) + 1]

        app.literal("g")
        ok = app.wait(has("Search: g▏"))
        check("people: g drops the 16 names without a g, in one diff (status line)",
              ok and status_line(app.screen()).strip().startswith("−16 +0 ↕0 ⟳0 in "), status_line(app.screen()))
        app.literal("r")
        ok = app.wait(lambda l: any("Search: gr▏" in x for x in l) and len(list_names(l)) == 3)
        lines = app.screen()
        expected = [n for n in SEED if "gr" in n.lower()]
        check("people: typing gr shows exactly the names containing gr", ok and list_names(lines) == expected,
              f"{list_names(lines)} != {expected}")
        bar = next((k for k, l in enumerate(lines) if "Search:" in l), -1)
        check("people: added section and search bar row otherwise untouched",
              lines[1:bar] == top_before[1:-1] and lines[bar].replace("gr", "") == top_before[-1],
              f"{lines[:bar + 1]} vs {top_before}")
        check("people: gr after g narrows nothing away here: an empty diff in the status line",
              STATUS.search(status_line(lines)) is not None
              and status_line(lines).strip().startswith("−0 +0 ↕0 ⟳0 in "), status_line(lines))
        colored = app.screen(escapes=True)
        highlighted = [l for l in colored if re.search(r"\x1b\[[0-9;]*m[Gg]r\x1b\[", l)]
        check("people: the matched “gr” is highlighted in every listed row", len(highlighted) == 3,
              "\n".join(repr(l) for l in colored if "race" in l))

        app.keys("Down", "Enter")  # the cursor starts on Ava Grace; Grace Elizabeth is next
        ok = app.wait(lambda l: added_names(l) == ["Grace Elizabeth"])
        lines = app.screen()
        check("people: Enter on Grace moves her to Added", ok and list_names(lines) == ["Ava Grace", "Chloe Grace"],
              "\n".join(lines[:12]))
        check("people: the move is one ↕ in the status line", "−0 +0 ↕1 ⟳0" in status_line(lines), status_line(lines))

        app.literal("x")
        ok = app.wait(lambda l: any("Search: grx▏" in x for x in l))
        lines = app.screen()
        rows = section(lines, "People", lambda l: l.strip() == "")
        check("people: a non-matching query shows the no-results placeholder",
              ok and len(rows) == 1 and "No results" in rows[0] and added_names(lines) == ["Grace Elizabeth"],
              "\n".join(lines[:10]))

        app.keys("BSpace", "BSpace", "BSpace")
        ok = app.wait(lambda l: any("Search: ▏" in x for x in l) and len(list_names(l)) == 18)
        lines = app.screen()
        check("people: clearing the query lists everyone not added",
              ok and list_names(lines) == [n for n in SEED if n != "Grace Elizabeth"], "\n".join(lines))

        app.keys("Up", "Up", "Up")  # to Grace in Added (the search bar row is skipped)
        app.keys("Enter")
        ok = app.wait(lambda l: added_names(l) == [] and len(list_names(l)) == 19)
        lines = app.screen()
        check("people: Enter in Added puts her back at the end of the list",
              ok and list_names(lines)[-1] == "Grace Elizabeth", "\n".join(lines))

        app.literal("q")
        check("people: q types (letters go to the search field)", app.wait(has("Search: q▏")))
        app.keys("Escape")
        check("people: Esc quits with status 0", exit_code(app) == 0, app.text()[-300:])
    finally:
        app.close()
    app = App("people")  # the screenshot: Grace added, then “a” typed
    try:
        app.wait(lambda l: len(list_names(l)) == 19)
        app.literal("gr")
        app.wait(has("Search: gr▏"))
        app.keys("Down", "Enter")
        app.wait(lambda l: added_names(l) == ["Grace Elizabeth"])
        app.keys("BSpace", "BSpace")
        app.wait(has("Search: ▏"))
        app.literal("a")
        ok = app.wait(lambda l: any("Search: a▏" in x for x in l) and "Added · 1" in "\n".join(l))
        lines = app.screen()
        expected = [n for n in SEED if "a" in n.lower() and n != "Grace Elizabeth"]
        check("people: after adding Grace, “a” lists the others containing an a",
              ok and list_names(lines) == expected, "\n".join(lines))
        shot = app.screen(escapes=True)
        highlighted = [l for l in shot if re.search(r"\x1b\[[0-9;]*m[Aa]\x1b\[", l)]
        check("people: highlights only in the list section", len(highlighted) == len(expected),
              f"{len(highlighted)} highlighted rows")
    finally:
        app.close()
    return shot


def test_settings() -> None:
    app = App("settings")
    try:
        ok = app.wait(has("[✓] c"))
        lines = app.text()
        check("settings: initial selection two; a, c",
              ok and "(●) two" in lines and "( ) one" in lines and "[✓] a" in lines and "[ ] b" in lines
              and "[✓] c" in lines, lines)
        app.keys("Enter")
        ok = app.wait(has("(●) one"))
        lines = app.text()
        check("settings: single selection moves (one replaces two)", ok and "( ) two" in lines, lines)
        check("settings: status line shows the selection change", "sel +one −two" in lines, lines)
        app.keys("Space")
        ok = app.wait(has("stays selected"))
        lines = app.text()
        check("settings: the last selected number cannot be deselected", ok and "(●) one" in lines, lines)
        app.keys("Down", "Down", "Down", "Down", "Enter")  # two, three, a, b
        ok = app.wait(has("[✓] b"))
        check("settings: multiple selection adds b", ok and "[✓] a" in app.text())
        app.keys("k", "Enter")
        ok = app.wait(has("[ ] a"))
        lines = app.text()
        check("settings: multiple selection toggles a off (j/k move)", ok and "[✓] b" in lines and "[✓] c" in lines, lines)
        app.keys("Space")
        ok = app.wait(has("[✓] a"))
        check("settings: and on again", ok)
        app.keys("q")
        check("settings: q quits with status 0", exit_code(app) == 0)
    finally:
        app.close()


def test_basics() -> None:
    app = App("basics")
    try:
        ok = app.wait(has("uuid-3"))
        lines = app.text()
        check("basics: three rows, two equal-looking Donnys with their ids",
              ok and lines.count("Donny Wals") == 2 and "id uuid-1" in lines and "id uuid-2" in lines, lines)
        app.keys("s")
        ok = app.wait(lambda l: [x for x in l if "uuid" in x][0].endswith("uuid-2") if any("uuid" in x for x in l) else False)
        lines = app.screen()
        check("basics: swapping the Donnys is one move", ok and "−0 +0 ↕1 ⟳0" in status_line(lines),
              "\n".join(lines[:6] + [status_line(lines)]))
        app.keys("Up", "d")  # cursor follows uuid-1 (moved to row 2), Up goes to uuid-2 at the top
        ok = app.wait(lambda l: "uuid-2" not in "\n".join(l))
        lines = app.screen()
        check("basics: d deletes the row under the cursor",
              ok and "uuid-1" in "\n".join(lines) and "uuid-3" in "\n".join(lines)
              and status_line(lines).strip().startswith("−1 +0 ↕0 ⟳0"), "\n".join(lines[:6] + [status_line(lines)]))
        app.keys("d", "d")
        ok = app.wait(lambda l: "uuid" not in "\n".join(l))
        check("basics: deleting every row leaves the empty section", ok and "This is section: 0" in app.text())
        app.keys("r")
        ok = app.wait(has("uuid-3"))
        check("basics: r restores the three rows", ok and app.text().count("Donny Wals") == 2)
        app.keys("Escape")
        check("basics: Esc quits with status 0", exit_code(app) == 0)
    finally:
        app.close()


def test_fruit() -> None:
    app = App("fruit")
    try:
        ok = app.wait(has("Blood"))
        lines = app.text()
        check("fruit: apples and oranges", ok and "Apples" in lines and "Oranges" in lines and "Gala" in lines, lines)
        app.keys("e")
        ok = app.wait(has("No Data Found"))
        lines = app.text()
        check("fruit: e shows the empty-state section alone",
              ok and "Apples" not in lines and "Gala" not in lines and "inclement weather" in lines, lines)
        check("fruit: the switch is two section deletes and one insert", "§−2 +1" in lines, lines)
        app.keys("e")
        ok = app.wait(has("Gala"))
        lines = app.text()
        check("fruit: e again brings the fruit back", ok and "No Data Found" not in lines and "Oranges" in lines, lines)
        app.keys("q")
        check("fruit: q quits with status 0", exit_code(app) == 0)
    finally:
        app.close()


RANGE = re.compile(r"rows (\d+)–(\d+) of (\d+)")


def pane_names(lines: List[str]) -> List[str]:
    """The person rows on screen, top to bottom (the pane is lines 1 .. HEIGHT - 3)."""
    return names(lines[1:HEIGHT - 2])


def shown_range(lines: List[str]) -> Optional[tuple]:
    match = RANGE.search(lines[0]) if lines else None
    return (int(match.group(1)), int(match.group(2)), int(match.group(3))) if match else None


def test_big(rows: int) -> None:
    sys.path.insert(0, str(HERE))
    import demo  # the same deterministic names the app generates
    everyone = SEED + demo.generated_names(rows)
    total = len(everyone) + 3  # flat rows: "Added" header, the search bar, "People" header, the people
    app = App("people", "--rows", str(rows))
    try:
        started = time.monotonic()
        # The status line is written last in a redraw: until it shows the apply's diff (not the
        # "sending…" message), a capture can catch the pane half drawn.
        ok = app.wait(lambda l: shown_range(l) == (1, HEIGHT - 3, total) and len(pane_names(l)) > 20
                      and "sending" not in status_line(l) and "window " in status_line(l), 180)
        lines = app.screen()
        check(f"big: {rows} people loaded, a viewport of the pane ({time.monotonic() - started:.1f} s)", ok,
              "\n".join(lines))
        if not ok:
            return
        check("big: the first screen is the first people, in order", pane_names(lines) == everyone[:HEIGHT - 3 - 3],
              f"{pane_names(lines)[:5]}…")
        check("big: the apply's answer was one screenful (window form, not N rows)",
              f"+{HEIGHT - 3} " in status_line(lines) and f"window 0+{HEIGHT - 3} of {total}" in status_line(lines),
              status_line(lines))

        daemon: List[float] = []
        frames: List[float] = []  # the app's own clock: keys read → screen written
        query = ""
        for key in ["m", "o", "l", "BSpace", "BSpace", "BSpace", "k", "BSpace"]:
            query = query[:-1] if key == "BSpace" else query + key
            matching = [n for n in everyone if query.lower() in n.lower()]
            expected = matching[:HEIGHT - 3 - 3]  # the pane less the two headers and the search bar
            if key == "BSpace":
                app.keys(key)
            else:
                app.literal(key)
            # Hands off while the app works: each capture is a tmux process, and polling every
            # 5 ms took a core from the daemon's two scan threads (doubling its search time on this
            # 2-core machine). The time is the app's own clock (keys read → screen written),
            # which it shows in the status line; the pane is then checked whole (tmux may show a
            # redraw half done, so it is polled until right or 30 s).
            time.sleep(0.4)
            ok = app.wait(lambda l: any(f"Search: {query}▏" in x for x in l) and pane_names(l) == expected
                          and "key→screen" in status_line(l), 30)
            lines = app.screen()
            rtt = re.search(r" in ([\d.]+) ms", status_line(lines))
            daemon.append(float(rtt.group(1)) / 1000 if rtt else float("nan"))
            frame = re.search(r"key→screen ([\d.]+) ms", status_line(lines))
            frames.append(float(frame.group(1)) / 1000 if frame else float("nan"))
            shown = pane_names(lines)
            good = ok and shown == expected and frame is not None
            check(f"big: “{query}” → the first {len(shown)} of {len(matching)} matches, in order, "
                  f"key→screen {frames[-1] * 1000:.1f} ms", good, "\n".join(lines))
        print(f"big: key → screen written at {rows} rows (the app's clock: keys read, search, diff replayed, "
              f"curses refresh): median {statistics.median(frames) * 1000:.1f} ms (first keystroke, the search "
              f"index built in the background since the apply: {frames[0] * 1000:.0f} ms; all: "
              f"{', '.join(f'{t * 1000:.1f}' for t in frames)} ms; of which the search request's round trip: "
              f"{', '.join(f'{t * 1000:.1f}' for t in daemon)} ms)")

        scrolls: List[float] = []
        scroll_rtt: List[float] = []

        def right_people(lines: List[str]) -> bool:
            now = shown_range(lines)
            return now is not None and pane_names(lines) == everyone[max(now[0] - 1 - 3, 0):now[1] - 3]

        def scroll(key: str, expect: Callable[[Optional[tuple], Optional[tuple]], bool], what: str) -> None:
            before = shown_range(app.screen())
            started = time.monotonic()
            app.keys(key)
            ok = app.wait(lambda l: shown_range(l) != before and expect(before, shown_range(l)) and right_people(l), 60)
            scrolls.append(app.shown_at - started)
            time.sleep(0.05)
            lines = app.screen()
            rtt = re.search(r" in ([\d.]+) ms", status_line(lines))
            scroll_rtt.append(float(rtt.group(1)) / 1000 if rtt else float("nan"))
            now = shown_range(lines)
            good = ok and now is not None
            if now is not None:
                first_row = now[0] - 1  # flat row at the top of the screen
                expected = everyone[max(first_row - 3, 0):now[1] - 3]
                good = good and pane_names(lines) == expected and now[2] == total
            check(f"big: {what}: rows {now[0] if now else '?'}–{now[1] if now else '?'} are the right people, "
                  f"in {scrolls[-1] * 1000:.0f} ms", good, "\n".join(lines))

        pane = HEIGHT - 3
        for _ in range(3):
            scroll("NPage", lambda b, a: bool(a and b and a[0] > b[0]), "PageDown past the screen")
        scroll("Down", lambda b, a: bool(a and b and a[0] == b[0] + 1), "Down at the bottom edge: one row")
        scroll("End", lambda b, a: a == (total - pane + 1, total, total), "End")
        scroll("PPage", lambda b, a: bool(a and b and a[0] < b[0]), "PageUp")
        scroll("Home", lambda b, a: a == (1, pane, total), "Home")
        print(f"big: scroll key → redrawn pane at {rows} rows (viewport request): median "
              f"{statistics.median(scrolls) * 1000:.0f} ms (all: {', '.join(f'{t * 1000:.0f}' for t in scrolls)} ms; "
              f"round trips: {', '.join(f'{t * 1000:.1f}' for t in scroll_rtt)} ms)")

        # Enter under a query: the person under the cursor (the first match) moves to Added, an
        # edit answered in the window form while "mo" filters 131k of the million.
        matching = [n for n in everyone if "mo" in n.lower()]
        for key in ["m", "o"]:
            app.literal(key)
            time.sleep(0.4)
        ok = app.wait(lambda l: any("Search: mo▏" in x for x in l) and pane_names(l) == matching[:HEIGHT - 6], 60)
        check("big: “mo” typed again after scrolling: the first matches from the top", ok, "\n".join(app.screen()))
        app.keys("Enter")
        time.sleep(0.4)
        # The pane: "Added", the person, the search bar, "People", then the next matches.
        expected = [matching[0]] + matching[1:HEIGHT - 6]
        ok = app.wait(lambda l: added_names(l) == [matching[0]] and pane_names(l) == expected
                      and "key→screen" in status_line(l), 30)
        lines = app.screen()
        frame = re.search(r"key→screen ([\d.]+) ms", status_line(lines))
        rtt = re.search(r" in ([\d.]+) ms", status_line(lines))
        check(f"big: Enter under “mo” moves {matching[0]} to Added, the list goes on with the next matches, "
              f"key→screen {frame.group(1) if frame else '?'} ms (edit round trip {rtt.group(1) if rtt else '?'} ms)",
              ok and frame is not None, "\n".join(lines))
        app.keys("Escape")
        check("big: Esc quits with status 0", exit_code(app, 20) == 0)
    finally:
        app.close()


# -- screenshot --------------------------------------------------------------------------------------------------

PALETTE = ["#1e1e1e", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
           "#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff"]
FG, BG = "#d4d4d4", "#1e1e1e"


def ansi_to_html(lines: List[str]) -> str:
    """`capture-pane -e` text (SGR colors, bold, reverse) as an HTML page of a terminal."""
    out = []
    for line in lines:
        fg = bg = None
        bold = reverse = False
        parts = re.split(r"(\x1b\[[0-9;]*m)", line)
        cells = []
        for part in parts:
            match = re.fullmatch(r"\x1b\[([0-9;]*)m", part)
            if match:
                codes = [int(c) if c else 0 for c in match.group(1).split(";")] if match.group(1) else [0]
                k = 0
                while k < len(codes):
                    c = codes[k]
                    if c == 0:
                        fg = bg = None
                        bold = reverse = False
                    elif c == 1:
                        bold = True
                    elif c == 22:
                        bold = False
                    elif c == 7:
                        reverse = True
                    elif c == 27:
                        reverse = False
                    elif 30 <= c <= 37:
                        fg = PALETTE[c - 30]
                    elif 90 <= c <= 97:
                        fg = PALETTE[c - 90 + 8]
                    elif c == 39:
                        fg = None
                    elif 40 <= c <= 47:
                        bg = PALETTE[c - 40]
                    elif 100 <= c <= 107:
                        bg = PALETTE[c - 100 + 8]
                    elif c == 49:
                        bg = None
                    elif c in (38, 48) and k + 2 < len(codes) and codes[k + 1] == 5:
                        color = PALETTE[codes[k + 2]] if codes[k + 2] < 16 else FG
                        if c == 38:
                            fg = color
                        else:
                            bg = color
                        k += 2
                    k += 1
                continue
            if not part:
                continue
            f, b = fg or FG, bg or BG
            if reverse:
                f, b = b, f
            style = f"color:{f};background:{b};" + ("font-weight:bold;" if bold else "")
            cells.append(f'<span style="{style}">{html.escape(part)}</span>')
        out.append("".join(cells))
    body = "\n".join(out)
    return (f"<!doctype html><meta charset=utf-8><style>html,body{{margin:0;background:{BG}}}"
            f"pre{{margin:0;padding:12px;font:15px/19px 'DejaVu Sans Mono',monospace;color:{FG};"
            f"white-space:pre}}</style><pre>{body}</pre>")


# Tests write their screenshots under the ignored .build/ (git status stays clean); set
# DIFFABLE_SCREENSHOT_DIR=protocol/examples/tui to refresh the tracked ones on purpose.
SHOTS = Path(os.environ.get("DIFFABLE_SCREENSHOT_DIR") or HERE.parent.parent.parent / ".build" / "screenshots" / "tui")


def screenshot(lines: List[str]) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    text_path = SHOTS / "screenshot.txt"
    text_path.write_text("\n".join(re.sub(r"\x1b\[[0-9;]*m", "", l).rstrip() for l in lines).rstrip() + "\n")
    check("screenshot: text capture saved", text_path.stat().st_size > 0)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not check("screenshot: chromium is installed (protocol/tools/install-test-tools)", chromium is not None):
        return
    png = SHOTS / "screenshot.png"
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "tui.html"
        shown = [l for l in lines]
        while shown and not re.sub(r"\x1b\[[0-9;]*m", "", shown[-1]).strip():
            shown.pop()
        page.write_text(ansi_to_html(lines))
        width, height = 24 + WIDTH * 9 + 4, 24 + HEIGHT * 19
        if png.exists():
            png.unlink()
        done = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                               f"--user-data-dir={tmp}/profile", f"--window-size={width},{height}",
                               f"--screenshot={png}", page.as_uri()], capture_output=True, text=True, timeout=60)
    check(f"screenshot: PNG written to {png}",
          png.exists() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", done.stderr[-500:])


def main() -> int:
    started = time.monotonic()
    if not check("tmux is installed (protocol/tools/install-test-tools)", shutil.which("tmux") is not None):
        print(f"{passed} passed, {failed} failed")
        return 1
    test_no_daemon()
    shot = test_people()
    test_settings()
    test_basics()
    test_fruit()
    if shot is not None:
        screenshot(shot)
    else:
        check("screenshot: the people picker reached the state to shoot", False)
    big = int(os.environ.get("DIFFABLE_TUI_BIG_ROWS", "1000000"))
    if check(f"big-list timing enabled (DIFFABLE_TUI_BIG_ROWS={big})", big > 0):
        test_big(big)
    print(f"({time.monotonic() - started:.0f} s)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
