"""config/hall.py's choices: the laptop's own names as ALLOWED_HOSTS (never
"*"), a secret key made once, production settings on plain http."""

import stat

from config import hall


def test_allowed_hosts_are_the_laptops_own_names_and_addresses():
    hosts = hall.allowed_hosts(["192.168.1.20", "10.0.0.7"], "dm-laptop", "dm.hallen.lan")
    assert hosts == [
        "localhost",
        "127.0.0.1",
        "[::1]",
        "192.168.1.20",
        "10.0.0.7",
        "dm-laptop",
        "dm-laptop.local",
        "dm.hallen.lan",
    ]
    assert "*" not in hall.allowed_hosts([], "x")


def test_addresses_put_the_halls_network_first(monkeypatch):
    monkeypatch.setattr(
        hall,
        "_ip_addr",
        lambda: [
            ("lo", "127.0.0.1"),
            ("docker0", "172.17.0.1"),
            ("wlan0", "192.168.1.20"),
            ("eth0", "169.254.3.3"),
        ],
    )
    assert hall.addresses() == ["192.168.1.20", "172.17.0.1"]


def test_the_secret_key_is_made_once_and_only_the_owner_reads_it(tmp_path):
    path = tmp_path / "var" / "secret_key"
    first = hall.secret_key(path)
    assert len(first) >= 50
    assert hall.secret_key(path) == first
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_the_hall_runs_as_in_production_on_plain_http(monkeypatch):
    monkeypatch.setattr(hall, "addresses", lambda: ["192.168.1.20"])
    env = hall.hall_environment({"PORT": "8123", "DEBUG": "1", "SECRET_KEY": "k" * 50})
    assert env["DEBUG"] == "0"
    assert env["SECURE_PROXY"] == "0"
    assert env["PUBLIC_URL"] == "http://192.168.1.20:8123"
    assert env["BACKUP_MINUTES"] == "5"
    assert "192.168.1.20" in env["ALLOWED_HOSTS"].split(",")
    assert env["SECRET_KEY"] == "k" * 50
    chosen = hall.hall_environment({"HALL_HOST": "10.1.1.1", "SECRET_KEY": "k" * 50})
    assert chosen["PUBLIC_URL"] == "http://10.1.1.1:8000"
    assert "10.1.1.1" in chosen["ALLOWED_HOSTS"].split(",")
