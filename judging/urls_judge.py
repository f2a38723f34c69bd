"""The judge's pages (judge and admin roles, checked per view), mounted under /judge/."""

from django.urls import path

from judging import views_judge as v

app_name = "judge"
urlpatterns = [
    path("sw.js", v.worker, name="worker"),
    path("<slug:slug>/", v.board, name="board"),
    path("<slug:slug>/board/", v.board_fragment, name="board_fragment"),
    # Championships and competitions share `<slug>/`: the same views answer a championship's
    # slug with its tablet (`v.championship_board`); these names are for reverse().
    path("<slug:slug>/", v.board, name="championship"),
    path("<slug:slug>/board/", v.board_fragment, name="championship_board"),
    path("<slug:slug>/sheets/", v.paper_sheets, name="paper_sheets"),
]
