#!/usr/bin/env python3
"""The four seed screens in a terminal, driven by the diffable daemon.

    python3 protocol/examples/tui/demo.py settings|basics|people|fruit [--rows N]

Standard library only (curses) on the Python client of this checkout
(protocol/clients/python/src, imported from the tree: nothing to install).
Every change is a request to the daemon; the screen is redrawn from the diff
it answers (steps form, replayed into a `diffable.Frontend` model), never from
a `snapshot`. Only the screen lines whose text changed are rewritten. With
`--rows N` above 2,000 the people picker holds only a viewport of the screen's
height (window form; scrolling past the screen sends `viewport`).

Keys: arrows (and j/k outside the people picker) move, Enter/space toggles,
q/Esc quits. settings: single/multiple selection, the number cannot be left
empty (the daemon's allowsEmptySelection: false). basics: d deletes the row,
s swaps the first two rows, r restores. people: letters type into the search
field, Backspace deletes, Enter moves the person between "Added" and the list,
Esc quits. fruit: e toggles the empty state.
"""
from __future__ import annotations

import argparse
import curses
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python" / "src"))
import diffable  # noqa: E402
from diffable import ops  # noqa: E402

WINDOW_THRESHOLD = 2000
"""Above this many people the picker holds only a **viewport** of the pane's height: the daemon
answers every change with the window form (rows in and out of the screen), and scrolling past the
screen is a `viewport` request (protocol/methods/viewport.md)."""

PLACEHOLDER = {"id": "no-results", "content": {"text": "No results"}}

SEED_PEOPLE = ["Lily Rose", "Ava Grace", "Ruby Mae", "Stella Luna", "Jack Ryan", "Emma Kate", "Olivia Jade",
               "Ethan James", "Amelia Rose", "Lucas John", "Madison Claire", "Noah William", "Isla Faith",
               "Mason Alexander", "Grace Elizabeth", "Liam Thomas", "Chloe Grace", "Jackson Lee", "Scarlett Belle"]

SYLLABLES = ["ka", "lo", "mi", "ra", "ne", "to", "sa", "vi", "de", "li", "ma", "ro", "el", "an", "is", "or", "ja",
             "be", "ce", "du", "fa", "go", "ha", "ki", "lu", "mo", "ny", "pe", "qu", "si", "ti", "ul", "ve", "wy",
             "xa", "ze"]


def generated_names(count: int) -> List[str]:
    """`count` deterministic two-word names (an LCG over syllables; the same on every run)."""
    x, names, n = 12345, [], len(SYLLABLES)
    for _ in range(count):
        words = []
        for _ in range(2):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            word = ""
            for _ in range(2 + (x >> 16) % 2):
                x = (x * 1103515245 + 12345) & 0x7FFFFFFF
                word += SYLLABLES[(x >> 16) % n]
            words.append(word.capitalize())
        names.append(" ".join(words))
    return names


def slug(name: str) -> str:
    return name.lower().replace(" ", "-")


def text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        for key in ("text", "name", "title"):
            if isinstance(content.get(key), str):
                return str(content[key])
    return ""


# -- diffs -------------------------------------------------------------------------------------------------------

