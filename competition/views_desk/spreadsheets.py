"""The team spreadsheet: import (upload, preview, confirm), its example, and the export."""

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from competition import imports, selectors
from competition.errors import Refusal
from competition.forms import ImportForm
from competition.inputs import whole_number
from competition.models import Championship, Competition, Discipline
from competition.roles import DESK, staff_view
from competition.words import entrant_text, member_limit


@staff_view(DESK, competition=True)
def export(request, competition):
    response = HttpResponse(
        "\ufeff" + imports.export_csv(competition), content_type="text/csv; charset=utf-8"
    )
    word = imports.COLUMNS[competition.discipline]["file"]  # "-hold.csv", "-par.csv"
    response["Content-Disposition"] = f'attachment; filename="{competition.slug}-{word}.csv"'
    return response


def import_championship(request, championship: Championship):
    """`/desk/<championship>/import/`: which competition of the championship the sheet is
    for, then the same preview and confirm as the competition's own import page."""
    competitions = selectors.championship_competitions(championship=championship)
    by_pk = {c.pk: c for c in competitions}
    home = {"slug": championship.slug, "championship": championship}
    imports.preview_cleanup()
    chosen = None
    if request.method == "POST" and "token" in request.POST:
        stored = imports.preview_held(competitions, request.POST["token"], by=request.user)
        chosen = by_pk.get(stored.competition_id) if stored else None
        if chosen is None:
            messages.error(request, _("The uploaded file has expired; upload it again."))
            return redirect("desk:import", slug=championship.slug)
    elif request.method == "POST":
        chosen = by_pk.get(whole_number(request.POST.get("competition", ""), low=1))
    if chosen is not None:
        return _import(request, chosen, **home)
    form = ImportForm()
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        form.is_valid()
        form.add_error(None, _("Choose the competition the sheet is for."))
    return render(
        request,
        "competition/desk_import_championship.html",
        {"championship": championship, "competitions": competitions, "form": form},
    )


@staff_view(DESK, competition=True, championship=import_championship)
def import_teams(request, competition):
    """Upload -> preview (nothing written) -> confirm (all or nothing), or cancel."""
    return _import(request, competition, slug=competition.slug)


def _import(request, competition, *, slug: str, championship: Championship | None = None):
    """The import of a sheet into `competition`, on the page of `slug` (the competition's,
    or its championship's: then `championship`)."""
    context = {"competition": competition, "form": ImportForm(), "championship": championship}
    imports.preview_cleanup()
    if request.method == "POST" and "token" in request.POST:
        token = request.POST["token"]
        stored = imports.preview_find(competition, token, by=request.user)
        if not stored:
            messages.error(request, _("The uploaded file has expired; upload it again."))
            return redirect("desk:import", slug=slug)
        if "cancel" in request.POST:
            imports.preview_discard(stored)
            messages.info(request, _("The import is cancelled; nothing was saved."))
            return redirect("desk:import", slug=slug)
        content = bytes(stored.content)
        mapping = _import_mapping(request.POST)
        if "remap" in request.POST:  # the desk changed how a column is read: preview again
            plan = imports.preview(competition, content, stored.filename, mapping)
            imports.columns_remember(competition, plan.columns)
            context.update(preview=plan, token=token, filename=stored.filename)
            return _import_page(request, context)
        try:
            created = imports.confirm(
                competition,
                content,
                stored.filename,
                by=request.user,
                mapping=mapping,
                skip_problems="skip_problems" in request.POST,
            )
        except imports.ImportRefused as refused:
            imports.columns_remember(competition, refused.preview.columns)
            context.update(
                preview=refused.preview,
                token=token,
                refused=refused.message,
                filename=stored.filename,
            )
        except Refusal as refusal:
            messages.error(request, refusal.message)
            return redirect("desk:import", slug=slug)
        else:
            imports.preview_discard(stored)
            messages.success(
                request,
                entrant_text(competition, "Teams imported: %(count)s.", count=len(created)),
            )
            return redirect("desk:teams", slug=slug)
    elif request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        context["form"] = form
        if form.is_valid():
            upload = form.cleaned_data["file"]
            content = upload.read()
            remembered = imports.columns_recall(competition)
            try:
                context["preview"] = imports.preview(
                    competition, content, upload.name, remembered=remembered
                )
            except imports.ImportFileError as exc:
                form.add_error("file", str(exc))
            else:
                token = imports.preview_store(competition, content, upload.name, by=request.user)
                context.update(token=token, filename=upload.name)
    return _import_page(request, context)


def _import_mapping(data) -> dict[int, str]:
    """The preview's column selects (`col-3` = "member:2"), as the import's mapping."""
    mapping = {}
    for name, value in data.items():
        if name.startswith("col-"):
            index = whole_number(name[4:], low=0, high=10_000)
            if index is not None:
                mapping[index] = value
    return mapping


def _import_page(request, context):
    """The import page; with a preview, its columns with how each is read."""
    preview = context.get("preview")
    competition = context["competition"]
    if preview is not None:
        numbers = [int(c["key"].split(":")[1]) for c in preview.columns if c["key"]]
        # Numbered puzzlers up to the discipline's (an individual's one, a pair's two), or
        # the numbers the sheet's own columns name.
        width = member_limit(competition.discipline) or 6
        choices = imports.mapping_choices(max([width, *numbers]), competition.discipline)
        for column in preview.columns:
            column["choices"] = choices
    context["columns"] = imports.COLUMNS[competition.discipline]
    return render(request, "competition/desk_import.html", context)


# The example sign-up sheet of each discipline, in the columns the import reads.
EXAMPLES = {
    Discipline.INDIVIDUAL: (
        "navn;bord;alder;ledsagende voksen;kategorier;betalt\r\n"
        "Anne Jensen;1;44;;senior;ja\r\n"
        "Ida Jensen;2;12;Anne Jensen;ung;ja\r\n"
        "Søren Nielsen;3;;;gæst;\r\n"
    ),
    Discipline.PAIR: (
        "par;bord;deltager 1;deltager 1 under 15;deltager 1 ledsagende voksen;deltager 2;"
        "deltager 2 under 15;deltager 2 ledsagende voksen;kategorier;betalt\r\n"
        "Anne og Ida;1;Anne Jensen;;;Ida Jensen;x;Anne Jensen;ung;ja\r\n"
        "Brikkebrødrene;2;Søren Nielsen;;;Ole Nielsen;;;;\r\n"
    ),
    Discipline.TEAM: (
        "hold;bord;medlem 1;medlem 1 under 15;medlem 1 ledsagende voksen;medlem 2;"
        "medlem 2 under 15;medlem 2 ledsagende voksen;betalt\r\n"
        "Kantsøgerne;1;Anne Jensen;;;Ida Jensen;x;Anne Jensen;ja\r\n"
        "Brikkebanden;2;Søren Nielsen;;;Line Nielsen;;;\r\n"
    ),
}


@staff_view(DESK)
def import_example(request, slug):
    """The example file, in the words of the competition's discipline (a team's without one)."""
    found = Competition.objects.filter(slug=slug).values_list("discipline", flat=True).first()
    text = EXAMPLES.get(found or Discipline.TEAM, EXAMPLES[Discipline.TEAM])
    response = HttpResponse("\ufeff" + text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="tilmeldinger-eksempel.csv"'
    return response
