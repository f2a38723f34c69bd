/* A form with `data-confirm="…"` asks before it is sent (withdraw a team, delete a finish):
 * the staff pages' one confirmation, for the desk (desk.mjs) and the control room
 * (control.mjs). Its buttons take a click only once this has run (app.css). */
export function setupConfirm() {
  // Until now such a form's button took no click (app.css): a page shows before its module
  // runs, and a tap in between would have sent "stop the clock" without asking.
  document.documentElement.dataset.confirmArmed = "";
  document.addEventListener(
    "submit",
    (event) => {
      const text = event.target.dataset && event.target.dataset.confirm;
      if (text && !window.confirm(text)) event.preventDefault();
    },
    true,
  );
}