def diff_summary(result: Dict[str, Any], rtt: float) -> str:
    """`−1 +1 ↕0 ⟳1 in 0.3 ms` (rows deleted, inserted, moved, reloaded; sections after §; for the
    window form the screen's rows, then `· window START+ROWS of TOTAL`)."""
    d = i = m = r = sd = si = sm = 0
    window = result.get("window")
    for step in window["steps"] if window else []:
        op = step["op"]
        if op == "delete":
            d += step["count"]
        elif op == "insert":
            i += len(step["rows"])
        elif op == "move":
            m += 1
        elif op == "update":
            r += len(step["rows"])
    for step in result.get("steps", []):
        op = step["op"]
        if op == "deleteItems":
            d += step["count"]
        elif op == "insertItems":
            i += len(step["items"])
        elif op == "moveItem":
            m += 1
        elif op in ("reloadItems", "reconfigureItems"):
            r += len(step["items"])
        elif op == "deleteSections":
            sd += step["count"]
        elif op == "insertSections":
            si += len(step["sections"])
            i += sum(len(section.get("items", [])) for section in step["sections"])
        elif op == "moveSection":
            sm += 1
        elif op == "reloadSection":
            r += 1
    text = f"−{d} +{i} ↕{m} ⟳{r}"
    if sd or si or sm:
        text += f" §−{sd} +{si} ↕{sm}"
    if window:
        text += f" · window {window['start']}+{window['count']} of {window['total']}"
    sel = result.get("selection") or {}
    if sel.get("selected") or sel.get("deselected") or sel.get("kept"):
        text += " · sel"
        for key, mark in (("selected", "+"), ("deselected", "−"), ("kept", "=")):
            if sel.get(key):
                text += f" {mark}{','.join(c['id'] for c in sel[key])}"
    ms = rtt * 1000
    return f"{text} in {ms:.1f} ms" if ms < 100 else f"{text} in {ms:.0f} ms"


# -- screens -----------------------------------------------------------------------------------------------------

Line = Tuple[str, int, List[Tuple[int, int, int]]]
"""(text, attribute, [(start, length, attribute)] spans drawn over it)."""


class Screen:
    """One seed screen: its source, its first data, how a row looks and what keys do."""
    title = ""
    source = ""
    keys_help = ""
    letters_type = False  # people picker: letters go to the search field

    def __init__(self, app: "App") -> None:
        self.app = app

    def start(self) -> None:
        raise NotImplementedError

    def row_text(self, section: Dict[str, Any], item: Dict[str, Any], selected: bool) -> Tuple[str, int, List[Tuple[int, int, int]]]:
        return "  " + (text_of(item.get("content")) or item["id"]), 0, []

    def header_text(self, section: Dict[str, Any]) -> Optional[str]:
        header = section.get("header")
        return None if header is None else (header if isinstance(header, str) else text_of(header))

    def selectable(self, section: Dict[str, Any], item: Dict[str, Any]) -> bool:
        return True

    def key(self, key: int, item: Optional[Dict[str, Any]]) -> bool:
        """Handles a key (returns False when it is not this screen's)."""
        return False


class Settings(Screen):
    title, source = "Settings · single and multiple selection", "settings"
    keys_help = "↑↓/jk move · Enter/space toggle · q quit"
    SECTIONS = [
        {"id": "numbers", "header": "Pick a number", "selection": "single", "allowsEmptySelection": False,
         "items": [{"id": n, "content": {"text": n}} for n in ("one", "two", "three")]},
        {"id": "letters", "header": "Pick some letters", "selection": "multiple",
         "items": [{"id": c, "content": {"text": c}} for c in "abcd"]},
    ]

    def start(self) -> None:
        self.app.call(lambda c: c.apply(self.source, self.SECTIONS))
        self.app.call(lambda c: c.select(self.source, ids=["two", "a", "c"]))

    def row_text(self, section, item, selected):
        single = section["id"] == "numbers"
        mark = ("(●)" if selected else "( )") if single else ("[✓]" if selected else "[ ]")
        color = self.app.color("selected") if selected else 0
        return f"  {mark} {text_of(item.get('content'))}", 0, [(2, 3, color)]

    def key(self, key, item):
        if key in (10, 13, -curses.KEY_ENTER, ord(" ")) and item is not None:
            result = self.app.call(lambda c: c.select(self.source, action="toggle", ids=[item["id"]]))
            kept = ((result or {}).get("selection") or {}).get("kept")
            if kept:
                self.app.note = f"“{kept[0]['id']}” stays selected: a number must be picked"
            return True
        return False


