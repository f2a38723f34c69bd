from tests.stage.championship import final  # noqa: F401 (a fixture)
