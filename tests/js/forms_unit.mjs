// Unit tests of the forms' scripts (static/js/slug.mjs, forms.mjs), imported as the ES
// modules the browser loads: without a document they wire nothing. Run by test_js_units.py;
// that the short name is the server's for the same name is test_desk_volunteer.py's.
import test from "node:test";
import assert from "node:assert/strict";
import { ownSlug, slugFrom, wire } from "../../static/js/slug.mjs";
import { fieldId, wireSummary } from "../../static/js/forms.mjs";

test("short name: Danish letters spelt out, accents dropped, at most 50 characters", () => {
  assert.equal(slugFrom("DM i Puslespil 2027 — Århus"), "dm-i-puslespil-2027-aarhus");
  assert.equal(slugFrom("Ærø Øst"), "aeroe-oest");
  assert.equal(slugFrom("Café Crème"), "cafe-creme");
  assert.equal(slugFrom("  --  "), "");
  assert.equal(slugFrom("a".repeat(49) + " b"), "a".repeat(49));
});

test("short name: the suggestion follows the name until the organiser writes their own", () => {
  assert.ok(!ownSlug("", "DM 2027"));
  assert.ok(!ownSlug("dm-2027", "DM 2027"));
  assert.ok(ownSlug("mesterskab", "DM 2027"));
});

function input(value = "") {
  const heard = {};
  return {
    value,
    addEventListener: (type, fn) => (heard[type] = fn),
    type(text) {
      this.value = text;
      heard.input?.();
    },
  };
}

test("short name: a name typed before the script ran is suggested at once, then followed", () => {
  // A module runs after the page is parsed: on a slow line the organiser may have typed.
  const name = input("DM i puslespil 2027 – Å");
  const slug = input("");
  wire(slug, name);
  assert.equal(slug.value, "dm-i-puslespil-2027-aa");
  name.type("DM i puslespil 2027 – Århus");
  assert.equal(slug.value, "dm-i-puslespil-2027-aarhus");
  // a short name of the organiser's own (a form sent back with errors) is kept
  const own = input("dm27");
  wire(own, input("DM i puslespil 2027"));
  assert.equal(own.value, "dm27");
});

test("error summary: a link's target is the field's id", () => {
  assert.equal(fieldId("#id_members-1-guardian"), "id_members-1-guardian");
  assert.equal(fieldId("#"), null);
  assert.equal(fieldId("/desk/"), null);
  assert.equal(fieldId(null), null);
});

/* A stand-in for the page: the summary box, one link in it, its field inside a closed
 * <details>, and the field's label. */
function page() {
  const seen = [];
  const label = { scrollIntoView: () => seen.push("label in view") };
  const details = { open: false };
  const field = {
    id: "id_guardian",
    closest: (selector) => (selector === "details" ? details : null),
    focus: (options) => seen.push(`field focused ${JSON.stringify(options)}`),
  };
  const link = { getAttribute: () => "#id_guardian" };
  const box = {
    focus: () => seen.push("summary focused"),
    addEventListener: (type, handler) => {
      box.handler = handler;
    },
  };
  const doc = {
    querySelector: (selector) =>
      selector === "[data-error-summary]" ? box : selector === "label[for='id_guardian']" ? label : null,
    getElementById: (id) => (id === "id_guardian" ? field : null),
  };
  const click = (target) => {
    const event = { target, prevented: false, preventDefault: () => (event.prevented = true) };
    box.handler(event);
    return event;
  };
  return { doc, seen, details, click, link };
}

test("error summary: takes the focus on opening; a link opens the field's section and focuses it", () => {
  const { doc, seen, details, click, link } = page();
  assert.equal(wireSummary(doc), true);
  assert.deepEqual(seen, ["summary focused"]);
  const event = click({ closest: () => link });
  assert.ok(event.prevented);
  assert.equal(details.open, true);
  assert.deepEqual(seen, ["summary focused", "label in view", 'field focused {"preventScroll":true}']);
});

test("error summary: a click beside the links does nothing; a page without one wires nothing", () => {
  const { doc, seen, click } = page();
  wireSummary(doc);
  assert.equal(click({ closest: () => null }).prevented, false);
  assert.deepEqual(seen, ["summary focused"]);
  assert.equal(wireSummary({ querySelector: () => null }), false);
});

test("the table limit follows the discipline unless the organiser typed their own", async () => {
  const { followLimit } = await import("../../static/js/placement.mjs");
  assert.equal(followLimit("4", "team", "individual"), "1");
  assert.equal(followLimit("1", "individual", "pair"), "2");
  assert.equal(followLimit("", "team", "pair"), ""); // empty: the placeholder says it
  assert.equal(followLimit("3", "team", "pair"), "3"); // typed: kept
});

test("the new championship's fields show only while a new one is chosen", async () => {
  const { wire } = await import("../../static/js/placement.mjs");
  const heard = {};
  const choice = { value: "_own", addEventListener: (type, fn) => (heard[type] = fn) };
  const fields = { hidden: false };
  wire(choice, fields, null, null);
  assert.equal(fields.hidden, true);
  choice.value = "_new";
  heard.change();
  assert.equal(fields.hidden, false);
});