class Basics(Screen):
    title, source = "Diffable basics · identity and swipe-to-delete", "models"
    keys_help = "↑↓/jk move · d delete · s swap first two · r restore · q quit"
    SECTIONS = [{"id": "0", "header": "This is section: 0", "items": [
        {"id": "uuid-1", "content": {"name": "Donny Wals"}},
        {"id": "uuid-2", "content": {"name": "Donny Wals"}},
        {"id": "uuid-3", "content": {"name": "Steve Breen", "subtitle": "helped"}}]}]

    def start(self) -> None:
        self.app.call(lambda c: c.apply(self.source, self.SECTIONS))

    def row_text(self, section, item, selected):
        content = item.get("content") or {}
        text = f"  {content.get('name', item['id'])}"
        if content.get("subtitle"):
            text += f" — {content['subtitle']}"
        ident = f"  id {item['id']}"
        return text + ident, 0, [(len(text), len(ident), self.app.color("dim"))]

    def key(self, key, item):
        if key == ord("d") and item is not None:
            self.app.call(lambda c: c.edit(self.source, [ops.delete_items([item["id"]])]))
        elif key == ord("s"):
            items = self.app.sections()[0]["items"] if self.app.sections() else []
            if len(items) >= 2:
                self.app.call(lambda c: c.edit(self.source, [ops.move_item(items[0]["id"], after=items[1]["id"])]))
        elif key == ord("r"):
            self.app.call(lambda c: c.apply(self.source, self.SECTIONS))
        else:
            return False
        return True


class Fruit(Screen):
    title, source = "Fruit stand · heterogeneous items and an empty state", "fruit"
    keys_help = "↑↓/jk move · e toggle empty state (weather) · q quit"
    DATA = [
        {"id": "apples", "header": "Apples", "items": [
            {"id": "apple-gala", "content": {"text": "Gala, core thickness: 4mm", "coreThickness": 4}},
            {"id": "apple-fuji", "content": {"text": "Fuji, core thickness: 5mm", "coreThickness": 5}}]},
        {"id": "oranges", "header": "Oranges", "items": [
            {"id": "orange-navel", "content": {"text": "Navel, peel thickness: 6mm", "peelThickness": 6}},
            {"id": "orange-blood", "content": {"text": "Blood, peel thickness: 4mm", "peelThickness": 4}}]}]
    EMPTY = [{"id": "empty", "header": "No Data Found", "items": [
        {"id": "empty-data", "content": {"text": "We're sorry! The fruit stand is closed due to inclement weather!",
                                         "image": "cloud.bold.rain.fill"}}]}]

    def start(self) -> None:
        self.empty = False
        self.app.call(lambda c: c.apply(self.source, self.DATA))

    def row_text(self, section, item, selected):
        content = item.get("content") or {}
        kind = "apple " if "coreThickness" in content else "orange" if "peelThickness" in content else "  ☂   "
        text = f"  {kind} {text_of(content)}"
        return text, 0, [(2, 6, self.app.color("dim"))]

    def key(self, key, item):
        if key == ord("e"):
            self.empty = not self.empty
            self.app.call(lambda c: c.apply(self.source, self.EMPTY if self.empty else self.DATA))
            return True
        return False


