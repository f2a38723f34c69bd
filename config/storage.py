"""The static files' storage with DEBUG off: WhiteNoise's compressed, hashed names, and the
`import ... from "./x.mjs"` between the pages' ES modules rewritten to the hashed names too.

Django rewrites module imports only when asked (`support_js_module_import_aggregation`),
and then in every `*.js` file, including other packages' (django-htmx's extensions import
"../htmx", a name without a file, and collectstatic fails). Our modules are `.mjs`
(static/js/format.mjs, static/js/judge/): the same patterns are applied to them alone. A
module importing an unhashed name would come from the browser's cache after a deployment,
out of step with the hashed one that imports it."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    def __init__(self, *args, **kwargs):
        _js, module_patterns = self._js_module_import_aggregation_patterns
        self.patterns = (*self.patterns, ("*.mjs", module_patterns))
        super().__init__(*args, **kwargs)
