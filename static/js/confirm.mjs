/* A form with `data-confirm="…"` asks before it is sent (withdraw a team, delete a finish):
 * the staff pages' one confirmation, for the desk (desk.mjs) and the control room
 * (control.mjs). */
export function setupConfirm() {
  document.addEventListener(
    "submit",
    (event) => {
      const text = event.target.dataset && event.target.dataset.confirm;
      if (text && !window.confirm(text)) event.preventDefault();
    },
    true,
  );
}
