/* Formatting and parsing shared by every page's script: one h:mm:ss
 * formatter, one parser that accepts exactly what the server's forms accept, one number
 * format and the "%(n)s" placeholders of the server's translated texts. No DOM here: the
 * Node tests (tests/js/format_unit.mjs) import it as it is. */

/* Whole seconds as h:mm:ss ("1:23:45", "0:00:45"): puzzle_rules.formatting.format_hms. A clock that
 * runs past zero shows 0:00:00, and a fraction of a second is not yet a second. */
export function hms(seconds) {
  const s = Math.max(0, Math.floor(Number(seconds) || 0));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

/* How long until a deadline, as the desk reads it: whole days when it is two days
 * or more away ("94 dage", never "94 d 7:59:43"), whole hours from 6 hours ("30 timer"), and
 * h:mm:ss only when it is close. `words`: the page's {days, hours} in its language. */
export function until(seconds, words) {
  const s = Math.max(0, Math.floor(Number(seconds) || 0));
  if (s >= 2 * 86400) return `${Math.floor(s / 86400)} ${words.days}`;
  if (s >= 6 * 3600) return `${Math.floor(s / 3600)} ${words.hours}`;
  return hms(s);
}

/* What Python's str.strip() takes off (str.isspace), which is not quite JavaScript's trim(). */
const SPACE = "[\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const STRIP = new RegExp(`^${SPACE}+|${SPACE}+$`, "g");
const HMS = /^(?:([0-9]{1,3}):)?([0-5]?[0-9]):([0-5][0-9])$/;

/* The server's parse_hms (competition/fields.py, the forms' HmsField): "1:23:45" (h:mm:ss)
 * or "23:45" (m:ss) -> whole seconds; null for anything the server refuses, a bare number
 * such as "95" included (it is not a time). */
export function parseHms(text) {
  const m = String(text ?? "").replace(STRIP, "").match(HMS);
  if (!m) return null;
  return Number(m[1] || 0) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

/* Python's named placeholders, as the server's texts carry them: "Puzzle %(n)s of %(total)s". */
export function fmt(text, vars) {
  return String(text).replace(/%\((\w+)\)s/g, (_, k) => (vars && k in vars ? vars[k] : ""));
}

/* Numbers as the page's language writes them: "1.000" in Danish, "1,000" in English. */
export function numberFormat(language) {
  return new Intl.NumberFormat(language === "da" ? "da-DK" : "en-GB");
}
