"""The organiser's rules for /rules/: the Danish original (last updated 2026-10-01) and the
English rendering of RULES.md, one number per rule (R1-R20, P1, P2). The Danish text wins
where the two disagree."""

UPDATED = (2026, 10, 1)

RULES = [
    (
        "R1",
        "Tilskuere er velkomne på tilskuerpladserne og i caféen. I konkurrenceområdet er man "
        "velkommen i de store gange, men vi gør opmærksom på, at der skal vises hensyn til dem, "
        "som pusler, og til de frivillige.",
        "Spectators are welcome in the spectator seats and the café; in the competition area "
        "they may walk the main aisles but must respect the puzzlers and the volunteers.",
    ),
    (
        "R2",
        "Deltagerne skal være til stede senest 15 minutter før konkurrencens start.",
        "Participants must be present at the latest 15 minutes before the competition starts.",
    ),
    (
        "R3",
        "Deltagere under 15 år er tilladt ledsaget af en voksen.",
        "Participants under 15 are allowed when accompanied by an adult.",
    ),
    (
        "R4",
        "Før konkurrencen starter og uret sættes i gang, må puslespillene ikke tages ud af "
        "indpakningen. Forseglingen på puslespillene er fjernet af arrangørerne.",
        "Before the competition starts and the clock runs, the puzzles must not be taken out "
        "of their wrapping. The organisers have removed the seals.",
    ),
    (
        "R5",
        "Frivillige dommere overvåger konkurrencen og registrerer tiderne for de deltagende "
        "hold. Hvis et hold er tæt på at færdiggøre et puslespil, skal et holdmedlem række "
        "armen i vejret for at gøre dommerne opmærksomme, så tiden kan registreres.",
        "Volunteer judges supervise and register the times of the teams. When a team is close "
        "to finishing a puzzle, a member raises an arm so a judge can come and register the "
        "time.",
    ),
    (
        "R6",
        "Når et puslespil er færdiggjort, og en dommer har registreret tiden, skal "
        "puslespillet fjernes fra bordet, inden det næste puslespil påbegyndes.",
        "When a puzzle is finished and a judge has registered the time, it must be removed "
        "from the table before the next puzzle is started.",
    ),
    (
        "R7",
        "Puslespillene skal lægges i den fastsatte rækkefølge, ét ad gangen. Det er ikke "
        "tilladt at springe et puslespil over.",
        "The puzzles are done in the fixed order, one at a time. Skipping a puzzle is not allowed.",
    ),
    (
        "R8",
        "Hvis der mangler brikker ved afslutningen af et puslespil, noteres dette, og det "
        "trækkes fra i det samlede antal lagte brikker ved konkurrencens afslutning. Mangler "
        "der 2 eller flere brikker, der sidder ved siden af hinanden, betragtes det som en "
        "produktionsfejl, og de trækkes ikke fra.",
        "Pieces missing when a puzzle is finished are noted and subtracted from the total of "
        "placed pieces at the end. If 2 or more pieces that sit next to each other are "
        "missing, it counts as a production fault and they are not subtracted.",
    ),
    (
        "R9",
        "Hvis det sidste puslespil ikke færdiggøres fuldt ud, tæller dommeren de lagte eller "
        "ulagte brikker og noterer antallet af lagte brikker. Kun brikker, der sidder i "
        "grupper på mindst 3 korrekt samlede brikker, tælles med. Løse brikker og par af to "
        "brikker tælles ikke.",
        "If the last puzzle is not fully finished, the judge counts the placed or the "
        "unplaced pieces and notes the number of placed pieces. Only pieces in groups of at "
        "least 3 correctly joined pieces count; loose pieces and pairs do not.",
    ),
    (
        "R10",
        "Når tiden stopper, skal al puslen ophøre. Holdet samler derefter de ikke lagte "
        "brikker i bunker af 10, så dommerne hurtigt kan tælle dem. Der må ikke sættes flere "
        "brikker sammen, og de lagte brikker må ikke røres.",
        "When time stops, all puzzling stops. The team gathers the unplaced pieces in piles "
        "of 10 so the judges can count them quickly. No more pieces may be joined and placed "
        "pieces must not be touched.",
    ),
    (
        "R11",
        "Vinderen er det hold, der har lagt flest brikker. Ved ligestilling går det hold "
        "forrest, der først fik lagt sit sidste hele puslespil færdigt.",
        "The winner is the team that has placed the most pieces. On a tie, the team that "
        "finished its last whole puzzle first ranks ahead.",
    ),
    (
        "R12",
        "Sorteringsbakker eller lignende må anvendes som hjælpemidler. Holdene må medbringe "
        "op til 6 bakker i en størrelse af max A3. Låg- eller æskeholdere og forstørrelsesglas "
        "er også tilladt.",
        "Sorting trays or similar may be used: up to 6 trays of at most A3 per team. Lid or "
        "box holders and magnifiers are allowed too.",
    ),
    (
        "R13",
        "Hovedtelefoner er tilladt, så længe de ikke forstyrrer andre deltagere.",
        "Headphones are allowed as long as they do not disturb other participants.",
    ),
    (
        "R14",
        "Vis hensyn til de andre hold: hold en almindelig samtaletone, og hold jer inden for "
        "jeres eget bord. Et hold, der efter gentagne advarsler fra dommerne forstyrrer andre, "
        "kan diskvalificeres.",
        "Respect the other teams: normal conversation level, stay within your own table. A "
        "team that keeps disturbing others after repeated warnings from the judges can be "
        "disqualified.",
    ),
    (
        "R15",
        "Bordkortene med holdoplysninger må ikke fjernes fra bordene.",
        "The table cards with team information must not be removed from the tables.",
    ),
    (
        "R16",
        "Genstande, der ændrer bordets højde eller opstilling, er ikke tilladt. Desuden er "
        "ekstra lyskilder og skabeloner, der gengiver puslespilproducentens motiv, ikke "
        "tilladt. Plakater med motivet, der følger med i æsken, må naturligvis gerne bruges.",
        "Items that change the table's height or layout are not allowed, nor extra light "
        "sources or templates that reproduce the maker's motif. Posters of the motif that "
        "come in the box may be used.",
    ),
    (
        "R17",
        "Der må højst være 4 puslere ved bordet ad gangen. Holdet må skifte puslere, når det "
        "ønsker det, men holdmedlemmer, der ikke pusler, skal holde sig mindst 1 meter fra "
        "bordet.",
        "At most 4 puzzlers at the table at a time. A team may swap puzzlers whenever it "
        "likes; members not puzzling keep at least 1 metre from the table.",
    ),
    (
        "R18",
        "Enhver form for hjælp under konkurrencen fra andre end de aktive holdmedlemmer kan "
        "medføre diskvalifikation af holdet.",
        "Any help during the competition from others than the active team members may lead "
        "to the team's disqualification.",
    ),
    (
        "R19",
        "Alle puslespil, der anvendes i konkurrencen, tilhører holdene efter konkurrencens "
        "afslutning.",
        "All puzzles used in the competition belong to the teams afterwards.",
    ),
    (
        "R20",
        "Dommernes afgørelser er bindende. Indsigelser skal fremsættes ved skranken, inden "
        "præmierne uddeles.",
        "The judges' decisions are binding. Objections must be made at the desk before the "
        "prizes are handed out.",
    ),
]

