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


STATIC_TAG = re.compile(r"""{%\s*static\s+['"]([^'"]+)['"]\s*%}""")


def test_every_static_file_a_template_names_exists(settings):
    # With DEBUG off the manifest storage answers a name without a file with a 500: the
    # desk's list of teams not checked in loaded js/print.js, which is js/print.mjs.
    from pathlib import Path

    static = Path(settings.BASE_DIR) / "static"
    templates = Path(settings.BASE_DIR) / "templates"
    missing = sorted(
        f"{template.relative_to(templates)}: {name}"
        for template in templates.rglob("*.html")
        for name in STATIC_TAG.findall(template.read_text())
        if not (static / name).is_file()
    )
    assert missing == []


def test_every_page_script_is_an_es_module():
    # One dialect (the tablet's): every page's script is loaded as a module.
    from pathlib import Path

    from django.conf import settings

    templates = Path(settings.BASE_DIR) / "templates"
    classic = sorted(
        {
            src
            for template in templates.rglob("*.html")
            for tag, src in re.findall(
                r"""(<script\b[^>]*src="{%\s*static\s+'([^']+)'\s*%}"[^>]*>)""",
                template.read_text(),
            )
            if 'type="module"' not in tag
        }
    )
    assert classic == []


def test_the_page_modules_are_written_in_one_dialect():
    # const and let, as static/js/judge/*.mjs: no ES5 `var` left in a module.
    from pathlib import Path

    from django.conf import settings

    modules = sorted((Path(settings.BASE_DIR) / "static" / "js").rglob("*.mjs"))
    assert len(modules) > 15
    with_var = [m.name for m in modules if re.search(r"(^|[\s;{(])var\s", m.read_text())]
    assert with_var == []
