// A "Print" button (data-print) on a sheet to print: no inline onclick, which the page's
// Content-Security-Policy refuses (script-src 'self'): the button did nothing.
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-print]")) {
    window.print();
  }
});