# (id, Danish heading, English heading, Danish paragraphs, English paragraphs)
NOTICES = [
    (
        "P1",
        "Foto og video",
        "Photo and video",
        [
            "Arrangøren gør opmærksom på, at der vil blive taget billeder og videooptagelser "
            "under arrangementet, og at disse kan blive offentliggjort på internettet eller "
            "andre sociale medier. Ved deltagelse i dette offentlige arrangement giver "
            "deltagerne afkald på deres ret til eget billede."
        ],
        [
            "Photos and video are taken and may be published; by taking part, participants "
            "give up the right to their own image."
        ],
    ),
    (
        "P2",
        "Ansvar",
        "Liability",
        [
            "Arrangøren påtager sig intet ansvar for bortkomst eller tyveri af genstande af "
            "nogen art.",
            "I tilfælde af aflysning eller udsættelse af konkurrencen af årsager uden for "
            "arrangørens kontrol er arrangøren ikke ansvarlig for udgifter afholdt af "
            "deltagerne, bortset fra de betalte tilmeldingsgebyrer.",
        ],
        [
            "The organiser is not liable for lost or stolen items.",
            "On cancellation or postponement for reasons outside the organiser's control, "
            "only paid entry fees are refunded.",
        ],
    ),
]


# A competition's ranking profile (issue 34; `Competition.ranking`): (id, Danish heading,
# English heading, Danish rules, English rules). The pure rules rank by it
# (`puzzle_rules` `standings(profile=...)`).
RANKINGS = [
    (
        "dm",
        "Danske regler (DM)",
        "Danish rules (DM)",
        [
            "Vinderen er det hold, der har lagt flest brikker (R11). Enkelte manglende brikker "
            "trækkes fra de lagte brikker; mangler 2 eller flere brikker, der sidder ved siden "
            "af hinanden, er det en produktionsfejl, og de trækkes ikke fra (R8).",
            "Ved samme antal brikker placeres det hold først, der blev færdigt med sit sidste "
            "hele puslespil først. Er også det ens, deler holdene placeringen.",
        ],
        [
            "The winner is the team that has placed the most pieces (R11). Lone missing pieces "
            "are subtracted from the placed pieces; 2 or more missing pieces that sit next to "
            "each other are a production fault and are not subtracted (R8).",
            "On equal pieces the team that finished its last whole puzzle first ranks ahead. "
            "Still equal, the teams share the place.",
        ],
    ),
    (
        "wjpc",
        "Verdensmesterskabets regler (WJPC)",
        "World Championship rules (WJPC)",
        [
            "Et hold, der har lagt alle puslespil færdige, placeres efter sin tid: tiden for "
            "det sidste hele puslespil med 10 sekunder lagt til for hver enkelt manglende "
            "brik. Mangler 2 eller flere brikker, der sidder ved siden af hinanden, er det en "
            "produktionsfejl, og der lægges ingen tid til (som R8).",
            "Alle hold, der blev færdige, placeres foran alle hold, der ikke blev færdige.",
            "Hold, der ikke blev færdige, placeres efter antal lagte brikker (kun grupper på "
            "mindst 3 brikker, som R9); samme antal brikker deler placeringen.",
            "Sådan rangerer World Jigsaw Puzzle Championship, UK Jigsaw Puzzle Association og "
            "MySpeedPuzzlings officielle resultater.",
        ],
        [
            "A team that finished every puzzle ranks by its time: the time of its last whole "
            "puzzle, with 10 seconds added for each lone missing piece. 2 or more missing "
            "pieces that sit next to each other are a production fault: no time is added (as "
            "R8).",
            "Every team that finished ranks before every team that did not.",
            "Teams that did not finish rank by pieces placed (only groups of at least 3 "
            "pieces, as R9); equal pieces share the place.",
            "This is how the World Jigsaw Puzzle Championship, the UK Jigsaw Puzzle "
            "Association and MySpeedPuzzling's official results rank.",
        ],
    ),
]


def ranking_in(profile: str, language: str) -> dict:
    """One ranking profile's rules in "da" or "en": {id, heading, paragraphs}."""
    english = language[:2] == "en"
    for i, hda, hen, pda, pen in RANKINGS:
        if i == profile:
            return {
                "id": i,
                "heading": hen if english else hda,
                "paragraphs": pen if english else pda,
            }
    raise KeyError(profile)


def rules_in(language: str) -> dict:
    """The rules and notices in "da" or "en" (anything else: Danish)."""
    english = language[:2] == "en"
    return {
        "rules": [{"id": i, "text": en if english else da} for i, da, en in RULES],
        "notices": [
            {"id": i, "heading": hen if english else hda, "paragraphs": pen if english else pda}
            for i, hda, hen, pda, pen in NOTICES
        ],
        "rankings": [ranking_in(i, language) for i, *_texts in RANKINGS],
    }