class People(Screen):
    title, source = "People picker · search, added and list", "people"
    keys_help = "type to search · Backspace · ↑↓ move · Enter add/remove · Esc quit"
    letters_type = True

    def start(self) -> None:
        extra = self.app.args.rows
        self.people = [{"id": slug(n), "content": {"text": n}} for n in SEED_PEOPLE]
        if extra:
            self.app.message(f"generating {extra} people…")
            self.people += [{"id": f"gen-{k}", "content": {"text": n}} for k, n in enumerate(generated_names(extra))]
        self.query = ""
        self.windowed = len(self.people) > WINDOW_THRESHOLD
        self.added = 0  # people in "Added" (windowed: where the list's header row is, flat row 2 + added)
        self.highlights: Dict[str, List[List[int]]] = {}
        self.counts: Optional[Dict[str, int]] = None
        sections = [{"id": "addedList", "header": "Added", "items": []},
                    {"id": "searchBar", "items": [{"id": "search-bar"}]},
                    {"id": "list", "header": "People", "items": self.people}]
        if self.windowed:
            self.app.message(f"sending {len(self.people)} people to the daemon…")
            # with the viewport in the same request the answer is one screenful, not N rows
            self.app.call(lambda c: c.apply(self.source, sections, viewport=self.app.viewport_at(0)))
        else:
            self.app.call(lambda c: c.apply(self.source, sections))
        self.people = []  # the daemon has them; we keep only what the diffs show
        # Declare the search field (nothing typed yet): a large source then builds its search
        # index in the background, so the first letter does not wait for it.
        self.search()

    def search(self) -> None:
        # windowed: back to the top with every query (a picker shows the best/first matches first)
        extra: Dict[str, Any] = {"viewport": self.app.viewport_at(0)} if self.windowed else {}
        result = self.app.call(lambda c: c.search(self.source, self.query, sections=["list"],
                                                  placeholder=PLACEHOLDER, **extra))
        if result is not None:
            self.highlights = {h["id"]: h["ranges"] for h in result.get("highlights", [])}
            self.counts = result.get("search")

    def refresh_highlights(self) -> None:
        """After an edit under an active query: the rows the diff brought get their highlights
        (windowed: rows carry their highlights, nothing to ask)."""
        sections = self.app.sections()
        index = next((k for k, s in enumerate(sections) if s["id"] == "list"), None)
        if self.query and index is not None and not self.windowed:
            result = self.app.call(lambda c: c.highlights(self.source, index, start=0, count=self.app.pane_height()),
                                   summary=False, replay=False)
            if result is not None:
                self.highlights = {h["id"]: h["ranges"] for h in result.get("highlights", [])}

    def selectable(self, section, item):
        return item["id"] not in ("search-bar", PLACEHOLDER["id"])

    def header_text(self, section):
        if section["id"] == "list":
            if self.windowed:  # the rows under the header: all of the list after it (or the placeholder)
                window = self.app.frontend.view(self.source).window
                shown = window.total - (2 + self.added) - 1 if window else 0
                if shown == 1 and window and any(r["id"] == PLACEHOLDER["id"] for r in window.rows):
                    shown = 0
            else:
                shown = sum(1 for item in section["items"] if item["id"] != PLACEHOLDER["id"])
            return f"People · {shown} matching “{self.query}”" if self.query else f"People · {shown}"
        if section["id"] == "addedList":
            return f"Added · {self.added if self.windowed else len(section['items'])}"
        return super().header_text(section)

    def row_text(self, section, item, selected):
        if item["id"] == "search-bar":
            text = f"  Search: {self.query}"
            return text + "▏", 0, [(2, 7, self.app.color("header"))]
        if item["id"] == PLACEHOLDER["id"]:
            return "      " + text_of(item.get("content")), self.app.color("dim"), []
        name = text_of(item.get("content"))
        mark = "−" if section["id"] == "addedList" else "+"
        spans = [(2, 1, self.app.color("selected"))]
        if self.query and section["id"] == "list":
            ranges = item.get("highlights", []) if self.windowed else self.highlights.get(item["id"], [])
            for start, count in ranges:
                spans.append((4 + start, count, self.app.color("match")))
        return f"  {mark} {name}", 0, spans

    def key(self, key, item):
        if key in (10, 13, -curses.KEY_ENTER):
            if item is None or not self.selectable({}, item):
                return True
            if self.windowed:  # the rows on screen: the neighbour is the next (or previous) row of the section
                section = item["section"]
                siblings = [r for r in self.app.window_rows() if r["section"] == section and not r.get("header")]
            else:
                section = self.app.section_of(item["id"])
                siblings = next(s["items"] for s in self.app.sections() if s["id"] == section)
            index = next(k for k, i in enumerate(siblings) if i["id"] == item["id"])
            neighbour = siblings[index + 1] if index + 1 < len(siblings) else siblings[index - 1] if index else None
            target = "list" if section == "addedList" else "addedList"
            self.added += 1 if target == "addedList" else -1
            moved = {"id": item["id"], "content": item.get("content")}
            # delete + append in one edit: the same id comes back, so the daemon reports a move
            self.app.call(lambda c: c.edit(self.source, [ops.delete_items([item["id"]]),
                                                         ops.append_items([moved], section=target)]))
            if neighbour is not None and self.selectable({}, neighbour):
                self.app.cursor_id = neighbour["id"]  # the cursor stays in the section it was in
            if target == "list":
                self.refresh_highlights()
            return True
        return False

    def type(self, keys: List[int]) -> bool:
        """Letters and Backspace edit the query; one search for the whole burst of keys."""
        query = self.query
        for key in keys:
            if key in (-curses.KEY_BACKSPACE, 127, 8):
                query = query[:-1]
            elif key == 21:  # Ctrl-U
                query = ""
            elif 32 <= key < 0x110000 and chr(key).isprintable():
                query += chr(key)
        if query == self.query:
            return False
        self.query = query
        self.search()
        return True


