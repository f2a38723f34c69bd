from django.urls import path

from judging import views_judge

app_name = "judge"
urlpatterns = [
    path("<slug:slug>/", views_judge.board, name="board"),
]
