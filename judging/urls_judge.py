from django.urls import path

from judging import views_hall, views_judge

app_name = "judge"
urlpatterns = [
    path("sw.js", views_judge.worker, name="worker"),
    path("<slug:slug>/", views_judge.board, name="board"),
    path("<slug:slug>/board/", views_judge.board_fragment, name="board_fragment"),
    path("<slug:slug>/sheets/", views_hall.paper_sheets, name="paper_sheets"),
]
