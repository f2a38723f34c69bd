/* A "Print" button (data-print): no inline onclick, which the Content-Security-Policy refuses. */
document.addEventListener("click", function (event) {
  if (event.target.closest("[data-print]")) {
    window.print();
  }
});
