#!/usr/bin/env python3
"""xlsx_check.py XQREF -- every XLSX sheet `xqref tourney export` writes
holds the cells of the CSV of the same sheet: the event's name and the
title on top, then the heading and the rows, cell by cell, with the
players' numbers, points and tie-break values stored as numbers."""
import csv, io, os, re, subprocess, sys, tempfile, zipfile
import xml.etree.ElementTree as ET

NS = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}


def run(*args):
    return subprocess.run([XQ, "tourney", *args], check=True, capture_output=True).stdout


def cells(book):
    """The worksheet as {row: {col: (value, is_number)}} from the workbook bytes."""
    z = zipfile.ZipFile(io.BytesIO(book))
    strings = [si.findtext("m:t", "", NS) for si in ET.fromstring(z.read("xl/sharedStrings.xml")).findall("m:si", NS)]
    rows = {}
    for c in ET.fromstring(z.read("xl/worksheets/sheet1.xml")).iter("{%s}c" % NS["m"]):
        col, row = re.match(r"([A-Z]+)(\d+)", c.get("r")).groups()
        v = c.findtext("m:v", "", NS)
        num = c.get("t") != "s"
        rows.setdefault(int(row), {})[ord(col) - 65] = (v if num else strings[int(v)], num)
    return rows


def number_text(v):
    f = float(v)
    return str(int(f)) if f == int(f) else str(f)


def check(db, what, lang, numbers):
    args = ["export", "--db", db, "--what", what, "--round", "1", "--lang", lang]
    book = run(*args, "--format", "xlsx")
    assert book[:4] == b"PK\x03\x04", what
    table = list(csv.reader(io.StringIO(run(*args, "--format", "csv").decode("utf-8"), newline="")))
    got = cells(book)
    assert got[1][0][0] == "xqref demo open", got[1]
    head = 4  # event, title, a blank row, the headings
    for r, want in enumerate(table):
        row = got.get(head + r, {})
        for c, text in enumerate(want):
            if not text:
                assert c not in row, (what, r, c, row)
                continue
            value, num = row[c]
            if num:
                value = number_text(value)
            assert value == text, (what, r, c, value, text)
            if r and c in numbers and text.lstrip("-").replace(".", "").isdigit():
                assert num, (what, r, c, "a number stored as text")
    assert head + len(table) - 1 == max(got), (what, "extra rows")
    return len(table) - 1


def check_groups(db):
    """A sheet of several tables (the groups): each under the one before,
    after a blank row and its title, as the CSV's records."""
    args = ["groups", "--db", db, "--preset", "tangshan2018", "--lang", "zh"]
    got = cells(run(*args, "--format", "xlsx"))
    table = list(csv.reader(io.StringIO(run(*args, "--format", "csv").decode("utf-8"), newline="")))
    assert len([r for r in table if not r]) >= 2, "several tables"
    for k, want in enumerate(table):
        row = got.get(2 if k == 0 else k + 3, {})  # the first title, a blank row, then as the CSV
        texts = [number_text(v) if num else v for v, num in (row[c] for c in sorted(row))]
        assert texts == [x for x in want if x], (k, texts, want)
    assert max(got) == len(table) + 2


XQ = sys.argv[1]
with tempfile.TemporaryDirectory() as d:
    db = os.path.join(d, "demo.db")
    run("demo", "--db", db, "--players", "9")
    # round 1's results: every board with two players a Red win
    for b in range(1, 5):
        run("result", "--db", db, "--round", "1", "--board", str(b), "1-0")
    assert check(db, "standings", "zh", {0, 1, 3}) == 9
    assert check(db, "pairings", "en", {0, 1, 3, 5, 7}) == 5
    assert check(db, "scoresheets", "zh", {0, 1, 3}) == 4
    check_groups(db)
print("xlsx content: ok")
