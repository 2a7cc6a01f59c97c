# Detail routes use DRF routers' default lookup pattern, [^/.]+.
from django.urls import path, re_path

from . import views

urlpatterns = [
    path("api/v1/agencies/for_vacancies/", views.AgenciesForVacancies.as_view()),
    re_path(r"^api/v1/agencies/for_vacancies/(?P<pk>[^/.]+)/$", views.AgencyInstance.as_view()),
    path("api/v1/vacancies/", views.VacancyList.as_view()),
    re_path(r"^api/v1/vacancies/(?P<pk>[^/.]+)/$", views.VacancyInstance.as_view()),
    path("api/v1/competitions/", views.CompetitionList.as_view()),
    re_path(r"^api/v1/competitions/(?P<pk>[^/.]+)/$", views.CompetitionInstance.as_view()),
]