SCREENS: Dict[str, Callable[["App"], Screen]] = {"settings": Settings, "basics": Basics, "people": People,
                                                 "fruit": Fruit}


# -- the app -----------------------------------------------------------------------------------------------------

class App:
    def __init__(self, stdscr: Any, client: diffable.Client, args: argparse.Namespace) -> None:
        self.stdscr, self.client, self.args = stdscr, client, args
        self.frontend = diffable.Frontend()
        self.screen = SCREENS[args.screen](self)
        self.cursor_id: Optional[str] = None
        self.cursor = 0
        self.top = 0
        self.status = "ready"
        self.frame = ""  # "key→screen N ms" of the last keys
        self.note = ""
        self.error = ""
        self.drawn: Dict[int, Line] = {}
        self.colors: Dict[str, int] = {}
        self.setup_colors()

    # curses helpers
    def setup_colors(self) -> None:
        pairs = {"header": (curses.COLOR_CYAN, -1), "selected": (curses.COLOR_GREEN, -1),
                 "match": (curses.COLOR_BLACK, curses.COLOR_YELLOW), "error": (curses.COLOR_RED, -1),
                 "title": (curses.COLOR_BLACK, curses.COLOR_CYAN), "dim": (curses.COLOR_BLUE, -1)}
        if curses.has_colors():
            curses.start_color()
            try:
                curses.use_default_colors()
            except curses.error:
                pass
            for k, (name, (fg, bg)) in enumerate(pairs.items(), start=1):
                try:
                    curses.init_pair(k, fg, bg)
                    self.colors[name] = curses.color_pair(k)
                except curses.error:
                    self.colors[name] = 0
        self.colors["header"] = self.colors.get("header", 0) | curses.A_BOLD
        self.colors["title"] = self.colors.get("title", 0) | curses.A_BOLD
        self.colors["match"] = self.colors.get("match", curses.A_REVERSE) | curses.A_BOLD

    def color(self, name: str) -> int:
        return self.colors.get(name, 0)

    def size(self) -> Tuple[int, int]:
        return self.stdscr.getmaxyx()

    def pane_height(self) -> int:
        return max(1, self.size()[0] - 3)

    def message(self, text: str) -> None:
        self.put(self.size()[0] - 2, (text, 0, []))
        self.stdscr.refresh()

    # model
    def sections(self) -> List[Dict[str, Any]]:
        return self.frontend.view(self.screen.source).sections

    @property
    def windowed(self) -> bool:
        """The screen holds only a viewport (the people picker with --rows above WINDOW_THRESHOLD)."""
        return bool(getattr(self.screen, "windowed", False))

    def viewport_at(self, start: int) -> Dict[str, int]:
        return {"start": max(0, start), "count": self.pane_height()}

    def window_rows(self) -> List[Dict[str, Any]]:
        window = self.frontend.view(self.screen.source).window
        return window.rows if window is not None else []

    def window_start(self) -> int:
        window = self.frontend.view(self.screen.source).window
        return window.start if window is not None else 0

    def window_total(self) -> int:
        window = self.frontend.view(self.screen.source).window
        return window.total if window is not None else 0

    def scroll_to(self, start: int) -> None:
        """A `viewport` request: the daemon answers the rows that come in and go out."""
        start = max(0, min(start, max(self.window_total() - self.pane_height(), 0)))
        if start != self.window_start():
            self.call(lambda c: c.viewport(self.screen.source, **self.viewport_at(start)))

    def window_move(self, delta: int) -> None:
        """Windowed cursor movement by `delta` flat rows (to the next selectable row in its direction),
        scrolling with `viewport` when the row is off the screen."""
        total, pane = self.window_total(), self.pane_height()
        if total == 0:
            return
        step = 1 if delta >= 0 else -1
        first = max(0, min(self.cursor + delta, total - 1))
        # headers and the search bar are not stops: the next few rows in the direction of the move,
        # then (at the top or the end of the list) the other way
        candidates = [first + step * k for k in range(4)] + [first - step * k for k in range(1, 4)]
        for target in (t for t in candidates if 0 <= t < total):
            start = self.window_start()
            if target < start:
                self.scroll_to(target)
            elif target >= start + pane:
                self.scroll_to(target - pane + 1)
            rows, start = self.rows(), self.window_start()
            k = target - start
            if 0 <= k < len(rows) and rows[k][0] is not None and self.screen.selectable(rows[k][1], rows[k][0]):
                self.cursor, self.cursor_id = target, rows[k][0]["id"]
                return

    def section_of(self, item_id: str) -> Optional[str]:
        for section in self.sections():
            if any(i["id"] == item_id for i in section["items"]):
                return str(section["id"])
        return None

    def call(self, request: Callable[[diffable.Client], Any], summary: bool = True, replay: bool = True) -> Any:
        """Sends a request, replays its diff, puts the diff in the status line."""
        started = time.perf_counter()
        try:
            result = request(self.client)
        except diffable.RpcError as error:
            self.error = f"error {error.code}: {error}"
            return None
        rtt = time.perf_counter() - started
        if replay and isinstance(result, dict) and "source" in result:
            self.frontend.update(result)
            if summary:
                self.status = diff_summary(result, rtt)
                self.error = ""
        return result

    def rows(self) -> List[Tuple[Optional[Dict[str, Any]], Dict[str, Any]]]:
        """(item or None for a header, section) per display row (windowed: the window's rows)."""
        out: List[Tuple[Optional[Dict[str, Any]], Dict[str, Any]]] = []
        if self.windowed:
            for row in self.window_rows():
                if row.get("header"):
                    out.append((None, {"id": row["section"], "header": row.get("content")}))
                else:
                    out.append((row, {"id": row["section"]}))
            return out
        for section in self.sections():
            if self.screen.header_text(section) is not None:
                out.append((None, section))
            for item in section["items"]:
                out.append((item, section))
        return out

    def move_cursor(self, rows: List[Tuple[Optional[Dict[str, Any]], Dict[str, Any]]], delta: int) -> None:
        stops = [k for k, (item, section) in enumerate(rows) if item is not None and self.screen.selectable(section, item)]
        if not stops:
            self.cursor_id = None
            return
        position = next((k for k, s in enumerate(stops) if s >= self.cursor), len(stops) - 1)
        if delta:
            position = min(max(position + delta, 0), len(stops) - 1)
        self.cursor = stops[position]
        self.cursor_id = rows[self.cursor][0]["id"]  # type: ignore[index]

    def place_cursor(self, rows: List[Tuple[Optional[Dict[str, Any]], Dict[str, Any]]]) -> None:
        """The cursor follows its item through diffs; when the item left, the row that took its place."""
        if self.cursor_id is not None:
            found = next((k for k, (item, _) in enumerate(rows) if item is not None and item["id"] == self.cursor_id), None)
            if found is not None:
                self.cursor = found
        self.cursor = min(self.cursor, max(len(rows) - 1, 0))
        self.move_cursor(rows, 0)

    def current_item(self) -> Optional[Dict[str, Any]]:
        rows = self.rows()
        if self.cursor_id is None or not rows:
            return None
        index = self.cursor - self.window_start() if self.windowed else self.cursor
        item = rows[max(0, min(index, len(rows) - 1))][0]
        return item if item is not None and item["id"] == self.cursor_id else None

    # drawing: only lines whose text or attributes changed are rewritten
    def put(self, y: int, line: Line) -> None:
        height, width = self.size()
        if y >= height or self.drawn.get(y) == line:
            return
        self.drawn[y] = line
        text, attr, spans = line
        text = text[:width - 1] if y == height - 1 else text[:width]
        try:
            self.stdscr.move(y, 0)
            self.stdscr.clrtoeol()
            self.stdscr.addstr(y, 0, text.ljust(width - (1 if y == height - 1 else 0)), attr)
            for start, length, span_attr in spans:
                if start < len(text):
                    self.stdscr.addstr(y, start, text[start:start + length], span_attr | attr)
        except curses.error:
            pass

    def draw(self) -> None:
        height, width = self.size()
        rows = self.rows()
        pane = self.pane_height()
        if self.windowed:  # the window is the screen: rows[k] is flat row start + k; cursor is a flat row
            start = self.window_start()
            self.cursor -= start
            self.place_cursor(rows)
            self.cursor += start
            self.top = start
        else:
            self.place_cursor(rows)
            if self.cursor < self.top:
                self.top = self.cursor
            elif self.cursor >= self.top + pane:
                self.top = self.cursor - pane + 1
            self.top = max(0, min(self.top, max(len(rows) - pane, 0)))
        version = self.frontend.version(self.screen.source)
        title = f" diffable · {self.screen.title}"
        right = f"{self.screen.source} v{version} "
        if self.windowed:
            shown = len(self.window_rows())
            right = f"rows {self.top + 1}–{self.top + shown} of {self.window_total()} · " + right
        self.put(0, (title + " " * max(1, width - len(title) - len(right)) + right, self.color("title"), []))
        base = self.top if self.windowed else 0  # windowed: rows are flat rows top, top + 1, …
        for y in range(pane):
            k = self.top + y
            if k - base >= len(rows):
                self.put(1 + y, ("", 0, []))
                continue
            item, section = rows[k - base]
            if item is None:
                self.put(1 + y, (" " + (self.screen.header_text(section) or ""), self.color("header"), []))
                continue
            text, attr, spans = self.screen.row_text(section, item, item["id"] in self.frontend.view(self.screen.source).selected)
            if k == self.cursor and self.cursor_id == item["id"]:
                text = "›" + text[1:]
                attr |= curses.A_REVERSE
            self.put(1 + y, (text, attr, spans))
        self.draw_status()
        self.put(height - 1, (" " + self.screen.keys_help, 0, []))
        self.stdscr.refresh()

    def draw_status(self) -> None:
        status = f" {self.error}" if self.error else f" {self.status}" + (f" · {self.note}" if self.note else "")
        if self.frame and not self.error:
            status += f" · {self.frame}"
        self.put(self.size()[0] - 2, (status, self.color("error") if self.error else self.color("dim"), []))

    # input
    def read_keys(self) -> List[int]:
        """Characters as code points, special keys as -KEY_*. One key (waiting), then everything already typed (a burst is handled as one change)."""
        first = self.stdscr.get_wch()
        keys = [first]
        self.stdscr.nodelay(True)
        try:
            while len(keys) < 256:
                try:
                    keys.append(self.stdscr.get_wch())
                except curses.error:
                    break
        finally:
            self.stdscr.nodelay(False)
        return [ord(k) if isinstance(k, str) else -k for k in keys]  # special keys negative

    def run(self) -> None:
        self.stdscr.keypad(True)
        curses.curs_set(0)
        self.message("starting…")
        self.screen.start()
        self.draw()
        while True:
            keys = self.read_keys()
            started = time.perf_counter()
            self.frame = ""
            pending: List[int] = []
            for key in keys:
                if key == -curses.KEY_RESIZE:
                    self.drawn.clear()
                    self.stdscr.clear()
                    if self.windowed:  # the viewport follows the pane's height
                        self.call(lambda c: c.viewport(self.screen.source, **self.viewport_at(self.window_start())))
                    continue
                quit_keys = (27,) if self.screen.letters_type else (27, ord("q"))
                if key in quit_keys:
                    return
                typing = self.screen.letters_type and (key in (-curses.KEY_BACKSPACE, 127, 8, 21)
                                                      or (32 <= key < 0x110000 and chr(key).isprintable()))
                if typing:
                    pending.append(key)
                    continue
                if pending:
                    self.note = ""
                    self.screen.type(pending)  # type: ignore[attr-defined]
                    pending = []
                rows = self.rows()
                moves = {-curses.KEY_UP: -1, -curses.KEY_DOWN: 1, -curses.KEY_PPAGE: -self.pane_height(),
                         -curses.KEY_NPAGE: self.pane_height(), -curses.KEY_HOME: -self.window_total(),
                         -curses.KEY_END: self.window_total()}
                if self.windowed and key in moves:
                    self.window_move(moves[key])
                elif key in (-curses.KEY_UP, ord("k")) and not (self.screen.letters_type and key == ord("k")):
                    self.move_cursor(rows, -1)
                elif key in (-curses.KEY_DOWN, ord("j")) and not (self.screen.letters_type and key == ord("j")):
                    self.move_cursor(rows, 1)
                elif key == -curses.KEY_PPAGE:
                    self.move_cursor(rows, -self.pane_height())
                elif key == -curses.KEY_NPAGE:
                    self.move_cursor(rows, self.pane_height())
                else:
                    self.note = ""
                    self.screen.key(key, self.current_item())
            if pending:
                self.note = ""
                self.screen.type(pending)  # type: ignore[attr-defined]
            self.draw()
            # How long this screen took from the keys to the terminal (the
            # request, replaying its diff, curses): shown once it is known.
            self.frame = f"key→screen {(time.perf_counter() - started) * 1000:.1f} ms"
            self.draw_status()
            self.stdscr.refresh()


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="The diffable seed screens in a terminal.")
    parser.add_argument("screen", choices=sorted(SCREENS))
    parser.add_argument("--rows", type=int, default=0, metavar="N",
                        help="people picker: N extra generated people (deterministic names)")
    args = parser.parse_args(argv)
    if args.rows < 0:
        parser.error("--rows must be >= 0")
    try:
        argv_daemon = diffable.find_daemon()
    except diffable.DaemonNotFound as error:
        print(f"demo.py: {error}\n\nTo build the daemon, from the checkout root:\n    swift build -c release\n"
              "(or set DIFFABLE_BIN to a built binary)", file=sys.stderr)
        return 1
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print("demo.py: needs a terminal (stdin and stdout must be a tty)", file=sys.stderr)
        return 2
    try:
        client = diffable.Client(argv_daemon, initialization_options={"form": "steps"}, timeout=None)
    except diffable.DiffableError as error:
        print(f"demo.py: could not start the daemon {argv_daemon[0]}: {error}", file=sys.stderr)
        return 1
    os.environ.setdefault("ESCDELAY", "25")
    try:
        curses.wrapper(lambda stdscr: App(stdscr, client, args).run())
    except KeyboardInterrupt:
        pass
    except diffable.DaemonExited as error:
        print(f"demo.py: the daemon exited: {error}", file=sys.stderr)
        return 1
    except curses.error as error:
        print(f"demo.py: terminal error: {error}", file=sys.stderr)
        return 1
    finally:
        client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
