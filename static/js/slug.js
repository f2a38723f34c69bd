// The short name in the address, suggested from the competition's name as it is typed.
// The same steps as competition/slugs.py (the server makes the same from the same name).
(function () {
  "use strict";
  var MAX = 50;

  function slugFrom(text) {
    var s = String(text).toLowerCase().replace(/æ/g, "ae").replace(/ø/g, "oe").replace(/å/g, "aa");
    s = s.normalize("NFKD").replace(/[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g, "");
    s = s.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
    return s.slice(0, MAX).replace(/-+$/, "");
  }

  if (typeof module !== "undefined" && module.exports) {
    module.exports = { slugFrom: slugFrom };
    return;
  }

  // <input data-slug-from="id_name">: filled from that field until the organiser edits it.
  function wire(slug) {
    var source = document.getElementById(slug.dataset.slugFrom);
    if (!source) return;
    var touched = slug.value !== "" && slug.value !== slugFrom(source.value);
    source.addEventListener("input", function () {
      if (!touched) slug.value = slugFrom(source.value);
    });
    slug.addEventListener("input", function () { touched = slug.value !== ""; });
    slug.addEventListener("change", function () {
      if (slug.value) slug.value = slugFrom(slug.value);
    });
  }
  var fields = document.querySelectorAll("input[data-slug-from]");
  for (var i = 0; i < fields.length; i++) wire(fields[i]);
})();
