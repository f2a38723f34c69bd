// Unit tests of static/js/format.mjs, the one formatter and parser of every page's script.
// Run by test_js_units.py: node --test tests/js/format_unit.mjs
import test from "node:test";
import assert from "node:assert/strict";
import { fmt, hms, numberFormat, parseHms, until } from "../../static/js/format.mjs";

test("hms: h:mm:ss like puzzle_rules.formatting.format_hms, never negative, whole seconds", () => {
  assert.equal(hms(0), "0:00:00");
  assert.equal(hms(45), "0:00:45");
  assert.equal(hms(5025), "1:23:45");
  assert.equal(hms(36000), "10:00:00");
  assert.equal(hms(59.99), "0:00:59");
  assert.equal(hms(-3), "0:00:00"); // a countdown past zero
  assert.equal(hms(undefined), "0:00:00");
});

// Each input with what the server's parse_hms (competition/fields.py) answers: its seconds,
// or null where it refuses. test_js_units.py asks the Python function and passes the pairs in
// SERVER_PARSE_HMS: the same input gets the same answer on the judge's tablet and in the
// control room's forms.
const SERVER = JSON.parse(process.env.SERVER_PARSE_HMS || "[]");

test("parseHms accepts exactly what the server's parse_hms accepts", () => {
  assert.ok(SERVER.length > 20, "run by tests/js/test_js_units.py, which passes the cases");
  for (const [text, seconds] of SERVER) {
    assert.equal(parseHms(text), seconds, JSON.stringify(text));
  }
});

test("parseHms: what it returns formats back to the same time", () => {
  for (const text of ["0:00:00", "0:00:45", "1:23:45", "2:59:40", "12:00:00"]) {
    assert.equal(hms(parseHms(text)), text);
  }
  assert.equal(parseHms(null), null);
  assert.equal(parseHms(95), null); // a bare number is not a time
});

test("fmt fills the server's named placeholders and leaves none behind", () => {
  assert.equal(fmt("Puslespil %(n)s af %(total)s", { n: 2, total: 5 }), "Puslespil 2 af 5");
  assert.equal(fmt("%(n)s brikker, %(n)s igen", { n: 3 }), "3 brikker, 3 igen");
  assert.equal(fmt("Bord %(table)s", {}), "Bord ");
  assert.equal(fmt("100 %", { n: 1 }), "100 %");
});

test("numbers as the page's language writes them", () => {
  assert.equal(numberFormat("da").format(1000), "1.000");
  assert.equal(numberFormat("en").format(1000), "1,000");
  assert.equal(numberFormat("da").format(480), "480");
});

test("until: days when far, hours the day before, h:mm:ss only when close", () => {
  const da = { days: "dage", hours: "timer" };
  assert.equal(until(94 * 86400 + 7 * 3600 + 59 * 60 + 43, da), "94 dage"); // not "94 d 7:59:43"
  assert.equal(until(2 * 86400, da), "2 dage");
  assert.equal(until(2 * 86400 - 1, da), "47 timer");
  assert.equal(until(6 * 3600, da), "6 timer");
  assert.equal(until(6 * 3600 - 1, da), "5:59:59");
  assert.equal(until(45, da), "0:00:45");
  assert.equal(until(-5, da), "0:00:00");
});
