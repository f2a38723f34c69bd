"""demo: load the small championship "Demo-DM i puslespil" into an empty database: two heats
of individuals, the final they go on to, a pairs and a team competition; --live plays it in
fast time; --remove deletes it and the logins with a demo password."""

import random
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from competition.models import Championship, Competition, Member, Puzzle, Team
from competition.passwords import DEMO_LOGINS, KNOWN_PASSWORDS
from competition.services import championship_create, competition_create, staff_upsert
from judging.models import Count, Finish

# The championship (its programme is /demo-dm/) and its competitions.
DEMO_SLUG = "demo-dm"
DEMO_NAME = "Demo-DM i puslespil"
HEATS = ("demo-dm-a", "demo-dm-b")
FINAL_SLUG = "demo-dm-finale"
PAIRS_SLUG = "demo-dm-par"
TEAMS_SLUG = "demo-dm-hold"
DEMO_SLUGS = (*HEATS, FINAL_SLUG, PAIRS_SLUG, TEAMS_SLUG)
FINAL_BEST = 4  # the best 4 of each heat go on to the final

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
PAIR_NAMES = [
    "Søstrene Kant",
    "Far og Datter",
    "Brikbrødrene",
    "Makkerne fra Vejle",
    "To om Bordet",
    "Kaffe & Kage",
    "Hjørnet og Kanten",
    "Naboerne",
    "Duoen fra Djursland",
    "Mor og Søn",
    "De To Tålmodige",
    "Puslevennerne",
]
# (position, title, brand, pieces) of each competition's sequence.
HEAT_PUZZLES = [
    (1, "Nyhavn om aftenen", "Ravensburger", 500),
    (2, "Den lille havfrue", "Educa", 500),
]
FINAL_PUZZLES = [
    (1, "Kronborg i solnedgang", "Ravensburger", 500),
    (2, "Skagens strand", "Educa", 1000),
]
PAIR_PUZZLES = [(1, "Rundetårn", "Clementoni", 500), (2, "Frederiksborg Slot", "Educa", 1000)]
PUZZLES = [
    (1, "Nyhavn om aftenen", "Ravensburger", 500),
    (2, "Skagens strand", "Educa", 1000),
    (3, "Tivoli i sne", "Clementoni", 1000),
]


def _day_at(hour: int, minute: int = 0) -> datetime:
    """Today at this time (Danish time), or tomorrow when today's 10:00 has passed: the whole
    programme lies ahead."""
    now = timezone.localtime()
    day = now.replace(hour=10, minute=0, second=0, microsecond=0)
    if day < now:
        day += timedelta(days=1)
    return day.replace(hour=hour, minute=minute)


def _competition(championship, slug, name, *, starts_at, minutes, discipline, round_, puzzles):
    competition = competition_create(
        by=None,
        slug=slug,
        name=name,
        starts_at=starts_at,
        duration_minutes=minutes,
        venue=championship.venue,
        championship=championship,
        discipline=discipline,
        round=round_,
    )
    Puzzle.objects.bulk_create(
        Puzzle(competition=competition, position=p, title=t, brand=b, pieces=n)
        for p, t, b, n in puzzles
    )
    return competition


def _people(rng: random.Random, n: int, taken: set[str]) -> list[str]:
    """`n` Danish names, none of them in `taken` (and each added to it)."""
    names = []
    while len(names) < n:
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        if name not in taken:
            taken.add(name)
            names.append(name)
    return names


def _individuals(competition, rng, taken: set[str], first_table: int) -> None:
    """12 individuals at the tables from `first_table`; one under 15 with an accompanying
    adult (R3); labels for the label rankings (ung, senior)."""
    for i, name in enumerate(_people(rng, 12, taken)):
        kid = i == 11
        if kid:
            name = f"{rng.choice(KIDS)} {name.split()[-1]}"
        labels = ["ung"] if kid or i % 5 == 3 else (["senior"] if i % 4 == 1 else [])
        team = Team.objects.create(
            competition=competition,
            name=name,
            table=first_table + i,
            fee_paid=rng.random() < 0.9,
            contact_name=name,
            contact_email=f"deltager{first_table + i}@example.dk",
            labels=labels,
        )
        guardian = f"{rng.choice(FIRST)} {name.split()[-1]}" if kid else ""
        Member.objects.create(team=team, name=name, under_15=kid, guardian=guardian)


def _pairs(competition, rng, taken: set[str], first_table: int) -> None:
    for i, name in enumerate(PAIR_NAMES):
        people = _people(rng, 2, taken)
        team = Team.objects.create(
            competition=competition,
            name=name,
            table=first_table + i,
            fee_paid=rng.random() < 0.9,
            contact_name=people[0],
            contact_email=f"par{i + 1}@example.dk",
        )
        Member.objects.bulk_create(Member(team=team, name=p) for p in people)


def _teams(competition, rng, first_table: int) -> None:
    """24 teams of 3-6 members at the tables from `first_table`, a few with a child under 15
    and an accompanying adult (R3)."""
    for table, name in enumerate(TEAM_NAMES, start=first_table):
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


