"""The pages' ES modules with DEBUG off: collectstatic gives them hashed names and rewrites
their imports to the hashed names (config/storage.py), and .mjs is served as JavaScript
(a browser refuses to run a module served as anything else)."""

import json
import mimetypes
import re

from django.contrib.staticfiles.views import serve
from django.core.management import call_command
from whitenoise.media_types import MediaTypes

IMPORT = re.compile(r"""(?:import|export)[^"';]*?\bfrom\s*["']([^"']+)["']""")


def test_collectstatic_hashes_the_modules_and_their_imports(settings, tmp_path):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "config.storage.StaticStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    paths = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    modules = {name: hashed for name, hashed in paths.items() if name.endswith(".mjs")}
    assert {"js/format.mjs", "js/judge/main.mjs", "js/judge/heartbeat.mjs"} <= modules.keys()
    imports = 0
    for hashed in modules.values():
        text = (tmp_path / hashed).read_text()
        folder = (tmp_path / hashed).parent
        for url in IMPORT.findall(text):
            imports += 1
            target = (folder / url).resolve().relative_to(tmp_path.resolve()).as_posix()
            assert target in paths.values(), f"{hashed} imports {url}, not a hashed name"
    assert imports > 10  # main.mjs alone imports a dozen


def test_mjs_is_served_as_javascript():
    assert mimetypes.guess_type("js/judge/main.0123456789ab.mjs")[0] == "text/javascript"
    assert MediaTypes().get_type("js/judge/main.0123456789ab.mjs") == "text/javascript"


def test_the_development_server_serves_mjs_as_javascript(rf, settings):
    # runserver and the browser tests' live server serve static files with this view
    response = serve(rf.get("/static/js/judge/main.mjs"), "js/judge/main.mjs", insecure=True)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript"
