/* The new-competition and setup pages: where a competition belongs. The new championship's
 * fields show only while "A new championship" is chosen; the table limit follows the
 * discipline (1, 2, 4: competition/models.py DEFAULT_AT_TABLE) unless the organiser typed
 * one of their own. The pure parts are exported for the Node tests (tests/js/forms_unit.mjs). */
export const AT_TABLE = { individual: 1, pair: 2, team: 4 };

/* The table limit after the discipline changed from `before` to `after`: the new default
 * when the field held the old one's (or nothing), else what the organiser typed. */
export function followLimit(value, before, after) {
  if (value === "" || value === String(AT_TABLE[before])) {
    return value === "" ? "" : String(AT_TABLE[after]);
  }
  return value;
}

export function wire(choice, fields, discipline, limit) {
  if (choice && fields) {
    const show = () => {
      fields.hidden = choice.value !== "_new";
    };
    choice.addEventListener("change", show);
    show();
  }
  if (discipline && limit) {
    let before = discipline.value;
    const follow = () => {
      limit.value = followLimit(limit.value, before, discipline.value);
      limit.placeholder = String(AT_TABLE[discipline.value] || "");
      before = discipline.value;
    };
    discipline.addEventListener("change", follow);
    limit.placeholder = String(AT_TABLE[discipline.value] || "");
  }
}

if (typeof document !== "undefined") {
  wire(
    document.querySelector("select[data-championship-choice]"),
    document.querySelector("[data-new-championship]"),
    document.querySelector("select[data-discipline]"),
    document.querySelector("input[data-at-table]"),
  );
}