@transaction.atomic
def demo_load(*, seed: int = 2026) -> Championship:
    """The demo championship, one hall and one table plan (competitions at the same time at
    different tables): at 10:00 two heats of 12 individuals (tables 1-12 and 13-24) and 12
    pairs (tables 25-36); at 13:00 24 teams of 3-6 members (3 puzzles, tables 37-60: `demo --live`
    plays them all at once); at 16:30 the final of
    the individuals, whose entrants are the best of the heats (the head judge advances them
    from the control room)."""
    rng = random.Random(seed)
    championship = championship_create(
        by=None,
        slug=DEMO_SLUG,
        name=DEMO_NAME,
        venue="Hallen, Odense",
        starts_on=_day_at(10).date(),
    )
    taken: set[str] = set()
    for (slug, letter), first_table in zip(zip(HEATS, "AB", strict=True), (1, 13), strict=True):
        heat = _competition(
            championship,
            slug,
            f"{DEMO_NAME} – individuel, indledende runde {letter}",
            starts_at=_day_at(10),
            minutes=120,
            discipline="individual",
            round_=f"Indledende runde {letter}",
            puzzles=HEAT_PUZZLES,
        )
        _individuals(heat, rng, taken, first_table)
    pairs = _competition(
        championship,
        PAIRS_SLUG,
        f"{DEMO_NAME} – par",
        starts_at=_day_at(10),
        minutes=150,
        discipline="pair",
        round_="",
        puzzles=PAIR_PUZZLES,
    )
    _pairs(pairs, rng, taken, 25)
    teams = _competition(
        championship,
        TEAMS_SLUG,
        f"{DEMO_NAME} – hold",
        starts_at=_day_at(13),
        minutes=180,
        discipline="team",
        round_="",
        puzzles=PUZZLES,
    )
    _teams(teams, rng, first_table=37)
    _competition(
        championship,
        FINAL_SLUG,
        f"{DEMO_NAME} – individuel, finale",
        starts_at=_day_at(16, 30),
        minutes=150,
        discipline="individual",
        round_="Finale",
        puzzles=FINAL_PUZZLES,
    )
    return championship


def demo_remove() -> bool:
    """Delete the demo championship and its competitions; True when there was one."""
    competitions = Competition.objects.filter(slug__in=DEMO_SLUGS)
    found = competitions.exists() or Championship.objects.filter(slug=DEMO_SLUG).exists()
    # A puzzle keeps its finishes and counts (PROTECT): after `demo --live` they go first.
    Finish.objects.filter(team__competition__in=competitions).delete()
    Count.objects.filter(team__competition__in=competitions).delete()
    competitions.delete()
    Championship.objects.filter(slug=DEMO_SLUG, competitions=None).delete()
    return found


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
    help = "Load the demo championship when the database has none; --live plays it."

    def add_arguments(self, parser):
        parser.add_argument(
            "--live",
            action="store_true",
            help="Play the demo's competitions that have not started, at once, in accelerated "
            "time (the heats, the pairs and the teams; run again after advancing: the final).",
        )
        parser.add_argument(
            "--seconds",
            type=int,
            default=180,
            help="Real seconds the --live competitions take (default 180).",
        )

        parser.add_argument(
            "--remove",
            action="store_true",
            help="Delete the demo championship and every login that still has a demo password "
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
            championship = demo_load()
            self.stdout.write(f"Loaded “{championship.name}” at /{championship.slug}/:")
            for competition in championship.competitions.order_by("starts_at", "slug"):
                self.stdout.write(f"  /{competition.slug}/  {competition.name}")
        if settings.DEBUG:
            self.stdout.write("Logins (username / password, unless changed since):")
            for username, password, role in DEMO_LOGINS:
                self.stdout.write(f"  {role:6} {username} / {password}")
        if live:
            self.live(seconds)

    def live(self, seconds: int) -> None:
        from judging.demo_live import play

        played = play(slugs=DEMO_SLUGS, seconds=seconds, out=self.stdout, finalise=HEATS)
        final = Competition.objects.filter(slug=FINAL_SLUG).first()
        heats_final = Competition.objects.filter(slug__in=HEATS, finalised_at__isnull=False)
        waiting = final is not None and not final.teams.exists() and final.started_at is None
        if waiting and heats_final.count() == len(HEATS):
            advance = reverse("control:advance", args=[FINAL_SLUG])
            self.stdout.write(
                f"The heats are final. The head judge advances the best {FINAL_BEST} of each "
                f"to the final at {advance} (admin); then `demo --live` again plays the final."
            )
        elif not played:
            self.stdout.write("Nothing left to play in the demo.")

    @transaction.atomic
    def remove(self):
        found = demo_remove()
        gone = []
        for user in get_user_model().objects.order_by("username"):
            if user.has_usable_password() and any(user.check_password(p) for p in KNOWN_PASSWORDS):
                user.delete()
                gone.append(user.username)
        self.stdout.write(
            f"Removed the demo championship ({'yes' if found else 'none found'}) and the "
            f"logins with a demo password: {', '.join(gone) or 'none'}."
        )
