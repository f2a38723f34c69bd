from tests.scoring.stage.championship import final  # noqa: F401 (a fixture)
