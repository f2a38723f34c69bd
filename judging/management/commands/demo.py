"""demo: load "Demo-DM i puslespil" into an empty database; --live plays it in fast time."""

import random
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from competition.models import Competition, Member, Puzzle, Team
from competition.passwords import DEMO_LOGINS, KNOWN_PASSWORDS
from competition.services import staff_upsert

DEMO_SLUG = "demo-dm"
DEMO_NAME = "Demo-DM i puslespil"

TEAM_NAMES = [
    "Kantsøgerne",
    "Brikkebanden",
    "Puslingerne",
    "Hjørnestenene",
    "De Fire Kanter",
    "Himmelstormerne",
    "Mønsterjægerne",
    "Stykke for Stykke",
    "Kaffe & Kanter",
    "Blå Himmel",
    "Sidste Brik",
    "Puslefamilien",
    "Nordlyset",
    "Kantklipperne",
    "Farvefinderne",
    "Tusindfryd",
    "Brikbyggerne",
    "Samlerne",
    "Knopperne",
    "Lyngby Puslere",
    "Aarhus Brikker",
    "Fyns Fingre",
    "Vestjyderne",
    "Mågerne",
]
FIRST = [
    "Anne",
    "Mette",
    "Søren",
    "Lars",
    "Karen",
    "Jens",
    "Line",
    "Mads",
    "Ida",
    "Freja",
    "Rasmus",
    "Camilla",
    "Henrik",
    "Signe",
    "Thomas",
    "Birgitte",
    "Emil",
    "Sofie",
    "Ole",
    "Louise",
    "Niels",
    "Maja",
    "Peter",
    "Astrid",
    "Kasper",
    "Hanne",
    "Jonas",
    "Clara",
]
LAST = [
    "Jensen",
    "Nielsen",
    "Hansen",
    "Pedersen",
    "Andersen",
    "Christensen",
    "Larsen",
    "Sørensen",
    "Rasmussen",
    "Jørgensen",
    "Petersen",
    "Madsen",
    "Kristensen",
    "Olsen",
    "Thomsen",
    "Poulsen",
    "Johansen",
    "Møller",
    "Mortensen",
    "Østergaard",
]
KIDS = ["Alma", "Oscar", "Ella", "Noah", "Agnes", "Karl", "Asta", "Viggo"]
PUZZLES = [
    (1, "Nyhavn om aftenen", "Ravensburger", 500),
    (2, "Skagens strand", "Educa", 1000),
    (3, "Tivoli i sne", "Clementoni", 1000),
]


@transaction.atomic
def demo_load(*, seed: int = 2026) -> Competition:
    """The demo competition: 3 puzzles, 24 teams of 3-6 members, a few under 15 (R3)."""
    rng = random.Random(seed)
    today = timezone.localtime()
    starts = today.replace(hour=10, minute=0, second=0, microsecond=0)
    if starts < today:
        starts += timedelta(days=1)
    competition = Competition.objects.create(
        slug=DEMO_SLUG,
        name=DEMO_NAME,
        venue="Hallen, Odense",
        starts_at=starts,
        duration_minutes=180,
        max_at_table=4,
    )
    Puzzle.objects.bulk_create(
        Puzzle(competition=competition, position=p, title=t, brand=b, pieces=n)
        for p, t, b, n in PUZZLES
    )
    for table, name in enumerate(TEAM_NAMES, start=1):
        family = rng.choice(LAST)
        team = Team.objects.create(
            competition=competition,
            name=name,
            table=table,
            fee_paid=rng.random() < 0.85,
            contact_name=f"{rng.choice(FIRST)} {family}",
            contact_email=f"hold{table}@example.dk",
        )
        size = rng.randint(3, 6)
        members = [
            Member(team=team, name=f"{rng.choice(FIRST)} {rng.choice(LAST)}") for _ in range(size)
        ]
        if table % 6 == 0:  # a family team: a child under 15 with an accompanying adult
            adult = members[0].name
            members[-1] = Member(
                team=team, name=f"{rng.choice(KIDS)} {family}", under_15=True, guardian=adult
            )
        Member.objects.bulk_create(members)
    return competition


def demo_logins_ensure() -> None:
    """Make the demo logins that are missing. One that exists keeps its password: setting it
    again would log out every session of it (Django ties a session to the password's hash),
    the judge's tablet in the middle of `demo --live` included."""
    User = get_user_model()
    for username, password, role in DEMO_LOGINS:
        user = User.objects.filter(username=username).first()
        if user is None or not user.has_usable_password():
            staff_upsert(username=username, role=role, password=password)


class Command(BaseCommand):
    help = "Load the demo competition when the database has none; --live plays it."

    def add_arguments(self, parser):
        parser.add_argument(
            "--live", action="store_true", help="Play the demo competition in accelerated time."
        )
        parser.add_argument(
            "--seconds",
            type=int,
            default=180,
            help="Real seconds the --live competition takes (default 180).",
        )

        parser.add_argument(
            "--remove",
            action="store_true",
            help="Delete the demo competition and every login that still has a demo password "
            "(before `make hall` on a checkout that ran `make run`).",
        )

    def handle(self, *args, live, seconds, remove=False, **options):
        if remove:
            self.remove()
            return
        if not settings.DEBUG:
            self.stderr.write("DEBUG is off: no demo logins with known passwords are made.")
        else:
            demo_logins_ensure()
        if Competition.objects.exists():
            self.stdout.write("The database already has a competition; no demo loaded.")
        else:
            competition = demo_load()
            self.stdout.write(f"Loaded “{competition.name}” at /{competition.slug}/")
        if settings.DEBUG:
            self.stdout.write("Logins (username / password, unless changed since):")
            for username, password, role in DEMO_LOGINS:
                self.stdout.write(f"  {role:6} {username} / {password}")
        if live:
            from judging.demo_live import play

            play(slug=DEMO_SLUG, seconds=seconds, out=self.stdout)

    @transaction.atomic
    def remove(self):
        deleted, _ = Competition.objects.filter(slug=DEMO_SLUG).delete()
        gone = []
        for user in get_user_model().objects.order_by("username"):
            if user.has_usable_password() and any(user.check_password(p) for p in KNOWN_PASSWORDS):
                user.delete()
                gone.append(user.username)
        self.stdout.write(
            f"Removed the demo competition ({'yes' if deleted else 'none found'}) and the "
            f"logins with a demo password: {', '.join(gone) or 'none'}."
        )
