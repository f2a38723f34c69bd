from tests.competition.test_desk_championship import dm  # noqa: F401 (a fixture)
